"""The admin as an audit console (style convention 9): the ledger, read-only, searchable by user.

Every ledger page derives from ``LedgerAdmin``: no add, no change, no delete, every field
read-only, no bulk actions. A POST to a change page is refused (403) and so is a delete. The turn
page shows *why* each act ran or did not (I20) from the turn's trace: the user's words that
licensed it, how its case was found, the policy decision, the outcome, and for every journaled
command the origin that authorized it. Everything that came from a user, a model or the database
is escaped (``format_html``, and the template of the turn page); nothing is marked safe by hand.

One module per job: the pages (here), what their columns show (``display``), and the turn page's
"why did this run" section (``why``, rendered by ``templates/admin/conversations/turn/why.html``).

API tokens are the one exception to "read-only": they may be listed, revoked (a bulk action that
keeps the row, marked) and deleted, never added or edited here, and their hash is not shown.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator

from registries.admin_base import ReadOnlyAdminMixin

from ..auth import token_revoke
from ..core.reducer import ALL_OUTCOMES
from ..models import (
    ApiToken,
    Case,
    CommandJournalEntry,
    Conversation,
    DemoApproverNotification,
    DomainEvent,
    Interaction,
    OutboxEntry,
    ReadRound,
    Turn,
)
from .display import NOTHING, admin_link, case_title_column, pretty
from .why import why_trace

# =============================================================================== the read-only base


class LedgerAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: no add, no change, no delete, every field read-only, no bulk actions."""

    actions = None
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    show_full_result_count = False
    list_per_page = 50

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.concrete_fields] + list(self.readonly_fields)


class LedgerInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True
    select_related: tuple[str, ...] = ()

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs.select_related(*self.select_related) if self.select_related else qs

    def get_readonly_fields(self, request, obj=None):
        return list(self.fields)


# =============================================================================== inlines


class ReadRoundInline(LedgerInline):
    model = ReadRound
    fields = ("round", "provider", "status", "requests_pretty", "results_pretty", "error")
    readonly_fields = ("requests_pretty", "results_pretty")
    show_change_link = False
    requests_pretty = pretty("requests")
    results_pretty = pretty("results")


class EventInline(LedgerInline):
    model = DomainEvent
    fk_name = "case"
    fields = ("sequence", "type", "revision", "command", "data_pretty", "created_at")
    select_related = ("command",)
    readonly_fields = ("data_pretty",)
    ordering = ("sequence",)
    data_pretty = pretty("data")


class CommandEventInline(EventInline):
    fk_name = "command"
    fields = ("case", "sequence", "type", "revision", "data_pretty", "created_at")
    select_related = ("case",)


class JournalInline(LedgerInline):
    model = CommandJournalEntry
    fk_name = "case"
    fields = ("id", "act", "status", "origin_kind", "expected_revision", "turn", "interaction", "created_at")
    select_related = ("turn", "interaction")
    ordering = ("created_at", "sequence")
    verbose_name_plural = "command journal"


class InteractionCommandsInline(JournalInline):
    fk_name = "interaction"
    fields = ("id", "act", "case", "status", "origin_kind", "expected_revision", "turn", "created_at")
    select_related = ("case", "turn")
    verbose_name_plural = "commands this card guards"


class OutboxInline(LedgerInline):
    model = OutboxEntry
    fk_name = "command"
    fields = ("id", "destination", "status", "attempts", "created_at", "updated_at")


class TurnInline(LedgerInline):
    model = Turn
    fields = ("id", "kind", "text", "status", "phase", "created_at")
    ordering = ("created_at",)


# =============================================================================== the ledger


@admin.register(Case)
class CaseAdmin(LedgerAdmin):
    list_display = ("id", "kind", "title", "owner", "status", "revision", "updated_at")
    list_filter = ("kind", "status")
    list_select_related = ("owner",)
    search_fields = ("=id", "title", "=owner__username")
    fields = ("id", "kind", "title", "owner", "status", "revision", "state_pretty", "created_at", "updated_at")
    readonly_fields = ("state_pretty",)
    inlines = (EventInline, JournalInline)
    state_pretty = pretty("state")


