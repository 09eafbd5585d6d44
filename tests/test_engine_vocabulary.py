"""No domain word in the engine (issue 21, 5): what the engine does and says comes from the case kinds.

The engine is ``conversations/`` (its tests apart), ``registries/``, the chat page's modules under
``static/chat/`` and the templates. Its code and its strings — server copy, JSON keys, regular expressions —
must not use the words of the two shipped domains (``DOMAIN_WORDS``, taken from ``expenses/`` and ``trips/``);
those come from a case kind's hooks (``noun``, ``item_noun``, ``facts``, ``card_detail``, ``panel``, …) or a
domain's own registrations (the ``approver`` outbox destination is ``expenses/approver.py``). Comments and
docstrings are not read: they may illustrate a hook with the shipped example, as Django's docs use polls.

Words both the engine and a domain use are not listed: "claim" (the claim guard of SPEC §18: what a reply
claims happened), "receipt" (a reply block rendered from events, SPEC §18), "currency", "amount" and "total"
(the engine's grounding of money in the user's words, SPEC §13.2, for any domain that keeps money), "line"
(a line item of any record) and "withdrawal" (a queued message taken back).

Where the engine must keep a domain word, ``ALLOWED`` names the file, the word and why.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DOMAIN_WORDS = (
    # expenses/: claims, their lines and approval
    "expense", "expenses", "approver", "approvers", "approval", "reimburse", "reimbursed", "reimbursement",
    "merchant", "merchants", "taxi", "taxis", "hotel", "hotels", "coffee", "coffees", "lunch", "lunches",
    "dinner", "dinners", "breakfast", "meal", "meals", "mileage", "per diem", "EUR", "euro", "euros",
    "submission",
    # trips/: rebooking travel
    "trip", "trips", "traveller", "travellers", "traveler", "travelers", "flight", "flights", "itinerary",
    "booking", "bookings", "rebook", "rebooking", "airline", "airlines", "fare", "fares", "passenger",
)

ALLOWED = {
    # the demo inbox's model keeps the name and fields it was created under (migration 0009): renaming it,
    # or moving it into ``expenses``, would be a migration across apps (issue 21, 5)
    ("conversations/models.py", "approver"),
    ("conversations/migrations/0009_demo_approver.py", "approver"),
    ("conversations/migrations/0010_interaction_case_open.py", "approver"),  # its dependency names 0009
    # the engine's one reading of money (SPEC §13.2) knows the names of the world's currencies, the euro among
    # them, in the user's words: not the expense domain's, any domain that keeps money reads them
    ("registries/currencies.py", "EUR"),
    ("registries/currencies.py", "euro"),
    ("registries/currencies.py", "euros"),
    ("registries/numbers.py", "EUR"),
    ("registries/numbers.py", "euros"),
}

_WORD = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in DOMAIN_WORDS),
                                                      key=len, reverse=True)) + r")(?![A-Za-z])", re.IGNORECASE)


def engine_files() -> list[Path]:
    paths = [*(ROOT / "conversations").rglob("*.py"), *(ROOT / "registries").rglob("*.py"),
             *(ROOT / "static" / "chat").rglob("*.js"), *(ROOT / "templates").rglob("*.html")]
    return sorted(p for p in paths if "tests" not in p.relative_to(ROOT).parts)


def python_code(source: str) -> str:
    """The source without comments and docstrings."""
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docstrings.add((first.lineno, first.col_offset))
    kept = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start in docstrings):
            continue
        kept.append(tok.string)
    return " ".join(kept)


def js_code(source: str) -> str:
    """The source without ``//`` and ``/* */`` comments (strings and template literals kept)."""
    out, i, quote = [], 0, None
    while i < len(source):
        c = source[i]
        if quote:
            out.append(c)
            if c == "\\":
                out.append(source[i + 1:i + 2])
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"`":
            quote = c
            out.append(c)
        elif source.startswith("//", i):
            i = source.find("\n", i)
            i = len(source) if i < 0 else i
            continue
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = len(source) if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def template_code(source: str) -> str:
    source = re.sub(r"{#.*?#}|<!--.*?-->", " ", source, flags=re.DOTALL)
    return re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", " ", source, flags=re.DOTALL)


def code_of(path: Path) -> str:
    source = path.read_text(encoding="utf-8")
    return {".py": python_code, ".js": js_code, ".html": template_code}[path.suffix](source)


def domain_words(path: Path) -> set[str]:
    return {m.group(1).lower() if m.group(1) != "EUR" else "EUR" for m in _WORD.finditer(code_of(path))}


def test_the_engine_speaks_no_domain_word() -> None:
    found = []
    for path in engine_files():
        rel = path.relative_to(ROOT).as_posix()
        for word in sorted(domain_words(path)):
            if (rel, word) not in ALLOWED and (rel, word.upper()) not in ALLOWED:
                found.append(f"{rel}: {word!r}")
    assert not found, ("domain words in the engine (take them from a case kind's hooks, or justify them in "
                       "ALLOWED):\n" + "\n".join(found))


def test_the_allow_list_holds_only_what_is_still_needed() -> None:
    """An entry whose word left the file goes too: the list stays small and true."""
    stale = [(rel, word) for rel, word in sorted(ALLOWED)
             if word.lower() not in {w.lower() for w in domain_words(ROOT / rel)}]
    assert not stale, stale


def test_the_words_this_issue_took_out_are_found_where_they_were() -> None:
    """The scan reads what the engine held before (issue 21, 5): the built-in approver, the card's total and
    currency, the coffees and taxis of the quantity reading, the undo copy."""
    before = {
        "outbox.py": 'APPROVER = "approver"\nclass HttpApprover:\n    name = APPROVER\n',
        "numbers.py": '_QTY = r"coffees?|lunch(?:es)?|taxis?|trips?"\n',
        "reducer.py": '_COPY = {"cannot_undo": "it cannot be reversed (a submission or a withdrawal)"}\n',
    }
    assert {name: sorted({w.lower() for w in _WORD.findall(python_code(src))}) for name, src in before.items()} == {
        "outbox.py": ["approver"], "numbers.py": ["coffees", "lunch", "taxis", "trips"], "reducer.py": ["submission"]}


def test_comments_are_not_read_but_code_and_strings_are() -> None:
    source = '"""A claim of expenses."""\nAPPROVER = "approver"  # the taxi\n'
    assert _WORD.findall(python_code(source)) == ["APPROVER", "approver"]
    assert [w.lower() for w in _WORD.findall(js_code('// a taxi\nconst t = `${total} EUR`; /* hotel */'))] == ["eur"]
    assert _WORD.findall(template_code('{# a trip #}<p data-x="flight">')) == ["flight"]
