"""Proof that two polynomial expressions are the same polynomial (``x^2-1`` and ``(x-1)(x+1)``).

A helper of the certain path (:mod:`rewards.expressions`, :mod:`rewards.equations`). Equality at a few fixed points proves nothing
(``x^2-1`` and ``x^2-1 + (x-a)(x-b)(x-c)`` agree at ``a, b, c``), but equality on a grid does when
the degree is bounded: a polynomial in ``k`` variables of degree at most ``D`` in each that
vanishes on ``S^k`` with ``|S| > D`` is zero. So both sides must be *syntactically* polynomials:
the variables appear only as factors raised to non-negative integer literals, never in a
denominator, an exponent, a root or a function. For such an expression the total degree ``D`` is
bounded by induction on the text: a sum takes the largest of its terms, a product the sum of its
factors, ``g^m`` multiplies ``g``'s by ``m`` (``x^2/4 + y^2/3``: 2; ``((x)^{2})^3``: 6). Both sides are then
evaluated exactly (``fractions.Fraction``, :func:`rewards.const_eval.evaluate_exact`) on an integer
grid of ``D + 1`` points per variable; equal everywhere is a proof. Nothing here evaluates text as
code; the grid is capped at :data:`MAX_POINTS` evaluations.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from rewards.const_eval import _Reject, _tokenize, evaluate_exact

MAX_POINTS = 64
"""Most grid points evaluated per side (so at most 2 * 64 exact evaluations of a short string)."""

_MULTIPLY = ("\\cdot", "\\times")


def _group_end(toks: list[str], j: int) -> int | None:
    """Index after the ``{...}`` group or the single digit that starts at ``j`` (a ``\\frac`` argument)."""
    if j >= len(toks):
        return None
    if toks[j] == "{":
        depth = 0
        for k in range(j, len(toks)):
            depth += toks[k] == "{"
            depth -= toks[k] == "}"
            if depth == 0:
                return k + 1
        return None
    return j + 1 if len(toks[j]) == 1 and toks[j].isdigit() else None


def _applied_to_a_number(toks: list[str], j: int) -> bool:
    """Whether ``toks[j:]`` opens with a parenthesised number or sum of numbers (``(0)``,
    ``(-1)``), as after a function's name: ``f(0)`` is a value of ``f``, not ``f`` times 0."""
    if j >= len(toks) or toks[j] != "(":
        return False
    for k in range(j + 1, len(toks)):
        if toks[k] == ")":
            return k > j + 1
        if not re.fullmatch(r"\d+(?:\.\d*)?|[-+.]", toks[k]):
            return False
    return False


def degree_bound(s: str, letters: frozenset[str]) -> int | None:
    """An upper bound on the total degree of ``s`` in ``letters`` when ``s`` is syntactically a
    polynomial in them (see the module doc), else None."""
    try:
        toks = _tokenize(s)
    except _Reject:
        return None
    frames = [[0, 0]]  # per open group: [the largest term degree so far, the current term's]
    last = 0  # the degree of the factor just read (what a following "^" raises)
    skip_from = skip_until = -1
    i = 0
    while i < len(toks):
        t = toks[i]
        if skip_from <= i < skip_until:
            i += 1
            continue
        if t in letters:
            if _applied_to_a_number(toks, i + 1):
                return None  # "f(0)", "\\tau(0)": a function's value, not a product with 0
            frames[-1][1] += 1
            last = 1
        elif t in "+-":
            frames[-1] = [max(frames[-1]), 0]  # a new term
            last = 0
        elif t in "([{":
            frames.append([0, 0])
            last = 0
        elif t in ")]}":
            if len(frames) < 2:
                return None
            last = max(frames.pop())
            frames[-1][1] += last
        elif t == "^":
            nxt = toks[i + 1 : i + 4]
            if nxt[:1] and len(nxt[0]) == 1 and nxt[0].isdigit():
                value, width = int(nxt[0]), 1
            elif len(nxt) == 3 and nxt[0] == "{" and nxt[1].isdigit() and nxt[2] == "}":
                value, width = int(nxt[1]), 3
            else:
                return None  # a variable, a sign or a fraction in an exponent
            frames[-1][1] += last * (value - 1)
            last *= value
            i += 1 + width
            continue
        elif t == "/":
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            if not re.fullmatch(r"\d+(?:\.\d*)?", nxt):
                return None  # only division by a number literal
            last = 0
        elif t == "\\frac":
            if i + 1 < len(toks) and toks[i + 1].isdigit() and len(toks[i + 1]) == 2:
                i += 2  # \frac12: a constant
                last = 0
                continue
            num_end = _group_end(toks, i + 1)
            den_end = None if num_end is None else _group_end(toks, num_end)
            if num_end is None or den_end is None or letters.intersection(toks[num_end:den_end]):
                return None
            skip_from, skip_until = num_end, den_end  # the denominator is a constant
            last = 0
        elif t in ("|", "!"):
            return None  # |x| and n! are not polynomials
        elif t.startswith("\\"):
            if t not in _MULTIPLY:
                return None
            last = 0
        elif t[0].isalpha():
            return None  # a letter that is not one of the variables (e, i, a function name ...)
        else:
            last = 0  # a number or "*"
        i += 1
    return max(frames[0]) if len(frames) == 1 else None


