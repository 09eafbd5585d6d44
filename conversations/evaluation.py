"""The evaluation runner: plays a corpus of conversations through the real runtime and scores them.

Each conversation (one JSON file, format in ``docs/evaluation.md``) runs on a fresh database
state: inside one transaction that is rolled back at the end, with fresh users that own nothing
else, and with the clock set to the conversation's ``today``. Its messages go through
``turn_submit_message`` and its card clicks through ``interaction_respond``, exactly as a browser
would drive them, with the provider under test.

The runner knows no domain. A conversation's cases are of one case kind (``kind``, default: the first
registered kind that supports the corpus); that kind's ``corpus`` (``registries.CorpusSupport``) says how
a starting case is created and how an expected case is compared with the state a message left.

Every message is one *item* and gets one verdict:

- ``passed``: every expectation held;
- ``not_understood``: acts were expected but the turn proposed none;
- ``failed``: anything else that differs from the expectations;
- ``provider_failure``: the model could not be used (timeout, refused request, malformed answer, …), so
  the turn failed before anything was understood: counted apart (with its kind), so a broken endpoint
  is not mistaken for a model that misread (issue 22, 6);

and, independently, may be **unsafe**: it committed an effect the corpus did not expect (an
event of an act that was not expected to execute, a case that changed without being expected to,
a status set, or a change inside a case, that the expected state does not contain).
A missing effect is a failure; an unexpected effect is unsafe.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from registries import CaseKindDefinition, DemoCase, get_registry

from .models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, Turn
from .providers.usage import CallUsage, usage_meter
from .services import case_seed
from .turns import interaction_respond, turn_submit_message

# =============================================================================== the corpus format


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CorpusCase(BaseModel):
    """A starting case: the runner reads ``title``, ``owner`` and ``status``; the rest is the case kind's
    (``details``, validated by its ``corpus.case_schema`` when the conversation is loaded)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    title: str
    owner: str | None = None  # another user of the conversation; default: the conversation's user
    status: str | None = None  # default: the kind's initial status

    @property
    def details(self) -> dict[str, Any]:
        return {"title": self.title, **({"status": self.status} if self.status else {}), **(self.model_extra or {})}


class ExpectedCase(BaseModel):
    """An expected case: the runner reads ``exists`` and ``status``; the rest is compared by the case kind."""

    model_config = ConfigDict(extra="allow", frozen=True)

    exists: bool = True
    status: str | None = None

    @property
    def details(self) -> dict[str, Any]:
        return {"exists": self.exists, **({"status": self.status} if self.status else {}), **(self.model_extra or {})}


class ExpectedAct(_Strict):
    act: str
    outcome: str
    code: str | None = None


class Expectation(_Strict):
    acts: list[ExpectedAct] | None = None  # None: not checked; []: no act may be proposed
    cases: dict[str, ExpectedCase | None] = Field(default_factory=dict)  # null: must not exist
    answer_contains: list[str] = Field(default_factory=list)
    answer_excludes: list[str] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    reads: list[str] | None = None  # read tools the turn must have used ([]: none)
    active: str | None = None  # title of the conversation's active case afterwards


class CorpusMessage(_Strict):
    text: str
    click: str | list[str] = Field(default_factory=list)  # "confirm" | "decline" | "none" | a case title
    expect: Expectation = Field(default_factory=Expectation)
    note: str = ""

    @property
    def clicks(self) -> list[str]:
        return [self.click] if isinstance(self.click, str) else list(self.click)


class CorpusConversation(_Strict):
    name: str
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    user: str = "alice"
    kind: str | None = None  # the case kind of its cases; default: the first registered one with a corpus
    today: date | None = None
    mode: Literal["deterministic", "read_agentic", "controlled_agentic"] = "controlled_agentic"
    cases: list[CorpusCase] = Field(default_factory=list)
    active: str | None = None
    messages: list[CorpusMessage] = Field(min_length=1)

    @model_validator(mode="after")
    def _domain_parts(self) -> CorpusConversation:
        """The parts of its cases and expectations the case kind reads must be what that kind accepts."""
        corpus = corpus_kind(self.kind).corpus
        for case in self.cases:
            corpus.case_schema.model_validate(case.details)
        for message in self.messages:
            for wanted in message.expect.cases.values():
                if wanted is not None:
                    corpus.expected_schema.model_validate(wanted.details)
        return self


def corpus_kind(name: str | None) -> CaseKindDefinition:
    """The case kind a conversation's cases are of: ``name``, or the first registered one with a corpus."""
    kinds = [kind for kind in get_registry().case_kinds.values() if kind.corpus is not None]
    found = next((kind for kind in kinds if kind.name == name), None) if name else (kinds[0] if kinds else None)
    if found is None:
        raise ValueError(f"no installed case kind {name or ''} supports the evaluation corpus".replace("  ", " "))
    return found


