"""Read tool and act registries: the public API a domain app uses.

    from registries import register_act, register_read_tool, register_case_kind

Call them from your ``AppConfig.ready()``; ``manage.py check`` verifies what you registered.
"""

from .args import clean_text, iso_date, parse_args
from .definitions import (
    IDEMPOTENCY_HEADER,
    READ_ONLY,
    ActDefinition,
    ActMutability,
    Actor,
    BenchScenario,
    CaseFigures,
    CaseKindDefinition,
    CaseSnapshot,
    CommandContext,
    CommandRefused,
    CommandResult,
    CorpusSupport,
    Delivery,
    DemoCase,
    DomainEventDraft,
    Mode,
    OutboxDestination,
    OutboxDraft,
    OutboxMessage,
    Panel,
    PanelField,
    PanelItem,
    PolicyDecision,
    PolicyKind,
    ReadContext,
    ReadToolDefinition,
    Registry,
)
from .items import act_maker, editable_case, find_item, new_item_id
from .numbers import evidence_numbers, money_phrases, number_words, quantity_products, word_number
from .registry import (
    get_interpreter,
    get_registry,
    outbox_destination,
    register_act,
    register_case_kind,
    register_demo_cases,
    register_interpreter,
    register_outbox_destination,
    register_read_tool,
)

__all__ = [
    "READ_ONLY", "IDEMPOTENCY_HEADER", "ActDefinition", "ActMutability", "Actor", "BenchScenario", "CaseFigures",
    "CaseKindDefinition", "CaseSnapshot",
    "CommandContext", "CommandRefused", "CommandResult", "CorpusSupport", "Delivery", "DemoCase", "DomainEventDraft", "Mode",
    "OutboxDestination", "OutboxDraft", "OutboxMessage", "Panel", "PanelField", "PanelItem",
    "PolicyDecision", "PolicyKind", "ReadContext", "ReadToolDefinition", "Registry", "evidence_numbers", "money_phrases", "number_words", "quantity_products", "word_number",
    "clean_text", "iso_date", "parse_args", "act_maker", "editable_case", "find_item", "new_item_id",
    "get_interpreter", "get_registry", "register_act", "register_case_kind", "register_demo_cases", "register_interpreter",
    "register_outbox_destination", "register_read_tool", "outbox_destination",
]
