"""Closed-form constants and expressions in a few variables, decided by exact evaluation.

Constants (``\\sqrt{2}``, ``\\log_2 8``, ``1+2i``) are evaluated by :mod:`rewards.const_eval`;
expressions in one to three single-letter variables are evaluated at rational points. Different
values at a point prove two answers different; equal values prove nothing except for polynomials,
where :mod:`rewards.poly_identity` proves the identity on a grid.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from rewards.answer_text import COMMAND_RE, DECIMAL_LITERAL_RE, drop_var_lhs
from rewards.answer_values import Value
from rewards.const_eval import evaluate_exact, evaluate_gaussian
from rewards.elementary_identity import proves_same_function
from rewards.exact_numbers import Num, cut_to, decimal_for_exact, read_number
from rewards.formal_identity import FUNCTIONS, read_pair
from rewards.point_values import differs_at_a_point
from rewards.poly_identity import same_polynomial


def is_scalar(s: str, v: Value | None) -> bool:
    """A number or a closed-form constant (``\\sqrt{2}``, ``e^{23110}``)."""
    return isinstance(v, Num) or (
        v is None and (constant_value(s) is not None or bool(_HUGE_POWER_RE.match(s)))
    )


def constant_value(s: str) -> Fraction | float | None:
    return evaluate_exact(drop_var_lhs(s))


_IMAGINARY_I_RE = re.compile(r"(?<![a-zA-Z\\])i(?![a-zA-Z])")


def complex_constants_decide(gold: str, pred: str) -> bool | None:
    """Both sides exact complex constants with ``i`` the imaginary unit (``1+2i`` against
    ``i(2-i)``, ``3+4i`` against ``3-4i``): compared exactly. With a decimal on either side, only
    an exact match is certain (the rounding rule of :func:`constants_decide` is for real numbers).
    None unless a side has an ``i`` and both are read.

    math-verify (latex2sympy) reads ``i`` as a variable, so an answer that is only equal through
    ``i^2 = -1`` is credited here and not there; the math answer sets we measured label ``1+2i`` and
    ``i(2-i)`` equal. A difference here is a difference there too: equal polynomials in ``i`` are
    equal complex numbers."""
    if not (_IMAGINARY_I_RE.search(gold) or _IMAGINARY_I_RE.search(pred)):
        return None
    cg, cp = evaluate_gaussian(drop_var_lhs(gold)), evaluate_gaussian(drop_var_lhs(pred))
    if cg is None or cp is None:
        return None
    if cg == cp:
        return True
    return None if DECIMAL_LITERAL_RE.search(gold + pred) else False


def constants_decide(gold: str, pred: str) -> bool | None:
    """Both sides closed-form constants: exact compare, or a numeric verdict that is certain."""
    cg, cp = constant_value(gold), constant_value(pred)
    if cg is None or cp is None:
        return None
    g_dec = bool(DECIMAL_LITERAL_RE.search(gold))
    p_dec = bool(DECIMAL_LITERAL_RE.search(pred))
    if isinstance(cg, Fraction) and isinstance(cp, Fraction) and not g_dec and not p_dec:
        return cg == cp
    fg, fp = float(cg), float(cp)
    scale = max(abs(fg), abs(fp), 1e-300)
    rel = abs(fg - fp) / scale
    if rel > 1e-12 and not (_exact(cg) and _exact(cp)) and scale < NEAR_ZERO and abs(fg - fp) <= FLOAT_NOISE:
        return None  # 0 against \sin(\pi) = 1.2e-16: rounding noise near zero, not a difference
    if g_dec and not p_dec:
        m = _DECIMAL_RE.fullmatch(gold.strip())
        if m and _stands_for_exact(m):
            # the reference is a rounded or truncated decimal: cut the exact prediction to its digits
            return _cut_to(cp, cg, fp, fg, len(m.group(2)))
        if m and isinstance(cp, Fraction):
            return Fraction(gold.strip()) == cp  # "0.5" is an exact value; "0.33" is not 1/3
        sci = _scientific_for_exact(gold)
        if sci is not None:  # "1.09951162778E+12" against 4^{20}: a reference's mantissa places
            # (a prediction's scientific form keeps the rule of its written places: 4.2949673E9 is not 2^{32})
            return _cut_to(cp, sci.value, fp, fg, sci.digits or 0)
        return None if rel <= 1e-12 else False
    if p_dec and not g_dec:
        # the reference is exact: a decimal prediction must equal it, or round it at six places
        m = _DECIMAL_RE.fullmatch(pred.strip())
        if m and _stands_for_exact(m):
            return abs(fp - fg) <= 0.5 * 10 ** -len(m.group(2)) + 4e-16 * scale
        if m and isinstance(cg, Fraction):
            return Fraction(pred.strip()) == cg
        return None if rel <= 1e-12 else False
    if g_dec and p_dec:
        return None if rel <= 1e-12 else False
    if rel <= 1e-12:
        return True  # two closed forms equal to 12 significant digits (math-verify checks 15 with evalf)
    return False if rel > 1e-9 else None


_DECIMAL_RE = re.compile(r"-?(\d*)\.(\d+)")


def _stands_for_exact(decimal: re.Match[str]) -> bool:
    """Whether a plain decimal may stand for an exact value (the numbers' own rule,
    :func:`~rewards.exact_numbers.decimal_for_exact`)."""
    return decimal_for_exact(len(decimal.group(2)), Fraction(decimal.group(0)))


def _scientific_for_exact(text: str) -> Num | None:
    """A reference ``text`` read as one number in scientific form whose mantissa shows enough
    places to stand for an exact value (``1.0995116 \\times 10^{12}``, ``1.09951162778E+12``;
    :func:`~rewards.exact_numbers.decimal_for_exact`), else None."""
    n = read_number(text.strip())
    if n is None or n.shown is None or n.digits is None or n.percent:
        return None
    return n if decimal_for_exact(n.digits, n.value, n.shown) else None


def _cut_to(cp: Fraction | float, cg: Fraction | float, fp: float, fg: float, digits: int) -> bool:
    """Whether the exact prediction (``cp``, as a float ``fp``) rounded or truncated toward zero at
    ``digits`` places is the decimal reference (``cg``, ``fg``). Exact for a rational prediction;
    for an irrational one (a float) the truncation must clear the next unit by a margin far above
    float rounding, so a value exactly on the boundary is never cut down to it."""
    if isinstance(cp, Fraction) and isinstance(cg, Fraction):
        return cut_to(cp, cg, digits)
    unit = 10.0**-digits
    if abs(fp - fg) <= 0.5 * unit * (1 + 1e-9):
        return True
    beyond = abs(fp) - abs(fg)
    return (fg == 0 or (fp > 0) == (fg > 0)) and 0 <= beyond < unit * (1 - 1e-9)


_HUGE_POWER_RE = re.compile(r"^(e|\d{1,6})\^\{?(\d{1,9})\}?$")
_PLUS_MINUS_RE = re.compile(r"^\\pm ?(.+)$")


def huge_or_pm_decide(gold: str, pred: str) -> bool | None:
    """Two certain refusals the constant reader cannot make on its own. ``e^{23110}`` (a power
    beyond 10**250, which the reader refuses) against a constant it reads (at most 10**250 by its
    own cap): different. ``\\pm c`` against a constant that is neither ``c`` nor ``-c``: different.
    Anything else: None."""
    for a, b in ((gold, pred), (pred, gold)):
        m = _HUGE_POWER_RE.match(a)
        if m and m.group(1) != "0":
            base = math.e if m.group(1) == "e" else int(m.group(1))
            if base > 1 and int(m.group(2)) * math.log10(base) > 260 and constant_value(b) is not None:
                return False
        m = _PLUS_MINUS_RE.match(a)
        if m:
            c, d = evaluate_exact(m.group(1)), constant_value(b)
            if c is not None and d is not None and _differ(c, d) and _differ(-c, d):
                return False
    return None


FREE_LETTER_RE = re.compile(r"(?<![a-zA-Z\\])([a-zA-Z])(?![a-zA-Z])")
CONSTANT_LETTERS = frozenset("eEiIjJ")  # e and imaginary units: never treated as variables
_PROBES = (Fraction(2, 7), Fraction(3, 11), Fraction(-5, 13), Fraction(7, 17))


_NAME_OR_INDEX_RE = re.compile(r"(?<![a-zA-Z\\])[a-zA-Z](?:\d|\[)")
"""``x1``, ``x[1]``: a name or an index (math-verify: not ``x``), not a letter times a number."""


def variables_of(s: str) -> list[str] | None:
    letters = sorted(set(FREE_LETTER_RE.findall(s)))
    if len(letters) > 3 or CONSTANT_LETTERS.intersection(letters) or "=" in s or len(s) > 300:
        return None
    if _NAME_OR_INDEX_RE.search(s):
        return None
    return letters


_BARE_ARGUMENT_RE = re.compile(
    rf"\\(?:{'|'.join(sorted(f[1:] for f in FUNCTIONS))})(?![a-zA-Z])" r"(?:\^\{?\d+\}?)?\s*[a-zA-Z]"
)
"""A function of a bare letter (``\\sin x\\pi``: sin(pi x) to latex2sympy): the value put in its
place would come in parentheses and end the argument there, so it is not evaluated this way."""


def _evaluate_at(s: str, point: dict[str, Fraction]) -> Fraction | float | None:
    """``s`` evaluated exactly with each variable letter replaced by its rational value."""
    if _BARE_ARGUMENT_RE.search(s):
        return None
    for letter, v in point.items():
        rep = f"(\\frac{{{v.numerator}}}{{{v.denominator}}})"
        s = re.sub(rf"(?<![a-zA-Z\\]){letter}(?![a-zA-Z])", lambda _m, r=rep: r, s)
    return evaluate_exact(s)


def _probe_point(letters: list[str], k: int) -> dict[str, Fraction]:
    """The ``k``-th probe point: each variable at its own probe value, rotated by ``k``."""
    return {x: _PROBES[(j + k) % len(_PROBES)] for j, x in enumerate(letters)}


def _at_points(s: str, letters: list[str], points: int = 3) -> list[Fraction | float] | None:
    """``s`` evaluated with its variables at ``points`` rational probe points, or None."""
    values: list[Fraction | float] = []
    for k in range(points):
        got = _evaluate_at(s, _probe_point(letters, k))
        if got is None:
            return None
        values.append(got)
    return values


FLOAT_NOISE = 1e-9
"""Two values of which one is a float differ only beyond this, relative to the larger or to 1
(near zero a float carries the rounding error of its terms: ``\\sqrt{2}^2 - 2`` is 4.4e-16)."""
NEAR_ZERO = 1e-6
"""Below this magnitude two close values of which one is a float are not told apart at all."""


def _exact(v: Fraction | float) -> bool:
    return isinstance(v, Fraction)


def _differ(a: Fraction | float, b: Fraction | float) -> bool:
    """Provably different: exactly (two Fractions) or beyond float rounding (:data:`FLOAT_NOISE`)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a != b
    fa, fb = float(a), float(b)
    return abs(fa - fb) > FLOAT_NOISE * max(abs(fa), abs(fb), 1.0)


