"""Decimal references that were truncated rather than rounded (the numeric rule of docs/rewards.md)."""

from __future__ import annotations

import pytest

from rewards.equivalence import decide_fast


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("-1.709975946", "-\\sqrt[3]{5}", True),  # -1.70997594667: KAS truncates at its digits
        ("-0.584803547", "-\\frac{1}{\\sqrt[3]{5}}", True),  # -0.58480354764
        ("2.71", "e", True),  # truncated
        ("2.72", "e", True),  # rounded
        ("2.70", "e", False),
        ("0.33", "\\frac{3399}{10000}", True),  # 0.3399 truncates to 0.33
        ("0.33", "\\frac{17}{50}", False),  # 0.34 is the next unit, not cut down to 0.33
        ("1.14", "\\frac{115}{100}", False),
        ("1.41", "\\sqrt2", True),
        ("1.42", "\\sqrt2", False),
        ("-0.33", "\\frac13", False),  # truncation keeps the sign
        ("\\sqrt[3]{-5}", "-1.709975946", False),  # a prediction gets no such slack
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
        ("0.33", "0.\\overline{3}", True),  # an exact answer that rounds to the decimal reference
        ("0.\\overline{3}", "0.333", False),  # a decimal is not the exact reference
        ("0.\\overline{3}", "0.3", False),
        ("0.\\overline{3}", "0", False),  # math-verify reads 0.\overline{3} as 0
        ("\\frac{36}{100}", "0.\\overline{36}", False),
    ],
)
def test_a_repeating_decimal_is_its_exact_value(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want
