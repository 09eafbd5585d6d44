"""Helpers shared by the runtime scenario, property and chaos tests (not a test module).

They speak the wire formats of CONTRACT.md: model answers (§2) built as plain dicts, the HTTP API
(§6) through Django's test ``Client`` with CSRF enforced, and the ledger (journal, events, case
revisions) read straight from the database, since that is what the tests assert on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.test import Client

from conversations.models import Case, CommandJournalEntry, DomainEvent, Interaction, OutboxEntry, Turn
from conversations.services import demo_seed

PASSWORD = "scenario-password-1"
MODES = ("deterministic", "controlled_agentic")

# --------------------------------------------------------------------------- model answers (CONTRACT §2)


def act(id: str, name: str, evidence: str, *, case: dict[str, Any] | None = None, **args: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"id": id, "act": name, "args": args, "evidence": evidence}
    if case is not None:
        body["case"] = case
    return body


def plan(*acts: dict[str, Any], retractions=(), corrections=(), constraints=(), answers=(),
         say: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"acts": list(acts)}
    if retractions:
        body["retractions"] = list(retractions)
    if corrections:
        body["corrections"] = list(corrections)
    if constraints:
        body["constraints"] = list(constraints)
    if answers:
        body["answers"] = list(answers)
    if say is not None:
        body["say"] = say
    return {"plan": body}


def reads(*requests: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"reads": [{"tool": tool, "args": args} for tool, args in requests]}


def in_mode(mode: str, case_id: str, *answers: dict[str, Any]) -> list[dict[str, Any]]:
    """The answers of one turn; under controlled_agentic the model first looks the case up."""
    if mode == "controlled_agentic":
        return [reads(("get_case", {"case": case_id})), *answers]
    return list(answers)


# --------------------------------------------------------------------------- the ledger


@dataclass(frozen=True)
class Ledger:
    """What a turn may have changed: the journal, the events, the outbox and every case's revision."""

    journal: int
    committed: int
    events: int
    outbox: int
    revisions: dict[str, int]

    @classmethod
    def now(cls) -> Ledger:
        return cls(journal=CommandJournalEntry.objects.count(),
                   committed=CommandJournalEntry.objects.filter(status="committed").count(),
                   events=DomainEvent.objects.count(), outbox=OutboxEntry.objects.count(),
                   revisions=dict(Case.objects.values_list("id", "revision")))


def case_by_title(title: str) -> Case:
    return Case.objects.get(title=title)


def lines_of(case_id: str) -> list[dict[str, Any]]:
    return Case.objects.get(pk=case_id).state["lines"]


def blocks(turn: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [b for b in turn["reply"]["blocks"] if b["kind"] == kind]


def notice_codes(turn: dict[str, Any]) -> list[str]:
    return [b["code"] for b in blocks(turn, "notice")]


def outcomes(turn: dict[str, Any]) -> dict[str, str]:
    return {a["id"]: a["outcome"] for a in turn["acts"]}


def journal_of(turn_id: str) -> list[CommandJournalEntry]:
    return list(CommandJournalEntry.objects.filter(turn_id=turn_id).order_by("sequence"))


def events_of(turn: dict[str, Any]) -> list[DomainEvent]:
    return list(DomainEvent.objects.filter(pk__in=[e["id"] for e in turn["events"]]).order_by("sequence"))


def assert_reply_is_persisted(turn: dict[str, Any]) -> None:
    """SPEC §18: the reply is stored exactly as sent, and it always ends on a way forward (I21)."""
    stored = Turn.objects.get(pk=turn["id"])
    assert stored.reply == turn["reply"]
    assert turn["reply"]["blocks"][-1]["kind"] == "ask" and turn["reply"]["blocks"][-1]["text"]


def assert_interaction_persisted_before_mention(turn: dict[str, Any]) -> None:
    """I6: every card a reply block names exists in the database, created by this turn."""
    for block in blocks(turn, "interaction"):
        assert Interaction.objects.filter(pk=block["interaction"]).exists()


# --------------------------------------------------------------------------- the HTTP API (CONTRACT §6)


class Api:
    """A signed-in browser session: Django's test client with CSRF checks on, JSON in and out."""

    def __init__(self, username: str, password: str = PASSWORD):
        self.client = Client(enforce_csrf_checks=True)
        status, body = self.post("/api/auth/login", {"username": username, "password": password})
        assert status == 200, body
        self.username = username

    @property
    def csrf(self) -> str:
        return self.client.cookies["csrftoken"].value if "csrftoken" in self.client.cookies else ""

    def post(self, path: str, body: Any = None, *, csrf: bool = True) -> tuple[int, Any]:
        headers = {"X-CSRFToken": self.csrf} if csrf else {}
        response = self.client.post(path, data=json.dumps(body if body is not None else {}),
                                    content_type="application/json", headers=headers)
        return response.status_code, response.json()

    def get(self, path: str) -> tuple[int, Any]:
        response = self.client.get(path)
        return response.status_code, response.json()

    def conversation(self, mode: str) -> str:
        status, body = self.post("/api/conversations", {"mode": mode})
        assert status == 201, body
        return body["id"]

    def say(self, conversation: str, text: str, client_message_id: str | None = None) -> dict[str, Any]:
        body = {"text": text, **({"client_message_id": client_message_id} if client_message_id else {})}
        status, turn = self.post(f"/api/conversations/{conversation}/messages", body)
        assert status == 200, turn
        return turn

    def respond(self, interaction: str, option: str, client_response_id: str | None = None) -> tuple[int, Any]:
        body = {"option": option, **({"client_response_id": client_response_id} if client_response_id else {})}
        return self.post(f"/api/interactions/{interaction}/respond", body)


def seed() -> dict[str, Any]:
    """alice (Berlin trip, Lisbon conference: three lines each), bob, admin."""
    cases = demo_seed(password=PASSWORD)
    return {"berlin": next(c for c in cases if c.title == "Berlin trip"),
            "lisbon": next(c for c in cases if c.title == "Lisbon conference")}


# --------------------------------------------------------------------------- the registry, swapped for a test


class override:
    """Swap in extra or replacement definitions (or remove some) for a test, restoring the registry on exit.
    Bypasses the refusal of duplicates on purpose: a test may replace a shipped definition."""

    def __init__(self, *, read_tools=(), acts=(), case_kinds=(), remove=()):
        self.read_tools, self.acts, self.case_kinds, self.remove = read_tools, acts, case_kinds, remove

    def __enter__(self):
        from registries.registry import site

        self._saved = (dict(site.case_kinds), dict(site.read_tools), dict(site.acts))
        for name in self.remove:
            site.unregister(name)
        site.case_kinds.update({d.name: d for d in self.case_kinds})
        site.read_tools.update({d.name: d for d in self.read_tools})
        site.acts.update({d.name: d for d in self.acts})
        return self

    def __exit__(self, *exc):
        from registries.registry import site

        for live, saved in zip((site.case_kinds, site.read_tools, site.acts), self._saved, strict=True):
            live.clear()
            live.update(saved)
        return False


# --------------------------------------------------------------------------- the queue (test_queue, test_queue_withdraw)


def busy(conversation) -> Turn:
    """A turn of the conversation that is still running (another thread's, as far as this one can tell)."""
    return conversation.turns.create(kind="message", text="still thinking", client_message_id="running",
                                     mode=conversation.mode)


def edit(script, n: int) -> str:
    """A message that changes the first line to 100 + n, scripted."""
    text = f"change the first line to {100 + n}"
    script(text, plan(act("a1", "update_line", text, line=1, amount=str(100 + n))))
    return text
