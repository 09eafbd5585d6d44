"""Persisted state: cases, conversations, turns, the command journal, events, Interactions, outbox.

The database is the authority (I1). Invariants that concern concurrent writers are constraints
here, not Python checks: unique idempotency keys, one running turn per conversation, one open
blocking Interaction per case, revisions never negative.
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.db import models
from django.db.models import Q

from registries import CaseSnapshot
from registries import Mode as ModeKind

from .core.record import TurnAct, TurnNotice, TurnTrace
from .fields import SchemaField
from .ids import new_id


def _id_field(prefix: str):
    return models.CharField(primary_key=True, max_length=32, default=partial(new_id, prefix), editable=False)


class TurnActsField(SchemaField):
    schema = list[TurnAct]


class TurnNoticesField(SchemaField):
    schema = list[TurnNotice]


class TurnTraceField(SchemaField):
    schema = TurnTrace


# the orchestration modes are ``registries.Mode`` (with their capabilities); these are their database choices
Mode = models.TextChoices("Mode", [(m.name, m.value) for m in ModeKind])


class Case(models.Model):
    """One generic record any domain's case kind is stored in (SPEC §5)."""

    id = models.CharField(primary_key=True, max_length=32, editable=False)
    kind = models.CharField(max_length=64, db_index=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="cases")
    title = models.CharField(max_length=200)
    status = models.CharField(max_length=32)
    revision = models.PositiveIntegerField(default=0)
    state = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["owner", "kind", "status"]),
                   models.Index(fields=["owner", "updated_at"], name="case_owner_recent")]
        constraints = [models.CheckConstraint(condition=Q(revision__gte=0), name="case_revision_non_negative")]

    def __str__(self) -> str:
        return f"{self.title} ({self.id})"


class Conversation(models.Model):
    id = _id_field("cnv")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations")
    mode = models.CharField(max_length=32, choices=Mode.choices, default=Mode.CONTROLLED_AGENTIC)
    active_case = models.ForeignKey(Case, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    event_seq = models.PositiveBigIntegerField(default=0)  # per-conversation stream sequence
    # the question the last reply left open, with the user's message it was about (SPEC §7.1): handed to
    # the model with the next message, and replaced by every message turn (it expires after one turn)
    pending = models.JSONField(null=True, blank=True, default=None)
    # the user's own name for it ("" = labelled by its first message), and when the user deleted it: a
    # deleted conversation leaves the user's lists and pages, but its turns, journal and events stay
    title = models.CharField(max_length=200, blank=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "hidden_at", "created_at"], name="conversation_owner_visible")]

    def __str__(self) -> str:
        name = f"“{self.title}” ({self.id})" if self.title else f"conversation {self.id}"
        return f"{name}, deleted by its user" if self.hidden_at else name


class Turn(models.Model):
    class Phase(models.TextChoices):
        RECEIVED = "received"
        UNDERSTANDING = "understanding"
        REDUCED = "reduced"  # written by earlier versions only (L is now the point of no return); read by recovery
        EXECUTING = "executing"
        COMMITTED = "committed"
        COMPOSED = "composed"
        DELIVERED = "delivered"
        FAILED = "failed"

    class Status(models.TextChoices):
        QUEUED = "queued"  # sent while another turn of the conversation runs: it runs next, in arrival order
        RUNNING = "running"
        COMPLETED = "completed"
        FAILED = "failed"

    class Kind(models.TextChoices):
        MESSAGE = "message"
        CLICK = "click"

    id = _id_field("trn")
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="turns")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.MESSAGE)
    client_message_id = models.CharField(max_length=100)
    text = models.TextField(blank=True)
    interaction = models.ForeignKey("Interaction", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="click_turns")
    option = models.CharField(max_length=64, blank=True)
    mode = models.CharField(max_length=32, choices=Mode.choices)
    phase = models.CharField(max_length=16, choices=Phase.choices, default=Phase.RECEIVED)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    active_case_before = models.CharField(max_length=32, blank=True)
    # the user stopped waiting for the model: honoured only while the turn is still understanding (the
    # runtime's step past it is a conditional update on this being null), so nothing is ever half-run
    stop_requested_at = models.DateTimeField(null=True, blank=True)
    # the lease of a running turn (conversations/turns/lease.py): the process carrying it, renewed until then
    lease_owner = models.CharField(max_length=64, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    # what the turn decided, as returned to clients (CONTRACT §6)
    acts = TurnActsField(default=list)
    notices = TurnNoticesField(default=list)
    reply = models.JSONField(default=dict)
    # why everything happened (I20): plan raw and parsed, per act evidence/target/policy/outcome
    trace = TurnTraceField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "client_message_id"], name="turn_client_id_unique"),
            models.UniqueConstraint(fields=["conversation"], condition=Q(status="running"),
                                    name="one_running_turn_per_conversation"),
        ]
        # a turn reads its conversation's newest turns and queued messages: as fast at 10,000 turns as at 10
        indexes = [models.Index(fields=["conversation", "created_at"], name="turn_conversation_time"),
                   models.Index(fields=["conversation", "status", "created_at"], name="turn_conversation_status")]

    def __str__(self) -> str:
        if self.kind == self.Kind.CLICK:
            what = f"click “{self.option or '?'}”"
        else:
            text = " ".join((self.text or "").split())
            what = f"“{text[:47]}…”" if len(text) > 48 else f"“{text}”"
        return f"{what} ({self.id}, {self.status})"


