"""Hand-written SQL lives in one store (issue 21, 1): ``conversations.store``, nowhere else in the engine or the
registries. This reads the code, not the database: every string literal (docstrings and comments are prose) and
every call of ``cursor()`` in ``conversations/`` and ``registries/`` outside the store and the migrations; the
store's mechanism (``conversations.store._sql``) is imported by the store alone (here, and as an import-linter
contract in ``make test``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / "conversations" / "store"
# a statement's opening words, as hand-written SQL spells them
SQL = re.compile(r"\b(SELECT\s+\S.*\bFROM|UPDATE\s+\S+\s+(AS\s+\w+\s+)?SET|INSERT\s+INTO|DELETE\s+FROM|PRAGMA\s+\w+|"
                 r"SET\s+(TRANSACTION|default_transaction))\b", re.DOTALL)


def _sources() -> list[Path]:
    paths = [*sorted((ROOT / "conversations").rglob("*.py")), *sorted((ROOT / "registries").rglob("*.py"))]
    return [p for p in paths if STORE not in p.parents and "migrations" not in p.parts]


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _offences(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    prose = _docstrings(tree)
    where = path.relative_to(root)
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
                and SQL.search(node.value)):
            out.append(f"{where}:{node.lineno}: SQL text {node.value[:60]!r}")
        elif isinstance(node, ast.JoinedStr):  # an f-string: its literal parts together, each value a name
            text = "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)
            if SQL.search(text):
                out.append(f"{where}:{node.lineno}: SQL text {text[:60]!r}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "cursor", "raw", "extra"):
            out.append(f"{where}:{node.lineno}: .{node.func.attr}()")
        elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module.endswith("store._sql") or (node.module.endswith("store") and any(
                    alias.name == "_sql" for alias in node.names))):
            out.append(f"{where}:{node.lineno}: imports the store's mechanism")
        elif isinstance(node, ast.Name) and node.id == "RawSQL":
            out.append(f"{where}:{node.lineno}: RawSQL")
    return out


def test_no_sql_and_no_cursor_outside_the_store():
    offences = [o for path in _sources() for o in _offences(path)]
    assert offences == [], "hand-written SQL belongs in conversations/store:\n" + "\n".join(offences)


def test_the_check_finds_what_it_looks_for(tmp_path):
    """The test above would pass on a detector that finds nothing: it must see each form it forbids."""
    sample = tmp_path / "sample.py"
    sample.write_text('''"""SELECT name FROM prose is fine in a docstring."""
from django.db import connection
from conversations.store import _sql
TABLE = "t"
ONE = "SELECT name FROM registries_registryentry"
TWO = f"UPDATE {TABLE} AS t SET x = 1"
with connection.cursor() as cursor:
    cursor.execute("INSERT INTO t VALUES (1)")
''')
    found = sorted(_offences(sample, tmp_path), key=lambda o: int(o.split(":")[1]))
    assert [o.split(": ", 1)[1].split(" ")[0] for o in found] == [
        "imports", "SQL", "SQL", ".cursor()", "SQL"], found


def test_the_store_holds_the_statements():
    """(and the mechanism: a package of the store, so the test above is not vacuous by the store moving away)"""
    assert (STORE / "__init__.py").exists() and (STORE / "_sql.py").exists()
    assert all(any(SQL.search(line) for line in (STORE / name).read_text().splitlines())
               for name in ("_turn.py", "_rows.py"))
