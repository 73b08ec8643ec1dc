"""Function names glued to their argument (``sinx``, ``2cosx``, ``sin^2x``) and fullwidth forms
(``２ｘ``): written out for both readers, never inside words or text mode."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.fullwidth_forms import fullwidth_as_ascii
from rewards.glued_functions import MAX_CHARS, glued_functions_written_out


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("sinx", "\\sin(x)"),
        ("2cosx", "2\\cos(x)"),
        ("sin2x", "\\sin 2x"),
        ("sin^2x", "\\sin^2x"),
        ("lnx", "\\ln(x)"),
        ("sinxcosx", "\\sin(x) \\cos(x)"),
        ("xsinx", "x \\sin(x)"),
        ("tanx/x", "\\tan(x)/x"),
        ("sin(x)+cosx", "\\sin(x)+\\cos(x)"),  # one glued name: the whole answer in LaTeX
        ("arcsinx", "\\arcsin(x)"),
        # left alone: calculator syntax plain_syntax reads, words, ambiguous runs, text mode
        ("sin(x)", "sin(x)"),
        ("sin x", "sin x"),
        ("coth^(-1)(x)", "coth^(-1)(x)"),
        ("ln2", "ln2"),
        ("cost", "cost"),
        ("since x", "since x"),
        ("asinx", "asinx"),  # arcsin x or a sin x
        ("log2x", "log2x"),  # base 2, or the logarithm of 2x
        ("sinpi", "sinpi"),
        ("\\text{cost}", "\\text{cost}"),
        ("\\sin x", "\\sin x"),
        ("The answer is sinx", "The answer is sinx"),
    ],
)
def test_glued_functions_written_out(text: str, written: str) -> None:
    assert glued_functions_written_out(text) == written


def test_long_texts_are_left_alone() -> None:
    text = "sinx + " * (MAX_CHARS // 7 + 1)
    assert glued_functions_written_out(text) == text


@pytest.mark.parametrize(
    ("text", "ascii"),
    [
        ("２ｘ", "2x"),
        ("（１，２）", "(1,2)"),
        ("ｘ＋１　＝　２", "x+1 = 2"),
        ("2x", "2x"),
        ("答案：5", "答案:5"),
    ],
)
def test_fullwidth_forms_read_as_ascii(text: str, ascii: str) -> None:
    assert fullwidth_as_ascii(text) == ascii


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("\\sin x", "sinx", True),
        ("2\\cos x", "2cosx", True),
        ("\\sin(2x)", "sin2x", True),
        ("\\sin^2 x", "sin^2x", True),
        ("\\tan x", "tanx", True),
        ("\\ln x", "lnx", True),
        ("\\sin 2x", "2sinxcosx", True),
        ("x\\sin x", "xsinx", True),
        ("\\sin x", "cosx", False),
        ("\\sin(2x)", "sin3x", False),
        ("\\frac{\\tan x}{x}", "tanx/x", True),
        ("2*x", "２ｘ", True),
        ("(1,2)", "（１，２）", True),
        ("2x", "３ｘ", False),
    ],
)
def test_glued_and_fullwidth_answers(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
