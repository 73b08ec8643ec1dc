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
from dataclasses import dataclass

__all__ = ["MAX_NAMES", "set_identities_decide"]

MAX_NAMES = 6
_MAX_CHARS = 300

_TOKEN_RE = re.compile(
    r"\s*(?:(\\cup(?![a-zA-Z])|∪)|(\\cap(?![a-zA-Z])|∩)"
    r"|(\\(?:setminus|smallsetminus|backslash)(?![a-zA-Z]))|(\\(?:triangle|ominus)(?![a-zA-Z])|△)"
    r"|(\\(?:varnothing|emptyset)(?![a-zA-Z])|∅)|(\\(?:overline|bar)(?![a-zA-Z]))"
    r"|([A-Z](?:_\{?[0-9a-z]\}?)?)(?![A-Za-z])"
    r"|(\^\s?\{?\s?(?:c|C|\\complement)\s?\}?|')|([({])|([)}]))"
)
_KINDS = ("cup", "cap", "minus", "sym", "empty", "bar", "name", "complement", "open", "close")
_OPERATIONS = frozenset({"cup", "cap", "minus", "sym"})
_LEFT_RIGHT_RE = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?![a-zA-Z])\s*")


@dataclass(frozen=True)
class _Node:
    """A set expression: a ``name``, the ``empty`` set, the complement (``not``) of ``parts[0]``, or
    one operation (``cup``, ``cap``, ``minus``, ``sym``) applied left to right to ``parts``."""

    kind: str
    name: str = ""
    parts: tuple[_Node, ...] = ()


def _member(node: _Node, row: dict[str, bool]) -> bool:
    """Whether an element in exactly the sets ``row`` marks True lies in the set ``node``."""
    if node.kind == "name":
        return row[node.name]
    if node.kind == "empty":
        return False
    values = [_member(part, row) for part in node.parts]
    if node.kind == "not":
        return not values[0]
    result = values[0]
    for value in values[1:]:
        if node.kind == "cup":
            result = result or value
        elif node.kind == "cap":
            result = result and value
        elif node.kind == "minus":
            result = result and not value
        else:  # symmetric difference
            result = result != value
    return result


def _tokens(text: str) -> list[tuple[str, str]] | None:
    s = _LEFT_RIGHT_RE.sub("", text).strip().strip("$").strip()
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(s):
        m = _TOKEN_RE.match(s, pos)
        if m is None or m.lastindex is None:
            return None if s[pos:].strip() else out
        name = re.sub(r"[\s{}]", "", m.group(m.lastindex))
        out.append((_KINDS[m.lastindex - 1], name))
        pos = m.end()
    return out


class _Parser:
    """Recursive descent over the tokens; records the names met and the operations and complements
    applied (an expression without any is a bare name, left to the other rules)."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens, self.i = tokens, 0
        self.names: set[str] = set()
        self.operations = 0

    def _peek(self) -> str:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else ""

    def expression(self) -> _Node | None:
        first = self.operand()
        op = self._peek()
        if first is None or op not in _OPERATIONS:
            return first
        parts = [first]
        while self._peek() == op:
            self.i += 1
            self.operations += 1
            part = self.operand()
            if part is None:
                return None
            parts.append(part)
        if self._peek() in _OPERATIONS:
            return None  # "A \\cup B \\cap C": no agreed grouping
        if op in ("minus", "sym") and len(parts) > 2:
            return None  # "A \\setminus B \\setminus C": the grouping is not said
        return _Node(op, parts=tuple(parts))

    def operand(self) -> _Node | None:
        kind = self._peek()
        self.i += 1
        node: _Node | None
        if kind == "name":
            node = _Node("name", name=self.tokens[self.i - 1][1])
            self.names.add(node.name)
        elif kind == "empty":
            node = _Node("empty")
        elif kind == "open":
            node = self.expression()
            if node is None or self._peek() != "close":
                return None
            self.i += 1
        elif kind == "bar":  # \\overline{A \\cup B}, \\bar A
            inner = self.operand()
            if inner is None:
                return None
            self.operations += 1
            node = _Node("not", parts=(inner,))
        else:
            return None
        while self._peek() == "complement":
            self.i += 1
            self.operations += 1
            node = _Node("not", parts=(node,))
        return node


def _read(text: str) -> tuple[_Node, set[str], int] | None:
    """A set expression's tree, its names and how many operations it applies; None if ``text`` is
    not one."""
    if len(text) > _MAX_CHARS:
        return None
    tokens = _tokens(text)
    if not tokens:
        return None
    parser = _Parser(tokens)
    node = parser.expression()
    if node is None or parser.i != len(tokens):
        return None
    return node, parser.names, parser.operations


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
        if _member(g[0], row) != _member(p[0], row):
            return False
    return True
