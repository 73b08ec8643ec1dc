"""Expressions in named sets, compared by membership tables: ``A \\cup B`` = ``B \\cup A``,
``(A \\cup B)'`` = ``A' \\cap B'`` (De Morgan), ``A \\setminus B`` = ``A \\cap B^c``.

Neither reader compares them: latex2sympy reads ``A \\cup B`` as a union of two symbols, which sympy
cannot evaluate, and math-verify refused even ``A \\cup B`` against ``B \\cup A``. Two such
expressions are the same set for every choice of the named sets exactly when they agree on every
row of a membership table (an element in or out of each set): ``2^n`` rows for ``n`` names, at
most :data:`MAX_NAMES` of them. Complements are taken in one universe (``A'``, ``A^c``,
``A^{\\complement}``, ``\\overline{A}``, ``\\bar{A}``); ``\\varnothing`` and ``\\emptyset`` are the
empty set. A name is one capital letter, with a digit or letter subscript allowed (``A_1``).
Operations without brackets must all be the same (``A \\cup B \\cap C`` has no agreed grouping:
no verdict). Anything else (sets of numbers, intervals, a relative complement ``\\complement_U A``)
is not read here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

__all__ = ["MAX_NAMES", "set_identities_decide"]

MAX_NAMES = 6
_MAX_CHARS = 300

_TOKEN_RE = re.compile(
    r"\s*(?:(\\cup|∪)|(\\cap|∩)|(\\setminus|\\smallsetminus|\\backslash)|(\\triangle|\\ominus|△)"
    r"|(\\varnothing|\\emptyset|∅)|(\\overline|\\bar)|([A-Z](?:_\{?[0-9a-z]\}?)?)(?![A-Za-z])"
    r"|(\^\s?\{?\s?(?:c|C|\\complement)\s?\}?|')|([({])|([)}]))"
)
_LEFT_RIGHT_RE = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?![a-zA-Z])\s*")
_OPS: dict[str, Callable[[bool, bool], bool]] = {
    "cup": lambda a, b: a or b,
    "cap": lambda a, b: a and b,
    "minus": lambda a, b: a and not b,
    "sym": lambda a, b: a != b,
}
_KINDS = ("cup", "cap", "minus", "sym", "empty", "bar", "name", "complement", "open", "close")

Row = dict[str, bool]
Table = Callable[[Row], bool]


def _tokens(text: str) -> list[tuple[str, str]] | None:
    s = _LEFT_RIGHT_RE.sub("", text).strip().strip("$").strip()
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(s):
        m = _TOKEN_RE.match(s, pos)
        if m is None or m.end() == pos:
            if s[pos:].strip() == "":
                break
            return None
        kind = _KINDS[m.lastindex - 1] if m.lastindex else ""
        out.append((kind, m.group(m.lastindex or 0).replace(" ", "").replace("{", "").replace("}", "")))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens, self.i, self.names, self.operations = tokens, 0, set[str](), 0

    def peek(self) -> str:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else ""

    def expression(self) -> Table | None:
        left = self.operand()
        op = self.peek()
        if left is None or op not in _OPS:
            return left
        combine = _OPS[op]
        terms = [left]
        while self.peek() == op:
            self.i += 1
            self.operations += 1
            right = self.operand()
            if right is None:
                return None
            terms.append(right)
        if self.peek() in _OPS:
            return None  # "A \\cup B \\cap C": no agreed grouping
        if op in ("minus", "sym") and len(terms) > 2:
            return None  # "A \\setminus B \\setminus C": left to right or not, not said

        def table(row: Row) -> bool:
            value = terms[0](row)
            for term in terms[1:]:
                value = combine(value, term(row))
            return value

        return table

    def operand(self) -> Table | None:
        kind = self.peek()
        self.i += 1
        base: Table | None
        if kind == "name":
            name = self.tokens[self.i - 1][1]
            self.names.add(name)
            base = lambda row, name=name: row[name]  # noqa: E731
        elif kind == "empty":
            base = lambda row: False  # noqa: E731
        elif kind == "open":
            base = self.expression()
            if base is None or self.peek() != "close":
                return None
            self.i += 1
        elif kind == "bar":  # \\overline{A \\cup B}, \\bar A
            inner = self.operand()
            if inner is None:
                return None
            self.operations += 1
            base = lambda row, inner=inner: not inner(row)  # noqa: E731
        else:
            return None
        while self.peek() == "complement":
            self.i += 1
            self.operations += 1
            base = lambda row, inner=base: not inner(row)  # noqa: E731
        return base


def _read(text: str) -> tuple[Table, set[str], int] | None:
    if len(text) > _MAX_CHARS:
        return None
    tokens = _tokens(text)
    if not tokens:
        return None
    parser = _Parser(tokens)
    table = parser.expression()
    if table is None or parser.i != len(tokens):
        return None
    return table, parser.names, parser.operations


def set_identities_decide(gold: str, pred: str) -> bool | None:
    """Two expressions in named sets, one of them with an operation or a complement: whether they
    agree on every row of the membership table of their names; None unless both are read."""
    g, p = _read(gold), _read(pred)
    if g is None or p is None or not (g[2] or p[2]):
        return None
    names = sorted(g[1] | p[1])
    if len(names) > MAX_NAMES:
        return None
    for values in itertools.product((False, True), repeat=len(names)):
        row = dict(zip(names, values, strict=True))
        if g[0](row) != p[0](row):
            return False
    return True
