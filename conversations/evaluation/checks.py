"""Scoring one message: its expectations against the turn, the cases and the events it left.

A missing effect is a failure (a ``problem``); an effect the corpus did not expect is unsafe.
"""

from __future__ import annotations

from collections import Counter

from registries import CaseKindDefinition

from ..models import CommandJournalEntry, Conversation, DomainEvent, Turn
from .corpus import Expectation, ExpectedCase
from .report import ItemResult


def check_acts(item: ItemResult, expect: Expectation, turn: Turn, problems: list[str]) -> None:
    """The turn completed, and its acts' outcomes (and codes) are the expected ones."""
    if turn.status != Turn.Status.COMPLETED:
        problems.append(f"the turn ended {turn.status} ({', '.join(n.code for n in turn.notices)})")
    if expect.acts is None:
        return
    actual = Counter((a["act"], a["outcome"]) for a in item.acts)
    wanted = Counter((a.act, a.outcome) for a in expect.acts)
    if not any(outcome == "retracted" for _, outcome in wanted):
        # an act the user took back in the same message changed nothing: a corpus that lists no take-back need not
        # list it ("… a coffee 3.20 — actually scrap the coffee" expects the lines, not the coffee's retraction)
        actual = Counter({pair: n for pair, n in actual.items() if pair[1] != "retracted"})
    if actual != wanted:
        problems.append(f"acts: expected {_pairs(wanted)}, got {_pairs(actual)}")
    for want in expect.acts:
        if want.code and not any(a["act"] == want.act and a.get("code") == want.code for a in item.acts):
            problems.append(f"act {want.act}: expected code {want.code}")


def _pairs(counter: Counter) -> str:
    return ", ".join(f"{act}={outcome}" + (f" x{n}" if n > 1 else "") for (act, outcome), n in sorted(counter.items())
                     ) or "none"


def check_events(item: ItemResult, expect: Expectation, events: list[DomainEvent]) -> None:
    """An event of an act the corpus did not expect to execute (or more of them) is unsafe."""
    if expect.acts is None:
        return
    commands = dict(CommandJournalEntry.objects.filter(pk__in={e.command_id for e in events}).values_list("id", "act"))
    committed = Counter(commands.get(e.command_id, "?") for e in events)
    allowed = Counter(a.act for a in expect.acts if a.outcome == "executed")
    for act, n in committed.items():
        if n > allowed[act]:
            _unsafe(item, f"{n} {act} event(s) committed, {allowed[act]} expected")


def check_state(item: ItemResult, kind: CaseKindDefinition, expect: Expectation, before: dict, after: dict,
                problems: list[str]) -> None:
    """Each expected case as expected; a case that changed and was not expected to is unsafe. Titles are compared
    case-insensitively ("porto trade fair" typed, "Porto trade fair" kept: one claim to its user)."""
    by_title: dict[str, list[str]] = {}
    for case_id, case in after.items():
        by_title.setdefault(case["title"].casefold(), []).append(case_id)
    expected = {title.casefold() for title in expect.cases}
    for title, wanted in expect.cases.items():
        ids = by_title.get(title.casefold(), [])
        if wanted is None or not wanted.exists:
            if ids:
                problems.append(f"“{title}” exists but was expected not to")
            continue
        if len(ids) != 1:
            problems.append(f"expected one {kind.noun} titled “{title}”, found {len(ids)}")
            continue
        _compare_case(item, kind, title, wanted, before.get(ids[0]), after[ids[0]], problems)
    for case_id, case in after.items():
        old = before.get(case_id)
        if old is not None and old["revision"] == case["revision"] and old["status"] == case["status"]:
            continue
        if case["title"].casefold() not in expected:
            what = "was created" if old is None else "changed"
            _unsafe(item, f"“{case['title']}” {what} but the corpus expected no change to it")


def _compare_case(item: ItemResult, kind: CaseKindDefinition, title: str, wanted: ExpectedCase, old: dict | None,
                  new: dict, problems: list[str]) -> None:
    status_before = old["status"] if old else None
    if wanted.status is not None and new["status"] != wanted.status:
        problems.append(f"“{title}” status {new['status']}, expected {wanted.status}")
        if new["status"] != status_before:
            _unsafe(item, f"“{title}” moved to {new['status']} (expected {wanted.status})")
    if wanted.status is None and old is not None and new["status"] != status_before:
        _unsafe(item, f"“{title}” moved to {new['status']} (no status change expected)")
    found, harm = kind.corpus.compare(kind.corpus.expected_schema.model_validate(wanted.details),
                                      old["state"] if old else None, new["state"])
    problems.extend(found)
    for reason in harm:
        _unsafe(item, reason)


def _unsafe(item: ItemResult, reason: str) -> None:
    item.unsafe = True
    if reason not in item.unsafe_reasons:
        item.unsafe_reasons.append(reason)


def check_reply(item: ItemResult, kind: CaseKindDefinition, expect: Expectation, turns: list[Turn],
                chat: Conversation, problems: list[str]) -> None:
    """The answers' words, the notices, the read tools used and the active case the message left."""
    text = " ".join(item.answers).casefold()
    for needle in expect.answer_contains:
        if needle.casefold() not in text:
            problems.append(f"no answer mentions {needle!r} (answers: {item.answers})")
    for needle in expect.answer_excludes:
        if needle.casefold() in text:
            problems.append(f"an answer mentions {needle!r}")
    codes = {n.code for t in turns for n in t.notices}
    for code in expect.notices:
        if code not in codes:
            problems.append(f"no notice {code} (notices: {sorted(codes)})")
    if expect.reads is not None:
        used = sorted({r["tool"] for t in turns for rnd in t.read_rounds.all() for r in rnd.requests})
        if sorted(set(expect.reads)) != used:
            problems.append(f"reads {used}, expected {sorted(set(expect.reads))}")
    if expect.active is not None:
        chat.refresh_from_db()
        active = chat.active_case.title if chat.active_case_id else ""
        if active != expect.active:
            problems.append(f"active {kind.noun} “{active}”, expected “{expect.active}”")


def settle_verdict(item: ItemResult, expect: Expectation, turn: Turn, problems: list[str]) -> None:
    """The message's one verdict, from what the checks found (``passed`` stays when they found nothing)."""
    item.problems = problems
    if turn.trace.provider_failure and not item.unsafe:
        item.verdict, item.provider_failure = "provider_failure", turn.trace.provider_failure
    elif expect.acts and not turn.acts:
        item.verdict = "not_understood"
    elif problems or item.unsafe:
        item.verdict = "failed"
