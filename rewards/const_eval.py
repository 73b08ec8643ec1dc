"""Numeric value of a closed-form constant written in LaTeX (``2\\sqrt{3}``, ``\\frac{\\pi}{4}``, ``e^{2}``).

A fast-path helper for :mod:`rewards.equivalence`: a strict recursive-descent reader of a small
LaTeX subset that returns a float, or None for anything outside the subset, anything ambiguous
(``1/2\\pi``) and anything whose magnitude would explode (power towers). It never evaluates text
as code and its work is linear in the input length (nesting depth is capped), so it needs no
timeout. Expressions with variables, relations, sets etc. are left to the symbolic worker.

Subset: decimal numbers; ``+ - * / ^``; ``\\cdot``, ``\\times``, ``\\div``; implicit multiplication
(``2\\pi``, ``(1+x)(2)``); ``( )``, ``[ ]``, ``{ }`` groups; ``\\frac{a}{b}`` (and ``\\frac12``);
``\\sqrt{x}``, ``\\sqrt[n]{x}``; ``\\pi``, ``e``; ``\\ln``, ``\\sin``, ``\\cos``, ``\\tan`` of a group.
"""

from __future__ import annotations

import math
import re

_TOKEN_RE = re.compile(r"\s*(\d+\.\d*|\.\d+|\d+|\\[a-zA-Z]+|[-+*/^(){}\[\]]|[a-zA-Z])")
_MAX_DEPTH = 40
_MAX_ABS = 1e250
_FUNCS = {"\\ln": math.log, "\\sin": math.sin, "\\cos": math.cos, "\\tan": math.tan}
_OPEN_CLOSE = {"(": ")", "[": "]", "{": "}"}


class _Reject(Exception):
    """Outside the subset; the caller returns None."""


def _tokenize(s: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    s = s.rstrip()
    while pos < len(s):
        m = _TOKEN_RE.match(s, pos)
        if m is None:
            raise _Reject
        tokens.append(m.group(1))
        pos = m.end()
    return tokens


class _Reader:
    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.i = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise _Reject
        self.i += 1
        return tok

    def expr(self) -> float:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _Reject
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        self.depth -= 1
        return _check(value)

    def term(self) -> float:
        value = self.signed()
        after_division = False
        while True:
            tok = self.peek()
            if tok in ("*", "\\cdot", "\\times"):
                self.take()
                value *= self.signed()
                after_division = False
            elif tok in ("/", "\\div"):
                self.take()
                den = self.signed()
                if den == 0:
                    raise _Reject
                value /= den
                after_division = True
            elif tok is not None and _starts_factor(tok):
                if after_division:
                    raise _Reject  # "1/2\pi": (1/2)*pi or 1/(2 pi)?
                if tok[0].isdigit() or tok == "\\frac":
                    raise _Reject  # "2 3" (a list?) or "3\frac12" (a mixed number)
                value *= self.power()
            else:
                return _check(value)

    def signed(self) -> float:
        if self.peek() == "-":
            self.take()
            return -self.signed()
        if self.peek() == "+":
            self.take()
            return self.signed()
        return self.power()

    def power(self) -> float:
        base = self.atom()
        if self.peek() == "^":
            self.take()
            exponent = self.exponent()
            if base == 0 and exponent <= 0:
                raise _Reject
            if base < 0 and exponent != int(exponent):
                raise _Reject
            if abs(exponent) > 1e4 or (abs(base) > 1 and abs(exponent) * math.log10(abs(base)) > 250):
                raise _Reject
            return _check(base**exponent)
        return base

    def exponent(self) -> float:
        tok = self.peek()
        if tok in ("{", "("):
            return self.group()
        if tok == "-":
            self.take()
            return -self.exponent()
        if tok is not None and tok[0].isdigit():
            if len(tok) > 1:
                raise _Reject  # "2^10": LaTeX reads 2^1 0, people mean 2^{10}
            return _number(self.take())
        return self.atom()

    def group(self) -> float:
        opener = self.take()
        if opener not in _OPEN_CLOSE:
            raise _Reject
        value = self.expr()
        self.take(_OPEN_CLOSE[opener])
        return value

    def brace_or_digit(self) -> float:
        tok = self.peek()
        if tok == "{":
            return self.group()
        if tok is not None and tok.isdigit():  # \frac12: one digit per argument
            self.take()
            if len(tok) > 1:
                self.t.insert(self.i, tok[1:])
            return float(tok[0])
        raise _Reject

    def atom(self) -> float:
        tok = self.peek()
        if tok is None:
            raise _Reject
        if tok in _OPEN_CLOSE:
            return self.group()
        if tok[0].isdigit() or tok[0] == ".":
            return _number(self.take())
        self.take()
        if tok == "\\pi":
            return math.pi
        if tok == "e":
            return math.e
        if tok == "\\frac":
            num = self.brace_or_digit()
            den = self.brace_or_digit()
            if den == 0:
                raise _Reject
            return num / den
        if tok == "\\sqrt":
            index = 2.0
            if self.peek() == "[":
                index = self.group()
                if index < 2 or index != int(index):
                    raise _Reject
            radicand = self.brace_or_digit()
            if radicand < 0:
                raise _Reject
            return radicand ** (1.0 / index)
        if tok in _FUNCS:
            if self.peek() not in _OPEN_CLOSE:
                raise _Reject
            arg = self.group()
            if tok == "\\ln" and arg <= 0:
                raise _Reject
            return _FUNCS[tok](arg)
        raise _Reject


def _starts_factor(tok: str) -> bool:
    return tok in ("(", "{", "[", "\\pi", "e", "\\frac", "\\sqrt") or tok in _FUNCS or tok[0].isdigit()


def _number(tok: str) -> float:
    if len(tok) > 30:
        raise _Reject
    return float(tok)


def _check(value: float) -> float:
    if not math.isfinite(value) or abs(value) > _MAX_ABS:
        raise _Reject
    return value


def evaluate_constant(s: str) -> float | None:
    """The value of a closed-form constant expression, or None if ``s`` is outside the subset."""
    if not s or len(s) > 500:
        return None
    try:
        reader = _Reader(_tokenize(s))
        value = reader.expr()
        if reader.peek() is not None:
            return None
        return value
    except (_Reject, OverflowError, ZeroDivisionError, ValueError, RecursionError):
        return None
