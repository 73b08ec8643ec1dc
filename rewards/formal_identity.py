"""Proof that two expressions are the same rational function of their atoms (``13\\pi R^2`` and
``13 \\cdot \\pi \\cdot R^{2}``, ``\\frac{1}{2}\\ln(7+x^4)+C`` and ``0.5\\ln(7+x^4)+C``).

A helper of the certain path (:mod:`rewards.expressions`); it can only say "equal". Each side is read
into a quotient of polynomials with rational coefficients whose indeterminates are *atoms*:
variables (``x``, ``R``, ``x_1``, ``\\alpha``), the constants ``\\pi``, ``e`` and ``i``, and
applications such as ``\\sin(6x)``, ``\\ln(7+x^4)``, ``e^{-8x}``, ``a^x`` or ``\\sqrt[3]{y}``, each
keyed by the canonical form of its arguments. Square roots of rational numbers are kept exact
(``\\sqrt{8} = 2\\sqrt{2}``, ``\\sqrt2 \\cdot \\sqrt2 = 2``). Two sides are equal when
``n_1 d_2 = n_2 d_1`` holds as polynomials: a formal identity holds for every value of every atom,
so it is a proof wherever both sides are defined, whatever the atoms stand for. A formal
difference proves nothing (``\\sin^2 x + \\cos^2 x`` is 1); then math-verify decides.

The reader follows latex2sympy's reading where LaTeX is ambiguous (adjacent letters multiply,
``x(x+1)`` is a product, ``\\sin 2x`` is ``\\sin(2x)``) and refuses what it cannot read the same
way: ``1/2x``, ``\\sin x \\cdot y``, relations, commas, text, unknown commands, inverse-function
powers (``\\sin^{-1}``). It never evaluates text as code and its work is bounded (input length,
polynomial sizes and powers are capped).
"""

from __future__ import annotations

import re
import threading
from fractions import Fraction

from rewards.answer_text import greek_names
from rewards.rational_functions import (
    Poly,
    Rat,
    Reject,
    add,
    const,
    expands,
    int_power,
    is_const,
    mul,
    radical,
    rat_key,
    start_budget,
    times,
)

