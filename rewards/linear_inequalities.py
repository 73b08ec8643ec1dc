"""Linear inequalities on the certain path, compared by the set of points they describe:
``2x<4`` and ``x<2``, ``-5 < 3x+7 \\le 22`` and ``-4 < x \\le 5``, ``5.5x+8y \\ge 100`` and
``11x+16y \\ge 200``, ``x > -2 \\wedge x < 1`` and ``(-2, 1)``.

Each link ``lhs op rhs`` of an inequality (or of a chain, or of a conjunction joined by
``\\wedge``/``\\land``) is turned into ``d < 0`` or ``d \\le 0`` with ``d`` the difference of its sides.
When every ``d`` is provably a polynomial of degree exactly 1 in the answer's 1-3 variables
(:mod:`rewards.poly_identity`: exact arithmetic on a grid, never evaluating text as code):

- in one variable, each link is a half-line with an exact end (``d = a x + b``, ``a != 0``), and
  the answer is their intersection, an interval; two answers are the same exactly when their
  intervals are (an interval written as ``(-2, 1)`` on the other side is read too). Two
  different names give None (math-verify counts the name; so does the certain path before the
  interval reader of :mod:`rewards.answer_values`, which reads ``x > 1`` and ``a > 1`` alike);
- in two or three variables, one link each: two half-spaces ``d_1 < 0`` and ``d_2 < 0`` are the same
  set exactly when ``d_1 = c d_2`` with ``c > 0`` and both are strict or both are not.

A different set is a different answer only when no decimal is written: whether ``x < 0.33`` answers
``x < \\frac13`` is the numeric rule's to judge (docs/rewards.md), so those go on to it.
Anything else (a non-linear side, a link that is always true or false, links that no point
satisfies together, a multi-variable chain) gives None.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from rewards.answer_text import DECIMAL_LITERAL_RE
from rewards.answer_values import Seq, read_value
from rewards.exact_numbers import Inf, Num
from rewards.expressions import variables_of
from rewards.poly_identity import degree_bound, exact_at, is_linear, proportional

_OP_RE = re.compile(r"\\leq?(?![a-zA-Z])|\\geq?(?![a-zA-Z])|<|>")
_AND_RE = re.compile(r"\\(?:wedge|land)(?![a-zA-Z])")
_NOT_ONE_INEQUALITY_RE = re.compile(r"=|\\ne|\\\{|\||,|;|\\(?:vee|lor|cup|cap|text|mathrm)(?![a-zA-Z])")
"""Marks of something other than a conjunction of inequalities: equations, lists, sets, bars
(``|x| < 1`` is no half-line), unions, and words (units, "or")."""

Link = tuple[str, bool]
"""The difference ``d`` of a link and whether it is strict: the link says ``d < 0`` (or ``\\le``)."""

_Interval = tuple[Fraction | None, bool, Fraction | None, bool]
"""Lower end (None: minus infinity), lower end closed, upper end (None: infinity), upper closed."""

EMPTY: _Interval = (Fraction(1), False, Fraction(0), False)


def read_links(s: str) -> list[Link] | None:
    """The links of a normalised inequality, chain or ``\\wedge``-conjunction, each as ``d < 0`` or
    ``d \\le 0``; None when ``s`` is not one of those."""
    if _NOT_ONE_INEQUALITY_RE.search(s) or len(s) > 300:
        return None
    links: list[Link] = []
    for part in _AND_RE.split(s):
        ops = _OP_RE.findall(part)
        sides = [p.strip() for p in _OP_RE.split(part)]
        if not ops or any(not p for p in sides):
            return None
        for left, op, right in zip(sides, ops, sides[1:], strict=False):
            less = op[0] == "<" or op.startswith("\\l")
            strict = op in ("<", ">")
            links.append((f"({left})-({right})" if less else f"({right})-({left})", strict))
    return links


def _half_line(d: str, strict: bool, letter: str) -> _Interval | None:
    """``{x : d(x) < 0}`` (or ``\\le``) for ``d`` linear in ``x``, or None when ``d`` is not."""
    if degree_bound(d, frozenset(letter)) != 1:
        return None
    at0, at1 = exact_at(d, [letter], (0,)), exact_at(d, [letter], (1,))
    if at0 is None or at1 is None or at1 == at0:
        return None  # not exact, or no variation: a constant is no half-line
    root = -at0 / (at1 - at0)
    return (None, False, root, not strict) if at1 > at0 else (root, not strict, None, False)


def _intersect(a: _Interval, b: _Interval) -> _Interval:
    lo, lo_closed = a[0], a[1]
    if b[0] is not None and (lo is None or b[0] > lo or (b[0] == lo and not b[1])):
        lo, lo_closed = b[0], b[1]
    hi, hi_closed = a[2], a[3]
    if b[2] is not None and (hi is None or b[2] < hi or (b[2] == hi and not b[3])):
        hi, hi_closed = b[2], b[3]
    if lo is not None and hi is not None and (lo > hi or (lo == hi and not (lo_closed and hi_closed))):
        return EMPTY
    return (lo, lo_closed, hi, hi_closed)


def interval_of(links: list[Link], letter: str) -> _Interval | None:
    """The set of ``x`` that satisfy every link (each linear in ``letter``), or None."""
    got: _Interval = (None, False, None, False)
    for d, strict in links:
        half = _half_line(d, strict, letter)
        if half is None:
            return None
        got = _intersect(got, half)
    return got


def _interval_value(s: str) -> _Interval | None:
    """``(-2, 1]``, ``[3, \\infty)`` read as an interval with exact ends, or None."""
    v = read_value(s)
    if not isinstance(v, Seq) or v.open not in ("(", "[") or v.close not in (")", "]") or len(v.items) != 2:
        return None
    ends: list[Fraction | None] = []
    for item, sign in zip(v.items, (-1, 1), strict=True):
        if isinstance(item, Inf) and item.sign == sign:
            ends.append(None)
        elif isinstance(item, Num) and item.digits is None and not item.percent:
            ends.append(item.value)
        else:
            return None  # a decimal end is the numeric rule's; a reversed infinity is not an interval
    lo, hi = ends
    if lo is not None and hi is not None and lo >= hi:
        return None
    return (lo, v.open == "[" and lo is not None, hi, v.close == "]" and hi is not None)


def _half_spaces_decide(dg: Link, dp: Link, letters: list[str]) -> bool | None:
    if not (is_linear(dg[0], letters) and is_linear(dp[0], letters)):
        return None
    same_line = proportional(dg[0], dp[0], letters)
    if not same_line:
        return None if same_line is None else False  # different boundaries: different sets
    corners = itertools.product((0, 1), repeat=len(letters))  # a linear d is nonzero at one of them
    point = next((p for p in corners if exact_at(dp[0], letters, p)), None)
    if point is None:
        return None
    vg, vp = exact_at(dg[0], letters, point), exact_at(dp[0], letters, point)
    if vg is None or vp is None:
        return None
    return vg / vp > 0 and dg[1] == dp[1]


def inequalities_decide(gold: str, pred: str) -> bool | None:
    """True when two normalised linear inequalities (or one and an interval, in one variable)
    describe the same set, False when provably different sets, None otherwise (module doc)."""
    lg, lp = read_links(gold), read_links(pred)
    if lg is None and lp is None:
        return None
    vg, vp = variables_of(gold) or [], variables_of(pred) or []
    letters = variables_of(gold + " " + pred)
    if not letters:
        return None
    if len(vg) == 1 and len(vp) == 1 and vg != vp:
        return None  # "1<2x<3" against "1<2y<3": the name counts (the interval reader has "x>1", "a>1")
    if len(vg) <= 1 and len(vp) <= 1:
        ig = interval_of(lg, vg[0]) if lg is not None and vg else _interval_value(gold)
        ip = interval_of(lp, vp[0]) if lp is not None and vp else _interval_value(pred)
        if ig is None or ip is None or EMPTY in (ig, ip):
            return None  # no point satisfies it: an ordering of values ("f(2) < f(1) < f(4)"), not a set
        same = ig == ip
    elif lg is not None and lp is not None and len(lg) == 1 and len(lp) == 1:
        got = _half_spaces_decide(lg[0], lp[0], letters)
        if got is None:
            return None
        same = got
    else:
        return None
    if not same and DECIMAL_LITERAL_RE.search(gold + pred):
        return None
    return same
