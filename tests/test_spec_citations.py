"""Every invariant, section and step the code cites resolves in ``docs/spec.md`` (issue 21, 3).

A citation is an invariant (``I19``), a section of the specification (``SPEC §23``, ``§13.2``, ``§7.1-7.2``,
``§21.3, §16``), a section of the wire contract (``CONTRACT §6``) or a step of the turn algorithm (``step G``,
``Steps M-N``, ``§23 A–Q``, a ``# G-H:`` marker in the turn modules). A bare ``§n`` belongs to the document
named last before it in the same paragraph (``SPEC``, ``CONTRACT``, or an issue, which is not checked); with
none named, to the specification. ``docs/spec.md`` defines a number with a heading (``## §13``, ``### I19``,
``### Step G``, ``### CONTRACT §6``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec.md"
SOURCES = ("conversations", "registries", "expenses", "trips", "turnframe_web", "templates", "static", "docs", "tests")
SUFFIXES = {".py", ".js", ".html", ".md", ".css"}
SKIP = ("static/vendor/", "/migrations/", "tests/test_spec_citations.py")  # this file cites wrong numbers on purpose

_SECTION = r"§\s?(\d+(?:\.\d+)?)((?:\s*(?:[-–]|,|and)\s*§?\s?\d+(?:\.\d+)?(?![\d.]))*)"
_CITED_SECTION = re.compile(_SECTION)
_NAMED = re.compile(r"\b(SPEC|CONTRACT)(?:\.md)?\b|\bissues?\s+\d+", re.IGNORECASE)
_INVARIANT = re.compile(r"(?<![\w-])I(\d{1,2})(?![\w-])")
_STEP_WORD = re.compile(r"\b[Ss]teps?\s+([A-Z])\b(?:\s*(?:[-–]|to)\s*([A-Z])\b)?")
_STEP_AFTER_23 = re.compile(r"§23,?\s+(?:steps?\s+)?([A-Z])\s*[-–]\s*([A-Z])\b")
_STEP_MARKER = re.compile(r"^\s*#\s+([A-Z])(?:\s*[-–]\s*([A-Z]))?:\s", re.MULTILINE)
LOOKBACK = 400


def sources() -> list[Path]:
    found = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix in SUFFIXES and path.is_file() and not any(s in f"/{rel}" or rel.startswith(s) for s in SKIP):
                found.append(path)
    return found + [ROOT / "README.md"]


def _letters(first: str, last: str | None) -> list[str]:
    return [chr(c) for c in range(ord(first), ord(last or first) + 1)] if (last or first) >= first else [first]


def _document(text: str, at: int) -> str:
    """The document a bare § at ``at`` belongs to: the last one named before it in its paragraph."""
    before = text[max(0, at - LOOKBACK):at]
    before = re.split(r"\n\s*(?:#|//|\*)?\s*\n", before)[-1]  # the paragraph (a blank line, or a blank comment line)
    named = list(_NAMED.finditer(before))
    if not named:
        return "SPEC"
    last = named[-1]
    return last.group(1).upper() if last.group(1) else "issue"


def _sections(first: str, rest: str) -> list[str]:
    """Each number as written: ``§7.1-7.2`` is 7.1 and 7.2, ``§21.3, §16`` is 21.3 and 16."""
    return [first, *re.findall(r"\d+(?:\.\d+)?", rest)]


def citations(text: str) -> set[tuple[str, str]]:
    """``(kind, number)``: ("SPEC", "13.2"), ("CONTRACT", "6"), ("I", "19"), ("step", "G")."""
    found: set[tuple[str, str]] = set()
    for m in _CITED_SECTION.finditer(text):
        document = _document(text, m.start())
        if document in ("SPEC", "CONTRACT"):
            found |= {(document, n) for n in _sections(m.group(1), m.group(2))}
    found |= {("I", m.group(1)) for m in _INVARIANT.finditer(text)}
    for pattern in (_STEP_WORD, _STEP_AFTER_23, _STEP_MARKER):
        for m in pattern.finditer(text):
            found |= {("step", letter) for letter in _letters(m.group(1), m.group(2))}
    return found


def defined() -> set[tuple[str, str]]:
    """What ``docs/spec.md`` defines, from its headings."""
    found: set[tuple[str, str]] = set()
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"#{2,4} (CONTRACT )?§(\d+(?:\.\d+)?)\b", line):
            found.add(("CONTRACT" if m.group(1) else "SPEC", m.group(2)))
        elif m := re.match(r"#{2,4} I(\d+)\b", line):
            found.add(("I", m.group(1)))
        elif m := re.match(r"#{2,4} Step ([A-Z])\b", line):
            found.add(("step", m.group(1)))
    return found


def test_the_spec_defines_every_invariant_section_and_step_it_is_known_by() -> None:
    known = defined()
    assert {("I", str(n)) for n in (*range(1, 4), *range(5, 22))} <= known
    assert {("step", chr(c)) for c in range(ord("A"), ord("Q") + 1)} <= known
    assert {("SPEC", n) for n in ("4", "13", "13.1", "13.2", "17", "18", "19", "21.1", "23", "27", "33")} <= known
    assert {("CONTRACT", str(n)) for n in range(1, 9)} <= known


def test_every_citation_in_the_code_and_docs_resolves_in_docs_spec_md() -> None:
    known = defined()
    missing = []
    for path in sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        for cited in sorted(citations(text) - known):
            missing.append(f"{path.relative_to(ROOT)}: {cited[0]} {cited[1]}")
    assert not missing, "cited but not in docs/spec.md:\n" + "\n".join(missing)


@pytest.mark.parametrize(("text", "expected"), [
    ("the claim guard (SPEC §18, I16)", {("SPEC", "18"), ("I", "16")}),
    ("adapter (SPEC §7.1-7.2)", {("SPEC", "7.1"), ("SPEC", "7.2")}),
    ("(SPEC §21.3, §16, §17; style convention 9)", {("SPEC", "21.3"), ("SPEC", "16"), ("SPEC", "17")}),
    ("the turn objects of CONTRACT\n§6", {("CONTRACT", "6")}),
    ("wire formats of CONTRACT.md: model answers (§2)", {("CONTRACT", "2")}),
    ("keeps the active case (§27.16).", {("SPEC", "27.16")}),
    ("Double texting (issue 9 §5): queued", set()),
    ("Steps M-N: the command bus", {("step", "M"), ("step", "N")}),
    ("(SPEC §23, steps A–Q)", {("SPEC", "23"), *{("step", chr(c)) for c in range(ord("A"), ord("Q") + 1)}}),
    ("    # G-H: the read-only loop", {("step", "G"), ("step", "H")}),
    ("Invalid (I-K) and I10-like words; IPv4, I2C", set()),
])
def test_citations_are_read_as_a_person_reads_them(text, expected) -> None:
    assert citations(text) == expected


def test_a_citation_the_spec_does_not_define_is_caught() -> None:
    known = defined()
    assert {("I", "4"), ("SPEC", "12"), ("step", "R"), ("CONTRACT", "9")}.isdisjoint(known)
    assert citations("nothing runs (I4), see SPEC §12 and step R, CONTRACT §9") - known == {
        ("I", "4"), ("SPEC", "12"), ("step", "R"), ("CONTRACT", "9")}
