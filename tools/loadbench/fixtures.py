"""What a load run works on: the scripted model of the domain's bench scenario and one lane (conversation,
case, credentials) per client."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model

from conversations.auth import token_create
from conversations.models import Conversation
from conversations.services import case_seed
from registries import BenchScenario, CaseKindDefinition, DemoCase

# the messages are the domain's bench scenario (``CaseKindDefinition.bench``), sent as they are or, for the
# slow model, with a prefix the scripted model answers after ``--delay`` seconds
FAST = "{message}"
SLOW = "slowly {message}"
TIMEOUT_S = float(os.environ.get("LOADBENCH_TIMEOUT_S", "120"))





def write_script(path: Path, delay_s: float, scenario: BenchScenario) -> None:
    """The scripted model (CONTRACT §5) of the domain's scenario: one read, then one act that needs
    confirmation; the slow message waits ``delay_s`` before its first answer."""
    messages = {}
    for message in scenario.messages:
        for template, delay in ((FAST, 0.0), (SLOW, delay_s)):
            text = template.format(message=message)
            steps: list[dict[str, Any]] = [dict(step) for step in scenario.answers(text)]
            if delay:
                steps[0]["delay_s"] = delay
            messages[text] = {"primary": steps}
    path.write_text(json.dumps({"messages": messages}))


@dataclass
class Lane:
    """One client's conversation (on its own case when ``with_case`` was asked for)."""

    conversation: str
    token: str
    session: str
    messages: tuple[str, ...] = ()
    n: int = 0

    def text(self, template: str = FAST) -> str:
        self.n += 1
        return template.format(message=self.messages[self.n % len(self.messages)])


def make_lanes(count: int, kind: CaseKindDefinition, *, with_case: bool = True) -> list[Lane]:
    from django.contrib.sessions.backends.db import SessionStore

    user, _ = get_user_model().objects.get_or_create(username="loadbench")
    # one session for every socket (sessions are only read), one bearer token per HTTP client (each
    # request stamps its token's last_used_at: a shared token would be a shared row to update)
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    stamp = uuid.uuid4().hex[:8]
    lanes = []
    for i in range(count):
        case = None
        if with_case:
            title = f"Load {stamp}-{i}"
            case = case_seed(owner=user, demo=DemoCase(owner="loadbench", kind=kind.name, title=title,
                                                       acts=list(kind.bench.seed(title))))
        conversation = Conversation.objects.create(owner=user, mode="controlled_agentic", active_case=case)
        token, _ = token_create(user=user) if with_case else ("", None)
        lanes.append(Lane(conversation.id, token, store.session_key, tuple(kind.bench.messages)))
    return lanes

