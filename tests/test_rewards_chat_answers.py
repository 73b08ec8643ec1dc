"""How chat models write a final answer: in markdown bold (``**15**``), or after a word without math
mode (``Therefore 0.5``, ``5, obviously``: math-verify reads the number there, and in math mode the
word would be a product of letters). And ``NaN`` equals nothing."""

from __future__ import annotations

import pytest

from rewards.answer_text import markdown_bold_removed
from rewards.equivalence import _has_plain_word, compare


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("**15**", "15"),
        ("**10 m**", "10 m"),
        ("The answer is **x + 1**.", "The answer is x + 1."),
        ("**Final answer:** 42", "Final answer: 42"),
        ("x**2", "x**2"),  # a power in calculator syntax
        ("(x+1)**2", "(x+1)**2"),
        ("2**3", "2**3"),
        ("x**2 + y**2", "x**2 + y**2"),
    ],
)
def test_markdown_bold_removed(text: str, want: str) -> None:
    assert markdown_bold_removed(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Therefore 0.5", True),
        ("5, obviously", True),
        ("sqrt(2)/2", False),
        ("theta + 1", False),
        ("infinity", False),
        ("\\text{seconds}5", False),
        ("2as + 4for + is + print", False),  # a sum of products of letters
    ],
)
def test_a_plain_word_in_a_bare_answer(text: str, want: bool) -> None:
    assert _has_plain_word(text) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("15", "**15**", True),
        ("649", "**649**", True),
        ("$10$", "**10 m**", True),
        ("15", "**16**", False),
        ("x^2", "x**2", True),
        ("0.5", "Therefore 0.5", True),
        ("5", "5, obviously", True),
        ("5", "6, obviously", False),
        ("NaN", "#### NaN", False),
        ("7", "NaN", False),
    ],
)
def test_chat_answers(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("0.5", "\\frac{1}{2}m", True),  # math-verify reads the "m" as metres
        ("\\sqrt{2}", "\\sqrt{2} m", True),
        ("5 m", "6 m", False),
        ("5", "6 m", False),
        ("$16\\,\\text{cm}$", "$16\\,\\text{cm}^2$", False),
    ],
)
def test_a_unit_letter_after_a_number_is_math_verifys_to_read(gold: str, pred: str, want: bool) -> None:
    """The certain path does not refuse a value that only a short unit at its end tells apart:
    math-verify drops such units (its list: m, s, cm, kg, ...) and decides."""
    assert compare(gold, pred).equal is want, (gold, pred)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("result = 3.14", "3.14", True),  # a word naming the value, in the reference
        ("3.14", "result = 3.14", True),
        ("area = 25", "25", True),
        ("area = 25", "26", False),
        ("x = 5", "5", True),
    ],
)
def test_a_reference_that_names_its_value_with_a_word(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)


def test_named_rhs_reads_a_word_name_but_not_a_function_or_a_word_on_both_sides() -> None:
    from rewards.named_values import named_rhs

    assert named_rhs("result = 3.14") == "3.14"
    assert named_rhs("sin = 5") is None  # a function's name, not a value's
    assert named_rhs("ans = ans + 1") is None
    assert named_rhs("area \\le 5") is None
