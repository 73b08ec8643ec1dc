"""Case counts in math and not in words: the certain path's first check (the same text, spaces
aside) ignores case only for plain words ("Yes", "blue"); ``x`` is not ``X`` and ``\\Delta`` is not
``\\delta`` (sympy and math-verify read different symbols)."""

from __future__ import annotations

import pytest

from rewards.certain_path import compare_answers, decide_fast


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("Yes", "yes"),
        ("\\text{Blue}", "blue"),
        ("NaCl", "nacl"),
        ("B", "b"),  # a choice letter
        ("(C)", "c"),
        ("1E5", "1e5"),  # the same number
        ("2x + 1", "2x+1"),
    ],
)
def test_same_answer_whatever_the_case(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is True


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("x", "X"),
        ("\\Delta", "\\delta"),
        ("2X+1", "2x+1"),
        ("\\Gamma(n)", "\\gamma(n)"),
    ],
)
def test_case_counts_in_math(gold: str, pred: str) -> None:
    assert compare_answers(gold, pred) is not True
    assert decide_fast(gold, pred) is not True
