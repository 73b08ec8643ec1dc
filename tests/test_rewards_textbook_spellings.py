"""Spellings a textbook or a model uses for one thing are read as that thing
(rewards.answer_text.textbook_spellings): a thousands comma in a fraction, ``\\sqrt\\frac``, an
exponent written without braces (``x^-3``, ``x^(1/2)``), ``\\log_e``, ``\\lg``, ``\\abs{}``, spacing
commands, a mixed number before a factor (``2\\frac{1}{2}(4)``). And two sets
with an operation between them (``\\{1,2,3,4\\} - \\{1,2\\}``) get no certain verdict."""

from __future__ import annotations

import pytest

from rewards.answer_text import mixed_numbers_grouped, textbook_spellings
from rewards.certain_path import decide_fast
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("\\frac{945}{16,384}", "\\frac{945}{16384}"),
        ("\\frac{1,2}{3}", "\\frac{1,2}{3}"),  # not a thousands group: left alone
        ("24\\sqrt\\frac{3}{5}", "24\\sqrt{\\frac{3}{5}}"),
        ("x^-3", "x^{-3}"),
        ("x^-1y", "x^{-1}y"),
        ("2^-x", "2^{-x}"),
        ("x^{-3}", "x^{-3}"),
        ("x^(1/2)", "x^{(1/2)}"),
        ("\\log_e(x)", "\\ln(x)"),
        ("\\log_{e}(1)", "\\ln(1)"),
        ("\\lg(x)", "\\log_{10}(x)"),
        ("\\abs{-3}", "|-3|"),
        ("\\log_{10}(x)", "\\log_{10}(x)"),
        ("\\tg x + \\ctg x", "\\tan x + \\cot x"),
        ("\\cbrt{x}", "\\sqrt[3]{x}"),
        ("1.000.000", "1000000"),
        ("885.000", "885.000"),  # one dot: a decimal, or a thousands group; left alone
        ("3x^{\\prime2}-5y^{\\prime 2}", "3x'^2-5y'^2"),  # a prime, then a power
        ("frac{1}{5}", "\\frac{1}{5}"),  # \frac that lost its backslash
        ("dfrac{1}{5}", "\\frac{1}{5}"),
        ("\\dfrac{1}{5}", "\\dfrac{1}{5}"),  # normalised to \frac elsewhere
        ("fraction{1}", "fraction{1}"),
        ("f^{\\prime\\prime}(x)", "f''(x)"),
    ],
)
def test_textbook_spellings(text: str, read: str) -> None:
    assert textbook_spellings(text) == read


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("\\frac{945}{16,384}", "\\frac{945}{16384}", True),
        ("\\frac{945}{16,384}", "\\frac{945}{16385}", False),
        ("24\\sqrt{\\frac{3}{5}}", "24\\sqrt\\frac{3}{5}", True),
        ("x^4/x^7", "x^-3", True),
        ("x^4/x^7", "x^-2", False),
        ("(x+2)^-2", "(x^2+4x+4)^-1", True),
        ("\\frac{x^(1/2)y^(5/2)}{x^(3/2)y^(3/2)}", "x^-1y", True),
        ("\\log_e(1)", "0", True),
        ("\\lg(x)", "\\frac{\\ln(x)}{\\ln(10)}", True),
        ("\\log_{10}(x)", "\\frac{\\log_e(x)}{\\log_e(10)}", True),
        ("\\lg(x)", "\\ln(x)", False),
        ("\\abs{-3}", "3", True),
        ("\\abs{-3}", "-3", False),
        ("tan(x)", "tg(x)", True),
        ("cot x", "ctg x", True),
        ("\\cot(x)", "\\ctg(x)", True),
        ("\\tan x", "\\ctg x", False),
        ("\\cbrt{x}", "x^(1/3)", True),
        ("1000000", "1.000.000", True),
        ("1000000", "1.000.001", False),
    ],
)
def test_textbook_spellings_compare(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)


@pytest.mark.parametrize(
    "gold",
    [
        "\\left\\{1,2,3,4\\right\\} - \\left\\{1,2\\right\\}",
        "\\{1,2,3\\}\\backslash\\{2\\}",
        "\\{1,2,3\\} \\setminus \\{2\\}",
        "\\{1,2\\} \\cap \\{2,3\\}",
    ],
)
def test_an_operation_on_sets_gets_no_certain_verdict(gold: str) -> None:
    assert decide_fast(gold, "\\{3,4\\}") is None
    assert decide_fast(gold, "\\{1,2\\}") is None


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("3y^2y'", "3y^2\\hspace{2pt}y^{\\prime}"),
        ("x+1", "x\\thinspace+\\medspace 1"),
        ("2x", "2\\hspace*{1em}x"),
        ("\\frac{1}{2}", "\\frac{1}{\\negthinspace 2}"),
    ],
)
def test_spacing_commands_are_spaces(gold: str, pred: str) -> None:
    assert compare(gold, pred).equal, (gold, pred)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("2\\frac{1}{2}(4)", "(2+\\frac{1}{2})(4)"),
        ("2\\frac{1}{2}x", "(2+\\frac{1}{2})x"),
        ("2\\frac{1}{2}^2", "(2+\\frac{1}{2})^2"),
        ("2\\frac{1}{2}\\sqrt{4}", "(2+\\frac{1}{2})\\sqrt{4}"),
        ("2\\frac{1}{2}", "2\\frac{1}{2}"),  # alone: read as a mixed number where it stands
        ("2\\frac{1}{2}+1", "(2+\\frac{1}{2})+1"),  # in a sum too (math-verify reads it so)
        ("1 1/2 + 1/2", "(1+\\frac{1}{2}) + 1/2"),  # with a slash, in a sum
        ("x = 1 1/2", "x = 1 1/2"),  # alone on its side: read where it stands
        ("2\\frac{3}{2}x", "2\\frac{3}{2}x"),  # an improper fraction: a product
        ("x^2\\frac{1}{2}x", "x^2\\frac{1}{2}x"),  # an exponent, then a factor
        ("a_2\\frac{1}{2}x", "a_2\\frac{1}{2}x"),
    ],
)
def test_mixed_numbers_grouped(text: str, read: str) -> None:
    assert mixed_numbers_grouped(text) == read


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("10", "2\\frac{1}{2}(4)", True),
        ("4", "2\\frac{1}{2}(4)", False),
        ("2.5x", "2\\frac{1}{2}x", True),
        ("6.25", "2\\frac{1}{2}^2", True),
        ("y=2.5x-7", "y-3=2\\frac{1}{2}(x-4)", True),
        ("\\frac{33}{8}in^3", "4\\frac{1}{8}in^3", True),
        ("2", "1 1/2 + 1/2", True),
        ("2\\frac{1}{2} + 1", "3 1/2", True),
        ("2\\frac{1}{2} + 1", "3 1/3", False),
    ],
)
def test_a_mixed_number_before_a_factor(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)
