"""A logarithm of a power of its own base is the exponent (rewards.log_of_power): a symbolic
checker labels ``\\log_{2.5}(2.5^{x})`` and ``ln(exp(x))`` equal to ``x``; sympy keeps
``log(exp(x))`` for complex ``x`` and math-verify refuses."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.log_of_power import log_of_power_written_out


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("ln(exp(x))", "(x)"),
        ("log(exp(x))", "(x)"),
        ("\\ln(e^{x})", "(x)"),
        ("\\ln\\left(e^{2x}\\right)", "(2x)"),
        ("\\ln(\\exp(x+1))", "(x+1)"),
        ("\\log_{2.5}(2.5^{x})", "(x)"),
        ("\\log_2(2^x)", "(x)"),
        ("\\log_{x+1}((x+1)^{n})", "(n)"),
        ("\\ln(e^x)+1", "(x)+1"),
        # left as written
        ("\\log(x^2)", None),
        ("\\ln(2e^x)", None),
        ("\\log(10^x)", None),  # the base of a bare \\log is not said
        ("\\log_3(2^x)", None),
        ("\\ln(e^{x)", None),  # not closed
    ],
)
def test_log_of_power_written_out(text: str, want: str | None) -> None:
    assert log_of_power_written_out(text) == (text if want is None else want)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("x", "ln(exp(x))", True),
        ("x", "\\log_{2.5}(2.5^{x})", True),
        ("a", "\\log_{x}(x^{a})", True),
        ("n", "\\log_{x+1}((x+1)^{n})", True),
        ("2x", "\\ln(e^{x})", False),
    ],
)
def test_logarithms_of_powers_compared(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want
