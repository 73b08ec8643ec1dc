"""Finite sets of numeric constants compared by value before sympy's set algebra (worker only).

math-verify compares two sets (``sympy_compare_sets``) first by asking sympy for their symmetric
difference. For finite sets of transcendental constants (the sixth roots of unity written as
``e^{k\\pi i/3}``, against ``1, e^{i\\pi/3}, ...``) sympy tests every element of one against
every element of the other with its own equality proofs: 0.2 to 0.9 s for seven elements, where
the element-wise comparison that follows takes milliseconds.

Here each element of two finite sets whose elements are all numbers (no free symbols but ``i``,
read as the imaginary unit: latex2sympy reads ``e^{i\\pi/3}`` with a real symbol ``i``; finite) is
evaluated with ``evalf`` at two precisions (30 and 50 digits), and the sets are compared by value:

- every element of each within 1e-20 of an element of the other, at both precisions: **equal**.
  Two closed forms that agree to 20 digits at two working precisions are the same number (a
  rounding of the written digits, ``0.3333`` against ``\\frac13``, is far from that; decimals,
  which math-verify rounds, are not screened at all);
- some element clearly away (above 1e-10) from every element of the other at both precisions:
  the symmetric difference is not empty, so sympy cannot find it empty, and math-verify's verdict
  is that of its next step, the element-wise comparison, which is called directly;
- anything else (a symbol, a decimal, an interval, a tuple, a value sympy cannot compute, more
  than :data:`MAX_ELEMENTS` elements, values neither clearly equal nor clearly apart): the
  original comparison, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rewards.library_hooks import hook_grader

PRECISIONS = (30, 50)
SAME = 1e-20
"""Two values this close (relative to their size, at least 1) at both precisions are one number."""
APART = 1e-10
"""Two values farther apart than this at both precisions are different numbers."""
MAX_ELEMENTS = 40
"""Larger sets go to sympy as before: the matching is quadratic in the number of elements."""


def _values(elements: tuple[Any, ...], digits: int) -> list[Any] | None:
    """Each element's value at ``digits`` digits (an ``mpmath.mpc``), or None when one is not a
    finite number."""
    import mpmath
    import sympy

    out = []
    for element in elements:
        if not isinstance(element, sympy.Expr) or element.has(sympy.Float):
            return None
        unit = {s: sympy.I for s in element.free_symbols if getattr(s, "name", None) == "i"}
        if len(unit) != len(element.free_symbols):
            return None
        value = element.xreplace(unit).evalf(digits)
        if not value.is_number or value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            return None
        try:
            real, imag = value.as_real_imag()
            with mpmath.workdps(digits):
                out.append(mpmath.mpc(mpmath.mpf(str(real)), mpmath.mpf(str(imag))))
        except (TypeError, ValueError):
            return None
    return out


def _distance(a: Any, b: Any) -> float:
    """``|a - b|`` relative to the larger size (at least 1), computed at 60 digits: two values
    that agree to 20 digits are told from two that agree to 16 (doubles would not)."""
    import mpmath

    with mpmath.workdps(60):
        return float(abs(a - b) / max(mpmath.mpf(1), abs(a), abs(b)))


def _matched(left: list[Any], right: list[Any]) -> bool | None:
    """True when every value of ``left`` is :data:`SAME` as one of ``right``; False when one is
    :data:`APART` from all of them; None when neither is shown."""
    verdict: bool | None = True
    for a in left:
        nearest = min((_distance(a, b) for b in right), default=float("inf"))
        if nearest > APART:
            return False
        if nearest > SAME:
            verdict = None
    return verdict


def constant_sets_verdict(gold: Any, pred: Any) -> bool | None:
    """Whether two finite sets of numeric constants are equal, by value (see the module
    docstring); None when the values do not decide it, including every error."""
    import sympy

    try:
        if not isinstance(gold, sympy.FiniteSet) or not isinstance(pred, sympy.FiniteSet):
            return None
        if max(len(gold.args), len(pred.args)) > MAX_ELEMENTS:
            return None
        verdicts = []
        for digits in PRECISIONS:
            a, b = _values(gold.args, digits), _values(pred.args, digits)
            if a is None or b is None or not a or not b:
                return None
            there, back = _matched(a, b), _matched(b, a)
            verdicts.append(False if False in (there, back) else (True if there and back else None))
        return verdicts[0] if verdicts[0] == verdicts[1] else None
    except Exception:  # a value sympy cannot compute: the comparison goes on as before
        return None


def install_constant_set_screen() -> Callable[[], None] | None:
    """Screen math-verify's ``sympy_compare_sets`` (see the module docstring). Returns a function
    that restores the original, or None when math-verify lacks the hook."""
    from math_verify import grader

    element_wise = getattr(grader, "sympy_deep_compare_set_and_tuple", None)
    if element_wise is None:
        return None

    def screened(original: Callable[..., Any]) -> Callable[..., bool]:
        def sympy_compare_sets(gold: Any, pred: Any, float_rounding: int, numeric_precision: int) -> bool:
            verdict = constant_sets_verdict(gold, pred)
            if verdict is None:
                return bool(original(gold, pred, float_rounding, numeric_precision))
            if verdict:
                return True
            return bool(element_wise(gold, pred, float_rounding, numeric_precision))

        return sympy_compare_sets

    return hook_grader("sympy_compare_sets", "screened", screened)