def not_the_constant(constant: str, s: str) -> bool:
    """``s`` (an expression in 1-3 single-letter variables the exact evaluator reads) provably is
    not the constant ``constant``: it takes two different values (the probe points, then a far
    point, then small integers: a floor agrees at near points, ``|V|^{2016}`` underflows to 0 at
    both), or, when ``constant`` is exact (no decimal point: a rounded decimal is the numeric
    rule's to judge), another value at the first probe point (``3`` against ``\\frac{2x}{x}``)."""
    letters = variables_of(s)
    if not letters:
        return False
    if set(COMMAND_RE.sub(" ", constant)).intersection(letters):
        return False  # "2mg" read as 2 (milligrams) against "2 m \\cdot g": the letters may be variables
    values = _at_points(s, letters, 2)
    if _varies(s, letters, values):
        return True
    if DECIMAL_LITERAL_RE.search(constant):
        return False
    c = constant_value(constant)
    if c is None:
        return False
    first = values[0] if values is not None else _evaluate_at(s, _probe_point(letters, 0))
    return first is not None and _differ(first, c)


def _varies(s: str, letters: list[str], values: list[Fraction | float] | None) -> bool:
    """Two different values of ``s``: at the probe points (``values``), or at the extra points."""
    if values is not None and _differ(values[0], values[1]):
        return True
    seen: list[Fraction | float] = [] if values is None else [values[0]]
    for point in _EXTRA_POINTS:
        got = _evaluate_at(s, dict.fromkeys(letters, point))  # every variable at the point
        if got is None:
            continue
        if any(_differ(got, other) for other in seen):
            return True
        seen.append(got)
    return False


