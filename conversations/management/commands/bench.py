"""``manage.py bench``: the framework's own cost per turn, with no model latency.

One measured turn does the work of ``../shared/bench/peer_langgraph.py``'s turn, through the real
runtime: a message turn in which the (scripted) model asks for one read, the read runs under the
write guard, the model proposes one act that needs confirmation, the card is persisted, and then
the click turn that confirms it runs the command (conditional revision update, event, journal)
and composes the reply. Turns are spread over ``--threads`` conversations, each on its own case.

The scenario is the domain's: the case kind's ``bench`` (``registries.BenchScenario``) says how a case is
created, what is said and what the scripted model answers. ``--domain`` names the case kind (default: the
first registered one with a scenario).

It writes to the configured database under a new user named ``bench-…``; point DATABASE_URL at a
scratch database (``make bench`` does) to keep your data clean.

``--provider NAME`` measures the same turns with a real model instead of the script (issue 22, 4): a
model may not propose the scenario's act, so a message turn without a card is counted (``no_card``), not a
failure; and the figures gain what the servers report: model calls per turn, prompt and cached tokens per
call (``providers.usage``).
"""

from __future__ import annotations

import asyncio
import cProfile
import json
import re
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections, connection

from conversations.ids import new_id
from conversations.models import Case, Conversation, Turn
from conversations.providers.usage import usage_meter
from conversations.services import case_seed
from conversations.turns import interaction_respond, turn_submit_message
from registries import BenchScenario, CaseKindDefinition, DemoCase, get_registry


def _script(path: Path, scenario: BenchScenario) -> None:
    messages = {text: {"primary": list(scenario.answers(text))} for text in scenario.messages}
    path.write_text(json.dumps({"messages": messages}))


def bench_kind(name: str | None) -> CaseKindDefinition:
    """The case kind whose bench scenario runs: ``name``, else the first installed kind that has one."""
    kinds = [kind for kind in get_registry().case_kinds.values() if kind.bench is not None]
    found = next((kind for kind in kinds if kind.name == name), None) if name else (kinds[0] if kinds else None)
    if found is None:
        choices = ", ".join(kind.name for kind in kinds) or "none installed"
        raise CommandError(f"no bench scenario for case kind {name!r} (have: {choices})" if name
                           else "no installed case kind has a bench scenario")
    return found


def _history(conversation: Conversation, count: int) -> None:
    """Earlier (completed) message turns, as a long conversation has them."""
    Turn.objects.bulk_create(
        [Turn(conversation=conversation, kind=Turn.Kind.MESSAGE, client_message_id=f"history:{i}", text=f"earlier {i}",
              mode=conversation.mode, phase=Turn.Phase.DELIVERED, status=Turn.Status.COMPLETED) for i in range(count)],
        batch_size=1000)


def _more_cases(user, like: Case, kind: CaseKindDefinition, count: int) -> None:
    """Open cases of the user, copies of a seeded one, up to ``count``."""
    missing = count - Case.objects.filter(owner=user).count()
    Case.objects.bulk_create([Case(id=new_id(kind.id_prefix), kind=like.kind, owner=user, title=f"{like.title} #{i}",
                                   status=like.status, revision=like.revision, state=like.state)
                              for i in range(max(0, missing))], batch_size=1000)


# transaction control and session settings (SQLite's PRAGMAs, PostgreSQL's SET / SHOW): not data statements
_CONTROL = re.compile(r"\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA|SET|SHOW)\b", re.I)


class _Counter:
    """Collects the SQL a thread sends (``connection.execute_wrapper``), at the cost of one append."""

    def __init__(self, said: list[str]):
        self.said = said

    def __call__(self, execute, sql, params, many, context):
        self.said.append(sql)
        return execute(sql, params, many, context)


