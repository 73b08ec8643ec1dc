"""Two equations without a real solution are not equal for that alone
(rewards/equations_without_solutions.py): math-verify pairs their empty solution lists as equal.
Examples invented."""

from __future__ import annotations

import pytest
import sympy

from rewards.equations_without_solutions import proportional, without_solutions
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("x^2+1=0", "x^2+2=0", False),  # no real root either: math-verify says equal
        ("x^2-3x+10=0", "x^2-3x+10=1", False),
        ("e^{5x}=0", "e^{5x}+1=0", False),
        ("x^2+y^2=-1", "x^2+y^2=-4", False),
        ("x^2+1=0", "3x^2+3=0", True),  # the same equation up to a factor
        ("x^2+4=0", "\\frac{x^2}{2}+2=0", True),
        ("x^2-1=0", "x^2=1", True),  # with solutions: as before
        ("x^2-1=0", "x^2=4", False),
    ],
)
def test_equations_without_solutions(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)


def test_the_rule_itself() -> None:
    x = sympy.Symbol("x", real=True)

    def eq(lhs: sympy.Expr, rhs: sympy.Expr) -> sympy.Eq:
        return sympy.Eq(lhs, rhs, evaluate=False)  # as latex2sympy builds it

    assert without_solutions(eq(x**2 + 1, 0))
    assert not without_solutions(eq(x**2 - 1, 0))
    assert not without_solutions(x**2 + 1)  # not an equation
    assert proportional(eq(x**2 + 1, 0), eq(2 * x**2, -2))
    assert not proportional(eq(x**2 + 1, 0), eq(x**2 + 2, 0))
