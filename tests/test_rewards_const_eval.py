"""The exact evaluator behind the certain path (rewards/const_eval.py) and the verdicts it makes
certain: a number against an expression that provably varies, or against an inequality."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rewards.const_eval import evaluate_exact, evaluate_gaussian, huge_factorial
from rewards.equivalence import compare, decide_fast
from rewards.gaussian_numbers import Gaussian


@pytest.mark.parametrize(
    ("expr", "want"),
    [
        ("|-3| + |2-5|", Fraction(6)),
        ("||-2|-5|", Fraction(3)),
        ("\\lfloor 7/2 \\rfloor", Fraction(3)),
        ("\\lceil \\frac{7}{2} \\rceil", Fraction(4)),
        ("\\lceil \\pi \\rceil", Fraction(4)),
        ("\\lfloor -0.5 \\rfloor", Fraction(-1)),
        ("(1+2) 3", Fraction(9)),  # a digit after a parenthesis: a product
        ("(2)(3) 2^{-1}", Fraction(3)),
        ("2 3", None),  # two numbers side by side: a list or a typo, never a product
        ("3\\frac12", None),  # a mixed number, not 3 * 1/2
        ("\\lfloor 2 \\sqrt{4} \\rfloor", Fraction(4)),
        ("\\lfloor \\sqrt{2}^2 \\rfloor", None),  # a float at an integer: its floor is not certain
        ("|3", None),
        ("5!", Fraction(120)),
        ("\\frac{10!}{2!3!}", Fraction(302400)),  # "2!3!" is a product, as latex2sympy reads it
        ("-3!", Fraction(-6)),
        ("(2+1)!", Fraction(6)),
        ("0!", Fraction(1)),
        ("2^3!", None),  # latex2sympy: (2^3)!
        ("1e-5", Fraction(1, 100000)),  # E notation, as the number readers take it: never e - 5
        ("6.02E23", Fraction(602) * 10**21),
        ("2e-5 + 1", None),  # E notation inside an expression is not read
        ("3!^2", Fraction(36)),  # (3!)^2: the factorial binds tighter (latex2sympy refuses it)
        ("\\frac{6!}{3!^2}", Fraction(20)),
        ("5!!", Fraction(15)),  # the double factorial: 5 * 3 * 1, not (5!)!
        ("6!!", Fraction(48)),
        ("0!!", Fraction(1)),
        ("5!!!", None),
        ("2.5!", None),
        ("151!", None),
        ("\\binom{10}{2}", Fraction(45)),
        ("\\dbinom{10}{2} - \\tbinom{5}{2}", Fraction(35)),
        ("\\binom{3}{5}", Fraction(0)),
        ("2\\binom{4}{2}", None),  # latex2sympy reads 2 + 6, as if a mixed number
        ("2 \\cdot \\binom{4}{2}", Fraction(12)),
        ("\\binom{10}2", None),  # latex2sympy refuses an unbraced argument
        ("\\binom{2.5}{1}", None),
        ("\\binom{-1}{2}", None),
        ("\\sqrt[3]{-8}", Fraction(-2)),  # an odd radical of a negative number: the real root
        ("\\sqrt[5]{-\\frac{1}{32}}", Fraction(-1, 2)),
        ("\\sqrt[4]{-16}", None),  # an even radical of a negative number: not real
        ("\\sqrt{-4}", None),
    ],
)
def test_evaluate_exact(expr: str, want: Fraction | None) -> None:
    got = evaluate_exact(expr)
    assert got == want and (want is None or isinstance(got, Fraction))


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("10000", "n(n-2) 2^{-n+1}", False),  # varies with n
        ("4", "\\left \\lfloor \\frac{2n-1}{5} \\right \\rfloor", False),  # equal at 2/7 and 3/11
        ("3", "|x-3|", False),
        ("7", "|V|^{2016}", False),  # 0 (underflow) at both probe points, 1 at x = 1
        ("1", "\\frac{x}{x}", True),  # the same rational function (formal_identity)
        ("1", "\\sin^2(x)+\\cos^2(x)", True),  # constant up to float rounding; an identity
        ("4", "\\lceil \\pi \\rceil", True),
        ("3", "\\lceil \\pi \\rceil", False),
        ("5", "x \\ge 5", False),  # a number is not an inequality
        ("2<x<5", "3", False),
        ("x \\le -2 \\text{ or } x > 3", "e^{23110}", False),
        ("\\sqrt{2}", "x < \\sqrt{2}", False),
        ("0.5", "P(X<3)", None),  # a probability, not an inequality: math-verify decides
        ("x<3", "(-\\infty, 3)", True),
    ],
)
def test_numbers_against_varying_expressions_and_inequalities(
    gold: str, pred: str, want: bool | None
) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("1500", "1.5\\times10^{3}", True),
        ("135", "1.5\\times10^{3}", False),  # this raised inside the certain path (10**-2 is a float)
        ("\\frac{1}{3}", "1.5\\times10^{3}", False),
        ("1.5\\times10^{3}", "\\frac{4500}{3}", True),
    ],
)
def test_scientific_notation_with_fewer_digits_than_its_exponent(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("3", "\\log_2 8", True),  # a written base
        ("3", "\\log_{10}(1000)", True),
        ("5", "e^{\\ln 5}", True),  # an unbraced number after \ln
        ("\\ln 9", "2\\ln 3", True),
        ("4", "\\log_2 8", False),
        ("2", "\\log 100", None),  # no base: ln or log10 (math-verify reads log10)
        ("\\ln 2x", "\\ln 2 + \\ln x", None),  # where an unbraced argument ends is not certain
    ],
)
def test_logarithms_with_a_written_base(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("expr", "want"),
    [
        ("i(2-i)", Gaussian(Fraction(1), Fraction(2))),
        ("(1+i)^2", Gaussian(Fraction(0), Fraction(2))),
        ("i^2", Fraction(-1)),  # a zero imaginary part is a plain Fraction
        ("3i^2", Fraction(-3)),  # the power binds to i
        ("\\frac{1+i}{1-i}", Gaussian(Fraction(0), Fraction(1))),
        ("(1+i)^{-2}", Gaussian(Fraction(0), Fraction(-1, 2))),
        ("\\sqrt{-4}", Gaussian(Fraction(0), Fraction(2))),  # the principal root, as sympy's
        ("|3+4i|", Fraction(5)),
        ("\\frac{3}{5}+\\frac{4}{5}i", Gaussian(Fraction(3, 5), Fraction(4, 5))),
        ("2", Fraction(2)),
        ("\\sqrt{-2}", None),  # an inexact imaginary part
        ("\\pi i", None),  # a float never mixes with a complex value
        ("e^{i\\pi}", None),
        ("i^{1/2}", None),  # several values
        ("2^i", None),
        ("(1+i)^{65}", None),  # beyond the exponent cap
        ("i2", None),  # a name or an index, not a product
        ("1/2i", None),  # (1/2)i or 1/(2i)?
        ("i!", None),
        ("\\lfloor i \\rfloor", None),
        ("\\sin(i)", None),
        ("\\sqrt{2}", None),  # real but inexact: evaluate_exact's (a float), not this reader's
    ],
)
def test_evaluate_gaussian(expr: str, want: Fraction | Gaussian | None) -> None:
    assert evaluate_gaussian(expr) == want
    if want is not None and "i" in expr:
        assert evaluate_exact(expr) is None  # the real reader never reads i


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("1+2i", "i(2-i)", True),  # equal through i^2 = -1 (math-verify reads i as a variable)
        ("2i", "(1+i)^2", True),
        ("-i", "\\frac{1}{i}", True),
        ("i", "\\frac{1+i}{1-i}", True),
        ("z = 3+4i", "4i+3", True),
        ("\\frac{3+4i}{5}", "\\frac{3}{5}+\\frac{4}{5}i", True),
        ("0.5+0.5i", "\\frac{1+i}{2}", True),  # a decimal equal exactly
        ("3+4i", "3-4i", False),
        ("1+i", "1-i", False),
        ("5", "|3+4i|", True),
        ("0.33+i", "\\frac13+i", None),  # decimals: only an exact match is certain
        ("1+2i", "\\sqrt{2}i+1", None),  # inexact: math-verify decides
    ],
)
def test_complex_constants_are_compared_exactly(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("-2", "\\sqrt[3]{-8}", True),  # latex2sympy reads the principal complex root: refused
        ("\\sqrt[3]{-5}", "-\\sqrt[3]{5}", True),
        ("\\sqrt[3]{-8}", "2", False),
        ("\\sqrt[3]{-5}", "-1.709975946", False),  # truncated, not rounded at its 10 digits
    ],
)
def test_odd_radicals_of_negative_numbers_are_real(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


def test_magnitude_bound() -> None:
    """Values beyond 1e250 in size (real or imaginary part) are refused, not computed further."""
    assert evaluate_exact("10^{249}") == Fraction(10**249)
    assert evaluate_exact("-10^{249} \\cdot 9") == Fraction(-9 * 10**249)
    assert evaluate_exact("10^{251}") is None
    assert evaluate_exact("-10^{251}") is None
    assert evaluate_gaussian("10^{251} i") is None
    assert evaluate_gaussian("10^{249} i") == Gaussian(Fraction(0), Fraction(10**249))
    # products and quotients past the bound, whose factors are within it
    assert evaluate_exact("10^{200} \\cdot 10^{60}") is None
    assert evaluate_exact("\\frac{10^{200}}{10^{-60}}") is None
    assert evaluate_gaussian("10^{200} \\cdot 10^{60} i") is None


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("1000!", 1000),
        ("(10^6)!", 10**6),
        ("{(10^{6})}!", None),  # a group inside a group: not read
        ("(10^{6})!", 10**6),  # how factorial(10**6) reads in LaTeX
        ("{10^6}!", 10**6),
        ("151!", 151),
        ("150!", None),  # small enough to evaluate (and refused there for its size)
        ("10^6!", None),  # (10^6)! to latex2sympy, 10^{720} to a reader
        ("1000!!", None),
        ("(10^{13})!", None),
        ("(2.5)!", None),
        ("1000! + 1", None),
    ],
)
def test_huge_factorial(text: str, n: int | None) -> None:
    assert huge_factorial(text) == n


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("\\frac{1}{2}", "factorial(10**6)", False),  # sympy computes it for seconds
        ("\\frac{1}{2}", "(10^6)!", False),
        ("\\sqrt{2}", "200!", False),
        ("10^{200}", "1000000!", False),
        ("1000!", "(1000)!", True),
        ("1000!", "1001!", False),
    ],
)
def test_a_factorial_too_large_to_compute_is_decided_at_once(gold: str, pred: str, want: bool) -> None:
    verdict = compare(gold, pred, 3.0)
    assert (verdict.path, verdict.equal) == ("certain", want)
