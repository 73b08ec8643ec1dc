"""Decimals against exact values (the numeric rule of docs/rewards.md): six decimals or more,
rounded, or truncated by the reference; shorter decimals stand for no exact value."""

from __future__ import annotations

import pytest

from rewards.equivalence import decide_fast


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("-1.709975946", "-\\sqrt[3]{5}", True),  # -1.70997594667: KAS truncates at its digits
        ("-0.584803547", "-\\frac{1}{\\sqrt[3]{5}}", True),  # -0.58480354764
        ("2.718281", "e", True),  # truncated
        ("2.718282", "e", True),  # rounded
        ("2.718280", "e", False),
        ("2.71", "e", False),  # fewer than six decimals: not a value of e (public labels)
        ("2.72", "e", False),
        ("0.33", "\\frac13", False),
        ("1.41", "\\sqrt2", False),
        ("3.14159", "\\pi", False),
        ("0.333333", "\\frac{3333339}{10000000}", True),  # 0.3333339 truncates to 0.333333
        ("0.333333", "\\frac{3333340}{10000000}", False),  # the next unit, not cut down
        ("1.414213", "\\sqrt2", True),
        ("1.414215", "\\sqrt2", False),
        ("-0.333333", "\\frac13", False),  # truncation keeps the sign
        ("0.000001", "\\frac{1}{810000}", False),  # six decimals, one significant digit
        ("0.25", "\\frac14", True),  # a short decimal equal to the exact value
        ("\\sqrt[3]{-5}", "-1.709975946", False),  # a prediction is rounded, never cut
        ("\\sqrt[3]{-5}", "-1.709975947", True),
        ("\\frac{\\sqrt2}{2}", "0.707107", True),  # six decimals, rounded (public labels)
        ("-\\frac13", "-0.333333", True),
        ("\\frac13", "0.33333", False),
    ],
)
def test_a_decimal_reference_may_be_rounded_or_truncated(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("\\frac13", "0.\\overline{3}", True),  # a repeating decimal is exact
        ("\\frac{1}{6}", "0.1\\overline{6}", True),
        ("\\frac{14}{11}", "1.\\overline{27}", True),
        ("\\frac17", "0.\\overline{142857}", True),
        ("1/3", ".\\overline{3}", True),
        ("\\frac13", "0.\\dot{3}", True),
        ("3", "2.\\overline{9}", True),
        ("-\\frac23", "-0.\\overline{6}", True),
        ("\\frac{1}{300}", "0.\\overline{3}\\%", True),
        ("0.333333", "0.\\overline{3}", True),  # an exact answer that rounds to the decimal reference
        ("0.33", "0.\\overline{3}", False),
        ("0.\\overline{3}", "0.333", False),  # a decimal is not the exact reference
        ("0.\\overline{3}", "0.3", False),
        ("0.\\overline{3}", "0", False),  # math-verify reads 0.\overline{3} as 0
        ("\\frac{36}{100}", "0.\\overline{36}", False),
    ],
)
def test_a_repeating_decimal_is_its_exact_value(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want