MAX_CHARS = 400
"""Longest side read."""
_TOKEN_RE = re.compile(
    r"\s*(?:(\d+\.\d*|\.\d+|\d+)|(\\[a-zA-Z]+)|(\\[,;:! ])|([a-zA-Z])|([-+*/^_(){}\[\]|]))"
)
_SPACING = frozenset({"\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "\\left", "\\right"})
_SIZES = frozenset({"\\big", "\\Big", "\\bigg", "\\Bigg", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr"})
_GREEK = frozenset("\\" + g for g in greek_names(pi=False, variants=True, capitals=True))
FUNCTIONS = frozenset(
    "\\" + f
    for f in ("sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth sech csch ln log exp".split())
)
"""The functions the reader takes (``\\sin x``, ``\\ln(x+1)``); the point evaluator and the
bare-argument guard of :mod:`rewards.expressions` take the same ones."""
_OPEN = {"(": ")", "[": "]", "{": "}"}


Spec = tuple[object, ...]
"""What an atom stands for, recorded by :func:`read_pair`: ``("var",)``, ``("pi",)``,
``("abs", arg)``, ``("fn", name, arg)``, ``("log", base, arg)``, ``("exp", arg)``,
``("pow", base, exponent)`` (``exponent`` a Fraction or a Rat); arguments are Rats."""

_specs = threading.local()


def _atom(key: str, spec: Spec | None = None) -> Rat:
    table = getattr(_specs, "table", None)
    if table is not None and spec is not None:
        table[key] = spec
    return {(1, ((key, 1),)): Fraction(1)}, const(Fraction(1))


class _Reader:
    def __init__(self, text: str) -> None:
        self.toks = _tokenize(text)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        t = self.peek()
        if t is None or (expected is not None and t != expected):
            raise Reject
        self.i += 1
        return t

    def expr(self) -> Rat:
        sign = Fraction(1)
        if self.peek() in ("+", "-"):
            sign = Fraction(-1 if self.take() == "-" else 1)
        num, den = self.term()
        total: Rat = (mul(num, const(sign)), den)
        while self.peek() in ("+", "-"):
            minus = self.take() == "-"
            n2, d2 = self.term()
            if minus:
                n2 = mul(n2, const(Fraction(-1)))
            total = (add(mul(total[0], d2), mul(n2, total[1])), mul(total[1], d2))
        return total

    def term(self) -> Rat:
        acc = self.factor()
        while True:
            t = self.peek()
            if t in ("*", "\\cdot", "\\times"):
                self.take()
                acc = times(acc, self.factor())
            elif t in ("/", "\\div"):
                self.take()
                n, d = self.factor()
                if not n:
                    raise Reject  # a division by zero
                acc = times(acc, (d, n))
                if self._starts_factor(self.peek()):
                    raise Reject  # "1/2x": 1/(2x) to latex2sympy, (1/2)x to a reader
            elif self._starts_factor(t):
                prev = self.toks[self.i - 1]
                if _is_number(prev) and (_is_number(t) or t == "\\frac"):
                    raise Reject  # "2 3": digit grouping or a product; "2\frac12": a mixed number
                if len(prev) == 1 and prev.isalpha() and (_is_number(t) or t == "["):
                    raise Reject  # "x1", "x[1]": a name or an index, not a product
                acc = times(acc, self.factor())
            else:
                return acc

    @staticmethod
    def _starts_factor(t: str | None) -> bool:
        if t is None:
            return False
        return (
            _is_number(t)
            or t.isalpha()
            or t in ("(", "[", "{", "\\frac", "\\sqrt", "\\pi")
            or t in _GREEK
            or t in FUNCTIONS
        )

    def factor(self) -> Rat:
        base = self.primary()
        if self.peek() == "^":
            self.take()
            t = self.peek()
            if t is not None and t.isdigit() and len(t) > 1:  # "x^10": latex2sympy reads x^{10}
                return _power(base, _number(self.take()))
            base = _power(base, self.group())
        return base

    def single(self) -> Rat:
        """A one-token argument (``x^2``, ``\\frac12``, ``\\sqrt2``): a digit, a letter, a command."""
        t = self.take()
        if _is_number(t):
            if "." in t:
                raise Reject
            if len(t) > 1:  # "\frac12": the first digit only, the rest stays
                self.toks[self.i - 1 : self.i] = [t[0], t[1:]]
            return _number(t[0])
        self.i -= 1
        if t.isalpha() or t in _GREEK or t == "\\pi":
            return self.primary()
        raise Reject

    def group(self) -> Rat:
        """A braced argument, or a one-token one."""
        if self.peek() == "{":
            self.take()
            got = self.expr()
            self.take("}")
            return got
        return self.single()

    def primary(self) -> Rat:
        t = self.take()
        if _is_number(t):
            return _number(t)
        if t in _OPEN:
            got = self.expr()
            self.take(_OPEN[t])
            return got
        if t == "|":
            got = self.expr()
            self.take("|")
            return _atom(f"abs({rat_key(got)})", ("abs", got))
        if t == "\\frac":
            braced = self.peek() == "{"
            num = self.group()
            t = self.peek() or ""
            if not braced and _is_number(t) and len(t) > 1:
                raise Reject  # "\frac123", "\frac 1 23": 1/23 to latex2sympy
            den = self.group()
            if not den[0]:
                raise Reject
            return times(num, (den[1], den[0]))
        if t == "\\sqrt":
            index = 2
            if self.peek() == "[":
                self.take()
                got = self.take()
                self.take("]")
                if not got.isdigit() or not 2 <= int(got) <= 12:
                    raise Reject
                index = int(got)
            return _power(self.group(), (const(Fraction(1, index)), const(Fraction(1))))
        if t == "\\pi":
            return _atom("pi", ("pi",))
        if t in _GREEK:
            return self._variable(t)
        if t in FUNCTIONS:
            return self.function(t)
        if len(t) == 1 and t.isalpha():
            return self._variable(t)
        raise Reject

    def _variable(self, name: str) -> Rat:
        """A variable's atom; a name applied to a number (``f(0)``, ``\\tau(-1)``) is refused:
        latex2sympy reads that as a function's value, not a product (``x(x+1)`` stays one)."""
        key = name + self._subscript()
        rest = self.toks[self.i : self.i + 4]
        if rest[:1] == ["("] and (
            len(rest) >= 3
            and _is_number(rest[1])
            and rest[2] == ")"
            or len(rest) == 4
            and rest[1] in ("-", "+")
            and _is_number(rest[2])
            and rest[3] == ")"
        ):
            raise Reject
        return _atom(key, ("var",))

    def _subscript(self) -> str:
        if self.peek() != "_":
            return ""
        self.take()
        t = self.take()
        if t == "{":
            parts = []
            while self.peek() != "}":
                p = self.take()
                if not p.isalnum():
                    raise Reject
                parts.append(p)
            self.take("}")
            t = "".join(parts)
        if not t.isalnum():
            raise Reject
        return "_" + t

    def function(self, name: str) -> Rat:
        base: Rat | None = None
        if name == "\\log" and self.peek() == "_":
            self.take()
            base = self.group()
            name = f"\\log_{rat_key(base)}"
        power = 1
        if self.peek() == "^":
            self.take()
            t = self.peek() or ""
            if _is_number(t) and len(t) > 1:
                raise Reject  # "\sin^23": latex2sympy reads the power 23, then no argument
            exp_num, exp_den = self.group()
            top, bottom = is_const(exp_num), is_const(exp_den)
            got = None if top is None or bottom is None else top / bottom
            if got is None or got.denominator != 1 or not 1 <= got <= 12:
                raise Reject  # "\sin^{-1}" is the inverse function
            power = int(got)
        if self.peek() in ("(", "{", "["):
            braced = self.peek() != "("
            arg = self.primary()
            if braced and (self._starts_factor(self.peek()) or self.peek() == "^"):
                raise Reject  # "\sin{x}y" is sin(xy) to latex2sympy, "\sin(x)y" y sin(x)
        else:  # "\sin 2x", "\sin \theta": the factors up to the next operator
            # latex2sympy reads on over numbers, letters, \pi, braces and \frac ("\sin 2\pi x" is
            # sin(2 pi x), "\sin x\frac12" sin(x/2)) and stops at a function or \sqrt
            arg = self.factor()
            while self.peek() is not None and (
                _is_number(self.peek() or "")
                or (self.peek() or "").isalpha()
                or self.peek() in _GREEK
                or self.peek() in ("\\pi", "{", "\\frac")
            ):
                arg = times(arg, self.factor())
            if self.peek() in ("*", "\\cdot", "\\times", "/", "(", "^", "[", "|"):
                raise Reject  # "\sin x \cdot y" is sin(xy) to latex2sympy, "\sin x|x|" sin(x|x|)
        if name == "\\exp":
            return _exp(arg, power)
        spec: Spec = ("fn", name, arg) if base is None else ("log", base, arg)
        num, den = _atom(f"{name}({rat_key(arg)})", spec)
        return int_power(num, power), den


def _exp(arg: Rat, power: int) -> Rat:
    num, den = _atom(f"exp({rat_key(arg)})", ("exp", arg))
    return int_power(num, power), den


def _power(base: Rat, exponent: Rat) -> Rat:
    e_num, e_den = exponent
    en, ed = is_const(e_num), is_const(e_den)
    if en is not None and ed is not None:
        e = en / ed
        if e.denominator == 1:
            n = int(e)
            if not base[0] and n < 0:
                raise Reject  # a power of zero with a negative exponent
            num, den = (base[0], base[1]) if n >= 0 else (base[1], base[0])
            if expands(num, abs(n)) and expands(den, abs(n)):
                return int_power(num, abs(n)), int_power(den, abs(n))
            if is_const(base[0]) is not None and is_const(base[1]) is not None:
                raise Reject  # a number too large to write out: the numeric rules judge it
            return _atom(f"pow({rat_key(base)};{e})", ("pow", base, e))  # (x-a)^{5999}: kept whole
        if e.denominator == 2:
            bn, bd = is_const(base[0]), is_const(base[1])
            if bn is not None and bd is not None:  # sqrt of a rational: exact
                root = int_power(radical(bn / bd), abs(e.numerator))
                if e > 0:
                    return root, const(Fraction(1))
                if not root:
                    raise Reject
                return const(Fraction(1)), root
        return _atom(f"pow({rat_key(base)};{e})", ("pow", base, e))
    if rat_key(base) == rat_key(_atom("e")):
        return _exp(exponent, 1)
    return _atom(f"pow({rat_key(base)};{rat_key(exponent)})", ("pow", base, exponent))


def _number(t: str) -> Rat:
    try:
        return const(Fraction(t)), const(Fraction(1))
    except (ValueError, ZeroDivisionError) as exc:
        raise Reject from exc


def _is_number(t: str) -> bool:
    return bool(t) and (t[0].isdigit() or (t[0] == "." and len(t) > 1))


def _tokenize(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise Reject
        pos = m.end()
        tok = m.group(m.lastindex or 0)
        if tok in _SPACING or tok in _SIZES:
            continue
        if tok in ("\\dfrac", "\\tfrac"):
            tok = "\\frac"
        if tok.startswith("\\") and tok not in _KNOWN:
            raise Reject
        out.append(tok)
    return out


_KNOWN = _GREEK | FUNCTIONS | frozenset({"\\frac", "\\sqrt", "\\pi", "\\cdot", "\\times", "\\div"})


_WORD_RE = re.compile(
    r"(?<![\\a-zA-Z])[a-zA-Z]{3,}|(?:^|\s)(?:or|if|is|to|of|in|at|as|by|on|no|be|an|so|it|we)(?=\s|$)"
)


def read(text: str) -> Rat | None:
    """``text`` as a quotient of polynomials in its atoms, or None outside the subset."""
    if len(text) > MAX_CHARS or _WORD_RE.search(text):
        return None  # words: prose or units, not a product of letters
    try:
        reader = _Reader(text)
        got = reader.expr()
        if reader.peek() is not None or not got[1]:
            return None
        return got
    except (Reject, RecursionError, ZeroDivisionError, OverflowError, ValueError):
        return None


FormalPair = tuple[Rat, Rat, dict[str, Spec], dict[str, Spec]]
"""Two sides read, and what each atom met while reading either side stands for."""


def read_pair(gold: str, pred: str) -> FormalPair | None:
    """Both sides read within one work budget for the comparison, with what each atom stands for
    (for evaluation at a point, :mod:`rewards.point_values`); None if either is outside the
    subset."""
    start_budget()
    try:
        _specs.table = {}
        a = read(gold)
        gold_specs, _specs.table = _specs.table, {}
        b = read(pred)
        pred_specs = _specs.table
    finally:
        _specs.table = None
    return None if a is None or b is None else (a, b, gold_specs, pred_specs)


def _cross(pair: FormalPair | None) -> tuple[Poly, Poly] | None:
    """``(n_gold * d_pred, n_pred * d_gold)`` for a pair read by :func:`read_pair` (the products
    count against the same work budget)."""
    if pair is None:
        return None
    a, b, _, _ = pair
    try:
        return mul(a[0], b[1]), mul(b[0], a[1])
    except Reject:
        return None


def same_rational_function(pair: FormalPair | None) -> bool | None:
    """True when the two sides of ``pair`` are the same rational function of their atoms; None
    otherwise (a formal difference proves nothing)."""
    got = _cross(pair)
    return True if got is not None and got[0] == got[1] else None


def same_equation(gold_difference: str, pred_difference: str) -> bool | None:
    """True when ``lhs - rhs`` of one equation is a nonzero rational multiple of the other's as
    rational functions of their atoms (``T = 2\\pi\\sqrt{r}`` and ``\\frac{T}{2} = \\pi\\sqrt{r}``):
    the same solutions wherever both are defined. None otherwise."""
    got = _cross(read_pair(gold_difference, pred_difference))
    if got is None:
        return None
    lhs, rhs = got
    if not lhs or not rhs or lhs.keys() != rhs.keys():
        return None
    m = next(iter(lhs))
    factor = lhs[m] / rhs[m]
    return True if all(lhs[k] == factor * rhs[k] for k in lhs) else None
