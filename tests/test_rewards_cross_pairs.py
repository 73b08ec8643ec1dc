"""Wrong credits found by pairing public reference answers with each other (different answers
must not be equal) and checking the certain path against math-verify; examples invented."""

from __future__ import annotations

import pytest

from rewards.equivalence import decide_fast


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        # a decimal reference with one decimal is an exact value, not a value rounded to +-0.05
        ("0.5", "\\frac{1}{2} + \\frac{1}{72}", False),
        ("12.5", "\\frac{623}{50}", False),
        ("0.5", "\\frac{2}{4}", True),
        ("0.33", "\\frac13", False),  # two decimals stand for no exact value (docs/rewards.md)
        ("5.656854", "4\\sqrt{2}", True),  # six do
        # a bare list is a tuple at most, never an interval with a closed end
        ("(1, 2]", "1, 2", False),
        ("[1, 2]", "so \\boxed{1} and \\boxed{2}", False),  # neither box nor their list
        ("[-3, 5]", "-3, 5", False),
        ("(1, 2)", "1, 2", True),  # an open pair reads as a tuple too (as math-verify)
        # "A:B=1" is a ratio named by two points, not a label "A:" on "B=1"
        ("f(x)=1", "A:B=1", None),
        ("A:B=1", "1", True),  # a ratio of names and its value
        ("Max: 3", "3", True),
        ("x: 3", "3", True),
    ],
)
def test_different_answers_are_not_credited(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


SEVERAL = "First \\(\\boxed{3}\\), then we get \\(\\boxed{\\sqrt{2}}\\) as the answer."


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("9", SEVERAL, False),  # differs from every box and from the list of them
        ("3", SEVERAL, None),  # equals a box that may not be the answer: math-verify decides
        ("\\sqrt2", SEVERAL, True),  # the last box
        ("3, \\sqrt2", SEVERAL, None),  # the list of boxes, with prose between them
        ("5", "\\boxed{1} no no no or no no \\boxed{2}", False),
        ("9", "So \\boxed{\\sqrt{2}}. Checking again, \\boxed{\\sqrt{2}}.", False),  # one answer twice
    ],
)
def test_several_boxes_certain_only_when_every_reading_differs(
    gold: str, pred: str, want: bool | None
) -> None:
    assert decide_fast(gold, pred) is want
