"""The certain path proves two expressions equal when they are the same rational function of their
atoms (variables, pi, function applications, powers); a formal difference defers to math-verify."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare, decide_fast, is_equivalent
from rewards.formal_identity import read, read_pair, same_rational_function


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("13 \\pi R^{2}", "13*pi*R^2"),  # calculator syntax against LaTeX
        ("\\frac{4}{3}\\pi r^3", "4 \\cdot \\pi \\cdot r^{3}/3"),
        ("\\frac12 \\ln(7+x^4)+C", "0.5\\ln(7+x^4)+C"),  # 0.5 is exactly 1/2
        ("\\frac{8}{5-4\\cos(q^2)}", "2*8/(2 + 1*8 - 1*8*cos(q^2))"),  # a rational function of cos(q^2)
        ("W s - 3\\sin(6x)", "s*W-3*sin(6*x)"),
        ("\\sqrt{x}", "x^{1/2}"),
        ("x+1", "\\frac{x^2-1}{x-1}"),
        ("\\frac{x+y}{xy}", "\\frac1x+\\frac1y"),
        ("\\frac{\\sqrt2}{2}x", "\\frac{x}{\\sqrt{2}}"),  # square roots of rationals are exact
        ("2\\sqrt{2}a", "\\sqrt{8}a"),
        ("3\\cos(2\\sqrt{35}t)", "3\\cos(\\sqrt{980/7}t)"),  # arguments compare by their value
        ("e^{-8x}\\cos(9x)", "x^0 e^{-8x}\\cos(9x)"),
        ("e^{x}", "\\exp(x)"),
        ("a^x\\ln a", "\\ln(a)\\cdot a^{x}"),
        ("7\\sin(\\frac{\\pi}{5}x)+1", "7\\sin(\\pi x/5)+1"),
        ("\\sin x\\cos x", "\\cos x\\sin x"),
        ("\\sin^2 x", "(\\sin x)^2"),
        ("x_1+x_{2}", "x_2+x_1"),
        ("\\alpha\\beta", "\\beta\\alpha"),
        ("\\frac{1}{|x|}", "|x|^{-1}"),
        ("\\log_2 x", "\\log_{2}(x)"),
        ("AB", "BA"),  # a segment, or a product of two letters
    ],
)
def test_same_rational_function_is_certain(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is True
    assert decide_fast(pred, gold) is True
    assert is_equivalent(gold, pred)


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("1", "\\sin^2 x+\\cos^2 x"),  # an identity of the functions, not of the atoms
        ("\\sin 2x", "2\\sin x\\cos x"),
        ("x", "\\sqrt{x^2}"),  # |x|, not x
        ("x", "(\\sqrt{x})^2"),
        ("e^{2x}", "(e^{x})^2"),
        ("\\frac{x}{2}", "1/2x"),  # 1/(2x) to latex2sympy: not read
        ("y\\sin x", "\\sin x \\cdot y"),  # sin(xy) to latex2sympy: not read
        ("\\arcsin x", "\\sin^{-1} x"),  # the inverse function: not read
        ("(x+1)^{30}", "(x+1)^{29}(x+1)"),  # beyond the expansion cap: a power atom
        ("x \\text{ or } y", "y \\text{ or } x"),  # words
    ],
)
def test_formal_difference_or_unread_text_defers(gold: str, pred: str) -> None:
    assert same_rational_function(read_pair(gold, pred)) is None


@pytest.mark.parametrize(
    "text",
    [
        "x or y",  # words are prose or units, not products of letters
        "abc",
        "2 3",  # digit grouping or a product
        "2\\frac{1}{2}x",  # a mixed number or a product
        "x1",  # a name or x times 1
        "x[1]",  # an index
        "x = 1",
        "(1, 2)",
        "\\frac{1}{x-x}",  # a zero denominator
        "\\sin(0^{-1})",
        "(x-x)^{-2}",
        "\\sqrt{-2}",
        "\\sqrt{99999999977}x",  # too large to factor cheaply
        "{2^{1000}}^{10000}",  # a coefficient beyond MAX_BITS
        "(x+y+z+w)^{20}",  # beyond MAX_TERMS
        "\\text{cm}",
        "x^{\\prime}",
    ],
)
def test_texts_outside_the_subset_are_not_read(text: str) -> None:
    assert read(text) is None


def test_a_formal_identity_never_refuses() -> None:
    # the reader says "equal" or nothing; "different" comes from evaluation at a rational point
    assert same_rational_function(read_pair("x+1", "x+2")) is None
    assert decide_fast("x+1", "x+2") is False


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("T = 2\\pi\\sqrt{r/k}", "T == 2*pi*sqrt(r/k)", True),  # sympy's == is an equation
        ("e == N*B*A*omega*sin(omega*t)", "e == omega*N*B*A*sin(t*omega)", True),  # not prose
        ("\\frac{T}{2} = \\pi\\sqrt{r}", "T = 2\\pi\\sqrt{r}", True),  # a nonzero multiple
        ("y = \\sin x", "y = \\sin x + 1", False),  # values of y differ at a point
        ("y = \\sin^2 x", "y = 1 - \\cos^2 x", True),  # the same left side, right sides equal
        ("y = \\ln(x^2)", "y = 2\\ln x", None),  # equal for x > 0 only: math-verify decides
        ("y = \\sqrt{x^2}", "y = x", None),
        ("S = \\sin x", "T = \\sin x", None),  # different names: math-verify decides
    ],
)
def test_equations_with_the_same_atoms(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    "text",
    [
        "\\sin(" * 60 + "x" + ")" * 60,  # nested atoms: keys grow linearly, not by escaping
        "((x+1)^{24})^{24}",  # over the work budget: refused, not expanded
        "(x+y+z)^{24}",
    ],
)
def test_reading_is_bounded(text: str) -> None:
    got = same_rational_function(read_pair(text, text + "+0"))
    assert got in (True, None)


@pytest.mark.parametrize(("gold", "pred"), [("x", "x1"), ("x1", "x[1]"), ("x_1", "x1")])
def test_a_letter_before_a_digit_or_bracket_is_not_a_product(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is not True  # a name or an index: math-verify decides


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("1", "\\frac{a}{b}\\cdot\\frac{b}{a}", True),  # a constant function of its atoms
        ("0.5", "\\frac{x}{2x}", True),  # 0.5 is exactly 1/2
        ("0", "x-x", True),
        ("3", "\\frac{2x}{x}", False),  # 2 at every point where it is defined
        ("\\sqrt2", "\\frac{x}{x}", False),
        ("0.33", "\\frac{x}{3x}", None),  # a rounded decimal: the numeric rule's, not a proof here
    ],
)
def test_a_constant_against_an_expression_in_variables(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want
    assert decide_fast(pred, gold) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("2^10", "1024", True),  # a multi-digit exponent is whole, as latex2sympy reads it
        ("x^10", "x^{10}", True),
        ("(x-a)^5999", "(x-a)^{5999}", True),
        ("\\frac123", "\\frac{1}{23}", True),  # 1/23 to latex2sympy, not \frac{1}{2}3
        ("\\frac 1 23", "\\frac{1}{23}", True),
        ("\\frac123", "\\frac32", False),
        ("\\frac12x", "\\frac{x}{2}", True),
    ],
)
def test_digits_after_a_command_are_read_as_latex2sympy_reads_them(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        # latex2sympy reads a bare argument on over numbers, letters, \pi, braces and \frac
        ("\\sin 2\\pi x", "\\sin(2\\pi x)", True),  # was refused for certain
        ("\\sin x\\pi", "\\sin(\\pi x)", True),  # was refused for certain
        ("\\sin x\\pi", "\\pi\\sin x", False),  # was credited for certain
        ("\\sin x\\frac12", "\\frac12\\sin x", False),  # sin(x/2): was credited for certain
        ("\\sin x{3}", "\\sin 3x", True),
        ("\\sin x \\cos x", "\\cos x\\sin x", True),  # it stops at a function
        ("\\sin x\\sqrt2", "\\sqrt2\\sin x", True),  # and at \sqrt
        ("\\sin^{2}{3}", "\\sin^23", None),  # a power 23 with no argument to latex2sympy
        ("\\sin{x}y", "y\\sin x", None),  # sin(xy) to latex2sympy
        ("\\ln{2}3", "3\\ln 2", None),  # log(5) to latex2sympy
    ],
)
def test_function_arguments_are_read_as_latex2sympy_reads_them(
    gold: str, pred: str, want: bool | None
) -> None:
    assert decide_fast(gold, pred) is want
