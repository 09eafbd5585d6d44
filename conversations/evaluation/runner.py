"""Playing a corpus: each conversation on a fresh database state (one transaction rolled back at the end, fresh
users, the conversation's day on the clock), its messages through ``turn_submit_message`` and its clicks through
``interaction_respond``, as a browser would drive them, with the provider under test.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from registries import CaseKindDefinition, DemoCase

from ..models import Case, Conversation, DomainEvent, Interaction
from ..providers.usage import CallUsage, usage_meter
from ..services import case_seed
from ..turns import interaction_respond, turn_submit_message
from .checks import check_acts, check_events, check_reply, check_state, settle_verdict
from .corpus import CorpusCase, CorpusConversation, CorpusMessage, corpus_kind, corpus_load
from .report import ConversationResult, EvaluationReport, ItemResult


class _Rollback(Exception):
    pass


def evaluation_run(*, path: Path, provider: str, confirm_unsure: bool = False) -> EvaluationReport:
    """Play every conversation of the corpus at ``path`` with ``provider`` and score each message.

    ``confirm_unsure``: a message the corpus answers with no click, whose turn put its reading on a card because
    the provider was not sure of it (notice ``reading_unsure``), has that card confirmed, as a person who did not
    check it would; the item is marked ``unsure_card``, so its verdict tells whether the card was right."""
    corpus = corpus_load(path)
    started = time.perf_counter()
    results = []
    with _provider(provider), usage_meter() as meter:
        for number, (file, conversation) in enumerate(corpus, 1):
            results.append(_run_conversation(number, file, conversation, meter.calls, confirm_unsure))
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
                      calls: list[CallUsage], confirm_unsure: bool = False) -> ConversationResult:
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
                item = _run_message(conversation, kind, index, message, owner, users, chat, confirm_unsure)
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
                 owner, users, chat: Conversation, confirm_unsure: bool = False) -> ItemResult:
    started = time.perf_counter()
    before = _state(users)
    event_ids = set(DomainEvent.objects.filter(case__owner__in=users.values()).values_list("id", flat=True))
    outcome = turn_submit_message(user=owner, conversation_id=chat.id, text=message.text)
    turn = outcome.turn
    finals = {a.id: a.model_copy() for a in turn.acts}
    turns = [turn]
    problems: list[str] = []
    clicks = message.clicks
    unsure = any(b.get("code") == "reading_unsure" for b in (turn.reply or {}).get("blocks", []))
    if confirm_unsure and unsure and not clicks:
        clicks = ["confirm"]
    for click in clicks:
        card, option = _card_for(chat, click, turns)
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
                      answers=answers, unsure_card=unsure)
    expect = message.expect
    check_acts(item, expect, turn, problems)
    check_state(item, kind, expect, before, after, problems)
    check_events(item, expect, new_events)
    check_reply(item, kind, expect, turns, chat, problems)
    settle_verdict(item, expect, turn, problems)
    item.seconds = round(time.perf_counter() - started, 3)
    return item


def _card_for(chat: Conversation, click: str, turns: list[Any] | None = None) -> tuple[Interaction | None, str]:
    """The card a click answers: one the message's turn (or an earlier click of it) drew, never a card an earlier
    message left open (``turns``: those turns; None: any open card)."""
    pending = Interaction.objects.filter(conversation=chat, status=Interaction.Status.PENDING).order_by("-created_at")
    if turns is not None:
        pending = pending.filter(turn_id__in=[t.id for t in turns])
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
