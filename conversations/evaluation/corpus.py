"""The evaluation corpus's format (``docs/evaluation.md``): one JSON file a conversation, read and validated.

The runner reads a conversation's own fields; what its cases hold is its case kind's (``CorpusSupport``), and
is validated by that kind's schemas when the file is loaded.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from registries import CaseKindDefinition, get_registry


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CorpusCase(BaseModel):
    """A starting case: the runner reads ``title``, ``owner`` and ``status``; the rest is the case kind's
    (``details``, validated by its ``corpus.case_schema`` when the conversation is loaded)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    title: str
    owner: str | None = None  # another user of the conversation; default: the conversation's user
    status: str | None = None  # default: the kind's initial status

    @property
    def details(self) -> dict[str, Any]:
        return {"title": self.title, **({"status": self.status} if self.status else {}), **(self.model_extra or {})}


class ExpectedCase(BaseModel):
    """An expected case: the runner reads ``exists`` and ``status``; the rest is compared by the case kind."""

    model_config = ConfigDict(extra="allow", frozen=True)

    exists: bool = True
    status: str | None = None

    @property
    def details(self) -> dict[str, Any]:
        return {"exists": self.exists, **({"status": self.status} if self.status else {}), **(self.model_extra or {})}


class ExpectedAct(_Strict):
    act: str
    outcome: str
    code: str | None = None


class Expectation(_Strict):
    acts: list[ExpectedAct] | None = None  # None: not checked; []: no act may be proposed
    cases: dict[str, ExpectedCase | None] = Field(default_factory=dict)  # null: must not exist
    answer_contains: list[str] = Field(default_factory=list)
    answer_excludes: list[str] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    reads: list[str] | None = None  # read tools the turn must have used ([]: none)
    active: str | None = None  # title of the conversation's active case afterwards


class CorpusMessage(_Strict):
    text: str
    click: str | list[str] = Field(default_factory=list)  # "confirm" | "decline" | "none" | a case title
    expect: Expectation = Field(default_factory=Expectation)
    note: str = ""

    @property
    def clicks(self) -> list[str]:
        return [self.click] if isinstance(self.click, str) else list(self.click)


class CorpusConversation(_Strict):
    name: str
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    user: str = "alice"
    kind: str | None = None  # the case kind of its cases; default: the first registered one with a corpus
    today: date | None = None
    mode: Literal["deterministic", "read_agentic", "controlled_agentic"] = "controlled_agentic"
    cases: list[CorpusCase] = Field(default_factory=list)
    active: str | None = None
    messages: list[CorpusMessage] = Field(min_length=1)

    @model_validator(mode="after")
    def _domain_parts(self) -> CorpusConversation:
        """The parts of its cases and expectations the case kind reads must be what that kind accepts."""
        corpus = corpus_kind(self.kind).corpus
        for case in self.cases:
            corpus.case_schema.model_validate(case.details)
        for message in self.messages:
            for wanted in message.expect.cases.values():
                if wanted is not None:
                    corpus.expected_schema.model_validate(wanted.details)
        return self


def corpus_kind(name: str | None) -> CaseKindDefinition:
    """The case kind a conversation's cases are of: ``name``, or the first registered one with a corpus."""
    kinds = [kind for kind in get_registry().case_kinds.values() if kind.corpus is not None]
    found = next((kind for kind in kinds if kind.name == name), None) if name else (kinds[0] if kinds else None)
    if found is None:
        raise ValueError(f"no installed case kind {name or ''} supports the evaluation corpus".replace("  ", " "))
    return found


class CorpusError(Exception):
    """A corpus file that cannot be read: the runner refuses it rather than scoring nonsense."""


def corpus_load(path: Path) -> list[tuple[str, CorpusConversation]]:
    """Every conversation under ``path`` (a ``.json`` file, or a folder of them and of subfolders such as
    ``holdout/``, sorted by path): named by their path below ``path``."""
    files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
    if not files or not all(f.is_file() for f in files):
        raise CorpusError(f"no corpus files at {path}")
    loaded = []
    for file in files:
        try:
            name = file.relative_to(path).as_posix() if path.is_dir() else file.name
            loaded.append((name, CorpusConversation.model_validate(json.loads(file.read_text("utf-8")))))
        except (ValueError, ValidationError) as exc:
            raise CorpusError(f"{file.name}: {exc}") from exc
    return loaded
