"""Equations that name a derivative on the left (``f''(x) = 12x^2-12x``, ``y'' = ...``,
``\\frac{d^2y}{dx^2} = ...``, ``\\frac{d^2}{dx^2}f(x) = ...``, ``dy/dx = ...``) on the certain path.

Each notation names the n-th derivative of a function (a letter, ``y`` by convention when none is
written) with respect to a variable (``x`` when none is written). Two such equations say the same
thing when they name the same derivative and their right sides are equal; two orders that differ
(``f'''(x) = 6`` against ``f''(x) = 6``) are different statements. math-verify in math mode reads
``f''(x)`` and ``y''`` as different symbols and refuses such pairs; plain, it compares only the
right sides and credits the wrong order too. Two different function letters (``g''`` against
``f''``; ``y`` goes with any) or variables (``f''(t)`` against ``f''(x)``) give no verdict here.
Primes written ``f^{\\prime\\prime}`` or ``f^{(2)}`` are read as ``f''`` by
:func:`rewards.answer_text.textbook_spellings` before this runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from rewards.equations import two_sides

_D = r"(?:\\mathrm\{d\}|\\operatorname\{d\}|d)\s?"  # after normalisation, \mathrm{d} arrives as " d "
_PRIMES_RE = re.compile(r"^([a-zA-Z])('{1,9})(?:\s?\(\s?([a-zA-Z])\s?\))?$")
_LEIBNIZ_RE = re.compile(
    rf"^\\frac\s?\{{\s?{_D}(?:\^\{{?([1-9])\}}?)?\s?([a-zA-Z])?\s?\}}"
    rf"\s?\{{\s?{_D}\s?([a-zA-Z])(?:\^\{{?([1-9])\}}?)?\s?\}}"
    r"\s?(?:([a-zA-Z])(?:\s?\(\s?([a-zA-Z])\s?\))?)?$"
)
_SLASH_RE = re.compile(r"^d([a-zA-Z])\s?/\s?d([a-zA-Z])$")


class Derivative(NamedTuple):
    order: int
    function: str | None  # None: not written ("f''" names f; "\\frac{d^2}{dx^2}" alone names none)
    variable: str | None


def derivative_named(lhs: str) -> Derivative | None:
    """The derivative ``lhs`` names (``f''(x)``: order 2 of f in x; ``\\frac{dy}{dx}``: order 1 of
    y in x), or None."""
    s = lhs.strip()
    m = _PRIMES_RE.match(s)
    if m:
        return Derivative(len(m.group(2)), m.group(1), m.group(3))
    m = _LEIBNIZ_RE.match(s)
    if m:
        top, above, var, below, after, inner = m.groups()
        if (above is None) == (after is None) or (top or "1") != (below or "1"):
            return None  # no function, or two; d^2 over dx^3
        if inner is not None and inner != var:
            return None  # d/dx of f(t)
        return Derivative(int(top or "1"), above or after, var)
    m = _SLASH_RE.match(s)
    return Derivative(1, m.group(1), m.group(2)) if m else None


def _conflict(a: str | None, b: str | None, free: str = "") -> bool:
    return a is not None and b is not None and a != b and free not in (a, b)


def derivatives_decide(gold: str, pred: str, compare: Callable[[str, str], bool | None]) -> bool | None:
    """For two answers that are one equation each naming a derivative on the left: False when the
    orders differ, ``compare`` of the right sides when they name the same derivative, None when
    the function letters or variables differ or either is not such an equation."""
    g, p = two_sides(gold), two_sides(pred)
    if g is None or p is None:
        return None
    dg = derivative_named(g[0])
    dp = derivative_named(p[0]) if dg is not None else None
    if dg is None or dp is None:
        return None
    if dg.order != dp.order:
        return False
    if _conflict(dg.function, dp.function, free="y") or _conflict(dg.variable, dp.variable):
        return None
    return compare(g[1], p[1])
