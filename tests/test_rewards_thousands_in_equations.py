"""Digits grouped in threes by commas inside one equation are one number, as a bare ``2,304`` is
(rewards.answer_text.thousands_in_an_equation, part of normalize)."""

from __future__ import annotations

import pytest

from rewards.answer_text import MAX_ANSWER_CHARS, thousands_in_an_equation
from rewards.equivalence import decide_fast


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("36x^2+64y^2=2,304", "36x^2+64y^2=2304"),
        ("y=250\\sin(x)+2,500", "y=250\\sin(x)+2500"),
        ("f(y)=26,000(0.83)^y", "f(y)=26000(0.83)^y"),
        ("100,000=72,300(1.008)^x", "100000=72300(1.008)^x"),
        ("x=1,000,000.5", "x=1000000.5"),
        ("(x,y)=(1,500)", "(x,y)=(1,500)"),  # a point: the comma is inside brackets
        ("x=1, 500", "x=1, 500"),  # a space after the comma: a list
        ("x=1,50", "x=1,50"),  # not a group of three
        ("x=1,5000", "x=1,5000"),
        ("x_1,234=5", "x_1,234=5"),  # a subscript, not a number
        ("x=1,000, y=2", "x=1,000, y=2"),  # two equations: a list
        ("x=2,000, 3", "x=2,000, 3"),  # another comma separates a list item
        ("2,304", "2,304"),  # no equation: read_number's to read
        ("a=2,304=b", "a=2,304=b"),  # a chain
        ("x=1,000" + " " * MAX_ANSWER_CHARS, "x=1,000" + " " * MAX_ANSWER_CHARS),  # longer than an answer
    ],
)
def test_thousands_in_an_equation(text: str, want: str) -> None:
    assert thousands_in_an_equation(text) == want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("x=2304", "x=2,304", True),
        ("x=2,304", "2304", True),
        ("36x^2+64y^2=2,304", "36x^2+64y^2=2304", True),
        (
            "y=250\\sin\\left(\\frac{2\\pi}{5}x\\right)+2500",
            "y=250\\sin\\left(\\frac{2\\pi}{5}x\\right)+2,500",
            True,
        ),
        (
            "f\\left(y\\right)=26000\\left(0.83\\right)^y",
            "f\\left(y\\right)=26,000\\left(1-0.17\\right)^y",
            True,
        ),
        ("x=2,305", "x=2304", False),
        ("y=2x+2,500", "y=2x+2,501", False),  # two different lines
    ],
)
def test_an_equation_with_grouped_digits_is_compared_by_value(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want
    assert decide_fast(pred, gold) is want
