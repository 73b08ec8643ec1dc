"""Unions, intersections and differences of finite sets of numbers, evaluated exactly.

``\\{1,2,3,4\\} \\setminus \\{1,2\\}`` is ``\\{3, 4\\}`` and ``\\{1,3\\} \\cup \\{2,4\\}`` is
``\\{1, 2, 3, 4\\}``: a textbook checker and an RL recipe label each equal to its result, and
neither reader evaluates it (the certain path leaves set operations to math-verify, which reads
``\\backslash`` as nothing). An answer that is only such an expression, of sets whose elements are
all exact numbers, is written as the resulting set before either reader compares. Operations run
left to right and must all be the same unless there are only two sets (``A \\cup B \\cap C`` is
left as written: its grouping is not said), and sets in plain braces are not subtracted with
``-`` (``{2}-{3}`` may be LaTeX groups, 2 - 3).
"""

from __future__ import annotations

import re
from fractions import Fraction

from rewards.answer_text import split_top
from rewards.exact_numbers import Num, read_number

__all__ = ["MAX_ELEMENTS", "set_algebra_written_out"]

MAX_ELEMENTS = 100
MAX_TEXT = 1000

_LEFT_RIGHT_RE = re.compile(r"\\(?:left|right)(?![a-zA-Z])\s*")
_OP_RE = re.compile(r"\s*(\\cup|\\cap|\\setminus|\\smallsetminus|\\backslash|-)(?![a-zA-Z])\s*")
_SET_RE = re.compile(r"\\\{([^{}\\]*)\\\}|\{([^{}\\]*)\}")


def _elements(body: str) -> list[Fraction] | None:
    if not body.strip():
        return []
    out: list[Fraction] = []
    for item in split_top(body, ","):
        n = read_number(item)
        if not isinstance(n, Num) or n.percent:
            return None
        out.append(n.value)
    return out if len(out) <= MAX_ELEMENTS else None


def _shown(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def set_algebra_written_out(text: str) -> str:
    """The set that ``text`` computes when it is only operations on finite sets of numbers;
    else ``text`` itself."""
    if len(text) > MAX_TEXT or not any(
        op in text for op in ("\\cup", "\\cap", "setminus", "\\backslash", "-")
    ):
        return text
    s = _LEFT_RIGHT_RE.sub("", text).strip().strip("$").strip()
    sets: list[list[Fraction]] = []
    ops: list[str] = []
    groups = minus = False  # "{2}-{3}" may be LaTeX groups: 2 - 3
    i = 0
    while True:
        m = _SET_RE.match(s, i)
        if m is None:
            return text
        groups = groups or m.group(1) is None
        elements = _elements(m.group(1) if m.group(1) is not None else m.group(2))
        if elements is None:
            return text
        sets.append(elements)
        i = m.end()
        if i == len(s):
            break
        op = _OP_RE.match(s, i)
        if op is None:
            return text
        minus = minus or op.group(1) == "-"
        ops.append("\\setminus" if op.group(1) in ("\\smallsetminus", "\\backslash", "-") else op.group(1))
        i = op.end()
    if not ops or (len(set(ops)) > 1 and len(sets) > 2) or (groups and minus):
        return text
    result = set(sets[0])
    for op, elements in zip(ops, sets[1:], strict=True):
        if op == "\\cup":
            result |= set(elements)
        elif op == "\\cap":
            result &= set(elements)
        else:
            result -= set(elements)
    if not result:
        return "\\emptyset"
    return "\\{" + ", ".join(_shown(v) for v in sorted(result)) + "\\}"
