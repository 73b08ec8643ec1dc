"""Linear inequalities are compared by the set of points they describe
(rewards.linear_inequalities): an interval in one variable, a half-space in two or three.
math-verify compares ``lhs - rhs`` of the two and then sympy's ``solve``; it refuses ``2x<4``
against ``x<2`` and credits ``2x<4`` against ``x \\le 2`` and ``2x+3y \\ge 7`` against ``\\le 7``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rewards.answer_text import normalize
from rewards.equivalence import decide_fast, is_equivalent
from rewards.linear_inequalities import EMPTY, interval_of, read_links


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("2x<4", "x<2"),
        ("2x≤4", "x≤2"),
        ("x > 2", "2 < x"),
        ("\\frac{x}{4}+1>\\frac{1}{2}", "x>-2"),
        ("\\frac{-3}{4}m-\\frac{1}{8} \\le -\\frac{1}{4}", "m \\ge \\frac{1}{6}"),  # dividing by a negative
        ("1<2x \\le 3", "3 \\ge 2x>1"),
        ("1<2x \\le 3", "1/2<x \\le 1.5"),  # an exact decimal end
        ("-5 < 3x + 7 \\le 22", "-10 < 6x + 14 \\le 44"),
        ("-99 \\le 9-12r \\le 45", "-3 \\le r \\le 9"),
        ("2x+y \\le 4+y", "4x \\le 8"),  # y cancels
        ("5.5x + 8y \\ge 100", "11x+16y \\ge 200"),  # a half-plane, scaled
        ("2x + 3y \\ge 7", "3x + 6y \\ge 14-x"),
        ("x > -2 \\wedge x < 1", "(-2, 1)"),
        ("(-2, 1)", "-2 < x \\land x < 1"),
        ("2x<4", "(-\\infty, 2)"),
        ("x \\geq 0", "x \\geqq 0"),  # the Japanese school spelling
        ("1 < x \\leqq 3", "(1, 3]"),
        ("x \\ge 1 \\wedge x \\ge 3", "x \\ge 3"),
        ("|x| < 1", "-1 < 2x+1 < 3"),  # a bar is no half-line; the interval reader reads |x| < 1
    ],
)
def test_the_same_set_is_credited(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is True
    assert is_equivalent(gold, pred)


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("2x<4", "x \\le 2"),  # the end point: math-verify credits it
        ("2x<4", "x>2"),
        ("2x<4", "(-\\infty, 2]"),
        ("2x + 3y \\ge 7", "2x + 3y \\le 7"),  # the other half-plane: math-verify credits it
        ("2x + 3y \\ge 7", "2x + 3y \\ge 8"),
        ("\\frac{-3}{4}m-\\frac{1}{8} \\le -\\frac{1}{4}", "m \\ge \\frac{1}{5}"),
        ("1<2x \\le 3", "1<x \\le 3"),
        ("-2 < x \\land x < 1", "(-2, 2)"),
    ],
)
def test_a_different_set_is_refused(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is False


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("x^2<4", "-2<x<2"),  # not linear: math-verify decides
        ("x < y", "x < y \\text{ or } x > 1"),  # words
        ("1 < x+y < 3", "2 < 2x+2y < 6"),  # a chain in two variables
        ("0 < 1", "1 > 0"),  # no variable
        ("1<2x \\le 3", "1<2y \\le 3"),  # two names: math-verify counts the name
        ("f(2) < f(1) < f(4)", "f(2) < f(1) \\le f(4)"),  # an ordering of values: no point satisfies it
        ("2a < a < 4a", "2a < a \\le 4a"),
    ],
)
def test_outside_the_rule_it_says_nothing(gold: str, pred: str) -> None:
    from rewards.linear_inequalities import inequalities_decide

    assert inequalities_decide(normalize(gold), normalize(pred)) is None


def test_a_decimal_that_differs_is_left_to_the_numeric_rule() -> None:
    from rewards.linear_inequalities import inequalities_decide

    assert inequalities_decide("x<\\frac{1}{3}", "3x<0.99") is None  # 0.33 against 1/3: not this rule's


def test_links_and_intervals() -> None:
    links = read_links(normalize("-4 < 2x - 8 \\le 10"))
    assert links == [("(-4)-(2x - 8)", True), ("(2x - 8)-(10)", False)]
    assert interval_of(links, "x") == (Fraction(2), False, Fraction(9), True)
    assert interval_of(read_links("x<1 \\wedge x>2") or [], "x") == EMPTY
    assert interval_of(read_links("x \\le 1 \\wedge x \\ge 1") or [], "x") == (1, True, 1, True)
    assert read_links("x<1, x>2") is None  # a list, not a conjunction
    assert read_links("x \\le 1 \\vee x \\ge 2") is None  # a union
