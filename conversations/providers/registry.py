"""Build the provider a turn talks to (SPEC §7, CONTRACT §4).

``build_provider(name, role=...)`` with ``name`` one of ``local``, ``scripted``, ``openai``,
``anthropic`` (``TURNFRAME_PROVIDER`` / ``TURNFRAME_FALLBACK_PROVIDER``). Each implementation is
imported only when chosen, so the SDKs stay optional extras.

Real providers read ``settings.TURNFRAME["MODEL"]`` and ``["PROVIDER_TIMEOUT_S"]`` and, from the
environment, ``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``ANTHROPIC_API_KEY``, ``ANTHROPIC_BASE_URL``.
``TURNFRAME_MODEL`` names the model of the configured real provider; a fallback of another vendor
uses ``TURNFRAME_FALLBACK_MODEL``, else its own default model.
"""

from __future__ import annotations

import os

from django.conf import settings

from conversations.providers.base import Provider

PROVIDER_NAMES = ("local", "scripted", "openai", "anthropic")
DEFAULT_MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-sonnet-4-5"}
DEFAULT_TIMEOUT_S = 60.0


def build_provider(name: str, *, role: str = "primary") -> Provider:
    """A provider for one turn. ``role`` is ``"primary"`` or ``"fallback"``; unknown name: ValueError."""
    config = settings.TURNFRAME
    if name == "local":
        # Extension point: the embedded rule-based interpreter (SPEC §7.3), in local.py.
        from conversations.providers.local import LocalProvider

        return LocalProvider()
    if name == "scripted":
        # Extension point: the script replayer (CONTRACT §5), in scripted.py.
        from conversations.providers.scripted import ScriptedProvider

        return ScriptedProvider(config.get("SCRIPT"), role=role)
    if name == "openai":
        from conversations.providers.openai_provider import OpenAIProvider

        return OpenAIProvider(
            model=model_for(name, role=role),
            api_key=_env("OPENAI_API_KEY"),
            base_url=_env("OPENAI_BASE_URL") or None,
            timeout_s=_timeout_s(),
        )
    if name == "anthropic":
        from conversations.providers.anthropic_provider import AnthropicProvider

        return AnthropicProvider(
            model=model_for(name, role=role),
            api_key=_env("ANTHROPIC_API_KEY"),
            base_url=_env("ANTHROPIC_BASE_URL") or None,
            timeout_s=_timeout_s(),
        )
    raise ValueError(f"unknown provider {name!r}; expected one of {', '.join(PROVIDER_NAMES)}")


def model_for(name: str, *, role: str = "primary") -> str:
    """The model a real provider uses in ``role``."""
    configured = settings.TURNFRAME.get("MODEL")
    if role == "fallback":
        if explicit := _env("TURNFRAME_FALLBACK_MODEL"):
            return explicit
        primary = settings.TURNFRAME.get("PROVIDER")
        if primary in DEFAULT_MODELS and primary != name:
            return DEFAULT_MODELS[name]  # TURNFRAME_MODEL names the other vendor's model
    return configured or DEFAULT_MODELS[name]


def _env(key: str) -> str:
    return os.environ.get(key, "").strip()


def _timeout_s() -> float:
    return float(settings.TURNFRAME.get("PROVIDER_TIMEOUT_S") or DEFAULT_TIMEOUT_S)
