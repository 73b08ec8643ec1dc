"""A radicand written in parentheses (``\\sqrt(2)``) is read as the square root it names
(rewards.answer_text.sqrt_parentheses_as_braces, part of normalize)."""

from __future__ import annotations

import pytest

from rewards.answer_text import sqrt_parentheses_as_braces
from rewards.equivalence import decide_fast


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("\\sqrt(2)", "\\sqrt{2}"),
        ("\\frac{1}{\\sqrt(2)}", "\\frac{1}{\\sqrt{2}}"),
        ("\\sqrt(\\sqrt(2)+1)", "\\sqrt{\\sqrt{2}+1}"),  # nested
        ("\\sqrt (x+(y))", "\\sqrt {x+(y)}"),
        ("a\\sqrt(2)b\\sqrt(3)", "a\\sqrt{2}b\\sqrt{3}"),
        ("\\sqrt(x+1)^2", "\\sqrt(x+1)^2"),  # the power may be under the root or outside it
        ("\\sqrt(3)!", "\\sqrt(3)!"),
        ("\\sqrt(2", "\\sqrt(2"),  # not closed
        ("\\sqrt(" + "x+" * 150 + "1)", "\\sqrt(" + "x+" * 150 + "1)"),  # beyond 200 characters
        ("\\sqrt{2}", "\\sqrt{2}"),
        ("\\sqrt[4](16)", "\\sqrt[4]{16}"),  # with an index
        ("\\sqrt[3] (x+1)", "\\sqrt[3] {x+1}"),
        ("\\sqrt[n](x)^2", "\\sqrt[n](x)^2"),
        ("\\sqrt[(2)](x)", "\\sqrt[(2)](x)"),  # an index with brackets in it: left
        ("\\sqrt(" * 400, "\\sqrt(" * 400),  # longer than an answer: not scanned
    ],
)
def test_sqrt_parentheses_as_braces(text: str, want: str) -> None:
    assert sqrt_parentheses_as_braces(text) == want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("\\sqrt(3)", "\\sqrt{3}", True),  # latex2sympy reads \sqrt(3) as no root: refused
        ("\\frac{1}{\\sqrt(2)}", "\\frac{\\sqrt2}{2}", True),
        ("\\sqrt(3)", "\\tan (\\pi/3)", True),
        ("\\frac{\\sqrt(3)}{2}", "\\sin (60°)", True),
        ("\\sqrt{4x}", "\\sqrt(2x+2x)", True),
        ("\\sqrt(3)", "\\sqrt{2}", False),
        ("2", "\\sqrt[4](16)", True),
        ("3", "\\sqrt[4](16)", False),
    ],
)
def test_a_parenthesised_radicand_is_compared_as_a_root(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want
