"""The process-wide registry that domain apps fill from ``AppConfig.ready()``, like ``admin.site``.

A name registered twice, or a name that is both a read tool and an act, is refused at once with
``AlreadyRegistered`` (the traceback points at the second registration). What only the whole registry
can show (a read tool that declares itself mutating, an act on a case kind nobody registered, unsafe
acts in ``sandboxed_autonomous`` mode, …) is judged by Django system checks (``registries.checks``),
so ``manage.py check`` and start-up report it with a clear message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .definitions import (
    ActDefinition,
    CaseKindDefinition,
    DemoCase,
    Interpreter,
    OutboxDestination,
    ReadToolDefinition,
    Registry,
)


class AlreadyRegistered(ValueError):
    """A name was registered a second time (or as both a read tool and an act)."""


class DefinitionSite:
    """Case kinds, read tools and acts by name, the interpreter, and the demo data seeds."""

    def __init__(self) -> None:
        self.case_kinds: dict[str, CaseKindDefinition] = {}
        self.read_tools: dict[str, ReadToolDefinition] = {}
        self.acts: dict[str, ActDefinition] = {}
        self.interpreters: list[Interpreter] = []
        self.demo_seeds: list[Callable[[], Sequence[DemoCase]]] = []
        self.destinations: dict[str, Callable[[], OutboxDestination | None]] = {}

    def register_case_kind(self, definition: CaseKindDefinition) -> CaseKindDefinition:
        self._refuse_twice("case kind", definition.name, self.case_kinds)
        self.case_kinds[definition.name] = definition
        return definition

    def register_read_tool(self, definition: ReadToolDefinition) -> ReadToolDefinition:
        self._refuse_twice("read tool", definition.name, self.read_tools)
        if definition.name in self.acts:
            raise AlreadyRegistered(f"{definition.name!r} is already an act: a lookup and a change cannot share a "
                                    "name (mutating operations are acts only)")
        self.read_tools[definition.name] = definition
        return definition

    def register_act(self, definition: ActDefinition) -> ActDefinition:
        self._refuse_twice("act", definition.name, self.acts)
        if definition.name in self.read_tools:
            raise AlreadyRegistered(f"{definition.name!r} is already a read tool: a lookup and a change cannot share "
                                    "a name (mutating operations are acts only)")
        self.acts[definition.name] = definition
        return definition

    def register_outbox_destination(self, name: str, factory: Callable[[], OutboxDestination | None]
                                    ) -> Callable[[], OutboxDestination | None]:
        self._refuse_twice("outbox destination", name, self.destinations)
        self.destinations[name] = factory
        return factory

    def unregister(self, name: str) -> None:
        """Remove a read tool or act (an adopter replacing a shipped one; tests)."""
        self.read_tools.pop(name, None)
        self.acts.pop(name, None)

    def snapshot(self) -> Registry:
        return Registry(case_kinds=dict(self.case_kinds), read_tools=dict(self.read_tools), acts=dict(self.acts))

    @staticmethod
    def _refuse_twice(what: str, name: str, known: dict) -> None:
        if name in known:
            raise AlreadyRegistered(f"{what} {name!r} is already registered; register each name once")


site = DefinitionSite()


def register_case_kind(definition: CaseKindDefinition) -> CaseKindDefinition:
    return site.register_case_kind(definition)


def register_read_tool(definition: ReadToolDefinition) -> ReadToolDefinition:
    return site.register_read_tool(definition)


def register_act(definition: ActDefinition) -> ActDefinition:
    return site.register_act(definition)


def register_outbox_destination(name: str, factory: Callable[[], OutboxDestination | None]
                                ) -> Callable[[], OutboxDestination | None]:
    """Register where the outbox rows named ``name`` (``OutboxDraft.destination``) are delivered: ``factory``
    builds the destination when the worker needs it (so it may read settings then). It returns None when no
    real system is configured: the engine's demo inbox then receives the rows and records them (the admin's
    "demo approver notifications"; the no-network default)."""
    return site.register_outbox_destination(name, factory)


def outbox_destination(name: str) -> OutboxDestination | None:
    """The destination registered as ``name``, built now; None when its factory configured no real system (the
    demo inbox receives its rows). Raises ``LookupError`` for a name nobody registered."""
    if name not in site.destinations:
        raise LookupError(f"no outbox destination {name!r} is registered")
    return site.destinations[name]()


def register_interpreter(interpreter: Interpreter) -> Interpreter:
    """Register the embedded local interpreter (TURNFRAME_PROVIDER=local)."""
    site.interpreters.append(interpreter)
    return interpreter


def register_demo_cases(seed: Callable[[], Sequence[DemoCase]]) -> Callable[[], Sequence[DemoCase]]:
    """Register the demo cases ``manage.py seed_demo`` creates (idempotent by owner and title)."""
    site.demo_seeds.append(seed)
    return seed


def demo_cases() -> list[DemoCase]:
    return [case for seed in site.demo_seeds for case in seed()]


def get_registry() -> Registry:
    return site.snapshot()


def get_interpreter() -> Interpreter | None:
    return site.interpreters[-1] if site.interpreters else None
