"""Certain-path rules for lists of tuples, ``x \\in`` intervals, named ratios and bracketed matrices
(rewards/certain_path.py), with the cases where a cheap verdict would be wrong: those must be left
to math-verify (``None`` from ``decide_fast``) and then get math-verify's verdict."""

from __future__ import annotations

import pytest

from rewards.equivalence import decide_fast, is_equivalent

CERTAIN = [
    # a bare list of tuples: each tuple in order, the list in any order
    ("(2,1),(1,2),(-1,-20),(-20,-1)", "(1, 2), (2, 1), (-1, -20), (-20, -1)", True),
    ("(1,2),(3,4)", "(3,4),(1,2)", True),
    ("(1,2),(3,4)", "(2,1),(3,4)", False),
    ("(1,2),(3,4)", "(1,2),(3,5)", False),
    # "x \in <interval>" is the interval
    ("x \\in [-2,7]", "-2 \\le x \\le 7", True),
    ("x \\in (1,2]", "(1,2]", True),
    ("x \\in (1,2]", "(1,2)", False),
    ("[-2,7]", "x \\in [-2,7)", False),
    # a function value between two bounds
    ("0<f(x)<1", "(0,1)", True),
    ("0<f(x)<1", "[0,1)", False),
    # a reference that names a ratio
    ("V_{1}:V_{2}=11:21", "11:21", True),
    ("$S_{MBCN}:S=7:32$", "$\\boxed{7:32}$", True),
    # a matrix inside parentheses is the matrix
    ("(\\begin{pmatrix}1\\\\2\\end{pmatrix})", "\\begin{pmatrix}1\\\\2\\end{pmatrix}", True),
    ("(\\begin{pmatrix}1\\\\2\\end{pmatrix})", "\\begin{pmatrix}2\\\\1\\end{pmatrix}", False),
    # 0.33 for an exact 1/3 is refused, as math-verify refuses it
    (
        "(\\begin{pmatrix}\\frac{1}{3}\\\\ \\frac{1}{5} \\end{pmatrix})",
        "\\begin{pmatrix}0.33\\\\0.2\\end{pmatrix}",
        False,
    ),
    ("6", "first \\boxed{4} then \\boxed{6}", True),
    # one value in parentheses is the value, an infinity too (math-verify reads it so)
    ("-\\infty", "(-\\infty)", True),
    ("-inf", "(-inf)", True),
    ("\\infty", "(-\\infty)", False),
    # a column vector against the same entries as a list (MARIO's and verl's grader tests)
    ("\\begin{matrix} \\frac12 \\\\ 1 \\end{matrix}", "[0.5, 1]", True),
    ("\\begin{pmatrix}-1\\\\ \\frac13 \\\\ 3\\end{pmatrix}", "(-1, 0.33, 3)", False),  # 0.33 is not 1/3
]


@pytest.mark.parametrize(("gold", "pred", "want"), CERTAIN)
def test_certain_list_interval_ratio_matrix_rules(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


LEFT_TO_MATH_VERIFY = [
    # a repeated tuple: math-verify reads both sides as sets, so 5 tuples equal 6 with a repeat
    (
        "(37,3,3,13),(17,3,3,7),(3,37,3,13)",
        "\\boxed{(3, 37, 3, 13), (17,3,3,7), (37,3,3,13), (17,3,3,7)}",
        True,
    ),
    # labelled values against tuples: not the same shape, not a proof of difference
    ("$p=5,q=2;p=7,q=2$", "$(5,2),(7,2)$", True),
    # several boxes with prose between them: the extraction may keep only the last one
    ("$$(3, 3), (1, 1)$$", "$$\\boxed{(3, 3)} \\text{ for part (a) and } \\boxed{(1, 1)}$$", True),
    # a ratio that is equal but written differently is not decided by the text rule
    ("V_{1}:V_{2}=11:21", "22:42", None),
    ("(1,2),(3,4)", "(1,2)", False),
]


@pytest.mark.parametrize(("gold", "pred", "want"), LEFT_TO_MATH_VERIFY)
def test_lists_the_certain_path_must_not_judge(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is None
    if want is not None:
        assert is_equivalent(gold, pred, timeout_s=30.0) is want


EXPRESSION_ITEMS = [
    # tuples, intervals and sets whose items are expressions: item by item (rewards/expression_lists.py)
    ("(3,\\pi/2)", "(3,\\frac{\\pi}{2})", True),  # math-verify: parses nothing from the bare text
    ("[x, x + 1]", "[x, 1 + x]", True),
    ("[x, x + 1]", "[x + 1, x]", False),  # an interval's ends are ordered (math-verify credits it)
    ("(\\sqrt{2}, \\pi)", "(\\pi, \\sqrt{2})", False),
    ("\\{x, x - 1\\}", "\\{x - 1, x\\}", True),
    ("\\sqrt{2}, \\pi", "\\pi, \\sqrt{2}", True),  # a bare list in any order
    ("\\{x, x - 1\\}", "\\{x - 1\\}", False),  # x is missing
    ("\\{x - 1\\}", "\\{x, x - 1\\}", False),  # x is extra
    ("(x, \\infty)", "(x, \\infty]", True),  # an infinite end is open
    ("(x, y)", "[x, y]", False),
    ("(x, 2x)", "x, 2x", True),  # a bare list matches a tuple in order
    ("[x, 2x]", "x, 2x", False),  # never a closed interval
    ("\\{\\sqrt2, \\pi\\}", "(\\sqrt2, \\pi)", False),  # a set is not a tuple
    ("1+2,2+1", "2+1,1+2", True),
]


@pytest.mark.parametrize(("gold", "pred", "want"), EXPRESSION_ITEMS)
def test_lists_of_expressions_are_decided_item_by_item(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


EXPRESSION_ITEMS_UNDECIDED = [
    # a repeated item may make sets of different sizes equal: math-verify reads both as sets
    ("\\{x, \\frac{2x}{2}\\}", "\\{x\\}"),
    # an item that is two values, or an equation, is not one item
    ("(x, \\pm 1)", "(x, 1)"),
    ("(x, y = 1)", "(x, 1)"),
    # numbers against tuples: not the same shape
    ("(x, 1), (y, 2)", "x, 1, y, 2"),
]


@pytest.mark.parametrize(("gold", "pred"), EXPRESSION_ITEMS_UNDECIDED)
def test_lists_of_expressions_left_to_math_verify(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is None


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("0,111", "-0,111", None),  # the same list (-0 is 0), or 0.111 and -0.111: not certain
        ("1,5", "1,50", None),  # two different lists, or 1.5 twice
        ("1,5", "5,1", None),
        ("3,14", "3,140", False),  # different either way
        ("1,2", "1,2", True),
        ("1,3", "Minimum: 1, Maximum: 3", True),  # against a list written as one: a list
        ("1,5", "1.5", True),  # against one number: a decimal comma
    ],
)
def test_two_answers_that_may_each_have_a_decimal_comma(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want
