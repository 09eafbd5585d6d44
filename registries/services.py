"""Writes on the audit mirror: follow the code, quarantine, disable, re-enable."""

from __future__ import annotations

import hashlib
import json

from django.db import transaction
from django.utils import timezone

from .definitions import ActDefinition, ReadToolDefinition
from .models import EntryStatus, FingerprintHistory, RegistryEntry
from .registry import get_registry


def schema_of(definition: ReadToolDefinition | ActDefinition) -> dict:
    return definition.args_schema.model_json_schema()


def fingerprint_of(definition: ReadToolDefinition | ActDefinition) -> str:
    if isinstance(definition, ReadToolDefinition):
        declared = {"kind": "read_tool", "mutability": definition.declared_mutability,
                    "timeout_ms": definition.timeout_ms, "max_result_bytes": definition.max_result_bytes,
                    "purposes": list(definition.purposes)}
    else:
        declared = {"kind": "act", "mutability": str(definition.mutability), "case_kind": definition.case_kind,
                    "claim_phrases": list(definition.claim_phrases), "quoted": list(definition.quoted_fields),
                    "sandboxed": definition.sandboxed}
    blob = json.dumps({"schema": schema_of(definition), **declared}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


_DEFAULT_AUTHORIZE = ReadToolDefinition.__dataclass_fields__["authorize"].default


def policy_name(rule, *, default=None) -> str:
    """A definition's policy as staff read it: ``expenses.policies.line_amount_policy``; the built-in
    default in words; an unnamed function by the module it lives in (never "<lambda>")."""
    if rule is None:
        return ""
    if default is not None and rule is default:
        return "built-in: any signed-in user (every read is scoped to them)"
    module, name = getattr(rule, "__module__", "") or "", getattr(rule, "__qualname__", "") or ""
    if not name or "<lambda>" in name or "<locals>" in name:
        return f"an unnamed rule in {module}" if module else "an unnamed rule"
    return f"{module}.{name}" if module else name


def _fields(definition: ReadToolDefinition | ActDefinition) -> dict:
    common = {"description": definition.description, "args_schema": schema_of(definition),
              "schema_fingerprint": fingerprint_of(definition), "present_in_code": True}
    if isinstance(definition, ReadToolDefinition):
        return common | {"mutability": definition.declared_mutability, "timeout_ms": definition.timeout_ms,
                         "max_result_bytes": definition.max_result_bytes, "purposes": list(definition.purposes),
                         "policy": policy_name(definition.authorize, default=_DEFAULT_AUTHORIZE)}
    return common | {"mutability": str(definition.mutability), "case_kind": definition.case_kind,
                     "claim_phrases": list(definition.claim_phrases), "quoted_fields": list(definition.quoted_fields),
                     "sandboxed": definition.sandboxed, "policy": policy_name(definition.policy)}


def mirror_sync() -> None:
    """Bring the mirror in step with the code: new rows, new fingerprints, last seen."""
    registry = get_registry()
    now = timezone.now()
    seen: set[str] = set()
    with transaction.atomic():
        for kind, definitions in ((RegistryEntry.Kind.READ_TOOL, registry.read_tools.values()),
                                  (RegistryEntry.Kind.ACT, registry.acts.values())):
            for definition in definitions:
                seen.add(definition.name)
                fields = _fields(definition)
                entry = RegistryEntry.objects.filter(name=definition.name).first()
                if entry is None:
                    entry = RegistryEntry.objects.create(name=definition.name, kind=kind, last_seen=now, **fields)
                    # first seen in this same pass: one instant (auto_now_add alone would be a little later)
                    RegistryEntry.objects.filter(pk=entry.pk).update(first_seen=now)
                    entry.first_seen = now
                elif entry.kind != kind:
                    # a name that changed sides is never silently re-kinded: keep it out of service
                    entry.status, entry.status_reason = EntryStatus.DISABLED, f"registered as {kind} but mirrored as {entry.kind}"
                    entry.last_seen = now
                    entry.save(update_fields=["status", "status_reason", "last_seen"])
                    continue
                else:
                    if entry.schema_fingerprint != fields["schema_fingerprint"]:
                        entry.fingerprint_changed_at = now
                    for k, v in fields.items():
                        setattr(entry, k, v)
                    entry.last_seen = now
                    entry.save()
                FingerprintHistory.objects.get_or_create(
                    entry=entry, fingerprint=fields["schema_fingerprint"], defaults={"args_schema": fields["args_schema"]})
        RegistryEntry.objects.exclude(name__in=seen).update(present_in_code=False)


def entry_statuses() -> dict[str, str]:
    """name -> status for every mirrored entry (what the runtime consults before offering)."""
    return dict(RegistryEntry.objects.values_list("name", "status"))


def entry_quarantine(*, name: str, reason: str) -> None:
    """Take a read tool out of service until staff re-enable it. Runs in its own transaction."""
    with transaction.atomic():
        updated = RegistryEntry.objects.filter(name=name).update(status=EntryStatus.QUARANTINED, status_reason=reason)
        if not updated:
            RegistryEntry.objects.create(name=name, kind=RegistryEntry.Kind.READ_TOOL, mutability="read_only",
                                         schema_fingerprint="", status=EntryStatus.QUARANTINED,
                                         status_reason=reason, last_seen=timezone.now())


def entry_set_status(*, name: str, status: str, reason: str = "") -> int:
    return RegistryEntry.objects.filter(name=name).update(status=status, status_reason=reason)