_EXTRA_POINTS = (Fraction(31, 3), Fraction(1), Fraction(0), Fraction(2), Fraction(-1))


def expressions_decide(gold: str, pred: str) -> bool | None:
    """Two expressions: different at a rational point -> False, the same polynomial or the same
    rational function of their atoms -> True, different real values at a positive point (any
    variables, functions) -> False (proofs); else None, and math-verify decides."""
    got = _numeric_decide(gold, pred)
    if got is not None:
        return got
    pair = read_pair(gold, pred)  # read once for both proofs
    return proves_same_function(pair) or differs_at_a_point(gold, pred, pair)


def _numeric_decide(gold: str, pred: str) -> bool | None:
    """Two expressions in the same 1-3 variables: different at a rational point -> False (a
    proof). Equal at the probe points proves nothing (without a degree bound, a fixed set of
    points can be matched by a wrong answer, e.g. gold + (x-p1)(x-p2)(x-p3)): None, unless
    both are polynomials of bounded degree (a proof on a grid)."""
    lg, lp = variables_of(gold), variables_of(pred)
    if not lg or not lp or lg != lp:
        return None
    vg, vp = _at_points(gold, lg), _at_points(pred, lp)
    if vg is None or vp is None:
        return None
    if any(_differ(a, b) for a, b in zip(vg, vp, strict=True)):
        return False
    return same_polynomial(gold, pred, lg)  # a proof on a grid when both are polynomials
