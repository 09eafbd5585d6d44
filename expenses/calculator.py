"""A safe decimal calculator for the ``calculate`` read tool.

Only ``+ - * /``, parentheses, unary signs and plain decimal literals are accepted. The text is
screened character by character before Python parses it, and the parsed tree is then walked node
by node: names, calls, attributes, powers, exponents, strings and anything else are refused with
``ValueError``. Nothing is ever evaluated by Python itself, and size, depth and magnitude are
bounded so no input can make the evaluator slow or its numbers huge.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from decimal import (
    ROUND_HALF_UP,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    Overflow,
    localcontext,
)

MAX_LENGTH = 200
MAX_NODES = 160
MAX_DEPTH = 60
MAX_MAGNITUDE = Decimal("1e15")  # exclusive bound on every literal and intermediate value
RESULT_PLACES = 10

_ALLOWED_CHARACTERS = re.compile(r"[0-9.+\-*/() \t]*")
_LITERAL = re.compile(r"\d{1,15}(?:\.\d{1,15})?")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
_TYPOGRAPHIC = str.maketrans({"×": "*", "÷": "/", "−": "-", "–": "-"})
_OPERATORS: dict[type[ast.operator], Callable[[Decimal, Decimal], Decimal]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def calculate(expression: str) -> Decimal:
    """The value of ``expression``; ``ValueError`` with a short code for anything else.

    >>> calculate("180.00 * 3 + 42.50")
    Decimal('582.50')
    """
    text = expression.translate(_TYPOGRAPHIC).strip()
    if not text:
        raise ValueError("empty_expression")
    if len(text) > MAX_LENGTH:
        raise ValueError("expression_too_long")
    if not _ALLOWED_CHARACTERS.fullmatch(text):
        raise ValueError("unsupported_character: only digits, . + - * / and parentheses are allowed")
    if "**" in text or "//" in text:
        raise ValueError("unsupported_operator")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ValueError("malformed_expression") from exc
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ValueError("expression_too_complex")
    with localcontext(prec=34, traps=[InvalidOperation, DivisionByZero, Overflow]):
        try:
            value = _evaluate(tree.body, text, 0)
        except (InvalidOperation, Overflow) as exc:
            raise ValueError("result_too_large") from exc
    return _tidy(value)


def calculation_result(expression: str) -> dict[str, str]:
    """What the ``calculate`` tool returns: the exact result and the result rounded to cents."""
    value = calculate(expression)
    return {
        "expression": expression.strip(),
        "result": format(value, "f"),
        "rounded": format(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), "f"),
    }


def _evaluate(node: ast.AST, source: str, depth: int) -> Decimal:
    if depth > MAX_DEPTH:
        raise ValueError("expression_too_deep")
    if isinstance(node, ast.Constant):
        return _literal(node, source)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand, source, depth + 1)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left = _evaluate(node.left, source, depth + 1)
        right = _evaluate(node.right, source, depth + 1)
        if isinstance(node.op, ast.Div) and right == 0:
            raise ValueError("division_by_zero")
        return _bounded(_OPERATORS[type(node.op)](left, right))
    raise ValueError(f"unsupported_syntax: {type(node).__name__}")


def _literal(node: ast.Constant, source: str) -> Decimal:
    """A number read from its source text, so ``0.1`` is exactly one tenth."""
    text = ast.get_source_segment(source, node)
    if isinstance(node.value, bool) or not isinstance(node.value, int | float) or text is None:
        raise ValueError("unsupported_literal")
    if not _LITERAL.fullmatch(text):
        raise ValueError("number_too_long" if _DIGITS.fullmatch(text) else "unsupported_number")
    return _bounded(Decimal(text))


def _bounded(value: Decimal) -> Decimal:
    if abs(value) >= MAX_MAGNITUDE:
        raise ValueError("result_too_large")
    return value


def _tidy(value: Decimal) -> Decimal:
    """At most ``RESULT_PLACES`` decimals, no exponent notation, no negative zero."""
    exponent = int(value.as_tuple().exponent)
    if exponent < -RESULT_PLACES:
        value = value.quantize(Decimal(1).scaleb(-RESULT_PLACES), rounding=ROUND_HALF_UP)
    elif exponent > 0:
        value = value.quantize(Decimal(1))
    return abs(value) if value == 0 else value
