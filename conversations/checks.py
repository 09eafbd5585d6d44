"""Deployment checks (``manage.py check --deploy``) for what this project adds to Django's own.

Django already flags ``DEBUG`` on (``security.W018``: the debug 404 page lists every URL pattern),
cookies, HSTS and the rest. These flag the settings of ours that are fine for ``make run`` but
wrong in production.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

DEVELOPMENT_HOSTS = {"127.0.0.1", "localhost", "[::1]", "testserver"}


@register(Tags.security, deploy=True)
def check_production_settings(app_configs=None, **kwargs) -> list[Warning]:
    warnings = []
    if not settings.AXES_ENABLED:
        warnings.append(Warning("Sign-in limits are off: passwords can be guessed without limit.",
                                hint="Unset TURNFRAME_LOGIN_FAILURE_LIMIT (default 5) or set it above 0.",
                                id="turnframe.W001"))
    if settings.TURNFRAME["TOKEN_TTL_DAYS"] <= 0:
        warnings.append(Warning("Bearer tokens never expire.",
                                hint="Unset TURNFRAME_TOKEN_TTL_DAYS (default 30) or set it above 0.",
                                id="turnframe.W002"))
    if set(settings.ALLOWED_HOSTS) <= DEVELOPMENT_HOSTS:
        warnings.append(Warning("ALLOWED_HOSTS names only local development hosts.",
                                hint="Set ALLOWED_HOSTS to the host names the site is served under.",
                                id="turnframe.W003"))
    for name in ("400.html", "403.html", "403_csrf.html", "404.html", "500.html"):
        try:
            get_template(name)
        except TemplateDoesNotExist:
            warnings.append(Warning(f"No {name}: that error shows Django's bare page in production.",
                                    hint="Keep the styled error pages in templates/.", id="turnframe.W004"))
    return warnings


@register()
def check_providers(app_configs=None, **kwargs) -> list[Error]:
    """The configured provider names must be in TURNFRAME_PROVIDERS and import (E020): found before a turn needs them."""
    from .providers.registry import provider_factory

    errors = []
    for setting in ("PROVIDER", "FALLBACK_PROVIDER"):
        name = settings.TURNFRAME[setting]
        if not name:
            continue
        try:
            provider_factory(name)
        except ImproperlyConfigured as exc:
            errors.append(Error(f"TURNFRAME_{setting}={name!r}: {exc}", id="turnframe.E020",
                                hint="Set it to a name of TURNFRAME_PROVIDERS, or add an entry for it."))
    return errors


SUPPORTED_ENGINES = ("django.db.backends.sqlite3", "django.db.backends.postgresql")  # the turn statements' two


@register()
def check_database_engine(app_configs=None, **kwargs) -> list[Error]:
    """The hand-written statements (conversations/store) are written for SQLite and PostgreSQL: another
    database is refused at start (every management command, daphne's first request), not with a KeyError in
    the middle of a turn."""
    errors = []
    for alias, database in settings.DATABASES.items():
        if database.get("ENGINE") not in SUPPORTED_ENGINES:
            errors.append(Error(f"The database {alias!r} uses {database.get('ENGINE')}; Turnframe runs on SQLite "
                                "or PostgreSQL.", hint="Point DATABASE_URL at PostgreSQL (or leave it unset for "
                                "SQLite).", id="turnframe.E001"))
    return errors