class CorpusError(Exception):
    """A corpus file that cannot be read: the runner refuses it rather than scoring nonsense."""


def corpus_load(path: Path) -> list[tuple[str, CorpusConversation]]:
    """Every conversation under ``path`` (a ``.json`` file, or a folder of them and of subfolders such as
    ``holdout/``, sorted by path): named by their path below ``path``."""
    files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
    if not files or not all(f.is_file() for f in files):
        raise CorpusError(f"no corpus files at {path}")
    loaded = []
    for file in files:
        try:
            name = file.relative_to(path).as_posix() if path.is_dir() else file.name
            loaded.append((name, CorpusConversation.model_validate(json.loads(file.read_text("utf-8")))))
        except (ValueError, ValidationError) as exc:
            raise CorpusError(f"{file.name}: {exc}") from exc
    return loaded


# =============================================================================== results


@dataclass
class ItemResult:
    conversation: str
    index: int
    text: str
    verdict: str  # passed | failed | not_understood | provider_failure
    unsafe: bool
    problems: list[str] = field(default_factory=list)
    unsafe_reasons: list[str] = field(default_factory=list)
    acts: list[dict[str, Any]] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    seconds: float = 0.0
    provider_failure: str | None = None  # its kind (ProviderFailure.KINDS), when the verdict is provider_failure
    # the model calls of the message's turn and what the server said they cost (reported: calls with usage)
    model_calls: int = 0
    reported_calls: int = 0
    prompt_tokens: int = 0
    cached_calls: int = 0  # calls whose server said how many prompt tokens came from its cache
    cached_tokens: int = 0


@dataclass
class ConversationResult:
    name: str
    file: str
    items: list[ItemResult]
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and all(i.verdict == "passed" and not i.unsafe for i in self.items)


@dataclass
class EvaluationReport:
    provider: str
    conversations: list[ConversationResult]
    seconds: float

    def parts(self) -> dict[str, dict[str, Any]]:
        """Totals per part of the corpus: ``main`` (files at its top) and each subfolder (``holdout``)."""
        names = sorted({part_of(c.file) for c in self.conversations})
        return {name: self.totals([c for c in self.conversations if part_of(c.file) == name]) for name in names}

    def totals(self, conversations: list[ConversationResult] | None = None) -> dict[str, Any]:
        conversations = self.conversations if conversations is None else conversations
        items = [i for c in conversations for i in c.items]
        verdicts = Counter(i.verdict for i in items)
        kinds = Counter(i.provider_failure for i in items if i.provider_failure)
        totals = {"conversations": len(conversations),
                  "conversations_passed": sum(1 for c in conversations if c.passed),
                  "items": len(items), "passed": verdicts["passed"], "failed": verdicts["failed"],
                  "not_understood": verdicts["not_understood"], "unsafe": sum(1 for i in items if i.unsafe),
                  "errors": sum(1 for c in conversations if c.error), "seconds": round(self.seconds, 2),
                  "provider_failures": verdicts["provider_failure"], "provider_failure_kinds": dict(sorted(kinds.items()))}
        return {**totals, **usage_totals(items)}

    def to_json(self) -> dict[str, Any]:
        return {"provider": self.provider, "totals": self.totals(), "parts": self.parts(),
                "conversations": [{**asdict(c), "passed": c.passed} for c in self.conversations]}


def usage_totals(items: list[ItemResult]) -> dict[str, Any]:
    """Calls per turn (each message is one turn) and, when the provider reported usage, tokens per call."""
    calls = sum(i.model_calls for i in items)
    if not calls:
        return {}
    out: dict[str, Any] = {"model_calls": calls, "calls_per_turn": round(calls / len(items), 2),
                           "max_calls_per_turn": max(i.model_calls for i in items)}
    reported = sum(i.reported_calls for i in items)
    if reported:
        cached = sum(i.cached_calls for i in items)
        out["prompt_tokens_per_call"] = round(sum(i.prompt_tokens for i in items) / reported, 1)
        # None: the server does not say (llama-cpp-python; its log does: docs/evaluation.md)
        out["cached_tokens_per_call"] = round(sum(i.cached_tokens for i in items) / cached, 1) if cached else None
    return out


def part_of(file: str) -> str:
    """``holdout/h001-….json`` → ``holdout``; a file at the corpus's top → ``main``."""
    return file.split("/", 1)[0] if "/" in file else "main"


# =============================================================================== running


