"""Build the provider a turn talks to (SPEC §7, CONTRACT §4), the way Django loads auth backends.

``settings.TURNFRAME_PROVIDERS`` maps each provider name (``TURNFRAME_PROVIDER`` /
``TURNFRAME_FALLBACK_PROVIDER``) to the dotted path of a *factory*: a callable
``factory(role: str) -> Provider`` (a class whose ``__init__`` takes ``role`` works too). The four
shipped names are ``local``, ``scripted``, ``openai`` and ``anthropic``; an adopter adds one with a
settings entry and no engine edit (the four are defined once, in ``turnframe_web/settings.py``)::

    from turnframe_web.settings import *
    TURNFRAME_PROVIDERS = {**TURNFRAME_PROVIDERS, "ollama": "myapp.providers.ollama_provider"}

Each factory is imported only when its name is used, so the SDKs stay optional extras. A name that
is not in the map, or a path that does not import, is ``ImproperlyConfigured`` with a message that
says which and what is available; ``manage.py check`` reports the configured names ahead of time.

The real providers read ``settings.TURNFRAME["MODEL"]``, their own timeout (``["OPENAI_TIMEOUT_S"]``,
``["ANTHROPIC_TIMEOUT_S"]``, each by default ``["PROVIDER_TIMEOUT_S"]``: a CPU-only local server may need
minutes for a first call), the bound on an answer's length (``["MODEL_MAX_TOKENS"]``) and, from the
environment, ``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``ANTHROPIC_API_KEY``, ``ANTHROPIC_BASE_URL``.
``TURNFRAME_MODEL`` names the model of the configured real provider; a fallback of another vendor
uses ``TURNFRAME_FALLBACK_MODEL``, else its own default model.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from conversations.providers.base import Provider

DEFAULT_MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-sonnet-4-5"}


def provider_names() -> tuple[str, ...]:
    return tuple(_providers())


def build_provider(name: str, *, role: str = "primary") -> Provider:
    """A provider for one turn. ``role`` is ``"primary"`` or ``"fallback"``."""
    return provider_factory(name)(role)


def provider_factory(name: str) -> Callable[[str], Provider]:
    """The factory ``TURNFRAME_PROVIDERS`` names for ``name``; ImproperlyConfigured when there is none."""
    providers = _providers()
    path = providers.get(name)
    if path is None:
        raise ImproperlyConfigured(
            f"unknown provider {name!r}: TURNFRAME_PROVIDERS names {', '.join(sorted(providers))}")
    try:
        factory = import_string(path)
    except ImportError as exc:
        raise ImproperlyConfigured(f"provider {name!r}: cannot import {path!r} ({exc})") from exc
    if not callable(factory):
        raise ImproperlyConfigured(f"provider {name!r}: {path!r} is not callable")
    return factory


def _providers() -> dict[str, str]:
    return dict(settings.TURNFRAME_PROVIDERS)


# --------------------------------------------------------------------------- the shipped factories


def local_provider(role: str) -> Provider:
    """The embedded rule-based interpreter the domain app registers (SPEC §7.3)."""
    from conversations.providers.local import LocalProvider

    return LocalProvider()


def scripted_provider(role: str) -> Provider:
    """The script replayer (CONTRACT §5): ``TURNFRAME_SCRIPT``."""
    from conversations.providers.scripted import ScriptedProvider

    return ScriptedProvider(settings.TURNFRAME["SCRIPT"], role=role)


def openai_provider(role: str) -> Provider:
    from conversations.providers.openai_provider import OpenAIProvider

    try:
        return OpenAIProvider(model=model_for("openai", role=role), api_key=_env("OPENAI_API_KEY"),
                              base_url=_env("OPENAI_BASE_URL") or None, timeout_s=timeout_s("openai"),
                              max_tokens=settings.TURNFRAME["MODEL_MAX_TOKENS"],
                              response_format=settings.TURNFRAME["OPENAI_RESPONSE_FORMAT"])
    except ValueError as exc:
        raise ImproperlyConfigured(f"TURNFRAME_OPENAI_RESPONSE_FORMAT: {exc}") from None


def anthropic_provider(role: str) -> Provider:
    from conversations.providers.anthropic_provider import AnthropicProvider

    return AnthropicProvider(model=model_for("anthropic", role=role), api_key=_env("ANTHROPIC_API_KEY"),
                             base_url=_env("ANTHROPIC_BASE_URL") or None, timeout_s=timeout_s("anthropic"),
                             max_tokens=settings.TURNFRAME["MODEL_MAX_TOKENS"])


def model_for(name: str, *, role: str = "primary") -> str:
    """The model a real provider uses in ``role``."""
    configured = settings.TURNFRAME["MODEL"]
    if role == "fallback":
        if explicit := _env("TURNFRAME_FALLBACK_MODEL"):
            return explicit
        primary = settings.TURNFRAME["PROVIDER"]
        if primary in DEFAULT_MODELS and primary != name:
            return DEFAULT_MODELS[name]  # TURNFRAME_MODEL names the other vendor's model
    return configured or DEFAULT_MODELS[name]


def _env(key: str) -> str:
    return os.environ.get(key, "").strip()


def timeout_s(name: str) -> float:
    """How long a call of provider ``name`` may take: its own setting, else the shared one."""
    own = settings.TURNFRAME[f"{name.upper()}_TIMEOUT_S"]
    return float(own or settings.TURNFRAME["PROVIDER_TIMEOUT_S"])
