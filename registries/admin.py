"""The audit mirror in the admin (SPEC §21.3): look at every read tool and act, disable or re-enable.

Definitions live in code; these pages only show their mirror rows. Nothing here is editable: no
add, no change form, no delete, and ``kind`` / ``mutability`` are never form fields, so nothing can
turn an act into a read tool. The one write is the operational status, through
``registries.services.entry_set_status``, offered as the actions "Disable" and "Re-enable" (on the
list and on each entry's page) and recorded in the admin history.
"""

from __future__ import annotations

import json
from typing import ClassVar

from django.contrib import admin, messages
from django.contrib.auth import get_permission_codename
from django.utils.html import format_html, format_html_join

from .admin_base import ReadOnlyAdminMixin
from .models import ActEntry, EntryStatus, FingerprintHistory, ReadToolEntry, RegistryEntry
from .registry import get_registry
from .services import entry_set_status

BOTH = [admin.ActionLocation.CHANGE_LIST, admin.ActionLocation.CHANGE_FORM]


def _json_block(value) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))


def _words(values) -> str:
    return format_html_join(", ", "<code>{}</code>", ((v,) for v in values or [])) or "—"


def _kind_in_code(name: str) -> str | None:
    registry = get_registry()
    if name in registry.read_tools:
        return RegistryEntry.Kind.READ_TOOL
    if name in registry.acts:
        return RegistryEntry.Kind.ACT
    return None


class FingerprintHistoryInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = FingerprintHistory
    fields = readonly_fields = ("seen_at", "fingerprint", "schema")
    ordering = ("-seen_at",)
    extra = 0
    can_delete = False
    verbose_name = "schema fingerprint"
    verbose_name_plural = "schema fingerprints over time"

    @admin.display(description="argument schema")
    def schema(self, obj):
        return _json_block(obj.args_schema)


class RegistryEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Shared by the read-tool, act and all-entries pages: read-only, plus the two status actions."""

    entry_kind: str | None = None  # the proxy pages show one kind only
    # what fits beside the filters at 1366 px; the rest is on each entry's page
    list_display = ("name", "kind", "mutability", "status_with_reason", "fingerprint_short", "last_seen",
                    "present_in_code")
    list_filter: ClassVar[tuple[str, ...]] = ("kind", "status", "mutability", "present_in_code")
    search_fields = ("name",)
    ordering = ("kind", "name")
    inlines = (FingerprintHistoryInline,)
    actions = ("disable", "reenable")
    fieldsets = (
        (None, {"fields": ("name", "kind", "mutability", "description", "case_kind", "policy",
                           "status_with_reason", "present_in_code")}),
        ("Limits and declarations", {"fields": ("timeout_ms", "max_result_bytes", "purposes_list",
                                                "claim_phrases_list", "quoted_fields_list", "sandboxed")}),
        ("Schema", {"fields": ("schema_fingerprint", "fingerprint_changed_at", "schema")}),
        ("Seen", {"fields": ("first_seen", "last_seen")}),
    )

    # ---------------------------------------------------------------- read-only, always
    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs.filter(kind=self.entry_kind) if self.entry_kind else qs

    def get_readonly_fields(self, request, obj=None):
        computed = ("status_with_reason", "purposes_list", "claim_phrases_list", "quoted_fields_list", "schema")
        return [f.name for f in self.model._meta.concrete_fields] + list(computed)

    def has_set_status_permission(self, request):
        """Who may run "Disable" / "Re-enable": staff holding this page's change permission."""
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.{get_permission_codename('change', opts)}")

    # ---------------------------------------------------------------- display
    @admin.display(description="status", ordering="status")
    def status_with_reason(self, obj):
        if obj.status_reason:
            return format_html("{} — {}", obj.get_status_display(), obj.status_reason)
        return obj.get_status_display()

    @admin.display(description="fingerprint", ordering="schema_fingerprint")
    def fingerprint_short(self, obj):
        return format_html('<code title="{}">{}</code>', obj.schema_fingerprint, obj.schema_fingerprint[:12])

    @admin.display(description="purposes")
    def purposes_list(self, obj):
        return _words(obj.purposes)

    @admin.display(description="claim phrases")
    def claim_phrases_list(self, obj):
        return _words(obj.claim_phrases)

    @admin.display(description="quoted fields")
    def quoted_fields_list(self, obj):
        return _words(obj.quoted_fields)

    @admin.display(description="argument schema")
    def schema(self, obj):
        return _json_block(obj.args_schema)

    # ---------------------------------------------------------------- the two writes
    def _set_status(self, request, queryset, *, status: str, verb: str, reason: str) -> None:
        changed, refused = [], []
        for entry in queryset.exclude(status=status).order_by("name"):
            in_code = _kind_in_code(entry.name)
            if status == EntryStatus.ACTIVE and in_code not in (None, entry.kind):
                # the mirror holds a name that changed sides out of service; staff cannot wave it through
                self.message_user(request, f"{entry.name} is registered in code as {in_code} but mirrored as "
                                  f"{entry.kind}; not re-enabled.", messages.ERROR)
                refused.append(entry.name)
                continue
            was = entry.status + (f": {entry.status_reason}" if entry.status_reason else "")
            if entry_set_status(name=entry.name, status=status, reason=reason):
                self.log_change(request, entry, f"{verb} through the admin (was {was}).")
                changed.append(entry.name)
        if changed:
            self.message_user(request, f"{verb}: {', '.join(changed)}.", messages.SUCCESS)
        elif not refused:
            self.message_user(request, f"Nothing to do: every selected entry is already {status}.", messages.INFO)

    @admin.action(description="Disable (stop offering it)", description_plural="Disable selected %(verbose_name_plural)s",
                  permissions=["set_status"], location=BOTH)
    def disable(self, request, queryset):
        self._set_status(request, queryset, status=EntryStatus.DISABLED, verb="Disabled",
                         reason=f"disabled by {request.user.get_username()} in the admin")

    @admin.action(description="Re-enable (also lifts a quarantine)",
                  description_plural="Re-enable selected %(verbose_name_plural)s (also lifts a quarantine)",
                  permissions=["set_status"], location=BOTH)
    def reenable(self, request, queryset):
        self._set_status(request, queryset, status=EntryStatus.ACTIVE, verb="Re-enabled", reason="")


@admin.register(ReadToolEntry)
class ReadToolEntryAdmin(RegistryEntryAdmin):
    entry_kind = RegistryEntry.Kind.READ_TOOL
    list_display = ("name", "policy", "status_with_reason", "timeout_ms", "fingerprint_short", "last_seen",
                    "present_in_code")
    list_filter = ("status", "mutability", "present_in_code")


@admin.register(ActEntry)
class ActEntryAdmin(RegistryEntryAdmin):
    entry_kind = RegistryEntry.Kind.ACT
    list_display = ("name", "mutability", "claim_phrases_list", "policy", "status_with_reason", "last_seen",
                    "present_in_code")
    list_filter = ("status", "mutability", "case_kind", "present_in_code")


@admin.register(RegistryEntry)
class AllRegistryEntriesAdmin(RegistryEntryAdmin):
    """Both kinds on one page, filterable by kind: where a name that changed sides shows up."""
