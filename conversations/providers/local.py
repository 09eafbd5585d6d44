"""The embedded local interpreter (SPEC §7.3), as a provider.

The interpreter itself belongs to the domain app, which registers it with
``registries.register_interpreter``; this adapter only calls it, so its answers go through the
same parser, read loop and reducer as a real model's.
"""

from __future__ import annotations

from conversations.core.context import ModelRequest
from registries import get_interpreter

from .base import ProviderFailure


class LocalProvider:
    in_process = True  # answers from this process at once: the turn keeps its database connection meanwhile
    answers_at_once = True  # nothing to show the page while it answers (stream.flush_held)
    name = "local"

    def complete(self, request: ModelRequest) -> str:
        interpreter = get_interpreter()
        if interpreter is None:
            raise ProviderFailure("unavailable", "no local interpreter is registered")
        return interpreter(request)
