"""``\\pm`` and ``\\mp`` are written out as the two values they stand for before the certain path
compares (rewards.answer_text.expand_plus_minus): ``x = 3 \\pm 1`` is ``x = 2, 4``. math-verify
reads ``3 \\pm 1`` outside math mode as ``3``, and refuses ``x = 3 \\pm 1`` against ``x = 2, 4``."""

from __future__ import annotations

import pytest

from rewards.answer_text import drop_common_name, expand_independent_signs, expand_plus_minus, normalize
from rewards.equivalence import decide_fast


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("3 \\pm 1", "3 + 1, 3 - 1"),
        ("x = 3 \\pm 1", "x = 3 + 1, 3 - 1"),
        ("\\frac{1 \\mp \\sqrt{97}}{12}", "\\frac{1 + \\sqrt{97}}{12}, \\frac{1 - \\sqrt{97}}{12}"),
        ("\\pm 2", "2, -2"),
        ("x = 1, 3 \\pm 4", "x = 1, 3 + 4, 3 - 4"),
        ("(\\pm 1, 2)", "( + 1, 2), ( - 1, 2)"),
        ("1 \\pm 2 \\pm 3", None),  # coupled or independent signs: expand_independent_signs credits
        ("a \\pm b \\mp c", None),
        ("x \\pm 1 = 0", None),  # inside an equation
        ("3", None),
    ],
)
def test_expand_plus_minus(text: str, want: str | None) -> None:
    assert expand_plus_minus(normalize(text)) == want


def test_drop_common_name() -> None:
    assert drop_common_name("x = 2, 4", "x = 3 \\pm 1") == ("2, 4", "3 \\pm 1")
    assert drop_common_name("x = \\pm 3", "y = \\pm 3") is None  # different names
    assert drop_common_name("2, 4", "x = 3 \\pm 1") == ("2, 4", "x = 3 \\pm 1")


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("x = 3 \\pm 1", "x = 2, 4", True),
        ("x = 2, 4", "x = 3 \\pm 1", True),
        ("x = -1, 1, 7", "x = 1, 3 \\pm 4", True),
        ("3 \\pm 1", "2, 4", True),
        ("\\frac{1 \\mp \\sqrt{97}}{12}", "\\frac{1 \\pm \\sqrt{97}}{12}", True),
        ("\\frac{-1 \\pm \\sqrt{5}}{2}", "\\frac{-1-\\sqrt5}{2}, \\frac{-1+\\sqrt5}{2}", True),
        ("\\pm 2", "2, -2", True),
        ("\\pm 2", "2", None),  # one of the two values: math-verify's convention decides
        ("\\pm 2", "3", False),  # neither
        ("3 \\pm 1", "2, 5", False),
        ("x = 3 \\pm 1", "x = 2, 4, 6", False),
    ],
)
def test_plus_minus_answers(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("1 \\pm 2 \\pm 3", "1 + 2 + 3, 1 + 2 - 3, 1 - 2 + 3, 1 - 2 - 3"),
        ("\\pm 1 \\pm 1", "1 + 1, 1 - 1, -1 + 1, -1 - 1"),
        ("x = 1 \\pm 2 \\pm 3", "x = 1 + 2 + 3, 1 + 2 - 3, 1 - 2 + 3, 1 - 2 - 3"),
        ("3 \\pm 1", None),  # one sign: expand_plus_minus's reading
        ("a \\pm b \\mp c", None),  # \\mp couples the signs
        ("1 \\pm 1 \\pm 1 \\pm 1 \\pm 1 \\pm 1", None),  # more than MAX_SIGN_MARKS
        ("x \\pm 1 \\pm 2 < 3", None),
    ],
)
def test_independent_signs_written_out(text: str, want: str | None) -> None:
    assert expand_independent_signs(text) == want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("6, 0, 2, -4", "1 \\pm 2 \\pm 3", True),
        ("$1 \\pm 2 \\pm 3$", "$-4, 0, 2, 6$", True),
        ("4, 2, 2, 0, 2, 0, 0, -2", "1 \\pm 1 \\pm 1 \\pm 1", True),  # a list with repeats
        # independent signs are only a reading that can credit: the coupled reading (6, -4) and a
        # wrong list are left to math-verify, which refuses both
        ("6, -4", "1 \\pm 2 \\pm 3", None),
        ("6, 0, 2, -5", "1 \\pm 2 \\pm 3", None),
    ],
)
def test_two_or_more_plus_minus_signs(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want
