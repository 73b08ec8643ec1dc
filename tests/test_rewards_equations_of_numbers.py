"""Equations between numbers (``2+2=4``, ``4=4``) are compared by the value each states
(rewards.equations.stated_value / equations_of_numbers), not as sympy's ``True``: math-verify in
math mode calls any two true ones equal, and any two false ones (it solves them for no variable)."""

from __future__ import annotations

import pytest

from rewards.equations import equations_of_numbers, false_step, stated_value
from rewards.equivalence import compare, decide_fast


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("2+2=4", "4"),
        ("\\log_2 8 = 3", "3"),
        ("e^{i\\pi}=-1", "-1"),  # e and i are constants
        ("x=4", None),
        ("AB=5", None),  # a segment's length: letters, even without a single free one
        ("2x=4", None),
        ("4=x", None),
        ("1=2=3", None),  # a chain
        ("2+2", None),
        ("x \\le 4=4", None),
    ],
)
def test_stated_value(text: str, want: str | None) -> None:
    assert stated_value(text) == want


def test_equations_of_numbers_needs_two() -> None:
    assert equations_of_numbers("2+2=4", "4=4") == ("4", "4")
    assert equations_of_numbers("2+2=4", "x=4") is None


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("4=4", "1=1", False),  # two true statements of different values
        ("4=4", "9=8", False),  # two false ones
        ("2+2=4", "2=2", False),
        ("2+2=4", "0.5=1/2", False),
        ("2+2=4", "1+3=4", True),
        ("2+2=4", "4=4", True),
        ("0.5=1/2", "\\frac12=\\frac{1}{2}", True),
        ("4", "2+2=4", True),  # a prediction that shows its computation
    ],
)
def test_equations_of_numbers_compare_by_value(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("2=3", "3=2", True),  # one false statement, its sides written the other way round
        ("2=1", "1 = 2", True),
        ("2+2=4", "4=2+2", True),
        ("2=3", "5=6", False),  # two different false statements: the values they state
        ("2=3", "3=4", False),
    ],
)
def test_an_equation_of_numbers_with_its_sides_swapped_is_the_same(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("7=42", True),
        ("7+1=42", True),
        ("x=0=42", True),
        ("x = 5+5+1 = 42", True),
        ("0.5=42", True),
        ("6\\times 7=42", False),
        ("x = 84/2 = 42", False),
        ("x = 5+5+1 = 11", False),
        ("x = \\frac{1}{3} = 0.33", False),  # a decimal that rounds the value before it
        ("x = 1/3 \\approx 1.3", False),  # only the exact part is judged
        ("\\pi = 3.14", False),  # no exact value here: not judged
        ("f(1) = 3 = f(2)", False),  # the last side is not a number
        ("x = 42", False),
    ],
)
def test_false_step(text: str, want: bool) -> None:
    assert false_step(text) is want


@pytest.mark.parametrize(
    ("pred", "want"),
    [
        ("\\boxed{7=42}", False),
        ("\\boxed{7+1=42}", False),
        ("\\boxed{x=0=42}", False),
        ("Final answer: $x = 5+5+1 = 42$", False),
        ("\\boxed{6\\times 7=42}", True),
        ("\\boxed{x = 84/2 = 42}", True),
        ("The answer is $7 \\cdot 6 = 42$.", True),
    ],
)
def test_a_false_statement_does_not_give_its_last_side(pred: str, want: bool) -> None:
    """A model that boxes ``7+1 = 42`` states something false; crediting its last side would
    reward any chain that ends in the reference (math-verify credits it)."""
    assert compare("42", pred).equal is want, pred