class _Rollback(Exception):
    pass


def evaluation_run(*, path: Path, provider: str) -> EvaluationReport:
    """Play every conversation of the corpus at ``path`` with ``provider`` and score each message."""
    corpus = corpus_load(path)
    started = time.perf_counter()
    results = []
    with _provider(provider), usage_meter() as meter:
        for number, (file, conversation) in enumerate(corpus, 1):
            results.append(_run_conversation(number, file, conversation, meter.calls))
    return EvaluationReport(provider=provider, conversations=results, seconds=time.perf_counter() - started)


@contextmanager
def _provider(name: str) -> Iterator[None]:
    saved = settings.TURNFRAME
    settings.TURNFRAME = {**saved, "PROVIDER": name, "FALLBACK_PROVIDER": None}
    try:
        yield
    finally:
        settings.TURNFRAME = saved


@contextmanager
def _clock(today: date | None) -> Iterator[None]:
    """The conversation's day at noon UTC, with real time still passing (so ordering holds)."""
    if today is None:
        yield
        return
    real_now = timezone.now
    origin = real_now()
    base = datetime(today.year, today.month, today.day, 12, 0, tzinfo=UTC)
    with mock.patch("django.utils.timezone.now", lambda: base + (real_now() - origin)):
        yield


def _run_conversation(number: int, file: str, conversation: CorpusConversation,
                      calls: list[CallUsage]) -> ConversationResult:
    items: list[ItemResult] = []
    result = ConversationResult(conversation.name, file, items)
    try:
        with _clock(conversation.today), transaction.atomic():
            users = _users(number, conversation)
            owner = users[conversation.user]
            kind = corpus_kind(conversation.kind)
            for case in conversation.cases:
                _seed(users[case.owner or conversation.user], kind, case)
            active = _case_titled(users, kind, conversation.active) if conversation.active else None
            if conversation.active and active is None:
                raise ValueError(f"active {kind.noun} {conversation.active!r} is not among the starting cases")
            chat = Conversation.objects.create(owner=owner, mode=conversation.mode, active_case=active)
            for index, message in enumerate(conversation.messages, 1):
                counted = len(calls)
                item = _run_message(conversation, kind, index, message, owner, users, chat)
                _count_calls(item, calls[counted:])
                items.append(item)
            raise _Rollback
    except _Rollback:
        pass
    except Exception as exc:  # a broken corpus item is reported, never a crashed run
        result.error = f"{type(exc).__name__}: {exc}"
    return result


def _count_calls(item: ItemResult, calls: list[CallUsage]) -> None:
    reported = [c for c in calls if c.reported]
    item.model_calls, item.reported_calls = len(calls), len(reported)
    item.prompt_tokens = sum(c.prompt_tokens for c in reported)
    cached = [c.cached_tokens for c in reported if c.cached_tokens is not None]
    item.cached_calls, item.cached_tokens = len(cached), sum(cached)


def _users(number: int, conversation: CorpusConversation) -> dict[str, Any]:
    User = get_user_model()
    names = {conversation.user} | {c.owner for c in conversation.cases if c.owner}
    stamp = f"{time.time_ns() % 10**9:09d}"
    return {name: User.objects.create_user(username=f"{name}.eval{number}-{stamp}") for name in sorted(names)}


def _seed(owner, kind: CaseKindDefinition, case: CorpusCase) -> None:
    acts = kind.corpus.seed(kind.corpus.case_schema.model_validate(case.details))
    seeded = case_seed(owner=owner, demo=DemoCase(owner=owner.username, kind=kind.name, title=case.title, acts=acts))
    if case.status is not None and case.status != kind.initial_status:
        # a starting state, not a change under test: set directly inside the rolled-back transaction
        Case.objects.filter(pk=seeded.pk).update(status=case.status)


def _case_titled(users: Mapping[str, Any], kind: CaseKindDefinition, title: str | None) -> Case | None:
    found = list(Case.objects.filter(owner__in=users.values(), kind=kind.name, title=title))
    if len(found) > 1:
        raise ValueError(f"several {kind.noun}s are titled {title!r}; titles must be unique in a corpus conversation")
    return found[0] if found else None


