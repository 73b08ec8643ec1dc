"""Polynomial identity on the certain path (rewards/poly_identity.py): a proof by exact evaluation on
a grid wider than a syntactic degree bound; anything that is not syntactically a polynomial, or
whose grid would be too large, is left to math-verify."""

from __future__ import annotations

import pytest

from rewards.equivalence import decide_fast, is_equivalent
from rewards.poly_identity import MAX_POINTS, degree_bound, same_polynomial

X = frozenset("x")


@pytest.mark.parametrize(
    ("expr", "bound"),
    [
        ("x^2-1", 2),
        ("(x-1)(x+1)", 2),
        ("((x)^{2})^3", 6),
        ("\\frac{x+2}{7}", 1),
        ("x/2", 1),
        ("3", 0),
        ("\\frac{1}{x}", None),  # a variable in a denominator
        ("1/x", None),
        ("2^x", None),  # a variable in an exponent
        ("x^{-1}", None),  # a negative exponent
        ("x^{1/2}", None),
        ("\\sqrt{x}", None),
        ("\\sin(x)", None),
        ("e x", None),  # a letter that is not a variable
    ],
)
def test_degree_bound_only_for_syntactic_polynomials(expr: str, bound: int | None) -> None:
    assert degree_bound(expr, X) == bound


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("x^2-1", "(x-1)(x+1)", True),
        ("(r+5)(r+5)", "(r+5)^2", True),
        ("x^2+2x+1", "x^2 + 2*x + 1", True),
        ("\\frac{x+2}{7}", "\\frac{x}{7}+\\frac{2}{7}", True),
        ("(x+y)(x-y)", "(x-y)(x+y)", True),
        ("x^2-1", "(x-1)^2", False),
        # agrees with x^2-1 at the fixed probe points 2/7, 3/11, -5/13, not on the grid
        ("x^2-1", "x^2-1+(x-\\frac{2}{7})(x-\\frac{3}{11})(x+\\frac{5}{13})", False),
        # agrees with x at the integer grid points -1, 0, 1 of a degree-1 bound, but has degree 3
        ("x", "x^3", False),
        ("\\frac{1}{x}", "\\frac{2}{2x}", None),  # rational functions: math-verify decides
        ("2^x", "2^{x}", None),
        ("(x+1)^{7}", "x^7+7x^6+21x^5+35x^4+35x^3+21x^2+7x+1", None),  # grid over the cap
    ],
)
def test_polynomial_identity_on_the_certain_path(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


def test_the_grid_is_capped() -> None:
    assert same_polynomial("x^{9}y^{9}", "y^{9}x^{9}", ["x", "y"]) is None
    assert (9 * 9 + 1) ** 2 > MAX_POINTS


def test_polynomials_math_verify_also_calls_equal() -> None:
    assert is_equivalent("$x^2-1$", "$(x-1)(x+1)$", timeout_s=30.0) is True
    assert is_equivalent("x^2-1", "(x-1)^2", timeout_s=30.0) is False
