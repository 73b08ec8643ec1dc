"""Answer forms found by held-out round 52 (answer checkers' tests in TypeScript, Go, Rust and C#;
multilingual judged responses): numbered parts, a named point, a map written with its arrow and a
sign in words are their values, and labelled values on lines of their own are one line of named
values (:mod:`rewards.labelled_forms`); ``∛`` and ``∜`` are roots;
Chinese units of physics (``50焦``, ``10米/秒``) and fractions said denominator first (``3分之1``,
``百分之五``); a set over the reals written ``\\{x \\in \\mathbb{R} : ...\\}``; sets as sympy prints
them (``Union(Interval(-oo, 2), Interval.open(3, oo))``). Round 53 (Russian references judged by a
model): a short reference that opens with a yes/no word and a comma (``да, можно.``) is that
answer. Every example here is written for this file, not taken from an evaluation set."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.labelled_forms import labelled_forms_written_out
from rewards.sympy_sets import sympy_sets_written_out


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("(1) 36; (2) 4200", "(36, 4200)"),
        ("(a) 5 (b) 7 (c) 9", "(5, 7, 9)"),
        ("(1) x = 2 (2) y = 3", "x = 2, y = 3"),
        ("(2) 36; (3) 4200", "(2) 36; (3) 4200"),  # not counted from the first label
        ("(a)", "(a)"),  # one label: a choice
        ("(a) is wrong, (b) is right", "(a) is wrong, (b) is right"),  # options discussed
        ("(1) We find x = 2. (2) So the answer is 5.", "(1) We find x = 2. (2) So the answer is 5."),  # steps
        ("(a) and (b)", "(a) and (b)"),  # an empty part
        ("Q(4, -1)", "(4, -1)"),
        ("F(x, y)", "F(x, y)"),  # a function of x and y
        ("g: x \\mapsto 3x - 2", "3x - 2"),
        ("x \u21a6 x^2", "x^2"),
        ("x \\to 0", "x \\to 0"),  # a limit, not a map
        ("negative 12", "-12"),
        ("minus 4.5", "-4.5"),
        ("negative x", "negative x"),
        ("Mean: 4.5\nStandard deviation: 1.2", "Mean: 4.5, Standard deviation: 1.2"),
        ("- Minimum: 3\n- Maximum: 8", "Minimum: 3, Maximum: 8"),
        ("Step 1: add\nStep 2: 8", "Step 1: add\nStep 2: 8"),  # working, not labelled values
        ("Mean: 4.5", "Mean: 4.5"),  # one line: the named-value readers take it as it is
    ],
)
def test_labelled_forms_written_out(text: str, out: str) -> None:
    assert labelled_forms_written_out(text) == out


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("\uff081\uff0936\uff1b\uff082\uff094200", "36, 4200", True),  # fullwidth brackets and semicolon
        ("(1) 36; (2) 4200", "4200, 36", False),  # the parts are in order
        ("(a) 5 (b) 7", "5, 8", False),
        ("(4, -1)", "Q(4,-1)", True),
        ("(4, 1)", "Q(4,-1)", False),
        ("3x - 2", "g: x \\rightarrow 3x-2", True),
        ("g^{-1}: x \\to \\frac{x+2}{3}", "x \u21a6 (x + 2)/3", True),
        ("-12", "negative 12", True),
        ("12", "negative 12", False),
        ("-12", "minus twelve", False),  # a number word in a prediction is not read
        ("mean: 4.5, sd: 1.2", "Mean: 4.5\nSD: 1.2", True),
        ("3, 8", "Minimum: 3\nMaximum: 8", True),
        ("3, 8", "Minimum: 3\nMaximum: 9", False),
    ],
)
def test_labelled_answers(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("3", "\u221b27", True),
        ("3", "\u221b(27)", True),
        ("2", "\u221c16", True),
        ("2", "\u221b9", False),
        ("\\sqrt[3]{\\frac{V}{2\\pi}}", "\u221b(V/(2\u03c0))", True),
        ("20焦", "20 J", True),
        ("40瓦", "40 W", True),
        ("5米/秒", "5 m/s", True),
        ("5米/秒", "5 km/h", False),
        ("4分之1", "0.25", True),
        ("四分之三", "\\frac{3}{4}", True),
        ("百分之二十", "0.2", True),
        ("百分之二十", "0.02", False),
        (
            "\\{x \\in \\mathbb{R} : 8 \\ge x \\ge 3\\}",
            "\\{x \\in \\mathbb{R} \\mid 3 \\le x \\le 8\\}",
            True,
        ),
        ("\\{x \\in \\mathbb{R} \\mid x > 1\\}", "(1, \\infty)", True),
        ("\\{x \\in \\mathbb{R} \\mid x > 1\\}", "(2, \\infty)", False),
    ],
)
def test_root_signs_chinese_units_and_fractions_sets_over_the_reals(
    gold: str, pred: str, equal: bool
) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("39", "C(39,1)", True),  # a combination, not a point
        ("(5, 2)", "P(5,2)", False),  # P(5, 2) = 20 arrangements, left to the other readers
        ("(5, -2)", "P(5,-2)", True),  # a negative coordinate: a point
    ],
)
def test_counting_notation_is_not_a_point(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("Union(Interval(-oo, 1), Interval.open(4, oo))", "(-\\infty, 1] \\cup (4, \\infty)"),
        ("Interval(0, 3, True, False)", "(0, 3]"),
        ("Interval.Ropen(0, 3)", "[0, 3)"),
        ("Intersection(Interval(0, 6), Interval.Lopen(2, 9))", "[0, 6] \\cap (2, 9]"),
        ("FiniteSet(-1, 5)", "\\{-1, 5\\}"),
        ("EmptySet", "\\emptyset"),
        ("Interval(2)", "Interval(2)"),  # not sympy's form: as it is
        ("Union(Interval(0, 1)", "Union(Interval(0, 1)"),  # unclosed
    ],
)
def test_sympy_sets_written_out(text: str, out: str) -> None:
    assert sympy_sets_written_out(text) == out


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("Union(Interval(-oo, 1), Interval.open(4, oo))", "(-oo, 1] U (4, oo)", True),
        ("(-\\infty, 1] \\cup (4, \\infty)", "Union(Interval(-oo, 1), Interval(4, oo))", False),
        ("[0, \\infty)", "Interval(0, oo)", True),
        ("\\{-1, 5\\}", "FiniteSet(5, -1)", True),
        ("\\{-1, 5\\}", "FiniteSet(5, 1)", False),
    ],
)
def test_sets_as_sympy_prints_them(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("да, можно.", "The final answer is: \\boxed{Yes}", True),  # round 53: Russian references
        ("Да, могло.", "$\\boxed{No}$", False),
        ("Нет, нельзя", "\\boxed{\\text{No}}", True),
        ("Oui, c'est possible.", "\\boxed{Yes}", True),
        ("Non-negative integers", "\\boxed{No}", False),  # not the French "non"
        ("Yes, 5", "\\boxed{Yes}", False),  # a value after the word: not a yes/no answer alone
    ],
)
def test_yes_no_opening_a_short_reference(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    "text",
    [
        "Reasoning: we add them\nAnswer: 12",
        "Answer: 12\nExplanation: 5 + 7",
        "Final answer: 12\nConfidence: high",
    ],
)
def test_answer_and_working_lines_are_not_labelled_values(text: str) -> None:
    assert labelled_forms_written_out(text) == text
