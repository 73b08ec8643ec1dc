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
