"""The HTTP API (CONTRACT §6): thin translations between HTTP and the services."""

# no ``from __future__ import annotations``: ninja reads a paged operation's parameters through the ``@paginate``
# wrapper, whose module cannot resolve our annotations written as strings
from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.middleware.csrf import get_token
from ninja import Router, Status
from ninja.pagination import paginate

from turnframe_web.errors import AppError, Invalid, NotFound
from turnframe_web.pagination import ListPage, Rows
from turnframe_web.schemas import with_errors

from .auth import api_auth, session_login_check, token_create, token_revoke
from .core.text import StorableStr
from .models import ApiToken, Case, CommandJournalEntry, Conversation, Interaction, Mode
from .schemas import (
    CaseDetailOut,
    CaseOut,
    ConversationDetailOut,
    ConversationIn,
    ConversationOut,
    ConversationPatch,
    Credentials,
    EventOut,
    HealthOut,
    InteractionOut,
    JournalEntryOut,
    MessageIn,
    RespondIn,
    RespondOut,
    RevokedOut,
    StatusOut,
    StopOut,
    TokenOut,
    TurnOut,
    UsernameOut,
)
from .selectors import (
    case_json,
    command_json,
    conversation_detail_json,
    conversation_json,
    conversations_matching,
    event_json,
    interaction_json,
    turn_json,
)
from .services import conversation_hide, conversation_rename
from .turns import interaction_respond, mode_allowed, turn_stop, turn_submit_message

# every operation needs a signed-in session (with CSRF on unsafe methods) or a bearer token, except the
# ones that say ``auth=None``; answers keep only the keys their selector built (``exclude_unset``)
router = Router(auth=api_auth, exclude_unset=True)

# the error statuses (each answered with ErrorOut) an operation may give besides its own. READ, a GET: without
# a valid session or token (401), a path or query value that does not match or that no database stores (422);
# UNSAFE, a POST or DELETE without a body: also a session without its CSRF header (403); WRITE, with a body:
# also bad JSON (400) and a body too large to read (413). Any may answer 500 (``with_errors``).
READ = (401, 422)
UNSAFE = (401, 403, 422)
WRITE = (400, 401, 403, 413, 422)


class MessageBody(MessageIn):
    # no schema cap on the text: any length over TURNFRAME_MAX_MESSAGE_CHARS is the runtime's
    # 413 ``message_too_long`` (a body too large to read at all is 413 ``payload_too_large``)
    text: StorableStr


@router.get("/health", auth=None, response=with_errors({200: HealthOut}, 422))
def health(request):
    return {"status": "ok", "mode": settings.TURNFRAME["MODE"], "provider": settings.TURNFRAME["PROVIDER"]}


@router.post("/auth/login", auth=None, response=with_errors({200: UsernameOut}, 400, 401, 403, 413, 415, 422, 429))
def auth_login(request, body: Credentials):
    session_login_check(request)
    user = authenticate(request, username=body.username, password=body.password)
    if user is None:
        raise AppError("Wrong username or password.", code="bad_credentials", status=401)
    login(request, user)
    get_token(request)  # set the CSRF cookie the browser needs for unsafe methods
    return {"username": user.get_username()}


@router.post("/auth/logout", response=with_errors({200: StatusOut}, *UNSAFE))
def auth_logout(request):
    logout(request)
    return {"status": "ok"}


@router.post("/auth/token", auth=None, response=with_errors({200: TokenOut}, 400, 401, 413, 422, 429))
def auth_token(request, body: Credentials):
    user = authenticate(request, username=body.username, password=body.password)
    if user is None:
        raise AppError("Wrong username or password.", code="bad_credentials", status=401)
    token, row = token_create(user=user)
    return {"token": token, "expires_at": row.expires_at}


@router.delete("/auth/token", response=with_errors({200: RevokedOut}, *UNSAFE))
def auth_token_revoke(request, all: bool = False):
    """Revoke the bearer token this request presents, or with ``?all=true`` every token of the account
    (also from a signed-in browser session)."""
    if all:
        revoked = token_revoke(tokens=ApiToken.objects.filter(user=request.auth), because=ApiToken.Revoked.ALL_BY_USER)
    elif getattr(request, "api_token", None) is not None:
        revoked = token_revoke(tokens=ApiToken.objects.filter(pk=request.api_token.pk),
                               because=ApiToken.Revoked.BY_CLIENT)
    else:
        raise Invalid("No bearer token was presented: send it as Authorization: Bearer, or pass all=true to "
                      "revoke every token of this account.",
                      errors=[{"loc": ["header", "Authorization"], "msg": "no bearer token"}])
    return {"revoked": revoked}


@router.post("/conversations", response=with_errors({201: ConversationOut}, *WRITE))
def conversation_create(request, body: ConversationIn | None = None):
    deployment = settings.TURNFRAME["MODE"]
    mode = (body.mode if body else None) or deployment
    if mode not in Mode.values or not mode_allowed(mode, deployment):
        raise Invalid(f"Mode {mode!r} is not allowed here (the deployment runs {deployment}).",
                      code="mode_not_allowed", errors=[{"loc": ["mode"], "msg": "not allowed"}])
    conversation = Conversation.objects.create(owner=request.auth, mode=mode)
    return Status(201, conversation_json(conversation))