class ReadRound(models.Model):
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="read_rounds")
    round = models.PositiveIntegerField()
    provider = models.CharField(max_length=32, blank=True)
    status = models.CharField(max_length=16)  # ok | rejected
    requests = models.JSONField(default=list)
    results = models.JSONField(default=list)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "round"]
        constraints = [models.UniqueConstraint(fields=["turn", "round"], name="read_round_unique")]

    def __str__(self) -> str:
        tools = ", ".join(str(r.get("tool")) for r in self.requests or [] if isinstance(r, dict)) or "no calls"
        return f"lookup round {self.round} of {self.turn_id} ({self.status}: {tools})"


class Interaction(models.Model):
    class Kind(models.TextChoices):
        CONFIRMATION = "confirmation"
        SELECTION = "selection"

    class Status(models.TextChoices):
        PENDING = "pending"
        RESOLVING = "resolving"
        RESOLVED = "resolved"
        DECLINED = "declined"
        STALE = "stale"
        SUPERSEDED = "superseded"
        EXPIRED = "expired"

    OPEN = (Status.PENDING, Status.RESOLVING)

    id = _id_field("int")
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="interactions")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="interactions")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="interactions")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    blocking = models.BooleanField(default=True)
    case = models.ForeignKey(Case, null=True, blank=True, on_delete=models.PROTECT, related_name="interactions")
    case_revision = models.PositiveIntegerField(null=True, blank=True)
    prompt = models.TextField(blank=True)
    # [{"id","label","action":{"type": "execute_commands"|"decline"|"resume_acts"|"none", ...}}]
    options = models.JSONField(default=list)
    # selection: the held acts (validated plan acts) it resumes and the candidate case ids
    held_acts = models.JSONField(default=list)
    candidates = models.JSONField(default=list)
    # the answer and what it produced, so a repeated answer returns the original outcome
    chosen_option = models.CharField(max_length=64, blank=True)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    result_turn = models.ForeignKey(Turn, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["case"], condition=Q(blocking=True, status__in=["pending", "resolving"]),
                                    name="one_open_blocking_interaction_per_case"),
        ]
        # a case's open cards (superseding, delivery's read) without walking every card ever drawn on the case
        indexes = [models.Index(fields=["conversation", "status"], name="interaction_conversation_open"),
                   models.Index(fields=["case", "status"], name="interaction_case_open")]

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.status})"


class CommandJournalEntry(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        AWAITING_CONFIRMATION = "awaiting_confirmation"
        EXECUTING = "executing"
        COMMITTED = "committed"
        REJECTED = "rejected"
        CONFLICT = "conflict"
        FAILED = "failed"
        OUTCOME_UNKNOWN = "outcome_unknown"
        DECLINED = "declined"
        STALE = "stale"

    class Origin(models.TextChoices):
        NONE = "none"
        DIRECT_USER_ACT = "direct_user_act"
        CONFIRMED_INTERACTION = "confirmed_interaction"
        INTERNAL_POLICY = "internal_policy"

    id = _id_field("cmd")
    idempotency_key = models.CharField(max_length=64, unique=True)
    # null only for commands the server issues outside a conversation (internal_policy: seed_demo)
    conversation = models.ForeignKey(Conversation, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="commands")
    turn = models.ForeignKey(Turn, null=True, blank=True, on_delete=models.PROTECT, related_name="commands")
    plan_act_id = models.CharField(max_length=40)
    act = models.CharField(max_length=100, db_index=True)
    case = models.ForeignKey(Case, null=True, blank=True, on_delete=models.PROTECT, related_name="commands")
    # for an act on a case opened earlier in the same turn: the plan act id that opens it
    case_from_act = models.CharField(max_length=40, blank=True)
    args = models.JSONField(default=dict)
    expected_revision = models.PositiveIntegerField()
    sequence = models.PositiveIntegerField(default=0)  # order within the turn
    status = models.CharField(max_length=24, choices=Status.choices, db_index=True)
    origin_kind = models.CharField(max_length=24, choices=Origin.choices, default=Origin.NONE)
    origin = models.JSONField(default=dict)  # {"kind", "interaction"?, "option"?, "user"?, "evidence"?}
    interaction = models.ForeignKey(Interaction, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="commands")
    result = models.JSONField(default=dict)  # {"events": [...], "code": ...}
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "sequence"]
        verbose_name = "command journal entry"
        verbose_name_plural = "command journal"
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="committed") | ~Q(origin_kind="none"), name="committed_command_has_origin"),
        ]
        # "what did the last turn change" (recent effects, undo) in a conversation of any length
        indexes = [models.Index(fields=["conversation", "status", "updated_at"], name="journal_conversation_recent")]

    def __str__(self) -> str:
        return f"{self.act} {self.id} ({self.status})"


