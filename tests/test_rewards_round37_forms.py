"""Answer forms found after held-out round 36 by label-free checks over the held-out references:
an equation without free symbols (``\\int_0^1 x\\,dx = \\frac12``) has nothing for sympy to solve,
so math-verify's comparison of two equations by their solutions called any two of them equal."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 x\\,dx = \\frac13", False),
        ("$\\int_0^1 x\\,dx = \\frac12$", "The integral is $\\int_0^1 x\\,dx = \\frac{1}{4}$.", False),
        ("\\int_0^{\\pi} \\sin x\\,dx = 2", "\\int_0^{\\pi} \\sin x\\,dx = 3", False),
        ("\\sum_{k=1}^{10} k = 55", "\\sum_{k=1}^{10} k = 56", False),
        ("\\sin(1) = \\frac12", "\\sin(1) = \\frac13", False),
        # the same statement, or the same value on the right, stays credited
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 x\\,dx = 0.5", True),
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_{0}^{1} x dx = \\frac{1}{2}", True),
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 t\\,dt = \\frac12", True),
        ("\\frac12", "\\int_0^1 x\\,dx = \\frac12", True),
        ("\\frac13", "\\int_0^1 x\\,dx = \\frac12", False),
        # equations in unknowns are still compared by their solutions
        ("x + 1 = 3", "2x = 4", True),
        ("x + 1 = 3", "2x = 6", False),
    ],
)
def test_equations_without_free_symbols(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
