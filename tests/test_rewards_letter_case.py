"""Case counts in math and not in words: the certain path's first check (the same text, spaces
aside) ignores case only for plain words ("Yes", "blue"); ``x`` is not ``X`` and ``\\Delta`` is not
``\\delta``. math-verify reads every letter in lowercase and credits such pairs; the comparison
overrules it (rewards.letter_case)."""

from __future__ import annotations

import pytest

from rewards.certain_path import compare_answers, decide_fast
from rewards.equivalence import compare
from rewards.letter_case import differ_only_in_case, math_letters


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("Yes", "yes"),
        ("\\text{Blue}", "blue"),
        ("NaCl", "nacl"),
        ("B", "b"),  # a choice letter
        ("(C)", "c"),
        ("1E5", "1e5"),  # the same number
        ("2x + 1", "2x+1"),
    ],
)
def test_same_answer_whatever_the_case(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is True


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("x", "X"),
        ("\\Delta", "\\delta"),
        ("2X+1", "2x+1"),
        ("\\Gamma(n)", "\\gamma(n)"),
    ],
)
def test_case_counts_in_math(gold: str, pred: str) -> None:
    assert compare_answers(gold, pred) is not True
    assert decide_fast(gold, pred) is not True


def _math_verify_equal(gold: str, pred: str) -> bool:
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    config = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]
    return bool(verify(parse(f"${gold}$", config), parse(f"${pred}$", config)))


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("2x", "2X"),
        ("y=1+x", "Y=1+X"),  # STACK's AlgEquiv tests label it wrong
        ("x^2+1", "X^2+1"),  # so does Doenet's equality corpus
        ("\\angle ABC", "\\angle abc"),
        ("2\\Delta", "2\\delta"),
        ("\\frac{V}{c}", "\\frac{v}{c}"),
        ("\\boxed{2X}", "2x"),
    ],
)
def test_math_verify_credits_a_change_of_case_and_the_comparison_does_not(gold: str, pred: str) -> None:
    pytest.importorskip("math_verify")
    assert _math_verify_equal(gold, pred)  # it reads every symbol in lowercase
    verdict = compare(gold, pred, 30.0)
    assert (verdict.path, verdict.equal) == ("symbolic", False)


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("e^{x}+1", "E^{x}+1"),  # calculator syntax's E and I: Euler's number, the imaginary unit
        ("1+i", "1+I"),
        ("5\\text{ km}", "5\\text{ Km}"),  # words and units
        ("\\mathrm{E}", "e"),
        ("\\sin x", "Sin x"),  # a function's name written out
        ("\\arcsin(x)+1", "ArcSin(x)+1"),
        ("V = 10", "v = 10"),  # names that label a value
        ("a=2, b=3", "A=2, B=3"),
        ("x+1", "y+1"),  # other letters, not only another case
        ("xy", "yx"),
    ],
)
def test_letters_that_are_not_variables_or_differ_otherwise_are_not_a_change_of_case(
    gold: str, pred: str
) -> None:
    assert not differ_only_in_case(gold, pred)


def test_the_letters_of_an_answer() -> None:
    assert math_letters("2\\pi R + \\Delta x") == ["Delta", "R", "pi", "x"]
    assert math_letters("\\angle ABC = 30^\\circ") == ["A", "B", "C"]
    assert math_letters("\\sin x + \\text{ m} + ArcSin(y) + e^{i}") == ["x", "y"]
    assert math_letters("y = 1 + x") == ["x"]  # the label y is not counted
    assert math_letters("p = 5, \\theta_{0} = q") == ["q"]


@pytest.mark.parametrize(
    ("gold", "pred"), [("1+i", "1+I"), ("V = 10", "v = 10"), ("a=2, b=3", "A=2, B=3"), ("x=3", "X=3")]
)
def test_imaginary_units_and_labels_in_either_case_stay_equal(gold: str, pred: str) -> None:
    pytest.importorskip("math_verify")
    assert compare(gold, pred, 30.0).equal


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("AF", "af", False),  # two capitals: a segment or two points, not a word
        ("af", "AF", False),
        ("AB", "BA", True),  # the same segment
        ("DNE", "dne", True),  # a word ("does not exist")
        ("Blue", "blue", True),
    ],
)
def test_two_capitals_are_names_not_words(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)
