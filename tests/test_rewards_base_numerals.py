"""Numerals that name their base (rewards/base_numerals.py): math-verify drops the subscript, so
``10001_3`` and ``10001_2`` were one number; by value they are 82 and 17."""

from __future__ import annotations

import pytest

from rewards.base_numerals import base_numerals_decide
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("10001_3", "10001_2", False),
        ("10_2", "10_{3}", False),
        ("1112112_3", "1112112_{3}", True),
        ("1A_{16}", "1a_{16}", True),
        ("10001_2", "101_4", None),  # one value in two bases: the grader's call
        ("1112112_3", "1112112", None),  # plain digits: math-verify (the problem named the base)
        ("x_2", "x_3", None),  # a name with an index
        ("19_8", "21_8", None),  # 9 is not an octal digit
        ("17", "10001_2", None),
    ],
)
def test_base_numerals_decide(gold: str, pred: str, want: bool | None) -> None:
    assert base_numerals_decide(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("10001_3", "10001_2", False),
        ("1112112_3", "The product is \\boxed{1112112_{3}}.", True),
        ("1112112_3", "\\boxed{1112112_{4}}", False),
        ("1112112_3", "\\boxed{1112112}", True),  # math-verify's reading of plain digits
    ],
)
def test_numerals_with_a_base_compare(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want
