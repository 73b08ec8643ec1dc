"""Answer forms found by held-out round 33 (judged physics expressions, competition answers in
Russian, Korean, Japanese and Vietnamese, an equivalence checker's tests): delimiter sizes
(``\\biggl(``), sums and integrals whose bound variable is named differently, and products of the
same letters in another order (``x y z`` against ``z x y``)."""

from __future__ import annotations

import pytest

from rewards._symbolic_worker import plain_delimiters
from rewards.answer_text import normalize
from rewards.equivalence import compare
from rewards.parsed_rewrites import canonical_bound_names


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("\\cos\\biggl(\\frac{\\pi}{2}\\biggr)", "\\cos(\\frac{\\pi}{2})"),
        ("\\Bigl(1,2\\Bigr]", "(1,2]"),
        ("\\big|x\\big|", "|x|"),
        ("\\bigcup_i A_i", "\\bigcup_i A_i"),  # an operator, not a size
        ("\\Biggl\\{1\\Biggr\\}", "\\{1\\}"),
    ],
)
def test_delimiter_sizes_are_dropped_for_math_verify(text: str, plain: str) -> None:
    assert plain_delimiters(text) == plain


def test_delimiter_sizes_are_dropped_by_the_certain_path() -> None:
    assert normalize("2J\\cos\\biggl(\\frac{\\pi}{2}\\biggr)") == normalize("2J\\cos(\\frac{\\pi}{2})")


def test_bound_variables_are_renamed_in_order() -> None:
    sympy = pytest.importorskip("sympy")
    k, j, n, x = sympy.symbols("k j n x", integer=True)
    a = sympy.Sum(sympy.binomial(n, k) * x**k, (k, 0, n))
    b = sympy.Sum(sympy.binomial(n, j) * x**j, (j, 0, n))
    assert a != b
    (ca,), (cb,) = canonical_bound_names([a]), canonical_bound_names([b])
    assert ca == cb
    (bound,) = ca.variables
    assert bound.name == "bound0" and bound.is_integer  # the assumptions kept
    assert canonical_bound_names([x + 1, "x"]) == [x + 1, "x"]  # nothing bound: as it was
    t = sympy.Symbol("t", real=True)
    weird = sympy.Integral(t, (t, 0, t))  # a bound that names the variable: left alone
    assert canonical_bound_names([weird]) == [weird]


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        (
            "J_{k,s} = 2J \\cos\\left(\\frac{\\pi(k-s)}{2}\\right)",
            "J_{k,s} = 2J \\cos\\biggl(\\frac{\\pi(k-s)}{2}\\biggr)",
            True,
        ),
        ("\\bigl(1,3\\bigr)", "(1,2)", False),
        ("\\sum_{k=0}^{n} \\binom{n}{k} x^k", "\\sum_{j=0}^{n} \\binom{n}{j} x^j", True),
        ("\\int_0^1 x^2 dx", "\\int_0^1 t^2 dt", True),
        ("\\int_0^a x^2 dx", "\\int_0^b t^2 dt", False),  # the bounds are free: a is not b
        ("x y z", "z x y", True),  # a product of three letters, not two words
        ("xyz", "zxy", True),
        ("xyz", "xyw", False),
        ("dog", "cat", False),
    ],
)
def test_round33_pairs(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
