"""Identities of the circular, hyperbolic and exponential functions proved on the certain path
(rewards/elementary_identity.py): each proof says "equal" only where the two sides are the same
function, checked here against values of the functions at complex points."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from rewards.certain_path import decide_fast
from rewards.elementary_identity import same_elementary_function
from rewards.formal_identity import read_pair

IDENTITIES = [
    ("1", "\\sin^2 x+\\cos^2 x"),
    ("\\tan x", "\\frac{\\sin x}{\\cos x}"),
    ("\\sin 2x", "2\\sin x\\cos x"),
    ("\\sec^2 x", "1+\\tan^2 x"),
    ("\\cos 2x", "1-2\\sin^2 x"),
    ("\\sin^2 x", "\\frac{1-\\cos 2x}{2}"),
    ("\\sin 3x", "3\\sin x-4\\sin^3 x"),
    ("\\sin(x+y)", "\\sin x\\cos y+\\cos x\\sin y"),
    ("\\tan 2x", "\\frac{2\\tan x}{1-\\tan^2 x}"),  # math-verify 0.9 does not prove this one
    ("\\tan\\frac{x}{2}", "\\frac{\\sin x}{1+\\cos x}"),  # nor this one
    ("\\cot x", "\\frac{1}{\\tan x}"),
    ("\\sin^4 x-\\cos^4 x", "-\\cos 2x"),
    ("\\frac{1}{2}\\sin(2x)+C", "\\sin x\\cos x+C"),
    ("\\cos x", "\\sin(x+\\frac{\\pi}{2})"),
    ("-\\sin x", "\\sin(x+\\pi)"),
    ("\\sin x", "\\sin(x+2\\pi)"),
    ("\\frac{\\sqrt{2}}{2}(\\sin x+\\cos x)", "\\sin(x+\\frac{\\pi}{4})"),
    ("\\frac{1}{2}\\cos x+\\frac{\\sqrt{3}}{2}\\sin x", "\\sin(x+\\frac{\\pi}{6})"),
    ("\\cos(\\theta-\\frac{\\pi}{3})", "\\frac12\\cos\\theta+\\frac{\\sqrt3}{2}\\sin\\theta"),
    (
        "\\sin(x+\\frac{\\pi}{5})",
        "\\sin x\\cos\\frac{\\pi}{5}+\\cos x\\sin\\frac{\\pi}{5}",
    ),  # pi/5: a base angle
    ("1", "\\cosh^2 x-\\sinh^2 x"),
    ("\\sinh x", "\\frac{e^x-e^{-x}}{2}"),
    ("\\tanh x", "\\frac{e^{2x}-1}{e^{2x}+1}"),
    ("e^{5x}", "e^{2x}e^{3x}"),
    ("e^{x+1}", "e\\cdot e^x"),
    ("\\exp(2x)", "(e^x)^2"),
    # roots of polynomials: (b^(1/q))^q = b
    ("x", "\\sqrt{x}\\sqrt{x}"),  # math-verify 0.9 does not prove this one
    ("x", "\\sqrt[3]{x}\\cdot x^{\\frac{2}{3}}"),  # nor this one
    ("\\frac{1}{\\sqrt{x}+1}", "\\frac{\\sqrt{x}-1}{x-1}"),
    ("\\frac{1}{\\sqrt{x}}", "\\frac{\\sqrt{x}}{x}"),
    ("x^{\\frac{3}{2}}", "x\\sqrt{x}"),
    ("\\sqrt{x+1}-\\sqrt{x}", "\\frac{1}{\\sqrt{x+1}+\\sqrt{x}}"),
    ("\\frac{x}{\\sqrt{x^2+1}}", "\\frac{x\\sqrt{x^2+1}}{x^2+1}"),
    ("\\sqrt{\\sin x}^2", "\\sin x"),
    # a positive number to a variable power: b^a = e^{a ln b}, ln b by the primes of b
    ("2^{x+1}", "2\\cdot 2^x"),
    ("4^x", "2^{2x}"),  # math-verify 0.9 (in math mode) does not prove this one
    ("\\left(\\frac{1}{3}\\right)^x", "3^{-x}"),
    ("\\frac{2^{n+1}-2}{2}", "2^n-1"),
    ("\\left(\\frac{36}{25}\\right)^y", "1.2^{2y}"),
    ("10^{-x}", "0.1^x"),
    ("2^{x+\\frac12}", "\\sqrt{2}\\cdot 2^x"),
    ("6^{n}", "2^{n}\\cdot 3^{n}"),
]


@pytest.mark.parametrize(("gold", "pred"), IDENTITIES)
def test_identities_are_decided_for_certain(gold: str, pred: str) -> None:
    assert same_elementary_function(read_pair(gold, pred)) is True
    assert decide_fast(gold, pred) is True
    assert decide_fast(pred, gold) is True


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("\\sin x", "\\cos x", False),  # different values at a point
        ("2\\sin x", "\\sin 2x", False),
        ("\\sin(x-y)", "\\sin x\\cos y+\\cos x\\sin y", False),
        ("-\\frac{1}{3}\\cos^3 x+C", "\\frac{1}{3}\\cos^3 x+C", False),
        ("\\ln|x|+C", "\\ln x+C", None),  # a sign: math-verify decides
        ("\\sin 13x", "13\\sin x\\cos^{12}x", False),  # beyond 12 multiples: not expanded
        ("\\sqrt{x^2}", "x", False),  # |x|: a root of x^2 is not x (different at x = -1)
        ("\\sqrt{x^2}", "|x|", None),  # true, but not by R^2 = x^2: math-verify decides
        ("\\sqrt{1-\\sin^2 x}", "\\cos x", False),  # |cos x|
        ("3 \\cdot 2^{n}", "2^{n+1}", False),
        ("2^{x}", "3^{x}", False),
    ],
)
def test_other_pairs_are_not_credited(gold: str, pred: str, want: bool | None) -> None:
    assert same_elementary_function(read_pair(gold, pred)) is None
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("\\sin 13x\\sin x", "\\sin x\\sin 13x"),  # 13 multiples of x: not expanded (a formal identity)
        ("\\tan\\frac{\\pi}{2}", "\\tan\\frac{\\pi}{2}"),  # undefined: never rewritten
        ("\\sin(a+b+c+d+f)", "\\sin(f+d+c+b+a)"),  # five base angles: not rewritten
        ("\\ln(\\sin^2 x+\\cos^2 x)", "0"),  # inside a logarithm: left as it is
        ("\\sin(\\frac{1}{x})", "2\\sin\\frac{1}{2x}\\cos\\frac{1}{2x}"),  # not a polynomial argument
        ("x", "x^{\\frac{1}{13}}x^{\\frac{12}{13}}"),  # a root beyond the 12th: not related to x
        ("\\sqrt{\\frac{1}{x}}", "\\frac{1}{\\sqrt{x}}"),  # not a polynomial under the root
        ("2^{x+100}", "2^{100}\\cdot 2^x"),  # a constant exponent beyond 64: not written out
        ("(-2)^{x}", "(-2)^{x}\\cdot 1"),  # a negative base: no logarithm
        ("1000003^{x}", "1000003^{x}\\cdot 1"),  # a base beyond 10^6: not factored
        ("2^{\\frac{1}{x}}", "2^{\\frac{1}{x}}\\cdot 1"),  # not a polynomial exponent
    ],
)
def test_bounds_and_what_is_left_alone(gold: str, pred: str) -> None:
    assert same_elementary_function(read_pair(gold, pred)) is None


def _random_expression(rng: random.Random, sp: Any, x: Any, y: Any, depth: int = 0) -> Any:
    functions = [sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc, sp.exp, sp.sinh, sp.cosh, sp.tanh]
    if depth > 1 or rng.random() < 0.4:
        arg = rng.choice([1, 2, 3, sp.Rational(1, 2), -1]) * rng.choice([x, y, x + y, x - y])
        arg += rng.choice([0, 0, sp.pi, sp.pi / 2, sp.pi / 3, sp.pi / 4, 1])
        return rng.choice(functions)(arg) ** rng.choice([1, 2, 3])
    a, b = _random_expression(rng, sp, x, y, depth + 1), _random_expression(rng, sp, x, y, depth + 1)
    return rng.choice([a + b, a - b, a * b, a / b])


def _checked_credits(
    cases: list[tuple[Any, list[Any]]],
    symbols: tuple[Any, Any],
    points: Callable[[], tuple[complex, complex]],
) -> int:
    """How many (expression, rewriting) pairs the elementary identity credits, each credit checked
    at three points from ``points`` (60 digits: sinh + cosh of a large argument cancels in floats)."""
    import mpmath
    import sympy as sp

    credited = 0
    for e, rewritings in cases:
        f = sp.lambdify(symbols, e, "mpmath")
        for other in rewritings:
            gold, pred = sp.latex(e), sp.latex(other)
            if gold == pred or same_elementary_function(read_pair(gold, pred)) is not True:
                continue
            credited += 1
            g = sp.lambdify(symbols, other, "mpmath")
            for _ in range(3):
                point = points()
                with mpmath.workdps(60):
                    try:
                        a, b = f(*map(mpmath.mpc, point)), g(*map(mpmath.mpc, point))
                    except ZeroDivisionError:
                        continue
                    assert abs(a - b) <= 1e-30 * max(1, abs(a)), (gold, pred, point)
    return credited


def test_every_credit_is_an_identity_of_the_functions() -> None:
    """Random expressions against sympy's rewritings of them (expanded, in exponentials, in
    cosines, shifted, perturbed) in LaTeX: whatever is credited takes the same values at random
    complex points."""
    sp = pytest.importorskip("sympy")
    x, y = sp.symbols("x y")
    rng = random.Random(14)
    cases = []
    for _ in range(150):
        e = _random_expression(rng, sp, x, y)
        rewritings = [sp.expand_trig(e), e.rewrite(sp.exp), e.rewrite(sp.cos), e.subs(x, x + sp.pi / 3)]
        rewritings.append(e + sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1 + sp.Rational(1, 1000))
        cases.append((e, rewritings))

    def points() -> tuple[complex, complex]:
        return complex(rng.uniform(0.1, 2), rng.uniform(-1, 1)), complex(rng.uniform(0.1, 2), 0.3)

    assert _checked_credits(cases, (x, y), points) >= 50  # most expansions and shifts are proved


def _random_power_expression(rng: random.Random, sp: Any, x: Any, n: Any, depth: int = 0) -> Any:
    if depth > 1 or rng.random() < 0.4:
        base = rng.choice([2, 3, 4, 6, 9, 10, sp.Rational(1, 2), sp.Rational(2, 3), sp.Rational(36, 25)])
        exponent = rng.choice([1, 2, -1, sp.Rational(1, 2)]) * rng.choice([x, n, x + n, x * n])
        exponent += rng.choice([0, 1, -2, sp.Rational(1, 2)])
        return sp.Pow(base, exponent, evaluate=False)
    a = _random_power_expression(rng, sp, x, n, depth + 1)
    b = _random_power_expression(rng, sp, x, n, depth + 1)
    return rng.choice([a + b, a - b, a * b, a / b])


def test_every_credit_for_number_powers_is_an_identity() -> None:
    """Numbers to variable powers against sympy's rewritings (exponents split and joined, bases
    split, in exponentials, shifted, scaled) in LaTeX: whatever is credited takes the same values
    at random complex points."""
    sp = pytest.importorskip("sympy")
    x, n = sp.symbols("x n")
    rng = random.Random(14)
    cases = []
    for _ in range(80):
        e = _random_power_expression(rng, sp, x, n)
        rewritings = [sp.expand_power_exp(e), sp.powsimp(e), sp.expand_power_base(e), e.rewrite(sp.exp)]
        cases.append((e, [*rewritings, e.subs(x, x + 1), 2 * e]))

    def points() -> tuple[complex, complex]:
        return complex(rng.uniform(-2, 2), rng.uniform(-1, 1)), complex(rng.uniform(-2, 2), 0.3)

    assert _checked_credits(cases, (x, n), points) >= 40
