"""Stage 1 of the TurnReducer (SPEC §13.1): the plan's schema, all or nothing (I18), and an act's arguments
read through its definition's schema. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from registries.definitions import ActDefinition, Registry

from .plan import UserTurnPlan
from .reduction import PlanInvalid, ValidatedAct, ValidatedPlan


def validate_plan(plan: UserTurnPlan, registry: Registry) -> ValidatedPlan:
    """All-or-nothing schema validation (I18). Raises PlanInvalid naming the first problem."""
    problems: list[str] = []
    ids = [a.id for a in plan.acts]
    if len(ids) != len(set(ids)):
        problems.append("act ids must be unique")
    known = set(ids)
    for r in plan.retractions:
        if r.act not in known:
            problems.append(f"retraction names unknown act id {r.act!r}")
    corrections: dict[str, dict[str, Any]] = {}
    for c in plan.corrections:
        if c.act not in known:
            problems.append(f"correction names unknown act id {c.act!r}")
        corrections.setdefault(c.act, {}).update(c.args)
    for con in plan.constraints:
        for name in con.acts:
            if name != "*" and name not in registry.acts:
                problems.append(f"constraint names unknown act {name!r}")
    validated: list[ValidatedAct] = []
    for a in plan.acts:
        definition = registry.acts.get(a.act)
        if definition is None:
            problems.append(f"act {a.id}: {a.act!r} is not an act on offer")
            continue
        if definition.creates_case and a.case is not None:
            problems.append(f"act {a.id}: {a.act} creates a case and takes no case reference")
        args, error = validate_args(definition, a.args)
        if error:
            problems.append(f"act {a.id} ({a.act}) arguments: {error}")
            continue
        corrected_by = None
        if a.id in corrections:
            merged, error = validate_args(definition, {**a.args, **corrections[a.id]})
            if error:
                problems.append(f"correction of act {a.id} ({a.act}): {error}")
                continue
            args = merged
            corrected_by = " / ".join(c.evidence for c in plan.corrections if c.act == a.id)
        validated.append(ValidatedAct(a.id, a.act, a.case, args, a.evidence, corrected_by,
                                      tuple(corrections.get(a.id, {})), a.earlier_evidence))
    if problems:
        raise PlanInvalid("; ".join(problems))
    return ValidatedPlan(plan, tuple(validated))


def validate_args(definition: ActDefinition, args: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    try:
        model = definition.args_schema.model_validate(dict(args))
    except ValidationError as exc:
        return {}, "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
                             for e in exc.errors(include_url=False))
    return model.model_dump(mode="json", exclude_none=True), None


def args_model(definition: ActDefinition, args: Mapping[str, Any]) -> BaseModel:
    resolved = f"{definition.item_arg}_id" if definition.item_arg else None
    return definition.args_schema.model_validate({k: v for k, v in args.items() if k != resolved})
