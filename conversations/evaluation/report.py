"""What an evaluation found: a verdict per message, per conversation, and the totals the report gives."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class ItemResult:
    conversation: str
    index: int
    text: str
    verdict: str  # passed | failed | not_understood | provider_failure
    unsafe: bool
    problems: list[str] = field(default_factory=list)
    unsafe_reasons: list[str] = field(default_factory=list)
    acts: list[dict[str, Any]] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    seconds: float = 0.0
    provider_failure: str | None = None  # its kind (ProviderFailure.KINDS), when the verdict is provider_failure
    # the model calls of the message's turn and what the server said they cost (reported: calls with usage)
    model_calls: int = 0
    reported_calls: int = 0
    prompt_tokens: int = 0
    cached_calls: int = 0  # calls whose server said how many prompt tokens came from its cache
    cached_tokens: int = 0
    unsure_card: bool = False  # the turn put its reading on a card, the provider not sure of it


@dataclass
class ConversationResult:
    name: str
    file: str
    items: list[ItemResult]
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and all(i.verdict == "passed" and not i.unsafe for i in self.items)


@dataclass
class EvaluationReport:
    provider: str
    conversations: list[ConversationResult]
    seconds: float

    def parts(self) -> dict[str, dict[str, Any]]:
        """Totals per part of the corpus: ``main`` (files at its top) and each subfolder (``holdout``)."""
        names = sorted({part_of(c.file) for c in self.conversations})
        return {name: self.totals([c for c in self.conversations if part_of(c.file) == name]) for name in names}

    def totals(self, conversations: list[ConversationResult] | None = None) -> dict[str, Any]:
        conversations = self.conversations if conversations is None else conversations
        items = [i for c in conversations for i in c.items]
        verdicts = Counter(i.verdict for i in items)
        kinds = Counter(i.provider_failure for i in items if i.provider_failure)
        totals = {"conversations": len(conversations),
                  "conversations_passed": sum(1 for c in conversations if c.passed),
                  "items": len(items), "passed": verdicts["passed"], "failed": verdicts["failed"],
                  "not_understood": verdicts["not_understood"], "unsafe": sum(1 for i in items if i.unsafe),
                  "errors": sum(1 for c in conversations if c.error), "seconds": round(self.seconds, 2),
                  "provider_failures": verdicts["provider_failure"], "provider_failure_kinds": dict(sorted(kinds.items()))}
        return {**totals, **usage_totals(items)}

    def to_json(self) -> dict[str, Any]:
        return {"provider": self.provider, "totals": self.totals(), "parts": self.parts(),
                "conversations": [{**asdict(c), "passed": c.passed} for c in self.conversations]}


def usage_totals(items: list[ItemResult]) -> dict[str, Any]:
    """Calls per turn (each message is one turn) and, when the provider reported usage, tokens per call."""
    calls = sum(i.model_calls for i in items)
    if not calls:
        return {}
    out: dict[str, Any] = {"model_calls": calls, "calls_per_turn": round(calls / len(items), 2),
                           "max_calls_per_turn": max(i.model_calls for i in items)}
    reported = sum(i.reported_calls for i in items)
    if reported:
        cached = sum(i.cached_calls for i in items)
        out["prompt_tokens_per_call"] = round(sum(i.prompt_tokens for i in items) / reported, 1)
        # None: the server does not say (llama-cpp-python; its log does: docs/evaluation.md)
        out["cached_tokens_per_call"] = round(sum(i.cached_tokens for i in items) / cached, 1) if cached else None
    return out


def part_of(file: str) -> str:
    """``holdout/h001-….json`` → ``holdout``; a file at the corpus's top → ``main``."""
    return file.split("/", 1)[0] if "/" in file else "main"
