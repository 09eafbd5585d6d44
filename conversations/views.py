"""The chat page (SPEC §1): server-rendered shell, live content from the API and the socket.

Views only translate I/O: they read what the page needs to boot (the user's conversations, the
selected one) and hand it to the template; every write goes through the HTTP API or the socket,
which call the services.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import Http404
from django.shortcuts import render

from registries import get_registry

from .models import Case, Conversation, snapshot
from .selectors import case_panel, conversation_label, conversations_of

SIDEBAR_SIZE = 50


def _conversations_of(user) -> list[dict[str, object]]:
    """The sidebar: newest first, each labelled by its name or its first message (deleted ones left out)."""
    return [{"id": row.id, "label": conversation_label(row), "created_at": row.created_at, "named": bool(row.title)}
            for row in conversations_of(user, limit=SIDEBAR_SIZE)]


DEMO_USERS = ("alice", "bob", "admin")
DEFAULT_DEMO_PASSWORD = "turnframe-demo"


class SignInView(LoginView):
    """The sign-in page names the demo users and says where their password is set; the default
    password itself is shown only in development (``DEBUG``)."""

    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "demo_users": DEMO_USERS,
                "demo_password_default": DEFAULT_DEMO_PASSWORD if settings.DEBUG else None}


@login_required
def chat_home(request):
    """``/``: a composer ready to type (the conversation is created by the first message) beside the
    user's claims, each with its status and total; the sidebar leads to earlier conversations."""
    return _chat(request, None)


@login_required
def chat_conversation(request, conversation_id: str):
    """``/c/<id>/``: another user's conversation is indistinguishable from a missing one."""
    if not Conversation.objects.filter(pk=conversation_id, owner=request.user, hidden_at__isnull=True).exists():
        raise Http404("No such conversation.")
    return _chat(request, conversation_id)


def _chat(request, conversation_id: str | None):
    cases = _cases_of(request.user)
    noun = _noun(cases)
    boot = {
        "conversation": conversation_id,
        "caseNoun": noun,
        "user": request.user.get_username(),
        "maxMessageChars": settings.TURNFRAME["MAX_MESSAGE_CHARS"],
        "wsPingSeconds": settings.TURNFRAME["WS_PING_S"],
    }
    return render(request, "chat.html", {
        "conversations": _conversations_of(request.user),
        "selected": conversation_id,
        "boot": boot,
        "suggestions": _suggestions(request.user),
        "cases": cases if conversation_id is None else [],
        "case_noun": noun,
    })


def _cases_of(user) -> list[dict[str, object]]:
    """The landing page's list: every case of the user, open ones first, with status, a short count and its
    total, as the case kind's panel gives them."""
    registry = get_registry()
    rows = []
    for case in Case.objects.filter(owner=user).order_by("-updated_at")[:50]:
        kind = registry.case_kinds.get(case.kind)
        panel = case_panel(kind, case)
        rows.append({"id": case.id, "kind": case.kind, "title": case.title, "status": case.status,
                     "closed": panel["terminal"], "summary": panel["summary"], "total": panel["total"]})
    return sorted(rows, key=lambda r: r["closed"])


def _noun(cases: list[dict[str, object]]) -> str:
    """What the page calls a case: the noun of the user's cases when they are all of one kind (or of the only
    kind installed), else "case"."""
    kinds = get_registry().case_kinds
    names = {row["kind"] for row in cases} or set(kinds)
    return kinds[next(iter(names))].noun if len(names) == 1 and next(iter(names)) in kinds else "case"


def _suggestions(user) -> list[str]:
    """What the case kinds suggest typing first, from this user's own open cases."""
    registry = get_registry()
    out: list[str] = []
    for kind in registry.case_kinds.values():
        if kind.suggestions is None:
            continue
        cases = [snapshot(c) for c in Case.objects.filter(owner=user, kind=kind.name).exclude(
            status__in=kind.terminal_statuses).order_by("created_at")[:20]]
        out.extend(kind.suggestions(cases))
    return out[:4]
