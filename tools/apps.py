from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """Only management commands: no models, no URLs, nothing loaded at start."""

    name = "tools"
    verbose_name = "Development tools"
