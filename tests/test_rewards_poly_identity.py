"""Polynomial identity on the certain path (rewards/poly_identity.py): a proof by exact evaluation on
a grid wider than a syntactic degree bound; anything that is not syntactically a polynomial, or
whose grid would be too large, is left to math-verify."""

from __future__ import annotations

import pytest

from rewards.equivalence import decide_fast, is_equivalent
from rewards.poly_identity import MAX_POINTS, degree_bound, proportional, same_polynomial

X = frozenset("x")
XY = frozenset("xy")


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
        ("x!", None),  # a factorial: n! = 1 at n = 0 and 1, as 1 is
        ("(x+1)! - x", None),
        ("\\binom{x}{2}", None),
    ],
)
def test_degree_bound_only_for_syntactic_polynomials(expr: str, bound: int | None) -> None:
    assert degree_bound(expr, X) == bound


@pytest.mark.parametrize(
    ("expr", "bound"),
    [
        ("x^2/4 + y^2/3", 2),  # a sum takes its largest term
        ("x + y - 2", 1),
        ("(x+y)^{3}", 3),
        ("2x-(3y+x^2)", 2),
        ("x^2 y^3", 5),
        ("(x^2)(y)^2", 4),
        ("((x+1)", None),  # unbalanced
    ],
)
def test_degree_bound_takes_the_largest_term_and_sums_the_factors(expr: str, bound: int | None) -> None:
    assert degree_bound(expr, XY) == bound


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
        ("\\frac{1}{x}", "\\frac{2}{2x}", True),  # the same rational function (formal_identity)
        ("2^x", "2^{x}", True),  # the same power atom
        ("2^x", "x^2", False),  # different at a rational point
        ("(x+1)^{7}", "x^7+7x^6+21x^5+35x^4+35x^3+21x^2+7x+1", True),  # degree <= 28: 29 points
        ("(x+1)^{7}", "x^7+7x^6+21x^5+35x^4+35x^3+21x^2+7x+2", False),
        ("(x+y)^{8}", "(y+x)^{8}", True),  # over the grid's cap; formal_identity expands it
        ("(x+y)^{30}", "(y+x)^{30}", True),  # over both caps: the same power atom
        ("(x+y)^{30}", "(x+y)^{29}(y+x)", None),  # an atom against a product: math-verify
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


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("(2x+4y-3)-(0)", "(y)-(-\\frac{1}{2}x+\\frac{3}{4})", True),  # a factor of 2
        ("(x^2/4+y^2/3)-(1)", "(x^2/16+y^2/12)-(1/4)", True),
        ("x-y", "y-x", True),  # a factor of -1
        ("x-y", "x+y", False),
        ("0", "x-y", False),  # no factor makes a nonzero polynomial zero
        ("x-y", "0", None),  # nothing is proportional to the zero polynomial but itself
        ("x^2-y", "x-y", False),
        # proportional at the points -1, 0, 1 (both vanish there), not on the degree-3 grid
        ("x^3-x", "2x^3-2x", True),
        ("x^3-x", "x^3-x+(x^3-x)(x+1)", False),
    ],
)
def test_proportional_is_a_proof_on_the_grid(a: str, b: str, want: bool | None) -> None:
    assert proportional(a, b, ["x", "y"] if "y" in a + b else ["x"]) is want
