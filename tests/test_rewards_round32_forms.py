"""Answer forms found by held-out round 32 (RL runs' judged responses, graders' tests, the answer
checkers of education software): a subscript that is a symbol command (``M_{\\odot}``), a currency
sign written ``\\$``, a rate unit (``ml/dose``), calculator names in capitals (``Sin(Pi)``) and
digits grouped by spaces with a decimal comma (``1 234,5``)."""

from __future__ import annotations

import pytest

from rewards._symbolic_worker import plain_subscripts
from rewards.equivalence import compare
from rewards.exact_numbers import read_number
from rewards.extract import verify_text
from rewards.letter_case import differ_only_in_case
from rewards.parsed_rewrites import opaque_derivatives
from rewards.plain_syntax import plain_to_latex


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("M_{\\odot}^6", "M_{odot}^6"),
        ("L_\\odot M", "L_{odot} M"),
        ("v_{ \\perp } + T_{\\max}", "v_{perp} + T_{max}"),
        ("L_\\star", "L_{star}"),
        ("x_{\\alpha}", "x_{\\alpha}"),  # a Greek letter: latex2sympy reads it
        ("\\odot", "\\odot"),  # not a subscript
        ("L_\\oplusx", "L_\\oplusx"),  # not one command
    ],
)
def test_a_subscript_that_is_a_symbol_command_is_its_name(text: str, plain: str) -> None:
    assert plain_subscripts(text) == plain


def test_a_derivative_of_a_plain_symbol_is_a_symbol_of_its_own() -> None:
    sympy = pytest.importorskip("sympy")
    m, t, k, x = sympy.symbols("m t k x", real=True)
    rate = sympy.Derivative(m, t)
    got = opaque_derivatives([sympy.Eq(rate, k * m**6), "dM/dt = k M^6", sympy.Derivative(x**2, x)])
    assert isinstance(got[0], sympy.Eq) and not got[0].has(sympy.Derivative)
    assert got[0].lhs == sympy.Symbol(str(rate), real=True) and got[0].rhs == k * m**6
    assert got[1] == "dM/dt = k M^6"  # math-verify's string reading, as it was
    assert got[2] == sympy.Derivative(x**2, x)  # a derivative of an expression: sympy evaluates it
    assert opaque_derivatives([sympy.Derivative(x, x)]) == [sympy.Derivative(x, x)]


def test_verify_text_drops_an_escaped_currency_sign() -> None:
    assert verify_text("The total cost is \\$18.90.") == "The total cost is 18.90."
    assert verify_text("So $x = 2$.") == "So $x = 2$."


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("50 ml/dose", 50),
        ("3 dollars/hour", 3),
        ("7 km/day", 7),
        ("1 234,5", 1234.5),
        ("1 234 567,25", 1234567.25),
        ("1\u00a0234,5", 1234.5),
        ("12 345", 12345),
    ],
)
def test_numbers_with_rate_units_and_grouped_digits(text: str, value: float) -> None:
    got = read_number(text)
    assert got is not None and float(got.value) == value  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["3 h/k", "2 x/y", "1 23,5", "0 42", "1 2345,5"])
def test_quotients_of_letters_and_other_digit_groups_are_not_numbers(text: str) -> None:
    assert read_number(text) is None


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("Sin(Pi)", "\\sin (\\pi )"),
        ("SIN(PI)", "\\sin (\\pi )"),
        ("Sqrt(2)", "\\sqrt{2}"),
        ("2*PI", "2 \\cdot \\pi"),
        ("Dog(x)", None),  # not a known name
    ],
)
def test_calculator_names_in_capitals(text: str, latex: str | None) -> None:
    assert plain_to_latex(text) == latex


def test_pi_in_capitals_is_not_a_change_of_case() -> None:
    assert not differ_only_in_case("sin(pi)", "Sin(Pi)")
    assert differ_only_in_case("2x", "2X")


def test_round32_pairs_decided_by_the_certain_path_where_the_answer_is_plain() -> None:
    """A plain-text response that ends with its answer phrase and a number or an option letter is
    decided without math-verify, both ways."""
    for gold, pred in [
        ("7", "জিনজার গ্রিফিনকে 6টি ফ্রাই দিয়েছে। উত্তর 6।"),
        ("J", "The answer is (B)."),
        ("J", "The answer is (J)."),
    ]:
        assert compare(gold, pred).path == "certain"


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        (
            "\\frac{dM}{dt}=\\frac{10^{5}L_{\\odot}}{0.007c^{2}M_{\\odot}^{6}}M^{6}",
            "Thus \\[\\boxed{\\frac{dM}{dt} = \\frac{10^5}{0.007} \\frac{L_{\\odot}}{M_{\\odot}^6 c^2} M^6}\\]",
            True,
        ),
        (
            "\\frac{10^{5}L_{\\odot}}{0.007c^{2}M_{\\odot}^{6}}M^{6}",
            "\\boxed{\\frac{10^5}{0.007} \\frac{L_{\\odot}}{M_{\\odot}^5 c^2} M^6}",
            False,
        ),
        (
            "\\frac{dM}{dt}=\\frac{10^{5}L_{\\odot}}{0.007c^{2}M_{\\odot}^{6}}M^{6}",
            "\\[\\boxed{\\frac{dM}{dt} = -\\frac{10^{14} L_{\\odot}}{7 c^2 M_{\\odot}^6} M^6}.\\]",
            False,  # dM/dt read as the derivative of a symbol: 0, and both sides solved for L are 0
        ),
        ("\\frac{dx}{dt} = 3x", "\\boxed{\\frac{dx}{dt} = -3x}", False),
        ("\\frac{dx}{dt} = 3x", "\\boxed{\\frac{dx}{dt} - 3x = 0}", True),
        ("\\frac{d}{dx} x", "1", True),
        ("\\frac{d}{dx} x^2", "2x", True),
        ("3 M_\\odot", "3M_{\\odot}", True),
        ("3 M_\\odot", "3M_{\\oplus}", False),
        ("\\$18.90", "The total cost is $18.90.", True),
        ("18.90", "The total cost is \\$18.90.", True),
        ("\\$18.90", "The total cost is \\$18.80.", False),
        ("50", "<answer>50 \\text{ml/dose}</answer>", True),
        ("51", "<answer>50 \\text{ml/dose}</answer>", False),
        ("sin(pi)", "Sin(Pi)", True),
        ("sqrt(2)", "SQRT(3)", False),
        ("13", "కాబట్టి వాల్ట్ బుధవారం 41 - 4 - 24 = 13 మైళ్లు నడిచింది. సమాధానం 13.", True),  # Telugu
        ("6", "জিনজার গ্রিফিনকে 6টি ফ্রাই দিয়েছে। উত্তর 6।", True),  # Bengali, a danda ends it
        ("J", "So the answer is (J).", True),  # MMLU-Pro's ten options
        ("I", "\\sqrt{-1}", True),  # i, the imaginary unit: not an option letter absent from the answer
        ("G", "42", False),
        ("1234.5", "1 234,5", True),
        ("1234.6", "1 234,5", False),
    ],
)
def test_round32_pairs(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
