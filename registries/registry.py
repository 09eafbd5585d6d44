"""The process-wide registry that domain apps fill from ``AppConfig.ready()``.

Registration records what was declared; it does not judge it. Django system checks
(``registries.checks``) judge the whole registry, so a bad declaration fails ``manage.py check``
and start-up with a clear message instead of an import-time traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .definitions import (
    ActDefinition,
    CaseKindDefinition,
    DemoCase,
    Interpreter,
    ReadToolDefinition,
    Registry,
)

_case_kinds: dict[str, CaseKindDefinition] = {}
_read_tools: dict[str, ReadToolDefinition] = {}
_acts: dict[str, ActDefinition] = {}
_interpreters: list[Interpreter] = []
_demo_seeds: list[Callable[[], Sequence[DemoCase]]] = []
# every registration in order, duplicates included, so checks can report a name given twice
_registrations: list[tuple[str, str]] = []


def register_case_kind(definition: CaseKindDefinition) -> CaseKindDefinition:
    _registrations.append(("case_kind", definition.name))
    _case_kinds.setdefault(definition.name, definition)
    return definition


def register_read_tool(definition: ReadToolDefinition) -> ReadToolDefinition:
    _registrations.append(("read_tool", definition.name))
    _read_tools.setdefault(definition.name, definition)
    return definition


def register_act(definition: ActDefinition) -> ActDefinition:
    _registrations.append(("act", definition.name))
    _acts.setdefault(definition.name, definition)
    return definition


def register_interpreter(interpreter: Interpreter) -> Interpreter:
    """Register the embedded local interpreter (TURNFRAME_PROVIDER=local)."""
    _interpreters.append(interpreter)
    return interpreter


def register_demo_cases(seed: Callable[[], Sequence[DemoCase]]) -> Callable[[], Sequence[DemoCase]]:
    """Register the demo cases ``manage.py seed_demo`` creates (idempotent by owner and title)."""
    _demo_seeds.append(seed)
    return seed


def demo_cases() -> list[DemoCase]:
    return [case for seed in _demo_seeds for case in seed()]


def get_registry() -> Registry:
    return Registry(case_kinds=dict(_case_kinds), read_tools=dict(_read_tools), acts=dict(_acts))


def get_interpreter() -> Interpreter | None:
    return _interpreters[-1] if _interpreters else None


def registrations() -> list[tuple[str, str]]:
    return list(_registrations)


class override:
    """Test helper: swap in extra or replacement definitions, restoring the registry on exit."""

    def __init__(self, *, read_tools=(), acts=(), case_kinds=(), remove=()):
        self.read_tools, self.acts, self.case_kinds, self.remove = read_tools, acts, case_kinds, remove

    def __enter__(self):
        self._saved = (dict(_case_kinds), dict(_read_tools), dict(_acts), list(_registrations))
        for name in self.remove:
            _read_tools.pop(name, None)
            _acts.pop(name, None)
        for d in self.case_kinds:
            _case_kinds[d.name] = d
        for d in self.read_tools:
            _read_tools[d.name] = d
            _registrations.append(("read_tool", d.name))
        for d in self.acts:
            _acts[d.name] = d
            _registrations.append(("act", d.name))
        return self

    def __exit__(self, *exc):
        ck, rt, acts, regs = self._saved
        _case_kinds.clear(), _case_kinds.update(ck)
        _read_tools.clear(), _read_tools.update(rt)
        _acts.clear(), _acts.update(acts)
        _registrations.clear(), _registrations.extend(regs)
        return False
