from django.apps import AppConfig


class RegistriesConfig(AppConfig):
    name = "registries"
    verbose_name = "Registries (read tools and acts)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
        from .signals import connect

        connect()
