"""Equations on the certain path (rewards/equations.py): the same polynomial equation up to a
nonzero factor is proven equal on a grid; a value computed on the left of ``=`` is read from the
right; a single value given to two different names is math-verify's to decide. Examples invented."""

from __future__ import annotations

import pytest

from rewards.equations import function_as_y
from rewards.equivalence import compare, decide_fast, is_equivalent


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("2x+4y-3=0", "y=-\\frac{1}{2}x+\\frac{3}{4}", True),
        ("x^2/4 + y^2/3 = 1", "x^2/16 + y^2/12 = \\frac14", True),
        ("3x-2y+5z-7=0", "-3x+2y-5z+7=0", True),
        ("x - (y+2) = 0", "x = y + 2", True),
        ("$2a = 4b$", "The line is $\\boxed{a - 2b = 0}$.", True),
        ("2x+4y-3=0", "2x+4y+3=0", False),  # two different lines
        ("x + y - z + 2 = 0", "5x - 7y + 11z + 4 = 0", False),  # two different planes
        ("x = 0.333333", "x = \\frac13", True),  # decimals: the numeric rule (docs/rewards.md)
        ("x = 0.33", "x = \\frac13", False),
        ("x = 0.3", "3x = 1", None),
        ("x^2=0", "x=0", None),  # the same solutions, not the same polynomial
        ("x^2+y^2=1", "x^2+y^2=2", None),  # not linear: math-verify decides
        ("x+y=1", "x+z=1", None),  # other variables
        ("y = \\sqrt{x}", "y^2 = x", None),  # not a polynomial
    ],
)
def test_equations_equal_up_to_a_factor(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("3", "$\\log_2(8) = 3$", True),
        ("-1", "$e^{i\\pi} = -1$", True),
        ("10", "$\\binom{5}{2} = 10$", True),
        ("1", "$\\lim_{t \\to 0} \\frac{\\sin t}{t} = 1$", True),
        ("\\frac23", "$\\frac{\\frac{1}{2}}{\\frac{3}{4}} = \\frac{2}{3}$", True),
        ("-2", "$\\begin{vmatrix} 1 & 2 \\\\ 2 & 2 \\end{vmatrix} = -2$", True),
        ("4", "$\\log_2(8) = 3$", None),  # a wrong value is math-verify's to refuse
        ("3", "x + 5 = 3", None),  # an equation in x, not a computed value
    ],
)
def test_a_value_computed_on_the_left(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


def test_one_value_under_two_names_is_not_the_same_answer() -> None:
    assert decide_fast("x=1", "y=1") is None
    assert decide_fast("x_1=3", "x_{1} = 3") is True
    assert is_equivalent("x=1", "y=1", timeout_s=30.0) is False  # math-verify: the name counts
    assert is_equivalent("x=1", "x=1.0", timeout_s=30.0) is True


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        (
            "y_{1}=-2 x^{2}+4 x+3, y_{2}=3 x^{2}+12 x+10",
            "\\(y_1 = \\boxed{-2(x - 1)^2 + 5}\\) and \\(y_2 = \\boxed{3(x + 2)^2 - 2}\\)",
            True,
        ),
        (
            "x_1 = \\sqrt{2}, x_2 = -\\sqrt{2}",
            "\\boxed{\\sqrt2} \\quad \\text{and} \\quad \\boxed{-\\sqrt{2}}",
            True,
        ),
        (
            "x_1 = \\sqrt{2}, x_2 = -\\sqrt{2}",
            "\\boxed{-\\sqrt2, \\sqrt{2}}",
            None,
        ),  # other order: math-verify
        ("p=5, q=2", "5, 2", True),
        ("p=5, q=2", "2, 5", None),
    ],
)
def test_named_values_against_a_list_item_by_item(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("a + z = 0", "0", False),  # an equation is not the value on its right
        ("x+z=1", "1", False),
        ("2x = 10", "10", False),
        ("x = 5", "5", True),  # a name and its value
        ("f(2) = 5", "5", True),
        ("AB = 5", "5", None),  # a segment's length: math-verify decides
        ("x + z = 1", "x + z = 1", True),
        # an angle or a trigonometric function of one names a value, as math-verify reads it too
        ("\\angle A = 30^\\circ", "30", True),
        ("\\angle A = 30", "30", True),
        ("m\\angle ABC = 120^\\circ", "120", True),
        ("\\angle{BAC} = 45^\\circ", "\\frac{\\pi}{4}", True),
        ("\\angle A = 30", "40", False),
        ("\\tan A = 2", "2", True),
        ("\\cos \\angle A = \\frac{1}{2}", "0.5", True),
        ("\\sin^2 x = \\frac34", "\\frac{3}{4}", True),
        ("\\tan A = 2", "3", False),
        ("\\angle A = 30", "\\angle B = 30", None),  # two names: math-verify
        ("\\log_2 x = 3", "3", False),  # an equation in x: not a name
    ],
)
def test_an_equation_in_unknowns_against_a_number(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("f(x) = 2x + 3", "y = 2x + 3", True),  # the graph of f
        ("y = 2x + 3", "f(x) = 2x + 3", True),
        ("g(x)=x^2", "y=x\\cdot x", True),
        ("f(x) = 2x + 3", "y = 2x + 4", None),  # only credits; math-verify decides the rest
        ("f(t) = 2t + 3", "y = 2x + 3", None),  # a different variable
        ("x = 2x+3", "y = 2x+3", None),  # two names, neither a function: the name counts
    ],
)
def test_a_function_against_its_graph(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("0.30000000000000004", "0.3", True),  # 0.1 + 0.2 printed by Python
        ("0.3", "0.30000000000000004", True),
        ("1.9999999999999998", "2", True),
        ("0.30000000000000004", "0.31", False),
        ("0.1234567890123456", "0.123", False),  # 16 real digits: not an artifact
    ],
)
def test_a_binary_float_printed_in_full_is_its_short_decimal(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("g(t)=\\sin t", "g(t)=\\cos t", False),  # math-verify's sympy solves both: about a second
        ("f(x)=x^2", "f(x)=x^2+1", False),
        ("f(x)=x^2", "f(z)=z^2+1", False),  # the argument renamed first
        ("f(x)=\\frac{1}{x}", "f(x)=x", False),
        ("f(x)=(x+1)^2", "f(x)=x^2+2x+1", True),
        ("f(x)=2x^3+c", "f(x)=2x^3", None),  # c on one side only: a constant or a unit
        ("f(x)=f(x-1)+1", "f(x)=x", None),  # the function on its own right side
        ("f(x)=x^2", "g(x)=x^2+1", None),  # two functions
    ],
)
def test_a_function_defined_by_different_values_is_a_different_function(
    gold: str, pred: str, want: bool | None
) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        (
            "y-4=-\\frac{1}{2}(x+1)",
            "f(x)-4=-\\frac{1}{2}(x+1)",
            ("y-4=-\\frac{1}{2}(x+1)", "y-4=-\\frac{1}{2}(x+1)"),
        ),
        ("y-4=g(x)+2", "f(x)-4=g(x)+2", ("y-4=g(x)+2", "y-4=g(x)+2")),  # g is named on both sides
        ("y(t)-4=2(t+1)", "y-4=2(t+1)", ("y-4=2(t+1)", "y-4=2(t+1)")),
        ("y-4=xy", "f(x)-4=xy", None),  # the prediction has a y of its own
        ("y-4=g(x)+2", "g(x)-4=g(x)+2", None),  # g is named on both sides: not renamed
        ("y=2", "f(x)=2, g(x)=3", None),  # not one equation each
    ],
)
def test_function_as_y(gold: str, pred: str, want: tuple[str, str] | None) -> None:
    assert function_as_y(gold, pred) == want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("y-4=-\\frac{1}{2}(x+1)", "f(x)-4=-\\frac{1}{2}(x+1)", True),
        ("y-4=2(t+1)", "y\\left(t\\right)-4=2\\left(t+1\\right)", True),
        ("y-4=2(x+1)", "f(x)-4=3(x+1)", False),
        ("y-4=xy", "f(x)-4=xy", False),
    ],
)
def test_a_function_named_on_one_side_is_y(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("[K:\\mathbb Q]=16", "16", True),  # a quantity named in brackets, not an equation in K and Q
        ("[K:\\mathbb Q]=16", "8", False),
        ("|A|=3", "3", True),
        ("\\lVert T^n\\rVert=\\frac{1}{n!}", "\\frac{1}{n!}", True),  # a norm named on the left
        ("\\lVert T^n\\rVert=\\frac{1}{n!}", "\\frac{1}{(n+1)!}", False),
        ("a+z=0", "0", False),  # an equation in unknowns is not the value 0
        # the prediction names its value so: certain either way
        ("\\frac{1}{n!}", "\\lVert T^n\\rVert=\\frac{1}{n!}", True),
        ("\\frac{1}{2}", "\\lVert T\\rVert=\\frac{1}{2}", True),
        ("\\frac{1}{3}", "\\lVert T\\rVert=\\frac{1}{2}", False),
        ("16", "[K:\\mathbb Q]=16", True),
    ],
)
def test_a_bracketed_name_on_the_left_names_the_value(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)
    if "=" in pred:
        assert decide_fast(gold, pred) is want
