"""Proof that two expressions differ: their values at a point where both are defined.

A helper of the certain path (:mod:`rewards.expressions`); it can only say "different". Both sides
are read by :mod:`rewards.formal_identity` (the reader that follows latex2sympy's reading) into
rational functions of atoms, and every atom is evaluated with mpmath at a few points where each
variable takes its own positive value. Two values that differ beyond the evaluation's error prove
the two expressions are different functions, the way math-verify finds them (sympy's symbols
carry no assumptions, so ``\\sqrt{x^2}`` is not ``x`` to it either; positive points do not even
test that).

What it leaves to math-verify: sides without a variable (constants have their own rule with its
float policy), sides in different variables (a letter may be a unit: ``2\\pi`` against
``2\\pi m``), letters written together (``cm``, ``xy``), decimals, the imaginary unit, a
base-less ``\\log`` (base 10 to math-verify), a letter before ``(`` (``f(x)``: a product or a
function), and any point where a value is not real or finite: a root or logarithm of a negative
number, a division by zero, a value beyond about 1e+-100000. Each value is computed at two
precisions (40 and 70 digits) and used only where both agree to 30 digits, so cancellation in
large expanded polynomials cannot fake a difference.
"""

from __future__ import annotations

import re
import threading
from fractions import Fraction
from typing import Any

from rewards.formal_identity import FUNCTIONS, FormalPair, Rat, Spec, read_pair

_POINTS = (
    (Fraction(7, 11), Fraction(13, 10), Fraction(5, 9), Fraction(17, 12), Fraction(3, 7), Fraction(11, 5)),
    (Fraction(6, 5), Fraction(4, 13), Fraction(9, 7), Fraction(2, 3), Fraction(15, 8), Fraction(5, 17)),
    (Fraction(19, 9), Fraction(8, 11), Fraction(3, 2), Fraction(11, 13), Fraction(7, 4), Fraction(12, 7)),
)
"""Positive probe values; the ``j``-th variable (sorted by name) takes ``_POINTS[k][j % 6]`` plus
``j // 6`` at point ``k``, so every variable has its own value."""

MARGIN = 1e-20
"""Two values differ when they differ by more than this, relative to the larger or to 1."""
AGREE = 1e-30
"""A value is used only when its two evaluations agree to this, relative to it or to 1."""
HUGE = 1e300
"""An argument of a function, or an exponent, beyond this is not evaluated."""
LOG_BOUND = 230_000
"""A value whose natural logarithm is beyond this in size (about 1e+-100,000) is not compared:
``(x-a)^{5999}`` is evaluated, a tower such as ``x^{x^{x^{x}}}`` stops here; mpmath keeps its
exponents exact, so values in this range cost no more than small ones."""
MAG_BOUND = 330_000
"""The same bound in binary orders of magnitude (mpmath's ``mag``)."""

_UNREAD_VARIABLES = frozenset({"i", "I", "j", "J", "E"})  # imaginary units, sympy's E
_LETTER_RUN_RE = re.compile(r"(?<![a-zA-Z\\])[a-zA-Z]{2,}")
"""Two letters together outside a command: a product to latex2sympy, a unit (``cm``, ``mA``) to a
reader; not decided here."""
_LETTER_CALL_RE = re.compile(r"(?<![a-zA-Z\\])[a-zA-Z](?:_\{?\w+\}?)?\s*\(")
"""A letter before ``(`` (``f(x)``): a product or a function; not decided here."""
_MPMATH_NAMES = {"\\arcsin": "asin", "\\arccos": "acos", "\\arctan": "atan"}
_FUNCTION_NAMES = {f: _MPMATH_NAMES.get(f, f[1:]) for f in FUNCTIONS - {"\\log", "\\exp"}}
"""mpmath's name of each function the reader takes; ``\\log`` (no base) and ``\\exp`` (its own
atom) are not evaluated by name."""


class _Undefined(Exception):
    """A value that is not a finite real number here."""


_contexts = threading.local()


def _context(dps: int) -> Any:
    """A private mpmath context per thread and precision (the global one is shared state)."""
    import mpmath

    table = getattr(_contexts, "table", None)
    if table is None:
        table = _contexts.table = {}
    ctx = table.get(dps)
    if ctx is None:
        ctx = table[dps] = mpmath.MPContext()
        ctx.dps = dps
    return ctx


