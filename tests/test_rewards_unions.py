"""Unions of intervals on the certain path (rewards/answer_values.py): merged where they overlap or
touch and sorted, so two unions are equal exactly when they are the same set; ``a <= |x| <= b``
and ``|x| > c`` read as the unions they mean, and so do inequalities in one variable joined by
"or". Examples invented."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare, decide_fast


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("(-\\infty, -1) \\cup (1, \\infty)", "(1,\\infty)\\cup(-\\infty,-1)", True),  # any order
        ("(-\\infty, -1) \\cup (1, \\infty)", "x \\in (-\\infty,-1) \\cup (1, +\\infty)", True),
        ("(-\\infty, -1] \\cup (1, \\infty)", "(-\\infty, -1) \\cup (1, \\infty)", False),
        ("[1,2] \\cup [2,3]", "[1,3]", True),  # touching closed ends merge
        ("[1,2) \\cup (2,3]", "[1,3]", False),  # 2 is left out
        ("(0,1) \\cup (1,2)", "(0,2)", False),
        ("[0,\\frac{1}{2}] \\cup [1, 2]", "[1,2] \\cup [0, 0.5]", True),
        ("(-2,-1) \\cup (1,2)", "(-2,-1) \\cup (1,3)", False),
        ("[1,2] \\cup \\{5\\}", "[1,2]", None),  # a point in the union: math-verify decides
        ("(1, \\sqrt{5}) \\cup (3, 4)", "(3, 4) \\cup (1, \\sqrt{5})", None),  # ends the reader cannot order
    ],
)
def test_unions_of_intervals(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("1\\leq|z|\\leq \\frac{3}{2}", "z \\in [-\\frac{3}{2}, -1] \\cup [1, \\frac{3}{2}]", True),
        ("|x| > 1", "(-\\infty, -1) \\cup (1, \\infty)", True),
        ("|x| \\ge 1", "(-\\infty, -1) \\cup (1, \\infty)", False),  # the ends are in
        ("|x| < 1", "(-1, 1)", True),
        ("|x| \\le 1", "[-1, 1]", True),
        ("1 < |x| < 2", "(-2,-1) \\cup (1,2)", True),
        ("0 \\le |x| \\le 1", "[-1, 1]", True),  # [-1,0] and [0,1] merge
        ("|x| < -1", "(-1, 1)", None),  # a negative bound: math-verify decides
    ],
)
def test_absolute_value_inequalities(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


def test_a_list_of_pairs_is_not_a_union() -> None:
    assert decide_fast("(1,2) \\cup (3,4)", "(1,2), (3,4)") is None  # points or intervals?


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("(-\\infty,-1)\\cup(1,\\infty)", "x < -1 \\text{ or } x > 1", True),
        ("x < -1 \\text{ or } x > 1", "(-\\infty,-1)\\cup(1,\\infty)", True),
        ("(-\\infty,-2]\\cup[3,\\infty)", "x \\le -2 \\text{ or } x \\ge 3", True),
        ("(-\\infty,-2]\\cup[3,\\infty)", "x \\le -2 \\text{ or } x > 3", False),  # 3 left out
        ("(-\\infty,-1)\\cup(1,\\infty)", "x<-1 \\text{ or } x>2", False),
        ("(-\\infty,-1)\\cup(1,3)", "x<-1 \\text{ or } 1<x<3", True),
        ("(-\\infty,-1)\\cup(1,\\infty)", "x<-1 \\lor x>1", True),
        ("(-\\infty, -2) \\cup (-1, \\infty)", "x < -2 \\vee -1 < x", True),  # \\vee is \\lor
        ("x < -1 \\text{ or } x > 1", "|x|>1", True),
        ("(-\\infty,\\infty)", "x<2 \\text{ or } x \\ge 2", True),  # the halves merge
        ("3", "x<-1 \\text{ or } x>1", False),
        ("(-\\infty,-1)\\cup(1,\\infty)", "x<-1 \\text{ or } y>1", None),  # two variables
        ("(1,2)", "1<x \\text{ and } x<2", True),  # "and": the intersection, not a union
        ("x=1 \\text{ or } x=2", "1, 2", True),  # equations joined by "or" stay a list
    ],
)
def test_inequalities_joined_by_or(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        # "and" (in words, \\land, \\wedge, かつ): the intersection
        ("(-1, 2)", "$x > -1$ and $x < 2$", True),
        ("(-1, 2)", "x > -1 \\text{ and } x \\le 2", False),  # 2 is in
        ("(-1, 2]", "x > -1 \\land x \\le 2", True),
        ("[0, 5)", "0 \\le x かつ x < 5", True),
        ("(1, \\infty)", "x > 0 \\text{ and } x > 1", True),  # nested: the smaller one
        ("(-1, 2)", "x > -1 \\text{ and } y < 2", None),  # two variables
        # no common point: "and" lists the pieces (as a comma does, below)
        ("(-\\infty, -1) \\cup (2, \\infty)", "x < -1 \\text{ and } x > 2", True),
        ("(-1, 2)", "x < -1 \\text{ and } x > 2", False),
        # a comma between conditions on one variable: "and" when they share points ...
        ("[1, 3]", "x \\ge 1, x \\le 3", True),
        ("[1, 3]", "x \\ge 1, x < 3", False),
        ("[1, 3]", "\\{x \\mid 1 \\le x \\le 3\\}", True),
        # ... and "or" when no two of them do (solution sets as Japanese textbooks write them)
        ("(-\\infty, -2) \\cup (-1, \\infty)", "x < -2, -1 < x", True),
        ("x < -2, -1 < x", "(-\\infty, -2) \\cup (-1, \\infty)", True),
        ("x < -2, -1 < x", "x < -2 \\vee -1 < x", True),
        ("(1, 3] \\cup [5, \\infty)", "1 < x \\le 3, 5 \\le x", True),
        ("(1, 3] \\cup [5, \\infty)", "1 < x \\le 3, 5 < x", False),  # 5 left out
        ("(-\\infty, -2) \\cup (-1, \\infty)", "x < -2, -1 < x, x > 3", None),  # some overlap
        ("(-\\infty, \\infty)", "x \\le -2, x \\ge -2", None),  # one common point: neither reading
        ("(-\\infty, -2) \\cup (-1, \\infty)", "x < -2, -1 < y", None),  # two variables
        ("(-\\infty, -2) \\cup (1, \\infty)", "$x < -2$ または $1 < x$", True),
        # math segments, each an inequality, with only a space, "." or ";" between: a comma list
        ("(-\\infty, -2) \\cup (1, \\infty)", "$x < -2$. $1 < x$", True),
        ("(-\\infty, -2) \\cup (1, \\infty)", "$x < -2$ $1 < x$", True),
        ("(-\\infty, -2] \\cup [1, \\infty)", "$x <= -2$; $x >= 1$.", True),
        ("(-\\infty, -2) \\cup (1, \\infty)", "$x < -2$ $2 < x$", False),
        ("(1, \\infty)", "$x = 2$. $1 < x$", None),  # an equation among them: not a list of inequalities
        ("(-\\infty, -2) \\cup (1, \\infty)", "$x < -2$ もしくは $x > 2$", False),
    ],
)
def test_inequalities_joined_by_and_or_commas(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("x > 5", "y > 5", False),  # the same set under another name: math-verify counts the name
        ("x > 5", "X > 5", False),  # x and X are different variables (math-verify reads both as x)
        ("t \\ge 2", "$x \\geq 2$", False),
        ("|x| > 2", "|y| > 2", False),
        ("x < 1 \\text{ or } x > 2", "y < 1 \\text{ or } y > 2", False),
        ("x \\in (5, \\infty)", "y > 5", False),
        ("\\{x \\mid x > 1\\}", "\\{y \\mid y > 1\\}", True),  # a bound variable: one set
        ("x > 5", "5 < x", True),
        ("(5, \\infty)", "y > 5", True),  # an interval names no variable
        ("\\{x \\mid x > 1\\}", "x > 1", True),
    ],
)
def test_inequalities_count_the_variable_name(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is (True if want else None)
    assert compare(gold, pred).equal is want
