"""Two expressions told apart by their values at a positive point (rewards/point_values.py): only
"different", never "equal", and nothing where the reading or the value is not certain."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.point_values import differs_at_a_point


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("\\frac{v_0^2}{g}", "\\frac{v_0^2}{2g}"),  # subscripted variables
        ("\\frac{\\omega_L}{c}", "\\frac{\\omega_L}{2c}"),  # Greek letters
        ("\\tan^2(y)+1", "\\sec(y)"),  # functions
        ("e^{2x}", "e^{x}"),
        ("2\\pi R", "\\pi R^2"),
        ("\\frac{1}{\\sqrt{2 L C}}", "\\frac{1}{\\sqrt{L C}}"),
        ("\\log_2(x)", "\\ln(x)"),  # a written base
        ("a+b+c+d+f", "a+b+c+d+2f"),  # more than three variables
    ],
)
def test_different_values_at_a_point_prove_a_difference(gold: str, pred: str) -> None:
    assert differs_at_a_point(gold, pred) is False


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("\\sin^2(x)", "1-\\cos^2(x)"),  # equal everywhere: not decided here (math-verify)
        ("\\tan^2(y)+1", "\\sec^2(y)"),
        ("\\ln(x^2)", "2\\ln x"),  # equal at positive points
        ("\\sqrt{x^2}", "|x|"),
        ("\\log x", "\\ln x"),  # a base-less log: base 10 to math-verify
        ("0.5x", "x"),  # decimals: the numeric rule's
        ("f(x)", "x"),  # a letter before "(": a product or a function
        ("ix", "x"),  # the imaginary unit
        ("\\sqrt{2}", "\\sqrt{3}"),  # constants: their own rule
        ("\\ln(-x)", "x"),  # not real at positive points
        ("\\hbar x", "x"),  # a command the reader does not know
        ("t+1", "x+1"),  # other variables: a letter may be a unit to math-verify
        ("2\\pi", "2\\pi m"),
        ("2\\pi x", "2\\pi x cm"),  # letters together: a unit or a product
        ("5 A", "5000 mA"),
    ],
)
def test_nothing_is_decided_where_a_difference_is_not_certain(gold: str, pred: str) -> None:
    assert differs_at_a_point(gold, pred) is None


def test_the_certain_path_refuses_with_it() -> None:
    got = compare("\\frac{v_0^2}{g}\\sin(2\\theta)", "\\frac{v_0^2}{2g}\\sin(2\\theta)")
    assert got.equal is False and got.path == "certain"


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("(x-a)^{5999}", "(x-a)^{6000}"),  # STACK: math-verify's sympy runs past its bound
        ("(x-a)^{5999}", "(a-x)^{5999}"),  # an odd power of a negative base
        ("(x-a)^{-5999}", "(x-a)^{-6000}"),
        ("(x+y)^{100}", "(x+y)^{99}"),
        ("x^{x^{x^{x}}}", "x^{x^{x}}"),  # values far beyond a float's range
    ],
)
def test_large_powers_are_evaluated_without_expanding_them(gold: str, pred: str) -> None:
    assert differs_at_a_point(gold, pred) is False


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("(x-a)^{6000}", "(a-x)^{6000}"),  # equal: left to math-verify
        ("(x-a)^{30}", "((x-a)^{2})^{15}"),
        ("10^{10^{10^{10}}}", "10^{10}"),  # numbers: their own rule
        ("x^{10^{10^{10}}}", "x^{10^{10}}"),  # a number too large to read
    ],
)
def test_large_powers_decide_nothing_when_not_certain(gold: str, pred: str) -> None:
    assert differs_at_a_point(gold, pred) is None


def test_a_large_power_is_refused_in_milliseconds() -> None:
    got = compare("y=(x-a)^{5999}", "y=(a-x)^{5999}")
    assert got.equal is False and got.path == "certain"
