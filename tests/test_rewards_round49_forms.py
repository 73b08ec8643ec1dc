"""Answer forms found by held-out round 49 (science answers graded with units, answer checkers'
tables, multilingual judged responses): a number followed by a space and a unit of the unit table
is that number (``0.17 V``, ``-120 m/(min^2)``); a unit in braces after a number is the unit
(``6840{ft}^2``); ``\\nthroot[3]{8}`` is a cube root; ``Y`` and ``N`` as a whole answer are yes and
no; German and Polish yes/no words open an answer; a reference in scientific form whose mantissa
shows six places stands for the exact value it rounds. Round 50 (PutnamBench solutions judged by a model,
grader tables): a reference "Prove that $|AB| = 7$." states its one formula as the answer;
``n!!`` is the double factorial; a reference sentence that lists its numbers ("The values are
4, 9 and 16.", in several languages) against a response listing them; a number of things followed
by a clause with other numbers ("560 ways to seat 3 guests ..."). Round 51 (MathOdyssey's
references): paragraph layout that ends a reference (``16 \\\\ \\noindent``) is removed. Every
example here is written for this file, not taken from an evaluation set."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rewards.answer_text import layout_removed
from rewards.equivalence import compare
from rewards.exact_numbers import decimal_for_exact
from rewards.listed_numbers import numbers_listed
from rewards.physical_units import braced_units_unbraced, spaced_unit_value


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("0.25", "0.25 V", True),
        ("14", "14 N", True),
        ("14 N", "14", True),
        ("-35", "-35 m/(s^2)", True),
        ("2.5", "2.50 W", True),
        ("3", "3 kg", True),
        ("0.25", "0.26 V", False),
        ("14", "14N", False),  # no space: a product with a variable N
        ("14", "15 N", False),
        ("\\frac{1}{3}", "0.33 A", False),  # the numeric rule still decides the number
    ],
)
def test_a_number_against_it_with_a_spaced_unit(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("text", "value"),
    [("0.25 V", "0.25"), ("-35 m/(s^2)", "-35"), ("14N", None), ("14 apples", None), ("14", None)],
)
def test_spaced_unit_value(text: str, value: str | None) -> None:
    got = spaced_unit_value(text)
    assert (None if got is None else got.value) == (None if value is None else Fraction(value))


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("520{ft}^2", "520 ft^2"),
        ("520 {cm}^3", "520 cm^3"),
        ("520{km}", "520 km"),
        ("2{ab}^2", "2{ab}^2"),  # not a unit: the braces group a product
        ("{ft}^2", "{ft}^2"),  # no number before it
    ],
)
def test_braced_units_unbraced(text: str, out: str) -> None:
    assert braced_units_unbraced(text) == out


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("520", "520{ft}^2", True),
        ("520 ft^2", "520{ft}^2", True),
        ("521", "520{ft}^2", False),
        ("2{ab}^2", "2 ab^2", False),
        ("3", "\\nthroot[3]{27}", True),
        ("4", "\\nthroot[3]{27}", False),
        ("3\\sqrt[4]{2}", "\\nthroot[4]{162}", True),
    ],
)
def test_braced_units_and_nthroot(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("Y", "yes", True),
        ("Y", "True", True),
        ("N", "False", True),
        ("N", "no, it diverges", True),
        ("no", "N", True),
        ("Y", "False", False),
        ("N", "yes", False),
        ("Y", "perhaps", False),
        ("(Y, 2)", "(True, 2)", False),  # inside a list Y is not a boolean
        ("N", "17", False),
        ("Nein, eine solche Zahl gibt es nicht.", "The final answer is $\\boxed{\\text{No}}$", True),
        ("Ja, das geht.", "$\\boxed{\\text{Yes}}$", True),
        ("Nein, das geht nicht.", "$\\boxed{\\text{Yes}}$", False),
        ("Tak", "Yes", True),
    ],
)
def test_yes_no_letters_and_words(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("2.81474976711E+14", "2^{48}", True),  # 281474976710656 rounded at its mantissa's 11 places
        ("2.8E+14", "2^{48}", False),  # two places stand for no exact value
        ("2.718282 \\times 10^{3}", "e \\times 10^{3}", True),
        ("2.718281 \\times 10^{3}", "e \\times 10^{3}", True),  # a reference may be cut, not rounded
        ("2.718283 \\times 10^{3}", "e \\times 10^{3}", False),
        # a prediction's scientific form keeps the rule of its written places: an exact integer
        # answer is not credited for its rounded form
        ("2^{48}", "2.814750 \\times 10^{14}", False),
        ("2^{32}", "4.2949673E9", False),
        ("4294967296", "4294967295", False),  # integers stay exact
    ],
)
def test_a_reference_in_scientific_form_stands_for_the_exact_value_it_rounds(
    gold: str, pred: str, equal: bool
) -> None:
    assert compare(gold, pred).equal is equal


def test_decimal_for_exact_counts_a_mantissas_places() -> None:
    value = Fraction(281474976711000)
    assert not decimal_for_exact(-3, value)
    assert decimal_for_exact(-3, value, 11)
    assert not decimal_for_exact(-13, value, 1)


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("Prove that $|PQ| = \\frac{2}{3}\\sqrt{15}$.", "\\boxed{\\dfrac{2\\sqrt{15}}{3}}", True),
        ("Show that $a_n = 3^n - 1$.", "$a_n = 3^n - 1$", True),
        ("Show that \\(k = 4\\).", "The answer is $\\boxed{4}$.", True),
        ("Prove that $k = 4$.", "\\boxed{5}", False),
        ("Prove that $k = 4$ and $m = 2$.", "\\boxed{4}", False),  # two formulas: not one answer
    ],
)
def test_a_statement_to_prove_about_one_formula(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [("15", "5!!", True), ("105", "7!!", True), ("48", "6!!", True), ("720", "3!!", False)],
)
def test_double_factorial(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("sentence", "numbers"),
    [
        ("Die gesuchten Zahlen sind 312, 321 oder 330 und keine anderen.", [312, 321, 330]),
        ("The possible values are 4, 9 and 16.", [4, 9, 16]),
        ("Les solutions sont 2, 5 et 7.", [2, 5, 7]),
        ("All n except 4, 9 and 16.", None),  # an exception before the list
        ("Every value between 3 and 7.", None),  # a range
        ("The values are 4 and 9; there are 2 of them.", None),  # another number
        ("The values are 2.5 and 3.", None),  # decimals: the numeric rules decide
        ("The value is $4$ or $9$.", None),  # LaTeX: the other readers decide
        ("Only 7.", None),  # one number is no list
    ],
)
def test_numbers_listed_in_a_reference_sentence(sentence: str, numbers: list[int] | None) -> None:
    got = numbers_listed(sentence)
    assert got == (None if numbers is None else [Fraction(n) for n in numbers])


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("Die gesuchten Zahlen sind 312, 321 oder 330 und keine anderen.", "$\\boxed{330, 312, 321}$", True),
        ("The possible values are 4, 9 and 16.", "\\boxed{\\{16, 4, 9\\}}", True),
        ("The possible values are 4, 9 and 16.", "\\boxed{4, 9}", False),
        ("The possible values are 4, 9 and 16.", "\\boxed{4, 9, 16, 25}", False),
        ("All n except 4, 9 and 16.", "\\boxed{4, 9, 16}", False),
    ],
)
def test_a_reference_sentence_that_lists_numbers(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("560", "560 ways to seat 3 guests at a table of 16", True),
        ("90", "90 distinct necklaces you can make with 4 red and 2 blue beads", True),
        ("561", "560 ways to seat 3 guests at a table of 16", False),
        ("560", "560 ways to seat them, but only 280 are distinct", False),  # the clause takes it back
        ("1120", "2 times 560 ways to seat them", False),
    ],
)
def test_a_number_of_things_then_a_clause_with_other_numbers(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("16 \\\\\n\\noindent", "16"),
        ("No.\\\\\n\t\\noindent", "No."),
        ("[1, 0; 0, 1] \n\n\\\\\n\\noindent", "[1, 0; 0, 1]"),
        ("5\\vspace{2mm}", "5"),
        ("\\begin{pmatrix}1\\\\2\\end{pmatrix}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}"),  # rows stay
        ("\\partial f", "\\partial f"),
    ],
)
def test_layout_removed(text: str, out: str) -> None:
    assert layout_removed(text).strip() == out


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("16 \\\\\n\\noindent", "\\boxed{16}", True),
        ("No.\\\\\n\\noindent", "No, the series diverges.", True),
        ("$\\frac{4}{3}$\\\\\n\\noindent", "4/3", True),
        ("16 \\\\\n\\noindent", "\\boxed{17}", False),
        ("\\begin{pmatrix}1\\\\2\\end{pmatrix}", "\\begin{pmatrix}2\\\\1\\end{pmatrix}", False),
    ],
)
def test_a_reference_that_ends_with_page_layout(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
