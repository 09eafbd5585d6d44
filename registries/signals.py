"""Keep the audit mirror in step with the code after every ``migrate``."""

from django.db.models.signals import post_migrate


def _sync(sender, **kwargs):
    if sender.name != "registries":
        return
    from .services import mirror_sync

    mirror_sync()


def connect() -> None:
    post_migrate.connect(_sync, dispatch_uid="registries.mirror_sync")
