"""Derivatives named on the left of an equation (rewards/derivative_names.py) and primes written
as ``^{\\prime}`` or ``^{(n)}`` (rewards.answer_text.textbook_spellings)."""

from __future__ import annotations

import pytest

from rewards.derivative_names import Derivative, derivative_named, derivatives_decide
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("lhs", "want"),
    [
        ("f''(x)", Derivative(2, "f", "x")),
        ("f''", Derivative(2, "f", None)),
        ("y'", Derivative(1, "y", None)),
        ("\\frac{d^2y}{dx^2}", Derivative(2, "y", "x")),
        ("\\frac{d^2}{dx^2}f(x)", Derivative(2, "f", "x")),
        ("\\frac{\\mathrm{d}^2y}{\\mathrm{d}x^2}", Derivative(2, "y", "x")),
        ("dy/dx", Derivative(1, "y", "x")),
        ("\\frac{d^2y}{dx^3}", None),  # orders that do not match
        ("\\frac{d}{dx}f(t)", None),
        ("\\frac{a}{b}", None),
        ("x", None),
    ],
)
def test_derivative_named(lhs: str, want: Derivative | None) -> None:
    assert derivative_named(lhs) == want


def test_derivatives_decide_compares_the_right_sides_only_for_the_same_derivative() -> None:
    def same(g: str, p: str) -> bool:
        return g.replace(" ", "") == p.replace(" ", "")

    assert derivatives_decide("f''(x)=6x", "y''=6x", same) is True
    assert derivatives_decide("f''(x)=6x", "f'''(x)=6x", same) is False  # another order
    assert derivatives_decide("f''(x)=6x", "g''(x)=6x", same) is None  # another function
    assert derivatives_decide("f''(x)=6x", "f''(t)=6x", same) is None  # another variable
    assert derivatives_decide("f''(x)=6x", "6x", same) is None


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("f''(x)=12x^2-12x", "f^{\\prime\\prime}(x)=12x^2-12x", True),
        ("f''(x)=12x^2-12x", "f^{\\prime\\prime}\\left(x\\right)=12x^{2}-12x", True),
        ("f''(x)=12x^2-12x", "\\frac{d^2y}{dx^2}=12x^2-12x", True),
        ("f''(x)=12x^2-12x", "\\frac{d^2}{dx^2}f(x)=12x^2-12x", True),
        ("f''(x)=12x^2-12x", "\\frac{\\mathrm{d}^2y}{\\mathrm{d}x^2}=12x^2-12x", True),
        ("f''(x)=12x^2-12x", "\\frac{\\mathrm{d}^3y}{\\mathrm{d}x^3}=12x^2-12x", False),
        ("f''''(x)=24", "f^{(4)}(x)=24", True),
        ("\\frac{d^3y}{dx^3}=24x", "y^{\\prime\\prime\\prime}=24x", True),
        ("\\frac{dy}{dx}=-\\frac{x}{y}", "dy/dx=-x/y", True),
        ("y'=6x", "y^{\\prime}=6x", True),
        ("3y^2y'", "3y^{2}y^{\\prime}", True),
        ("3y^2y'", "3y^2\\hspace{2pt}y^{\\prime}", True),
        ("f''(x)=12x^2-12x", "f^{\\prime}(x)=12x^2-12x", False),
        ("f''''(x)=24", "f^{\\prime\\prime\\prime}(x)=24", False),
        ("f''(x)=12x^2-12x", "f''(x)=12x^2-12x+1", False),
    ],
)
def test_derivative_answers(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)
