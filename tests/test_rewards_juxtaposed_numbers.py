"""Two numbers side by side in an answer phrase (``Final answer: x=0 42``) are not credited by the
project's own rules: cut to ``0 42`` and sent alone, math-verify read them as the mixed number
0 + 42. Removed marks leave a space (``0\\$42``, ``0\\displaystyle42`` are not 042). Numbers in
groups of three (``1 000 000``) and mixed numbers the certain path reads (``3 1/2``) still count."""

from __future__ import annotations

import pytest

from rewards.answer_text import digit_gaps, juxtaposed_numbers
from rewards.equivalence import compare, decide_fast


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("0 42", True),
        ("0\\,42", True),
        ('0"42', True),
        ("0'42", True),
        ("0\\ldots42", True),
        ("0 \\text{}42", True),
        ("x=0\\quad42", True),
        ("1 000 000", False),
        ("12 345", False),
        ("1 000.5", False),
        ("1\\,000", False),
        ("42", False),
        ("1,000", False),
        ("2^{3} + 4", False),
    ],
)
def test_juxtaposed_numbers(text: str, want: bool) -> None:
    assert juxtaposed_numbers(text) is want


@pytest.mark.parametrize(
    "pred",
    [
        "Final answer: x=0 42",
        "Final answer: x=0\\,42",
        "Final answer: x=0\\quad42",
        "Final answer: x=0\\text{}42",
        "Final answer: 0\\displaystyle42",
        "Final answer: 0\\$42",
        'Final answer: 0"42',
        "Final answer: 0\\ldots42",
    ],
)
def test_two_numbers_in_an_answer_phrase_are_not_one(pred: str) -> None:
    assert compare("42", pred).equal is False


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("1000000", "Final answer: 1 000 000"),
        ("7/2", "Final answer: 3 1/2"),
        ("18", "Final answer: \\$18"),
        ("42", "\\boxed{\\displaystyle 42}"),
        ("\\frac12", "\\displaystyle\\frac12"),
        ("42", "Final answer: x = 42"),
    ],
)
def test_one_number_is_still_read(gold: str, pred: str) -> None:
    assert compare(gold, pred).equal is True


@pytest.mark.parametrize(
    ("text", "gaps"),
    [
        ("1 1/2", [1]),
        ("3 8", [1]),
        ("11/2", []),
        ("1 000", []),  # digits grouped in threes: one number
        ("1 000 000", []),
        ("x + 1", []),
        ("(1, 2)", []),
    ],
)
def test_digit_gaps(text: str, gaps: list[int]) -> None:
    assert digit_gaps(text) == gaps


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("1 1/2", "11/2", False),  # a mixed number, not the same text without its space
        ("-1 1/2", "-11/2", False),
        ("1 1/2", "3/2", True),
        ("1000", "1 000", True),
        ("(1, 2)", "(1,2)", True),
    ],
)
def test_texts_equal_but_for_a_space_between_digits(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)


def test_two_numbers_side_by_side_are_not_their_digits_joined() -> None:
    assert decide_fast("38", "3 8") is not True