@router.get("/conversations", response=with_errors({200: list[ConversationOut]}, *READ))
@paginate(ListPage, default=200)
def conversation_list(request, q: StorableStr = ""):
    """Newest first, without deleted ones; ``q`` keeps those whose name or any message contains it. Each
    carries ``label``: its name, else its first message."""
    return Rows(conversations_matching(request.auth, query=q[:200]), conversation_json)


@router.get("/conversations/{conversation_id}", response=with_errors({200: ConversationDetailOut}, *READ, 404))
def conversation_detail(request, conversation_id: str):
    return conversation_detail_json(_owned(Conversation, conversation_id, request.auth))


@router.patch("/conversations/{conversation_id}", response=with_errors({200: ConversationOut}, *WRITE, 404))
def conversation_update(request, conversation_id: str, body: ConversationPatch):
    """Rename (``{"title": ""}`` goes back to the first message as its label)."""
    return conversation_json(conversation_rename(user=request.auth, conversation_id=conversation_id,
                                                 title=body.title))


@router.delete("/conversations/{conversation_id}", response=with_errors({204: None}, *UNSAFE, 404))
def conversation_delete(request, conversation_id: str):
    """Delete for the user (soft): gone from their lists and pages; the ledger keeps its turns."""
    conversation_hide(user=request.auth, conversation_id=conversation_id)
    return Status(204, None)


@router.post("/conversations/{conversation_id}/messages",
             response=with_errors({200: TurnOut, 202: TurnOut}, *WRITE, 404, 409, 429))
def message_submit(request, conversation_id: str, body: MessageBody):
    outcome = turn_submit_message(user=request.auth, conversation_id=conversation_id, text=body.text,
                                  client_message_id=body.client_message_id)
    # 202: another turn of the conversation runs, so this one waits and runs next, in arrival order
    return Status(202 if outcome.turn.status == "queued" else 200, outcome.as_json())


@router.post("/turns/{turn_id}/stop", response=with_errors({200: StopOut}, *UNSAFE, 404))
def turn_stop_waiting(request, turn_id: str):
    """Stop a message: one still waiting in the queue is withdrawn and never runs (``withdrawn`` true); a turn
    still understanding ends before anything changes; one whose plan is being carried out will finish
    (``stopped`` false)."""
    turn, stopped = turn_stop(user=request.auth, turn_id=turn_id)
    withdrawn = stopped and turn.trace.ending == "withdrawn"
    message = ("Withdrawn: this message will not run, and nothing was changed." if withdrawn else
               "Stopping: nothing will be changed." if stopped else
               "Too late to stop: it is already being carried out and will finish.")
    return {"stopped": stopped, "withdrawn": withdrawn, "message": message, "turn": turn_json(turn)}


@router.get("/interactions/{interaction_id}", response=with_errors({200: InteractionOut}, *READ, 404))
def interaction_detail(request, interaction_id: str):
    return interaction_json(_owned(Interaction, interaction_id, request.auth))


@router.post("/interactions/{interaction_id}/respond", response=with_errors({200: RespondOut}, *WRITE, 404, 409))
def interaction_answer(request, interaction_id: str, body: RespondIn):
    """Answer a card with one of its options; ``edits`` changes the arguments its act declares editable before
    confirming (re-judged by the act's schema and policy; docs/security.md, *Cards*)."""
    return interaction_respond(user=request.auth, interaction_id=interaction_id, option=body.option,
                               client_response_id=body.client_response_id, edits=body.edits).as_json()


@router.get("/cases", response=with_errors({200: list[CaseOut]}, *READ))
@paginate(ListPage, default=500)
def case_list(request):
    """Oldest first."""
    return Rows(Case.objects.filter(owner=request.auth).order_by("created_at", "id"), case_json)


@router.get("/cases/{case_id}", response=with_errors({200: CaseDetailOut}, *READ, 404))
def case_detail(request, case_id: str):
    return case_json(_owned(Case, case_id, request.auth), detail=True)


@router.get("/cases/{case_id}/events", response=with_errors({200: list[EventOut]}, *READ, 404))
@paginate(ListPage, default=1000, most=1000)
def case_events(request, case_id: str):
    """In the order they happened."""
    case = _owned(Case, case_id, request.auth)
    return Rows(case.events.order_by("sequence"), event_json)


@router.get("/journal", response=with_errors({200: list[JournalEntryOut]}, *READ))
@paginate(ListPage, default=1000)
def journal(request, case: str | None = None, turn: str | None = None):
    rows = CommandJournalEntry.objects.filter(case__owner=request.auth) | CommandJournalEntry.objects.filter(
        conversation__owner=request.auth)
    if case:
        rows = rows.filter(case_id=case)
    if turn:
        rows = rows.filter(turn_id=turn)
    return Rows(rows.distinct().order_by("created_at", "sequence", "id"), command_json)


def _owned(model, pk: str, user):
    """Another user's object is indistinguishable from a missing one (404)."""
    rows = model.objects.filter(pk=pk, owner=user)
    if model is Conversation:
        rows = rows.filter(hidden_at__isnull=True)  # deleted by its user: gone for them
    obj = rows.first()
    if obj is None:
        raise NotFound(f"No such {model._meta.verbose_name}.")
    return obj
