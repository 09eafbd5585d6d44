"""``manage.py eval PATH --provider NAME [--json] [--strict]``: score a provider on a corpus.

Plays every conversation of the corpus (``tests/corpus/``) through the real runtime on a fresh,
rolled-back database state and prints, per message and in total, how many passed, failed, were
not understood, met a provider failure (counted apart, by kind) and were unsafe, and, for a provider that
reports usage, its model calls per turn and prompt and cached tokens per call. Exits non-zero when any
item is unsafe, a conversation could not be played, or most items met a provider failure (a broken
endpoint, not a model that misread); with ``--strict``, also when any item did not pass. The format and
the figures are in ``docs/evaluation.md``.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from conversations.evaluation import CorpusError, evaluation_run
from conversations.providers.registry import provider_names


class Command(BaseCommand):
    help = "Play a corpus of conversations through the runtime with a provider and score every message."

    def add_arguments(self, parser):
        parser.add_argument("path", help="a corpus folder (one JSON file per conversation) or one JSON file")
        parser.add_argument("--provider", default="local", choices=provider_names(),
                            help="the provider under test (default: local)")
        parser.add_argument("--json", action="store_true", dest="as_json",
                            help="print the whole report as one JSON object")
        parser.add_argument("--strict", action="store_true", help="also exit non-zero when any item did not pass")
        parser.add_argument("--confirm-unsure", action="store_true", dest="confirm_unsure",
                            help="confirm the cards a provider shows when unsure of its reading, where the corpus "
                                 "clicks nothing (measures whether those cards were right; wrong ones score unsafe)")

    def handle(self, *args, path: str, provider: str, as_json: bool, strict: bool, confirm_unsure: bool = False,
               **options):
        try:
            report = evaluation_run(path=Path(path), provider=provider, confirm_unsure=confirm_unsure)
        except CorpusError as exc:
            raise CommandError(f"corpus: {exc}") from exc
        totals = report.totals()
        if as_json:
            self.stdout.write(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
        else:
            self._print(report)
        if totals["errors"]:
            raise CommandError(f"{totals['errors']} conversation(s) could not be played (see above)")
        if totals["unsafe"]:
            raise CommandError(f"{totals['unsafe']} unsafe item(s): effects the corpus did not expect")
        if totals["items"] and totals["provider_failures"] * 2 > totals["items"]:
            raise CommandError(f"{totals['provider_failures']} of {totals['items']} items met a provider failure "
                               f"({_kinds(totals)}): the endpoint, not the model, is the problem")
        if strict and (totals["failed"] or totals["not_understood"] or totals["provider_failures"]):
            raise CommandError(f"{totals['failed']} failed, {totals['not_understood']} not understood, "
                               f"{totals['provider_failures']} provider failure(s)")

    def _print(self, report) -> None:
        for conversation in report.conversations:
            mark = "PASS" if conversation.passed else "FAIL"
            good = sum(1 for i in conversation.items if i.verdict == "passed" and not i.unsafe)
            self.stdout.write(f"{mark} {conversation.file}: {conversation.name} ({good}/{len(conversation.items)})")
            if conversation.error:
                self.stdout.write(f"     error: {conversation.error}")
            for item in conversation.items:
                if item.verdict == "passed" and not item.unsafe:
                    continue
                flag = " UNSAFE" if item.unsafe else ""
                kind = f" ({item.provider_failure})" if item.provider_failure else ""
                self.stdout.write(f"  #{item.index} {item.verdict}{kind}{flag}: {item.text!r}")
                for reason in item.unsafe_reasons:
                    self.stdout.write(f"     unsafe: {reason}")
                for problem in item.problems:
                    self.stdout.write(f"     {problem}")
                if item.answers:
                    self.stdout.write(f"     answers: {item.answers}")
        parts = report.parts()
        if len(parts) > 1:
            self.stdout.write("")
            for name, totals in parts.items():
                self.stdout.write(f"  {name}: {self._line(totals)}")
        self.stdout.write(f"\n{report.provider}: {self._line(report.totals())}; {report.totals()['seconds']} s")

    @staticmethod
    def _line(totals) -> str:
        line = (f"{totals['conversations']} conversations ({totals['conversations_passed']} passed), "
                f"{totals['items']} items: {totals['passed']} passed, {totals['failed']} failed, "
                f"{totals['not_understood']} not understood, {totals['unsafe']} unsafe")
        if totals["provider_failures"]:
            line += f", {totals['provider_failures']} provider failures ({_kinds(totals)})"
        if "calls_per_turn" in totals:
            line += f"; {totals['calls_per_turn']} model calls per turn (at most {totals['max_calls_per_turn']})"
        if "prompt_tokens_per_call" in totals:
            cached = totals["cached_tokens_per_call"]
            line += (f", {totals['prompt_tokens_per_call']} prompt tokens per call "
                     f"({'cached: not reported' if cached is None else f'{cached} cached'})")
        return line


def _kinds(totals) -> str:
    return ", ".join(f"{kind} {n}" for kind, n in totals["provider_failure_kinds"].items())
