"""Answer forms found by held-out round 36 (frontier models' Omni-MATH responses under its rule
grader): a binomial coefficient next to a number, another binomial or a fraction is a factor
(latex2sympy reads ``50\\binom{10}{5}`` as 50 + 252 and ``\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}``
as 19, as if they were mixed numbers)."""

from __future__ import annotations

import pytest

from rewards.binomial_products import binomials_after_numbers_multiplied
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("50\\binom{10}{5}", "50 \\cdot \\binom{10}{5}"),
        ("(3)\\dbinom{4}{2}", "(3) \\cdot \\dbinom{4}{2}"),
        (
            "\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}",
            "\\binom{5}{2} \\cdot \\binom{4}{2} \\cdot \\binom{3}{1}",
        ),
        ("\\binom{5}{2} \\tfrac12", "\\binom{5}{2} \\cdot \\tfrac12"),
        ("3\\frac{1}{2}", "3\\frac{1}{2}"),  # a mixed number stays one
        ("2^3\\binom{4}{2}", "2^3\\binom{4}{2}"),  # ends a longer term: already a product
        ("a_2\\binom{4}{2}", "a_2\\binom{4}{2}"),
        ("x\\binom{4}{2}", "x\\binom{4}{2}"),
        ("\\binom{n}{k}", "\\binom{n}{k}"),
    ],
)
def test_binomials_next_to_factors_are_multiplied(text: str, written: str) -> None:
    assert binomials_after_numbers_multiplied(text) == written


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("$50 \\cdot \\binom{100}{50}$", "\\boxed{50 \\binom{100}{50}}", True),  # Omni-MATH, labelled true
        ("50 \\binom{10}{5}", "12600", True),
        ("50 \\binom{10}{5}", "302", False),  # latex2sympy's reading, 50 + 252
        ("180", "\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}", True),
        ("19", "\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}", False),
        ("5", "\\binom{5}{2}\\frac{1}{2}", True),
        ("\\frac{21}{2}", "\\binom{5}{2}\\frac{1}{2}", False),
        ("90", "The answer is $\\binom{6}{2}\\binom{4}{2}$ ways.", True),
        ("36", "2\\binom{4}{2}\\binom{3}{1}", True),
        ("\\frac{7}{2}", "3\\frac{1}{2}", True),  # still a mixed number
    ],
)
def test_products_of_binomial_coefficients(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
