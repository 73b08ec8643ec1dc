"""Answer forms found by the held-out rounds 25 and 26 (tutoring checkers, GAOKAO-Bench's judged
responses, MathOdyssey's judged answers): Chinese answer marks with GAOKAO-Bench's end tokens,
Unicode subscripts, the fraction slash and the letter pi in calculator syntax."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.extract import extract_answer

_GAOKAO = "【解析】\n长方体的对角线是球的直径，对角线长 sqrt(14)。<eoe>\n【答案】{}<eoa>"


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (_GAOKAO.format("14π"), "14π"),
        ("【解析】二项分布。<eoe>\n【答案】1.96<eoa>", "1.96"),
        ("所以答案：5", "5"),
        ("答案是 3。", "3"),
    ],
)
def test_chinese_answer_marks_are_answer_phrases(text: str, answer: str) -> None:
    assert extract_answer(text) == answer


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("$14 \\pi$", _GAOKAO.format("14π"), True),
        ("$14 \\pi$", _GAOKAO.format("12π"), False),
        ("5", "答案：5", True),
        ("5", "答案：6", False),
        ("x_1", "x₁", True),
        ("x_{10}+1", "x₁₀+1", True),
        ("x_1", "x₂", False),
        ("$\\frac{\\pi}{4}$.", "π⁄4", True),  # a fraction slash
        ("\\frac{\\sqrt{2}\\pi}{4}", "π / (2 * sqrt(2))", True),  # the letter pi in calculator syntax
        ("\\pi r^2", "πr^2", True),
        ("\\frac{\\pi}{3}", "π/4", False),
    ],
)
def test_round25_verdicts(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
