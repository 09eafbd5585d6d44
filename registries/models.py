"""The audit mirror (SPEC §21.3): registered definitions as rows the admin can inspect.

Definitions live in code. These rows follow them (``registries.services.mirror_sync``) and carry
what only the database can: first/last seen, schema fingerprints over time, and the operational
status staff set (``disabled``) or the runtime sets (``quarantined``).
"""

from django.db import models


class EntryStatus(models.TextChoices):
    ACTIVE = "active"
    DISABLED = "disabled"
    QUARANTINED = "quarantined"


class RegistryEntry(models.Model):
    class Kind(models.TextChoices):
        READ_TOOL = "read_tool", "read tool"
        ACT = "act", "act"

    name = models.CharField(max_length=100, unique=True)
    # set once, when first mirrored; nothing can change an act into a read tool (the admin has it read-only)
    kind = models.CharField(max_length=16, choices=Kind.choices, editable=False)
    description = models.TextField(blank=True)
    mutability = models.CharField(max_length=32)
    case_kind = models.CharField(max_length=64, blank=True)
    timeout_ms = models.PositiveIntegerField(null=True, blank=True)
    max_result_bytes = models.PositiveIntegerField(null=True, blank=True)
    purposes = models.JSONField(default=list, blank=True)
    claim_phrases = models.JSONField(default=list, blank=True)
    quoted_fields = models.JSONField(default=list, blank=True)
    policy = models.CharField(max_length=200, blank=True)
    sandboxed = models.BooleanField(default=False)
    args_schema = models.JSONField(default=dict)
    schema_fingerprint = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=EntryStatus.choices, default=EntryStatus.ACTIVE)
    status_reason = models.TextField(blank=True)
    present_in_code = models.BooleanField(default=True)
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()
    fingerprint_changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "name"]
        verbose_name = "registry entry"
        verbose_name_plural = "registry entries"

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.name}"


class ReadToolEntry(RegistryEntry):
    class Meta:
        proxy = True
        verbose_name = "read tool"


class ActEntry(RegistryEntry):
    class Meta:
        proxy = True
        verbose_name = "act"


class FingerprintHistory(models.Model):
    """Every schema fingerprint an entry has had, with when it was first seen."""

    entry = models.ForeignKey(RegistryEntry, on_delete=models.CASCADE, related_name="fingerprints")
    fingerprint = models.CharField(max_length=64)
    args_schema = models.JSONField(default=dict)
    seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-seen_at"]
        constraints = [models.UniqueConstraint(fields=["entry", "fingerprint"], name="fingerprint_once_per_entry")]

    def __str__(self) -> str:
        seen = f", first seen {self.seen_at:%Y-%m-%d %H:%M}" if self.seen_at else ""
        return f"schema {self.fingerprint[:12]} of {self.entry.name}{seen}"