def _state(users: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {c.id: {"title": c.title, "status": c.status, "revision": c.revision, "state": c.state}
            for c in Case.objects.filter(owner__in=users.values())}


def _run_message(conversation: CorpusConversation, kind: CaseKindDefinition, index: int, message: CorpusMessage,
                 owner, users, chat: Conversation) -> ItemResult:
    started = time.perf_counter()
    before = _state(users)
    event_ids = set(DomainEvent.objects.filter(case__owner__in=users.values()).values_list("id", flat=True))
    outcome = turn_submit_message(user=owner, conversation_id=chat.id, text=message.text)
    turn = outcome.turn
    finals = {a.id: a.model_copy() for a in turn.acts}
    turns = [turn]
    problems: list[str] = []
    for click in message.clicks:
        card, option = _card_for(chat, click)
        if card is None:
            problems.append(f"no open card to answer with {click!r}")
            break
        _, click_turn = interaction_respond(user=owner, interaction_id=card.id, option=option)
        turns.append(click_turn)
        for act in click_turn.acts:
            final = finals.setdefault(act.id, act.model_copy())
            final.outcome, final.code = act.outcome, act.code
    after = _state(users)
    new_events = list(DomainEvent.objects.filter(case__owner__in=users.values()).exclude(pk__in=event_ids))
    answers = [b["text"] for t in turns for b in (t.reply or {}).get("blocks", []) if b["kind"] in ("answer", "say")]
    item = ItemResult(conversation.name, index, message.text, "passed", False,
                      acts=[{"act": a.act, "outcome": a.outcome, "code": a.code} for a in finals.values()],
                      answers=answers)
    expect = message.expect
    _check_acts(item, expect, turn, problems)
    _check_state(item, kind, expect, before, after, problems)
    _check_events(item, expect, new_events)
    _check_reply(item, kind, expect, turns, chat, users, problems)
    item.problems = problems
    if turn.trace.provider_failure and not item.unsafe:
        item.verdict, item.provider_failure = "provider_failure", turn.trace.provider_failure
    elif expect.acts and not turn.acts:
        item.verdict = "not_understood"
    elif problems or item.unsafe:
        item.verdict = "failed"
    item.seconds = round(time.perf_counter() - started, 3)
    return item


def _card_for(chat: Conversation, click: str) -> tuple[Interaction | None, str]:
    pending = Interaction.objects.filter(conversation=chat, status=Interaction.Status.PENDING).order_by("-created_at")
    if click in ("confirm", "decline"):
        card = pending.filter(kind=Interaction.Kind.CONFIRMATION).first()
        return card, click
    card = pending.filter(kind=Interaction.Kind.SELECTION).first()
    if card is None:
        return None, click
    if click == "none":
        return card, "none"
    option = next((o["id"] for o in card.options if o["label"] == click), None)
    return (card, option) if option else (None, click)


# =============================================================================== checks


def _check_acts(item: ItemResult, expect: Expectation, turn: Turn, problems: list[str]) -> None:
    if turn.status != Turn.Status.COMPLETED:
        problems.append(f"the turn ended {turn.status} ({', '.join(n.code for n in turn.notices)})")
    if expect.acts is None:
        return
    actual = Counter((a["act"], a["outcome"]) for a in item.acts)
    wanted = Counter((a.act, a.outcome) for a in expect.acts)
    if actual != wanted:
        problems.append(f"acts: expected {_pairs(wanted)}, got {_pairs(actual)}")
    for want in expect.acts:
        if want.code and not any(a["act"] == want.act and a.get("code") == want.code for a in item.acts):
            problems.append(f"act {want.act}: expected code {want.code}")


def _pairs(counter: Counter) -> str:
    return ", ".join(f"{act}={outcome}" + (f" x{n}" if n > 1 else "") for (act, outcome), n in sorted(counter.items())
                     ) or "none"


def _check_events(item: ItemResult, expect: Expectation, events: list[DomainEvent]) -> None:
    """An event of an act the corpus did not expect to execute (or more of them) is unsafe."""
    if expect.acts is None:
        return
    commands = dict(CommandJournalEntry.objects.filter(pk__in={e.command_id for e in events}).values_list("id", "act"))
    committed = Counter(commands.get(e.command_id, "?") for e in events)
    allowed = Counter(a.act for a in expect.acts if a.outcome == "executed")
    for act, n in committed.items():
        if n > allowed[act]:
            _unsafe(item, f"{n} {act} event(s) committed, {allowed[act]} expected")


def _check_state(item: ItemResult, kind: CaseKindDefinition, expect: Expectation, before: dict, after: dict,
                 problems: list[str]) -> None:
    by_title: dict[str, list[str]] = {}
    for case_id, case in after.items():
        by_title.setdefault(case["title"], []).append(case_id)
    for title, wanted in expect.cases.items():
        ids = by_title.get(title, [])
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
        if case["title"] not in expect.cases:
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


def _check_reply(item: ItemResult, kind: CaseKindDefinition, expect: Expectation, turns: list[Turn],
                 chat: Conversation, users, problems: list[str]) -> None:
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
