"""Answer forms around a value: a value written before its name, unicode superscripts, pi, roots,
symbols (∈, ≠, ±, ∪, ÷) and the approximation sign, a short text that opens with an answer phrase or a word of
approximation, a percent word after a fraction, a trailing backslash."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare, decide_fast


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("2=x", "2"),  # the value written first
        ("2 = y", "2"),
        ("162x^4", "Answer: 162x⁴"),  # unicode superscripts, an answer phrase
        ("x^2", "x²"),
        ("10^{-3}", "10⁻³"),
        ("\\frac{\\pi}{2}", "π/2"),  # unicode pi and infinity (OlympiadBench, xVerify)
        ("(-\\infty, 2)", "(-∞, 2)"),
        ("2\\sqrt{3}", "2√3"),  # a unicode root sign (math-verify reads it)
        ("\\sqrt{x+1}", "√(x+1)"),
        ("\\frac{\\sqrt{3}}{2}", "√3/2"),
        ("5", "≈5"),  # a unicode approximation sign
        ("x \\in [-2,5]", "x ∈ [-2,5]"),  # unicode set and relation signs
        ("(-\\infty,2)\\cup(3,\\infty)", "(-∞, 2) ∪ (3, ∞)"),
        ("x \\ne 2", "x ≠ 2"),
        ("3\\pm 2", "3 ± 2"),
        ("3", "6 ÷ 2"),
        ("\\emptyset", "∅"),
        ("1, [-1,1]", "$1 、[-1,1]$."),  # Chinese punctuation
        ("x=3, x=2", "x=2 或 x=3"),
        ("x=2 ou x=-2", "x=-2 ou x=2"),  # French "or"
        ("[3, +\\infty)", "x大于等于3"),  # Chinese words of relations and sets
        ("(-\\infty, 5)", "x小于5"),
        ("\\emptyset", "空集"),
        ("\\emptyset", "无解"),
        ("(1,2)", "(1，2)"),
        ("\\{3\\}", "{3}"),  # a set written in plain text against the same set in LaTeX
        ("\\{3, 4\\}", "{3, 4}"),
        ("2/3 or 0.67", "0.67"),  # a reference that gives one value two ways: either form
        ("2/3 或 0.67", "2/3"),
        ("2 mol", "\\boxed{2}"),  # a chemistry unit after the value
        ("5 kJ", "5"),
        ("1.5", "１．５"),  # fullwidth digits (an input method left on)
        ("cell wall", "Cell Wall!"),  # an exclamation after a word
        ("12:15", "9:30 + 2:45 = 12:15. Answer: 12:15"),  # an answer phrase after a sentence
        ("120", "5!"),  # a factorial stays one
        ("0.005", "\\frac{1}{2}\\text{ percent}"),  # a percent word after a fraction
        ("7.55N", "roughly 7.55N"),  # a word of approximation (evalscope's PhyX test)
        ("5", "approximately 5"),
        ("12", "around 12 cm"),
        ("3", "approx. 3"),
        ("approximately 5", "5"),
    ],
)
def test_other_answer_forms_are_credited_for_certain(gold: str, pred: str) -> None:
    got = compare(gold, pred)
    assert got.equal and got.path == "certain"


def test_a_reversed_assignment_still_compares_its_value() -> None:
    assert decide_fast("2=x", "3") is False


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("6", "approximately 5"),  # another number: math-verify refuses it
        ("\\pi", "approximately 3.14"),  # the numeric rule still holds: 3.14 is not pi
        ("3", "not 3"),  # only words of approximation are read past
    ],
)
def test_a_word_of_approximation_never_credits_another_value(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is None  # credit only: math-verify decides a refusal
    assert compare(gold, pred).equal is False


def test_a_unicode_root_of_another_number_is_refused() -> None:
    got = compare("2\\sqrt{3}", "2√2")  # math-verify credits it by reading the leading 2
    assert got.equal is False and got.path == "certain"


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("185", "185\\", True),  # a lone backslash at the end means nothing
        ("186", "185\\", False),
        ("\\begin{pmatrix}1\\\\2\\end{pmatrix}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}", True),
    ],
)
def test_a_trailing_backslash(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("x=2 or x=3", "2"),  # two values: both are the answer
        ("2/3 or 0.67", "0.5"),
        ("0.67", "2/3 or 0.67"),  # a prediction that hedges is not one answer
        ("5", "5n"),  # a letter glued to a number is a factor, not a unit
        ("y = 5 , y = 6", "x=5, x=6"),  # solutions named by another variable: math-verify
    ],
)
def test_alternatives_only_in_the_reference_and_only_for_one_value(gold: str, pred: str) -> None:
    assert not compare(gold, pred).equal


def test_a_chinese_relation_word_keeps_its_meaning() -> None:
    assert not compare("[3, +\\infty)", "x大于3").equal  # 大于 is >, not >=