class DomainEvent(models.Model):
    """Append-only. The only basis for a claim (I16)."""

    id = _id_field("evt")
    sequence = models.PositiveBigIntegerField(editable=False)  # 1, 2, 3… per case
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="events")
    revision = models.PositiveIntegerField()
    type = models.CharField(max_length=100)
    data = models.JSONField(default=dict)
    command = models.ForeignKey(CommandJournalEntry, on_delete=models.PROTECT, related_name="events")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["case", "sequence"]
        constraints = [models.UniqueConstraint(fields=["case", "sequence"], name="event_sequence_unique_per_case")]

    def __str__(self) -> str:
        return f"{self.type} {self.id}"


class OutboxEntry(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        DELIVERED = "delivered"
        OUTCOME_UNKNOWN = "outcome_unknown"
        FAILED = "failed"

    id = _id_field("obx")
    destination = models.CharField(max_length=100)
    idempotency_key = models.CharField(max_length=64)
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="outbox")
    command = models.ForeignKey(CommandJournalEntry, on_delete=models.PROTECT, related_name="outbox")
    payload = models.JSONField(default=dict)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    acknowledgement = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name_plural = "outbox entries"
        constraints = [models.UniqueConstraint(fields=["destination", "idempotency_key"],
                                               name="outbox_key_unique_per_destination")]

    def __str__(self) -> str:
        return f"to {self.destination} {self.id} ({self.status}, {self.attempts} attempt{'s' if self.attempts != 1 else ''})"


class DemoApproverNotification(models.Model):
    """What the demo inbox received (``outbox.DemoInbox``: a destination whose factory configured no real
    system, e.g. the expense domain's approver while ``TURNFRAME_APPROVER_URL`` is unset): one row per
    idempotency key, as a real receiving system keeps it. ``claim`` is the case the row is about and
    ``submitted_by`` whose case it is; the model keeps the names it was created under (renaming it, or moving it
    to the domain that uses it, would be a migration across apps).

    It is the receiving side, apart from the outbox row that sent it: a key received twice (a re-send
    after an unknown outcome) is counted in ``times_received``, never recorded twice, and reconciling
    asks this table whether a key arrived.
    """

    id = _id_field("apn")
    idempotency_key = models.CharField(max_length=64, unique=True)
    claim = models.CharField(max_length=64, blank=True)
    submitted_by = models.CharField(max_length=150, blank=True)
    payload = models.JSONField(default=dict)
    times_received = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    last_received_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at"]
        verbose_name = "demo approver notification"

    def __str__(self) -> str:
        return f"received {self.claim or self.idempotency_key[:12]} ({self.times_received}×)"


class ApiToken(models.Model):
    """Bearer tokens for API clients. Only a hash is stored.

    A token authenticates while it is neither revoked nor expired (``TURNFRAME_TOKEN_TTL_DAYS``). A
    revoked token keeps its row, so the admin still shows who held it, until when, and why it ended.
    """

    class Revoked(models.TextChoices):
        BY_CLIENT = "by_client", "revoked by its client"
        ALL_BY_USER = "all_by_user", "all revoked by the user"
        PASSWORD_CHANGED = "password_changed", "the password changed"
        BY_STAFF = "by_staff", "revoked by staff"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)  # null: never
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_because = models.CharField(max_length=20, choices=Revoked.choices, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "revoked_at"], name="apitoken_user_live")]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"


def snapshot(case: Case) -> CaseSnapshot:
    """The plain, frozen view of a case the pure core and the domain's handlers read (no ORM object leaves)."""
    return CaseSnapshot(id=case.id, kind=case.kind, owner_id=case.owner_id, title=case.title, status=case.status,
                        revision=case.revision, state=case.state)
