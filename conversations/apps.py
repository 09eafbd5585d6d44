from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = "Conversations, turns and the ledger"
    default_auto_field = "django.db.models.BigAutoField"
