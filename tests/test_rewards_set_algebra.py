"""Operations on finite sets of numbers are evaluated exactly before either reader compares
(rewards.set_algebra): a textbook checker labels ``\\{1,2,3,4\\} \\setminus \\{1,2\\}`` equal to
``\\{3,4\\}``; math-verify reads ``\\backslash`` as nothing."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.set_algebra import set_algebra_written_out


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("\\left\\{1,2,3,4\\right\\} \\backslash \\left\\{1,2\\right\\}", "\\{3, 4\\}"),
        ("{1,2,3}\\backslash{2}", "\\{1, 3\\}"),
        ("{1,2,3}\\setminus{1,2,3,4,5}", "\\emptyset"),
        ("$\\{1,3\\} \\cup \\{2,4\\}$", "\\{1, 2, 3, 4\\}"),
        ("\\{1,2\\} \\cap \\{2,3\\}", "\\{2\\}"),
        ("\\{1/2, 0.5\\} \\cup \\{-3\\}", "\\{-3, \\frac{1}{2}\\}"),
        ("\\{1,2,3,4\\} - \\{1,2\\}", "\\{3, 4\\}"),
        # left as written
        ("\\{1,2\\}\\cap\\{2,3\\}\\cup\\{5\\}", None),  # the grouping is not said
        ("\\{x,2\\}\\cup\\{3\\}", None),  # not numbers
        ("{2}-{3}", None),  # plain braces with a minus: maybe 2 - 3
        ("\\{1\\}", None),  # no operation
        ("x-1", None),
        ("(1,2) \\cup \\{3\\}", None),  # an interval
    ],
)
def test_set_algebra_written_out(text: str, want: str | None) -> None:
    assert set_algebra_written_out(text) == (text if want is None else want)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("\\left\\{1,2,3,4\\right\\} \\backslash \\left\\{1,2\\right\\}", "\\left\\{3,4\\right\\}", True),
        ("{1,2,3}\\backslash{1,2,3,4,5,1}", "{}", True),
        ("\\{1,2,3,4\\} - \\{1,2\\}", "\\{3\\}", False),
        ("\\{1,2,3,4\\}", "\\{1,3\\} \\cup \\{2,4\\}", True),
    ],
)
def test_set_operations_compared(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want
