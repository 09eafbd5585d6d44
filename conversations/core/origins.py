"""Which command origins may authorize which acts (SPEC §16, I12). Pure."""

from registries.definitions import ActMutability

DIRECT_USER_ACT = "direct_user_act"
CONFIRMED_INTERACTION = "confirmed_interaction"
INTERNAL_POLICY = "internal_policy"
ORIGIN_KINDS = (DIRECT_USER_ACT, CONFIRMED_INTERACTION, INTERNAL_POLICY)


def origin_allows(mutability: ActMutability | str, origin_kind: str) -> bool:
    """A consequential or irreversible act needs a confirmed Interaction; nothing means "the model said so"."""
    if origin_kind not in ORIGIN_KINDS:
        return False
    if ActMutability(mutability) == ActMutability.REVERSIBLE:
        return True
    return origin_kind == CONFIRMED_INTERACTION