class DeletedByUserFilter(admin.SimpleListFilter):
    title, parameter_name = "deleted by its user", "deleted"

    def lookups(self, request, model_admin):
        return [("yes", "deleted"), ("no", "still listed")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(hidden_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(hidden_at__isnull=True)
        return queryset


@admin.register(Conversation)
class ConversationAdmin(LedgerAdmin):
    list_display = ("id", "owner", "title", "active_case_title", "hidden_at", "created_at")
    list_filter = ("mode", DeletedByUserFilter)
    list_select_related = ("owner", "active_case")
    search_fields = ("=id", "=owner__username", "title")
    fields = ("id", "owner", "title", "mode", "active_case", "event_seq", "hidden_at", "created_at")
    inlines = (TurnInline,)

    @admin.display(description="active case", ordering="active_case__title")
    def active_case_title(self, obj):
        return Truncator(obj.active_case.title).chars(32) if obj.active_case_id else NOTHING


class HadReadRoundsFilter(admin.SimpleListFilter):
    title, parameter_name = "had read rounds", "read_rounds"

    def lookups(self, request, model_admin):
        return [("yes", "yes"), ("no", "no")]

    def queryset(self, request, queryset):
        rounds = ReadRound.objects.filter(turn=OuterRef("pk"))
        if self.value() == "yes":
            return queryset.filter(Exists(rounds))
        if self.value() == "no":
            return queryset.exclude(Exists(rounds))
        return queryset


class ActOutcomeFilter(admin.SimpleListFilter):
    """Turns by what became of their acts (``Turn.acts``, as returned to the client): a turn matches an
    outcome when any of its acts had it; "no act" is a turn that proposed none."""

    title, parameter_name = "outcome of an act", "outcome"

    def lookups(self, request, model_admin):
        return [(o, o.replace("_", " ")) for o in sorted(ALL_OUTCOMES)] + [("none", "no act")]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "none":
            return queryset.filter(acts=[])
        if value in ALL_OUTCOMES:
            # the JSON text of the list holds '"outcome": "<value>"' on SQLite and PostgreSQL alike
            return queryset.filter(acts__icontains=f'"outcome": "{value}"')
        return queryset


@admin.register(Turn)
class TurnAdmin(LedgerAdmin):
    # at 1366 px the list must fit beside its filters: the conversation and kind are on the page and in search
    list_display = ("id", "conversation__owner", "short_text", "status", "outcomes", "created_at")
    list_filter = ("status", ActOutcomeFilter, HadReadRoundsFilter, "kind", "phase", "mode")
    list_select_related = ("conversation__owner",)
    search_fields = ("=id", "=conversation__id", "=conversation__owner__username", "=client_message_id", "text")
    fieldsets = (
        (None, {"fields": ("id", "conversation", "kind", "text", "interaction", "option", "mode", "phase", "status",
                           "client_message_id", "active_case_before", "created_at", "updated_at")}),
        ("Why did this run", {"fields": ("why",)}),
        ("What the user was told", {"fields": ("acts_pretty", "notices_pretty", "reply_pretty")}),
        ("Raw trace", {"classes": ("collapse",), "fields": ("trace_pretty",)}),
    )
    readonly_fields = ("why", "acts_pretty", "notices_pretty", "reply_pretty", "trace_pretty")
    inlines = (ReadRoundInline,)
    acts_pretty = pretty("acts", "acts (as returned)")
    notices_pretty = pretty("notices")
    reply_pretty = pretty("reply", "reply (as sent)")
    trace_pretty = pretty("trace")

    @admin.display(description="text")
    def short_text(self, obj):
        return Truncator(obj.text).chars(48) if obj.text else format_html("<em>{}</em>", obj.kind)

    @admin.display(description="act outcomes")
    def outcomes(self, obj):
        found = sorted({a.outcome for a in obj.acts if a.outcome})
        return ", ".join(o.replace("_", " ") for o in found) or NOTHING

    @admin.display(description="why did this run")
    def why(self, obj):
        return why_trace(obj)


@admin.register(Interaction)
class InteractionAdmin(LedgerAdmin):
    list_display = ("id", "kind", "status", "owner", "case_title", "chosen_option", "created_at")
    list_filter = ("kind", "status", "blocking")
    list_select_related = ("owner", "case", "turn")
    search_fields = ("=id", "=owner__username", "=case__id", "=turn__id", "=conversation__id")
    fields = ("id", "conversation", "turn", "owner", "kind", "status", "blocking", "case", "case_revision", "prompt",
              "options_pretty", "held_acts_pretty", "candidates_pretty", "chosen_option", "answered_by",
              "result_turn", "created_at", "resolved_at")
    readonly_fields = ("options_pretty", "held_acts_pretty", "candidates_pretty")
    inlines = (InteractionCommandsInline,)
    case_title = case_title_column()
    options_pretty = pretty("options", "options (with their stored actions)")
    held_acts_pretty = pretty("held_acts")
    candidates_pretty = pretty("candidates")


@admin.register(CommandJournalEntry)
class CommandJournalEntryAdmin(LedgerAdmin):
    list_display = ("id", "act", "case_title", "status", "origin_kind", "expected_revision", "created_at")
    list_filter = ("status", "act", "origin_kind", "created_at")
    list_select_related = ("case", "interaction", "turn")
    search_fields = ("=id", "=idempotency_key", "=case__id", "=turn__id", "=conversation__owner__username",
                     "=case__owner__username")
    fields = ("id", "idempotency_key", "conversation", "turn", "plan_act_id", "act", "case", "case_from_act",
              "args_pretty", "expected_revision", "sequence", "status", "origin_kind", "origin_pretty", "interaction",
              "result_pretty", "created_at", "updated_at")
    readonly_fields = ("args_pretty", "origin_pretty", "result_pretty")
    inlines = (CommandEventInline, OutboxInline)
    args_pretty = pretty("args", "arguments")
    origin_pretty = pretty("origin")
    result_pretty = pretty("result")
    case_title = case_title_column()


@admin.register(DomainEvent)
class DomainEventAdmin(LedgerAdmin):
    list_display = ("id", "type", "case_title", "revision", "created_at")
    list_filter = ("type", "created_at")
    list_select_related = ("case", "command")
    search_fields = ("=id", "=case__id", "=command__id", "=case__owner__username", "type")
    fields = ("id", "case", "sequence", "revision", "type", "data_pretty", "command", "created_at")
    readonly_fields = ("data_pretty",)
    case_title = case_title_column()
    data_pretty = pretty("data")


@admin.register(OutboxEntry)
class OutboxEntryAdmin(LedgerAdmin):
    list_display = ("id", "destination", "status", "attempts", "case_title", "updated_at")
    list_filter = ("status", "destination", "created_at")
    list_select_related = ("case", "command")
    search_fields = ("=id", "=idempotency_key", "=case__id", "=command__id", "=case__owner__username")
    fields = ("id", "destination", "idempotency_key", "case", "command", "status", "attempts", "payload_pretty",
              "acknowledgement_pretty", "created_at", "updated_at")
    readonly_fields = ("payload_pretty", "acknowledgement_pretty")
    case_title = case_title_column()
    payload_pretty = pretty("payload")
    acknowledgement_pretty = pretty("acknowledgement")


@admin.register(DemoApproverNotification)
class DemoApproverNotificationAdmin(LedgerAdmin):
    """The demo inbox: what a destination with no real system configured received, once per idempotency key
    (``outbox.DemoInbox``)."""

    list_display = ("id", "claim", "submitted_by", "times_received", "created_at", "last_received_at")
    search_fields = ("=id", "=idempotency_key", "=claim", "=submitted_by")
    fields = ("id", "idempotency_key", "sent_by", "claim", "submitted_by", "times_received", "payload_pretty",
              "created_at", "last_received_at")
    readonly_fields = ("sent_by", "payload_pretty")
    payload_pretty = pretty("payload")

    @admin.display(description="outbox row")
    def sent_by(self, obj):
        row = OutboxEntry.objects.filter(idempotency_key=obj.idempotency_key).values_list("pk", flat=True).first()
        return admin_link(OutboxEntry, row)


class TokenStatusFilter(admin.SimpleListFilter):
    title, parameter_name = "status", "status"

    def lookups(self, request, model_admin):
        return [("live", "live"), ("expired", "expired"), ("revoked", "revoked")]

    def queryset(self, request, queryset):
        now = timezone.now()
        live = Q(revoked_at__isnull=True) & (Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        if self.value() == "live":
            return queryset.filter(live)
        if self.value() == "expired":
            return queryset.filter(revoked_at__isnull=True, expires_at__lte=now)
        if self.value() == "revoked":
            return queryset.filter(revoked_at__isnull=False)
        return queryset


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """List, revoke (the row stays, marked) and delete only. Tokens are issued through the API; the hash
    is never shown."""

    list_display = ("prefix", "user", "status", "created_at", "last_used_at", "expires_at", "revoked_at")
    list_select_related = ("user",)
    list_filter = (TokenStatusFilter,)
    search_fields = ("=user__username", "=prefix")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    fields = readonly_fields = ("prefix", "user", "status", "created_at", "last_used_at", "expires_at", "revoked_at",
                                "revoked_because")
    actions = ("revoke",)
    may_delete = True  # revoke or delete; never add or edit

    @admin.display(description="status")
    def status(self, token: ApiToken) -> str:
        if token.revoked_at is not None:
            return f"revoked ({token.get_revoked_because_display() or 'revoked'})"
        if token.expires_at is not None and token.expires_at <= timezone.now():
            return "expired"
        return "live"

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset) -> None:
        count = token_revoke(tokens=queryset, because=ApiToken.Revoked.BY_STAFF)
        self.message_user(request, f"Revoked {count} token{'s' if count != 1 else ''}.")