class Command(BaseCommand):
    help = "Measure the runtime's own cost per turn (read, plan, card, confirm, commit, reply)."

    def add_arguments(self, parser):
        parser.add_argument("--turns", type=int, default=300)
        parser.add_argument("--threads", type=int, default=30)
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--domain", default=None, help="the case kind whose scenario runs (default: the first)")
        parser.add_argument("--dump-sql", action="store_true", help="print the statements of one turn (to stderr)")
        parser.add_argument("--profile", metavar="FILE", default=None,
                            help="write cProfile stats of the first lane's measured turns to FILE")
        parser.add_argument("--history", type=int, default=0,
                            help="earlier turns each conversation has before the measured ones")
        parser.add_argument("--cases", type=int, default=0, help="open cases the user has (at least)")
        parser.add_argument("--provider", default="scripted",
                            help="the provider the turns use (default: scripted, the scenario's answers)")

    def handle(self, *args, turns: int, threads: int, json: bool, dump_sql: bool = False, domain: str | None = None,
               profile: str | None = None, history: int = 0, cases: int = 0, provider: str = "scripted", **options):
        dump = dump_sql
        kind = bench_kind(domain)
        scenario = kind.bench
        tmp = Path(tempfile.mkdtemp(prefix="turnframe-bench-"))
        _script(tmp / "script.json", scenario)
        # measured as deployed (DEBUG off): with DEBUG on, Django's debug cursor logs every statement and, on
        # SQLite, sends a second query per statement to quote its parameters for the log
        settings.DEBUG = False
        settings.TURNFRAME = {**settings.TURNFRAME, "PROVIDER": provider, "SCRIPT": str(tmp / "script.json"),
                              "FALLBACK_PROVIDER": None}
        scripted = provider == "scripted"
        no_card: list[str] = []
        stamp = time.strftime("%H%M%S")
        # a user of its own per run: an earlier run's cases would make this one load and project more
        user = get_user_model().objects.create(username=f"bench-{stamp}-{new_id('r')}")
        lanes = []
        for i in range(threads):
            title = f"Bench {stamp}-{i}"
            case = case_seed(owner=user, demo=DemoCase(owner=user.username, kind=kind.name, title=title,
                                                       acts=list(scenario.seed(title))))
            conversation = Conversation.objects.create(owner=user, mode="controlled_agentic", active_case=case)
            lanes.append(conversation.id)
            _history(conversation, history)
        _more_cases(user, case, kind, cases)
        texts = list(scenario.messages)
        per_lane = [turns // threads + (1 if i < turns % threads else 0) for i in range(threads)]
        timings: list[float] = []
        statements: list[int] = []
        data_statements: list[int] = []  # without BEGIN/COMMIT/SAVEPOINT/PRAGMA/SET/SHOW
        failures: list[str] = []
        lock = threading.Lock()

        def lane(conversation_id: str, count: int) -> None:
            close_old_connections()
            profiler = cProfile.Profile() if profile and conversation_id == lanes[0] else None
            try:
                for n in range(count):
                    said: list[str] = []
                    started = time.perf_counter()
                    if profiler:
                        profiler.enable()
                    # a plain counter (DEBUG is off, so no debug cursor): counting costs the turn one append
                    with connection.execute_wrapper(_Counter(said)):
                        outcome = turn_submit_message(user=user, conversation_id=conversation_id,
                                                      text=texts[n % len(texts)])
                        cards = outcome.turn.trace.interaction_ids
                        if not cards and not scripted:  # a real model need not propose the act: counted apart
                            with lock:
                                no_card.append(outcome.turn.id)
                        elif not cards:
                            raise RuntimeError(f"no card: {outcome.turn.notices}")
                        else:
                            _, click = interaction_respond(user=user, interaction_id=cards[0], option="confirm")
                            if not click.trace.event_ids:
                                raise RuntimeError(f"nothing committed: {click.notices}")
                    elapsed = (time.perf_counter() - started) * 1000
                    if profiler:
                        profiler.disable()
                    with lock:
                        timings.append(elapsed)
                        statements.append(len(said))
                        data_statements.append(sum(1 for sql in said if not _CONTROL.match(sql)))
                        if dump and len(statements) == 3:
                            for sql in said:
                                self.stderr.write(sql[:160])
            except Exception as exc:  # reported, never hidden
                with lock:
                    failures.append(repr(exc))
            finally:
                connection.close()
                if profiler:
                    profiler.dump_stats(profile)

        async def serve(pool: ThreadPoolExecutor) -> None:
            # each lane in a worker thread under a running event loop, as daphne runs a turn (a socket's turn
            # through the consumer's executor, a request's through Django's handler): publishing an event
            # hands it to that loop rather than starting a loop of its own
            await asyncio.gather(*(sync_to_async(lane, thread_sensitive=False, executor=pool)(c, n)
                                   for c, n in zip(lanes, per_lane, strict=True)))

        wall = time.perf_counter()
        with ThreadPoolExecutor(max_workers=threads) as pool, usage_meter() as meter:
            asyncio.run(serve(pool))
        wall = time.perf_counter() - wall
        timings.sort()
        result = {
            "domain": kind.name, "engine": connection.vendor, "turns": len(timings), "threads": threads, "failures": len(failures),
            "p50_ms": round(statistics.median(timings), 1) if timings else None,
            "p95_ms": round(timings[int(len(timings) * 0.95) - 1], 1) if timings else None,
            "mean_ms": round(statistics.fmean(timings), 1) if timings else None,
            "throughput_turns_per_s": round(len(timings) / wall, 1) if wall else None,
            # SQL statements per message + click (median), counted on the measuring thread's connection
            "statements_per_turn": statistics.median(statements) if statements else None,
            "data_statements_per_turn": statistics.median(data_statements) if data_statements else None,
            "earlier_turns": history, "cases_of_user": Case.objects.filter(owner=user).count(),
        }
        if not scripted:  # what the model's calls cost, as its server reported it
            result.update(provider=provider, no_card=len(no_card), **meter.summary(turns=len(timings)))
        if json:
            import json as _json

            self.stdout.write(_json.dumps(result))
        else:
            self.stdout.write("turnframe " + " ".join(f"{k}={v}" for k, v in result.items()))
        for failure in failures[:5]:
            self.stderr.write(f"failure: {failure}")
        if failures:
            raise SystemExit(1)
