from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = "Conversations, turns and the ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from turnframe_web import sqlite

        from . import (
            checks,  # noqa: F401  (registers the deployment checks)
            signout,  # noqa: F401  (sign-out ends the socket: its user_logged_out receiver)
        )

        sqlite.checkpoint_in_background()
        sqlite.unicode_lower_everywhere()
        sqlite.rewritten_placeholders_kept()