def exact_at(s: str, letters: list[str], point: tuple[int, ...]) -> Fraction | None:
    """``s`` evaluated exactly with each of ``letters`` replaced by the integer at its place in
    ``point``; None when the value is not an exact rational."""
    sub = s
    for letter, v in zip(letters, point, strict=True):
        sub = re.sub(rf"(?<![a-zA-Z\\]){letter}(?![a-zA-Z])", f"({v})", sub)
    got = evaluate_exact(sub)
    return got if isinstance(got, Fraction) else None


def _grid(exprs: tuple[str, ...], letters: list[str]) -> tuple[int, list[tuple[Fraction, ...]]] | None:
    """The largest degree bound of ``exprs`` and their exact values (each evaluated once per point)
    on an integer grid that proves polynomial identities of that degree (see the module doc), or
    None when one is not syntactically a polynomial in ``letters``, the grid would be too large,
    or a value is not exact."""
    if not letters:
        return None
    names = frozenset(letters)
    bounds = [degree_bound(e, names) for e in exprs]
    if any(d is None for d in bounds):
        return None
    degree = max(bounds)  # type: ignore[type-var]
    side = degree + 1
    if side ** len(letters) > MAX_POINTS:
        return None
    grid = range(-(side // 2), side - side // 2)
    values: list[tuple[Fraction, ...]] = []
    for point in itertools.product(grid, repeat=len(letters)):
        row = tuple(exact_at(e, letters, point) for e in exprs)
        if any(v is None for v in row):
            return None
        values.append(row)  # type: ignore[arg-type]
    return degree, values


def proportional(a: str, b: str, letters: list[str]) -> bool | None:
    """True when ``a = c * b`` as polynomials in ``letters`` for a rational ``c != 0`` (so the
    equations ``a = 0`` and ``b = 0`` are the same equation), proven on the grid; False when
    disproven (``b`` is not the zero polynomial); None when this cannot tell. ``a - c * b`` has no
    larger degree than ``a`` or ``b``, so vanishing on their grid proves it zero."""
    got = _grid((a, b), letters)
    if got is None:
        return None
    values = got[1]
    ratio = next((va / vb for va, vb in values if vb != 0), None)
    if ratio is None:
        return None  # b vanishes on the grid: b is the zero polynomial
    return ratio != 0 and all(va == ratio * vb for va, vb in values)


def is_linear(a: str, letters: list[str]) -> bool:
    """``a`` is provably a polynomial of degree exactly 1 in ``letters`` (a line, a plane)."""
    got = _grid((a,), letters)
    return got is not None and got[0] == 1 and len({v for (v,) in got[1]}) > 1  # not a constant


def same_polynomial(a: str, b: str, letters: list[str]) -> bool | None:
    """True when ``a`` and ``b`` are provably the same polynomial in ``letters``, False when they
    provably differ (exact values differ at a grid point), None when this cannot tell."""
    got = _grid((a, b), letters)
    return None if got is None else all(va == vb for va, vb in got[1])
