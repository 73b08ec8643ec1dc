"""A slash fraction of whole numbers before a factor is a coefficient (rewards.fraction_coefficients):
``1/2 x`` is half of x for both readers, as calculator precedence and public labels read it."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.fraction_coefficients import fraction_coefficients_written_out


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("1/2\\sqrt{3}", "\\frac{1}{2}\\sqrt{3}"),
        ("x=1/3\\pi*24", "x=\\frac{1}{3}\\pi*24"),
        ("1/2(x_n+3/x_n)", "(1/2)(x_n+3/x_n)"),  # calculator syntax stays calculator syntax
        ("y=7/6(x+4)-2", "y=(7/6)(x+4)-2"),
        ("1/2 x", "(1/2) x"),
        ("12/5x", "(12/5)x"),
        ("V=1/3pi*2^2*18", "V=(1/3)pi*2^2*18"),
        # not a fraction of whole numbers before a factor: as written
        ("x^1/2", "x^1/2"),
        ("3/4.5x", "3/4.5x"),
        ("dy/dx", "dy/dx"),
        ("10x^2/2x", "10x^2/2x"),
        ("a1/2x", "a1/2x"),
        ("1/2 gallons", "1/2 gallons"),  # a word, not a factor
        ("2/3 or 0.67", "2/3 or 0.67"),
        ("(1/2)x", "(1/2)x"),
        ("\\frac{1/2}{x}", "\\frac{1/2}{x}"),
        ("1/2", "1/2"),
    ],
)
def test_fraction_coefficients_written_out(text: str, written: str) -> None:
    assert fraction_coefficients_written_out(text) == written


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("x_{n+1}=(x_n^2+3)/(2x_n), x_1=1.75", "x_{n+1}=1/2(x_n+3/x_n), x_1=7/4", True),
        ("y=7/6(x+4)-2", "y=7/6(x-8)+12", True),
        ("1/4(2x+8)", "2+x/2", True),
        ("x=1/3\\pi*24", "x=8\\pi", True),
        ("0.5*x", "1/2 x", True),
        ("1/2\\sqrt{3}", "\\frac{\\sqrt{3}}{2}", True),
        ("1/2\\sqrt{3}", "\\frac{1}{2\\sqrt{3}}", False),
        ("1/2 x", "\\frac{1}{2x}", False),
        ("0.5", "1/2 gallons", True),
    ],
)
def test_verdicts_with_fraction_coefficients(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
