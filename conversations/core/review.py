"""A confirmation card judged again when it is answered (SPEC §17; issue 20, 5 and 10). Pure.

A card is drawn on a verdict: the act's policy as it stood then. Confirming runs the card's commands
on the verdict as it stands **now** (the acts on offer and their policies at the click, on the case at
the card's bound revision): a command whose act is no longer on offer, or whose policy now denies it,
never runs. The person may also change the arguments the act declares editable
(``ActDefinition.editable_fields``) before confirming; the edited values are the person's own words and
go through the act's schema, its policy and its (pure) handler again, exactly as the model's would:

- a value the schema refuses, or that the handler or the policy refuses, is an ``EditRefused`` (nothing
  changes, the card stays answerable);
- values the policy allows (and a reversible act) run at once on the confirmation, when the card holds that
  one command;
- values that still need a confirmation (the act is consequential, or the policy asks for one), or that change
  what the card's other commands were described as doing, never run on the old card: the person has not seen
  a card that describes them, so a new card does (``needs_card``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from registries.definitions import (
    ActMutability,
    CaseSnapshot,
    CommandContext,
    CommandRefused,
    PolicyKind,
    Registry,
)

from .validation import args_model


@dataclass(frozen=True, slots=True)
class CardCommand:
    """One command behind a card, as its journal row holds it (arguments with the resolved item id)."""

    id: str
    act: str
    args: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class FieldEdit:
    field: str
    before: Any
    after: Any

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "before": self.before, "after": self.after}


class EditRefused(Exception):
    """The person's edits cannot be applied: a stable ``code`` (``edits_not_allowed``, ``edits_ambiguous``,
    ``field_not_editable``, ``invalid_edit``, ``edit_refused``), the refusal's ``reason`` when the act's
    handler or policy gave one, and field ``errors``."""

    def __init__(self, code: str, message: str, *, reason: str | None = None,
                 errors: Sequence[Mapping[str, Any]] = ()):
        super().__init__(message)
        self.code, self.message, self.reason, self.errors = code, message, reason, list(errors)


@dataclass(frozen=True, slots=True)
class Review:
    """The card judged now. ``refused``: (command id, code) when a command may no longer run as it stands
    (nothing of the card runs). ``edited``: the command the edits changed, with its new ``args`` and the
    ``changes``; ``needs_card``: the edited command needs a confirmation of its own (with ``codes``, the
    policy codes that ask for one); ``previews``: each command's case as it will find it (a new card's copy)."""

    refused: tuple[str, str] | None = None
    edited: str | None = None
    args: Mapping[str, Any] = field(default_factory=dict)
    changes: tuple[FieldEdit, ...] = ()
    needs_card: bool = False
    codes: tuple[str, ...] = ()
    previews: Mapping[str, CaseSnapshot] = field(default_factory=dict)


def review_card(commands: Sequence[CardCommand], case: CaseSnapshot | None, registry: Registry,
                ctx: CommandContext, edits: Mapping[str, Any] | None = None) -> Review:
    """Judge a confirmation card's ``commands`` (in the order they run) on ``case`` at the card's bound revision
    (None: the card's act opens the case), with the acts on offer now (``registry``) and the person's ``edits``
    (field -> value). Raises ``EditRefused`` for edits that cannot be applied; never runs anything."""
    target = _edit_target(commands, registry, edits) if edits else None
    state, previews, codes = case, {}, []
    changes: tuple[FieldEdit, ...] = ()
    edited, new_args, needs_card = None, {}, False
    for command in commands:
        definition = registry.acts.get(command.act)
        if definition is None:  # disabled or quarantined since the card was drawn
            return Review(refused=(command.id, "act_not_on_offer"))
        args = dict(command.args)
        this = command is target
        if this:
            args, changes = _edited_args(definition, args, edits or {}, ctx)
            this = bool(changes)  # the same values as before: a plain confirmation
            if this:
                edited, new_args = command.id, args
        decision = definition.policy(state, args_model(definition, args))
        if decision.kind == PolicyKind.DENY:
            if this:
                raise EditRefused("edit_refused", "With that change the policy does not allow it; nothing was "
                                  "changed.", reason=decision.code or "policy_denied")
            return Review(refused=(command.id, decision.code or "policy_denied"))
        if decision.kind == PolicyKind.CONFIRM and decision.code:
            codes.append(decision.code)
        if this and (definition.mutability != ActMutability.REVERSIBLE or decision.kind == PolicyKind.CONFIRM):
            needs_card = True
        if state is not None:
            previews[command.id] = state
        try:
            result = definition.handler(state, args, ctx)
        except CommandRefused as refused:
            if this:
                raise EditRefused("edit_refused", "That change cannot be applied; nothing was changed.",
                                  reason=refused.code) from None
            break  # the command bus refuses it at the click, as it would have without the review
        except Exception:  # noqa: BLE001 - a value the state schema refuses, or a broken handler
            if this:
                raise EditRefused("edit_refused", "That change cannot be applied; nothing was changed.",
                                  reason="invalid_state") from None
            break
        if state is None:  # the act opens the case: the reducer puts nothing after it on the card
            break
        state = replace(state, state=dict(result.state), status=result.status, title=result.title,
                        revision=state.revision + 1)
    # on a card of several commands an edit changes what the others were described as doing (a submission's
    # total): the person confirms the whole card again, described with the new values
    needs_card = needs_card or (edited is not None and len(commands) > 1)
    return Review(edited=edited, args=new_args, changes=changes, needs_card=needs_card,
                  codes=tuple(dict.fromkeys(codes)), previews=previews)


def _edit_target(commands: Sequence[CardCommand], registry: Registry, edits: Mapping[str, Any]) -> CardCommand:
    editable = [c for c in commands if c.act in registry.acts and registry.acts[c.act].editable_fields]
    if not editable:
        raise EditRefused("edits_not_allowed", "Nothing on this card can be changed; confirm or decline it as it is.")
    if len(editable) > 1:
        raise EditRefused("edits_ambiguous", "This card holds several changes; edits apply to a card with one.")
    target = editable[0]
    allowed = registry.acts[target.act].editable_fields
    wrong = [name for name in edits if name not in allowed]
    if wrong:
        raise EditRefused("field_not_editable", f"Only {', '.join(allowed)} can be changed on this card.",
                          errors=[{"loc": ["edits", name], "msg": "not editable"} for name in wrong])
    return target


def _edited_args(definition, args: dict[str, Any], edits: Mapping[str, Any], ctx: CommandContext
                 ) -> tuple[dict[str, Any], tuple[FieldEdit, ...]]:
    """The command's arguments with the edits, validated by the act's schema (and completed as the reducer
    completes the model's); the item the command names stays the one it resolved."""
    resolved = f"{definition.item_arg}_id" if definition.item_arg else None
    base = {k: v for k, v in args.items() if k != resolved}
    try:
        model = definition.args_schema.model_validate({**base, **edits})
    except ValidationError as exc:
        raise EditRefused("invalid_edit", "That value is not valid here; nothing was changed.", errors=[
            # the field only: pydantic's further steps name its validators (a function's repr: not for people)
            {"loc": ["edits", *(str(p) for p in e["loc"][:1])], "msg": e["msg"]} for e in exc.errors(include_url=False)
        ]) from None
    new = model.model_dump(mode="json", exclude_none=True)
    if resolved and resolved in args:
        new[resolved] = args[resolved]
    new = definition.complete_args(new, ctx)
    changes = tuple(FieldEdit(name, args.get(name), new.get(name)) for name in edits if args.get(name) != new.get(name))
    return (new, changes) if changes else (args, ())