class _Evaluator:
    def __init__(self, ctx: Any, specs: dict[str, Spec], point: dict[str, Fraction]) -> None:
        self.ctx = ctx
        self.specs = specs
        self.point = point
        self.memo: dict[str, Any] = {}

    def real(self, v: Any) -> Any:
        ctx = self.ctx
        if not isinstance(v, ctx.mpf) or not ctx.isfinite(v):
            raise _Undefined
        if v and abs(ctx.mag(v)) > MAG_BOUND:
            raise _Undefined
        return v

    def argument(self, r: Rat) -> Any:
        """The value of ``r`` used as a function's argument or an exponent: at most HUGE."""
        v = self.rat(r)
        if abs(v) > HUGE:
            raise _Undefined
        return v

    def rat(self, r: Rat) -> Any:
        num, den = r
        d = self.poly(den)
        if not d:
            raise _Undefined
        return self.real(self.poly(num) / d)

    def poly(self, p: dict[Any, Fraction]) -> Any:
        ctx = self.ctx
        total = ctx.mpf(0)
        for (radicand, atoms), c in p.items():
            term = ctx.mpf(c.numerator) / c.denominator
            if radicand != 1:
                term *= ctx.sqrt(radicand)
            for key, e in atoms:
                term *= self.atom(key) ** e
            total += term
        return self.real(total)

    def atom(self, key: str) -> Any:
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self.real(self._atom(key))
        return got

    def _atom(self, key: str) -> Any:
        ctx = self.ctx
        spec = self.specs.get(key)
        if spec is None:
            raise _Undefined
        kind = spec[0]
        if kind == "var":
            if key == "e":
                return +ctx.e  # a constant object: + makes it a number
            value = self.point[key]
            return ctx.mpf(value.numerator) / value.denominator
        if kind == "pi":
            return +ctx.pi
        if kind == "abs":
            return abs(self.rat(spec[1]))  # type: ignore[arg-type]
        if kind == "exp":
            arg = self.argument(spec[1])  # type: ignore[arg-type]
            if abs(arg) > LOG_BOUND:
                raise _Undefined
            return ctx.exp(arg)
        if kind == "log":
            base, arg = self.rat(spec[1]), self.rat(spec[2])  # type: ignore[arg-type]
            if base <= 0 or base == 1 or arg <= 0:
                raise _Undefined
            return ctx.ln(arg) / ctx.ln(base)
        if kind == "fn":
            name = _FUNCTION_NAMES.get(str(spec[1]))
            if name is None:
                raise _Undefined  # \log without a base, \exp handled as "exp"
            return getattr(ctx, name)(self.argument(spec[2]))  # type: ignore[arg-type]
        if kind == "pow":
            base = self.rat(spec[1])  # type: ignore[arg-type]
            exponent = spec[2]
            if isinstance(exponent, Fraction):
                e = ctx.mpf(exponent.numerator) / exponent.denominator
            else:
                e = self.argument(exponent)  # type: ignore[arg-type]
            whole = isinstance(exponent, Fraction) and exponent.denominator == 1
            if base < 0 and not whole or base == 0 and e <= 0:
                raise _Undefined  # a root or a real power of a negative number: not real here
            if base and abs(e * ctx.ln(abs(base))) > LOG_BOUND:
                raise _Undefined
            return ctx.power(base, int(exponent) if whole else e)
        raise _Undefined


def _value(r: Rat, specs: dict[str, Spec], point: dict[str, Fraction]) -> Any:
    """``r`` at ``point``, when two precisions agree on a finite real value; else None."""
    try:
        low = _Evaluator(_context(40), specs, point).rat(r)
        high = _Evaluator(_context(70), specs, point).rat(r)
    except (_Undefined, ZeroDivisionError, OverflowError, ValueError, TypeError):
        return None
    if abs(high - low) > AGREE * max(1, abs(high)):
        return None
    return high


def _variables(specs: dict[str, Spec]) -> list[str]:
    return sorted(k for k, s in specs.items() if s[0] == "var" and k != "e")


def differs_at_a_point(gold: str, pred: str, pair: FormalPair | None = None) -> bool | None:
    """False when the two expressions take different real values at a positive probe point (a
    proof that they differ); None otherwise. ``pair``: the two texts already read by
    :func:`rewards.formal_identity.read_pair` (read here when not given)."""
    if "." in gold + pred or any(_LETTER_CALL_RE.search(t) or _LETTER_RUN_RE.search(t) for t in (gold, pred)):
        return None
    if pair is None:
        pair = read_pair(gold, pred)
    if pair is None:
        return None
    a, b, gold_specs, pred_specs = pair
    variables = _variables(gold_specs)
    if not variables or variables != _variables(pred_specs) or _UNREAD_VARIABLES.intersection(variables):
        return None  # another variable may be a unit to math-verify ("2\\pi\\,m")
    specs = {**gold_specs, **pred_specs}
    for values in _POINTS:
        point = {x: values[j % len(values)] + j // len(values) for j, x in enumerate(variables)}
        va, vb = _value(a, specs, point), _value(b, specs, point)
        if va is None or vb is None:
            continue
        if abs(va - vb) > MARGIN * max(1, abs(va), abs(vb)):
            return False
    return None
