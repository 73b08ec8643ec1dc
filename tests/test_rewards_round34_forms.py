"""Answer forms found by held-out rounds 33 and 34 (judged physics expressions, GRPO rollouts with
an answer tag, the answer checkers' tests of recent benchmarks): an equation whose side is a
product of symbols (``\\Delta\\varphi = ...``) and the Gamma function in the worker's screens, a
number of things in an answer tag (``<answer>8 boxes</answer>``), ``x`` as a times sign in prose,
and exact powers too long for a float inside a value that is not."""

from __future__ import annotations

import pytest

from rewards.const_eval import evaluate_exact
from rewards.equivalence import compare
from rewards.fraction_coefficients import fraction_coefficients_written_out


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("4/5 x 200 = 160 flowers", "4/5 x 200 = 160 flowers"),  # x between numbers: times
        ("1/2 x 3", "1/2 x 3"),
        ("1/2 x", "(1/2) x"),  # a letter after the fraction: a factor
        ("7/6(x+4)", "(7/6)(x+4)"),
    ],
)
def test_a_times_sign_written_x_is_not_a_factor(text: str, written: str) -> None:
    assert fraction_coefficients_written_out(text) == written


@pytest.mark.parametrize(
    ("text", "exact"),
    [
        ("\\frac{2^{2009}-1}{3\\cdot 2^{2008}-1}", True),  # long powers inside a value near 2/3
        ("2^{1000}/2^{999}", True),
        ("2^{2009}", False),  # the value itself beyond the bound
        ("2^{\\frac{1}{2^{1000}}}", False),  # a float would round it to 1
    ],
)
def test_exact_values_with_long_powers(text: str, exact: bool) -> None:
    assert (evaluate_exact(text) is not None) is exact


@pytest.mark.parametrize(
    ("gold", "pred", "equal", "path"),
    [
        ("8", "<think> 3.5 + 4.5 = 8 boxes.</think>\n<answer>8 boxes</answer>", True, "certain"),
        ("9", "<answer>8 boxes</answer>", False, "certain"),
        ("8 boxes", "8", True, "certain"),
        ("5", "5 pi", False, "certain"),  # pi is not a thing counted
        ("25", "5 squared", False, "symbolic"),  # a word that changes the value: math-verify decides
        (
            "160",
            "<think> 10 x 20 = 200 flowers. </think>\n<answer> 4/5 of the planted flowers have bloomed, "
            "so the number of flowers that have bloomed is 4/5 x 200 = 160 flowers. </answer>",
            True,
            "symbolic",
        ),
        (
            "m\\frac{dv}{dt}+bv=f",
            "Formulate the equation of motion with the force \\(f\\) as input.",
            False,
            "symbolic",
        ),
        ("m\\frac{dv}{dt}+bv=f", "\\boxed{f}", False, "symbolic"),  # the right side is not a solution
        ("m\\frac{dv}{dt}+bv=f", "\\boxed{\\frac{dv}{dt} = \\frac{f - bv}{m}}", True, "symbolic"),
        ("\\frac{dy}{dx} = 2x", "2x", True, "symbolic"),  # the derivative named: its value
        (
            "\\frac{2^{2009}-1}{3\\cdot 2^{2008}-1}",
            "\\frac{2^{2008}-1}{3\\cdot 2^{2007}-1}",
            False,  # 2/3 - 2^{-2008}/... : math-verify's six places call them equal
            "certain",
        ),
        (
            "\\Delta \\varphi = \\frac{p}{2 \\kappa \\lambda} \\ln \\left( \\frac{V_1}{V_2} \\right)",
            "\\Delta\\varphi = - \\frac{p m}{4 \\lambda} \\ln \\left(\\frac{V_2}{V_1}\\right)",
            False,
            "symbolic",
        ),
        (
            "W = \\frac{\\Gamma(\\alpha)\\Gamma(n+1)}{\\Gamma(\\alpha+n)}",
            "W = \\frac{\\Gamma(\\alpha)\\Gamma(n+2)}{\\Gamma(\\alpha+n)}",
            False,
            "certain",
        ),
    ],
)
def test_round34_pairs(gold: str, pred: str, equal: bool, path: str) -> None:
    got = compare(gold, pred)
    assert (got.equal, got.path) == (equal, path)
