"""The empty set and the real line named in symbols or words, and interval unions in plain text
(rewards.set_words): a tutor's checker labels ``no solution`` equal to ``\\varnothing``, ``{}``
and ``there is no solution``, and ``all real numbers`` equal to ``\\mathbb{R}`` and
``(-\\infty, \\infty)``; math-verify reads the words as letters."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare, decide_fast
from rewards.set_words import plain_set_spellings, set_word


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("\\varnothing", "empty"),
        ("\\{\\}", "empty"),
        ("none", "empty"),
        ("There are no real solutions.", "empty"),
        ("the empty set", "empty"),
        ("\\mathbb{R}", "reals"),
        ("(-\\infty, +\\infty)", "reals"),
        ("x can be any real number", "reals"),
        ("All reals", "reals"),
        ("x \\in \\mathbb R", "reals"),
        # not only the phrase: not read
        ("x = 2 or no solution", None),
        ("no solution for x > 2", None),
        ("(0, \\infty)", None),
        ("all integers", None),
        ("5", None),
    ],
)
def test_set_word(text: str, want: str | None) -> None:
    assert set_word(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("(-inf, -1) U (3, inf)", "(-\\infty, -1) \\cup (3, \\infty)"),
        ("[0, oo)", "[0, \\infty)"),
        ("x = +/- 2", "x = \\pm 2"),
        ("x = +-2", "x = \\pm 2"),
        ("U(3, inf)", "U(3, inf)"),  # not only a union of intervals: left as written
        ("a+-b", "a+-b"),  # after an operand: plus a negative
        ("x+-(x+2)", "x+-(x+2)"),
        ("+-3", "\\pm 3"),
        ("3 +- ", "3 +- "),
    ],
)
def test_plain_set_spellings(text: str, want: str) -> None:
    assert plain_set_spellings(text) == want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("no solution", "\\emptyset", True),
        ("no solution", "none", True),
        ("no solution", "No real solutions", True),
        ("no solution", "there is no solution", True),
        ("no solution", "{}", True),
        ("\\emptyset", "\\varnothing", True),
        ("\\boxed{\\text{no solution}}", "The answer is \\boxed{\\emptyset}", True),
        ("all real numbers", "\\mathbb{R}", True),
        ("all real numbers", "(-\\infty, \\infty)", True),
        ("all real numbers", "x can be any real number", True),
        ("all real numbers", "no solution", False),
        ("none", "5", False),
        ("\\mathbb{R}", "(0,\\infty)", None),  # one side only: the other rules decide
    ],
)
def test_set_words_on_the_certain_path(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("x < -1 or x > 3", "(-inf, -1) U (3, inf)", True),
        ("x \\ne 3", "(-inf, 3) U (3, inf)", True),
        ("x < -1 or x > 3", "(-inf, -1) U (4, inf)", False),
        ("x = \\pm 2", "x = +/- 2", True),
        ("x = \\pm 2", "x = +-3", False),
        ("x+-(x+2)", "x-(x+2)", True),
    ],
)
def test_plain_spellings_compared(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want
