"""System checks over the whole registry (``manage.py check`` and start-up)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, register

from .definitions import READ_ONLY, ActMutability, Mode
from .registry import get_registry


@register("turnframe")
def check_registry(app_configs=None, **kwargs):
    errors: list[Error] = []
    registry = get_registry()
    # a name registered twice (E002) is refused at registration (AlreadyRegistered); a registry put together
    # by hand can still hold a name twice across kinds
    both = set(registry.read_tools) & set(registry.acts)
    for name in sorted(both):
        errors.append(Error(f"{name!r} is registered both as a read tool and as an act",
                            hint="Mutating operations are acts only; lookups are read tools only.",
                            id="registries.E003"))
    for tool in registry.read_tools.values():
        if tool.declared_mutability != READ_ONLY:
            errors.append(Error(
                f"read tool {tool.name!r} declares mutability {tool.declared_mutability!r}",
                hint="A read tool must declare 'read_only'. Register a mutating operation as an act.",
                id="registries.E001"))
        if tool.timeout_ms <= 0 or tool.max_result_bytes <= 0:
            errors.append(Error(f"read tool {tool.name!r} needs a positive timeout and result cap",
                                id="registries.E004"))
    for act in registry.acts.values():
        if act.case_kind not in registry.case_kinds:
            errors.append(Error(f"act {act.name!r} names unknown case kind {act.case_kind!r}", id="registries.E005"))
        for quoted in act.quoted_fields:
            if quoted not in act.args_schema.model_fields:
                errors.append(Error(f"act {act.name!r} quotes unknown field {quoted!r}", id="registries.E006"))
        for editable in act.editable_fields:
            if editable not in act.args_schema.model_fields or editable == act.item_arg:
                errors.append(Error(f"act {act.name!r} declares {editable!r} editable, which is not one of its "
                                    "arguments a person may change (an unknown field, or the item it names)",
                                    id="registries.E020"))
    mode = settings.TURNFRAME["MODE"]
    if mode not in Mode.__members__.values():
        errors.append(Error(f"TURNFRAME_MODE={mode!r} is not a known orchestration mode", id="registries.E007"))
    if mode == Mode.SANDBOXED_AUTONOMOUS:
        unsafe = [a.name for a in registry.acts.values()
                  if not (a.sandboxed and a.mutability == ActMutability.REVERSIBLE)]
        if unsafe:
            errors.append(Error(
                "TURNFRAME_MODE=sandboxed_autonomous needs every act to be sandboxed and reversible; "
                f"these are not: {', '.join(sorted(unsafe))}",
                hint="Use controlled_agentic, or register only sandboxed, reversible acts.",
                id="registries.E010"))
    return errors
