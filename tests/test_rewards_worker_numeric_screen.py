"""The worker's numeric screen before sympy's simplify (rewards.numeric_screen): math-verify's
``sympy_symbolic_eq`` gives the same verdict with it, and skips simplify where the difference of
two elementary expressions is clearly nonzero at the screen's point."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from grader_hooks import hook_over_a_counter
from hypothesis import given, settings
from hypothesis import strategies as st

from rewards.numeric_screen import (
    clearly_different,
    explicitly_different,
    install_equation_screen,
    install_numeric_screen,
)

sympy = pytest.importorskip("sympy")
grader = pytest.importorskip("math_verify.grader")

x, y = sympy.symbols("x y", real=True)  # latex2sympy's symbols are real
n = sympy.Symbol("n", integer=True)
f = sympy.Function("f")


@pytest.mark.parametrize(
    ("a", "b", "different"),
    [
        (x**2 + 1, x**2 + 2, True),
        (sympy.sin(x), sympy.cos(x), True),
        (sympy.sqrt(2), sympy.Float("1.414"), True),
        (sympy.exp(x + y), sympy.exp(x) + sympy.exp(y), True),
        (sympy.sin(x) ** 2 + sympy.cos(x) ** 2, sympy.Integer(1), False),  # an identity: 0 at the point
        ((x + 1) ** 2, x**2 + 2 * x + 1, False),
        (sympy.log(x**2), 2 * sympy.log(x), False),  # equal for positive x only: left to simplify
        (sympy.sqrt(x**2), x, False),
        (x, x + sympy.Float("1e-12"), False),  # below the threshold: left to simplify
        (sympy.pi, sympy.Float("3.14159265358979"), False),
        (f(x), f(y), True),  # an unknown function of symbols: an opaque value at each application
        (f(x) + x, x + f(x), False),
        (f(x) ** 2 + 1, f(x) ** 2, True),
        (f(2 * x), f(x + x), False),  # the same application, written out: one symbol
        (f(2 * x), f(x), False),  # applied to anything but a symbol: not screened
        (sympy.gamma(x + sympy.Rational(1, 2)), sympy.gamma(x) * x, True),
        (sympy.gamma(x + 1), x * sympy.gamma(x), False),  # an identity: 0 at the point
        (sympy.factorial(x), sympy.gamma(x + 1), False),
        (sympy.binomial(x, 2), x * (x - 1) / 2 + 1, True),
        (sympy.gamma(x - x - 1), sympy.Integer(1), False),  # a pole: no value
        (sympy.Derivative(f(x), x), sympy.Integer(0), False),  # derivatives: not screened
        (sympy.Sum(x**n, (n, 0, 3)), 1 + x, False),  # sums: not screened
        (sympy.Integral(x, (x, 0, 1)), sympy.Integer(2), False),  # integrals: not screened
        (x + n, x + 1, False),  # an integer symbol: not screened
        (1 / (x - x), sympy.Integer(1), False),  # zoo: no value
        (sympy.Eq(x, 1), sympy.Eq(x, 2), False),  # relations: not screened
        (sympy.Matrix([[x]]), sympy.Matrix([[y]]), False),
    ],
)
def test_clearly_different_table(a: Any, b: Any, different: bool) -> None:
    assert clearly_different(a, b) is different


@pytest.fixture
def simplify_calls() -> Iterator[list[int]]:
    """The screen installed over a counting wrapper of math-verify's own sympy_symbolic_eq."""
    yield from hook_over_a_counter("sympy_symbolic_eq", install_numeric_screen)


def test_the_screen_skips_simplify_only_where_the_answer_is_no(simplify_calls: list[int]) -> None:
    assert grader.sympy_symbolic_eq(x**2 + 1, x**2 + 2) is False
    assert grader.sympy_symbolic_eq(sympy.tan(x), sympy.sin(x) / sympy.cos(x)) is True
    assert grader.sympy_symbolic_eq(f(x), f(y)) is False
    assert grader.sympy_symbolic_eq(f(2 * x), f(x)) is False
    assert simplify_calls[0] == 2  # the identity and f(2x) reached simplify


_LEAVES = st.sampled_from([x, y, sympy.Integer(2), sympy.Rational(1, 3), sympy.pi, sympy.Float("0.5")])
_UNARY = [sympy.sin, sympy.cos, sympy.exp, sympy.sqrt, sympy.Abs, sympy.atan, sympy.cosh]


def _extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.tuples(children, children).map(lambda p: p[0] + p[1]),
        st.tuples(children, children).map(lambda p: p[0] * p[1]),
        st.tuples(children, st.integers(-2, 3)).map(lambda p: p[0] ** p[1]),
        st.tuples(st.sampled_from(_UNARY), children).map(lambda p: p[0](p[1])),
    )


_EXPRS = st.recursive(_LEAVES, _extend, max_leaves=5)
_EQUAL_FORMS = [sympy.expand, sympy.factor, sympy.together, sympy.powsimp, lambda e: e.rewrite(sympy.exp)]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(a=_EXPRS, form=st.sampled_from(_EQUAL_FORMS), other=_EXPRS)
def test_equal_forms_pass_and_what_is_screened_out_simplify_refuses(a: Any, form: Any, other: Any) -> None:
    """An equal form of ``a`` (expanded, factored, rewritten) is never screened out; where ``a``
    against ``a + 1`` or an unrelated expression is, simplify does not find them equal either."""
    try:
        same = form(a)
    except Exception:
        return
    assert not clearly_different(a, same)
    for b in (a + 1, other):
        if clearly_different(a, b):
            assert grader.sympy_symbolic_eq(a, b) is False


@pytest.mark.parametrize(
    ("gold", "pred", "different"),
    [
        (sympy.Eq(y, 50 * sympy.Float("0.9") ** x), sympy.Eq(y, 50 * sympy.Float("0.7") ** x), True),
        (sympy.Eq(y, x**2), sympy.Eq(x**2 + 1, y), True),  # the symbol on either side
        (sympy.Eq(y, x**2), sympy.Eq(y, x * x), False),  # the same expression
        (sympy.Eq(y, (x + 1) ** 2), sympy.Eq(y, x**2 + 2 * x + 1), False),
        (sympy.Eq(2 * y, 2 * x), sympy.Eq(y, x + 1), True),  # y = x + 1 put into 2y = 2x: 2 = 0
        (sympy.Eq(2 * y, 2 * x), sympy.Eq(y, x), False),  # ... and y = x: 0 = 0, left to solve
        (sympy.Eq(y, x), sympy.Eq(x, y + 1), True),  # other symbols given explicitly: y = x into x = y + 1
        # one side explicit, the other not (locian's growth models)
        (sympy.Eq(y, 580 * sympy.Float("1.03") ** x), sympy.Eq(y / sympy.Float("1.08") ** x, 580), True),
        (sympy.Eq(y, 580 * sympy.Float("1.03") ** x), sympy.Eq(y / sympy.Float("1.03") ** x, 580), False),
        (sympy.Eq(y, sympy.sqrt(x - 5)), sympy.Eq(y**2, x + 1), False),  # y is not real at the point
        (sympy.Eq(y, x**2), sympy.Eq(x, 3), True),  # x = 3 put into y = x^2: y = 9 is not all y
        (sympy.Eq(y, x**2), sympy.Eq(sympy.Symbol("z", real=True), 1), False),  # no common symbol
        (sympy.Eq(y, x + y), sympy.Eq(y, x), True),  # y = x put into y = x + y: x = 0 is not all x
        (sympy.Eq(y, f(x)), sympy.Eq(y, f(2 * x)), False),  # f applied to 2x: not screened
        # f(x) given explicitly, as one more unknown (a functional equation's answer)
        (sympy.Eq(f(x), x**2 + y * x), sympy.Eq(f(x), 2 * x**2 + y * x), True),
        (sympy.Eq(f(x), x**2 + y * x), sympy.Eq(x**2 + x * y, f(x)), False),
        (sympy.Eq(f(x), x), sympy.Eq(f(x) - x, 1), True),  # f(x) = x put into f(x) - x = 1: 0 = 1
        (sympy.Eq(f(x), x), sympy.Eq(f(y), y), False),  # other unknowns: left to solve
        (sympy.Eq(y, f(x)), sympy.Eq(y, f(x) + 1), True),  # ... unless it cancels
        (sympy.Lt(y, x), sympy.Lt(y, x + 1), False),  # inequalities: not screened
        # a product of symbols on one side (latex2sympy reads \Delta\varphi as delta*varphi)
        (sympy.Eq(x * y, sympy.log(x + 2)), sympy.Eq(x * y, -sympy.log(x + 2) / 4), True),
        (sympy.Eq(x * y, sympy.log(x + 2)), sympy.Eq(y * x, sympy.log(2 + x)), False),
        (sympy.Eq(2 * x * y, 1), sympy.Eq(x * y, sympy.Rational(1, 2)), False),  # the same relation
        (sympy.Eq(x * y, x + y), sympy.Eq(x * y, 2 * x + y), False),  # both symbols on the right
    ],
)
def test_explicitly_different_table(gold: Any, pred: Any, different: bool) -> None:
    assert explicitly_different(gold, pred) is different


@pytest.fixture
def solve_and_compare_calls() -> Iterator[list[int]]:
    """The equation screen installed over a counting wrapper of math-verify's own
    sympy_solve_and_compare."""
    yield from hook_over_a_counter("sympy_solve_and_compare", install_equation_screen)


def test_the_equation_screen_skips_solve_only_where_the_answer_is_no(
    solve_and_compare_calls: list[int],
) -> None:
    """math-verify's comparison of two relations gives the same verdicts, and solves only the pairs
    the screen cannot tell apart."""
    decay = sympy.Eq(y, 50 * sympy.Float("0.9") ** x)
    assert grader.sympy_compare_relational(decay, sympy.Eq(y, 50 * sympy.Float("0.7") ** x), 6, 15) is False
    assert solve_and_compare_calls[0] == 0  # before the screen: solve, a second or more
    assert grader.sympy_compare_relational(sympy.Eq(2 * y, 2 * x), sympy.Eq(y, x), 6, 15) is True
    assert grader.sympy_compare_relational(sympy.Eq(y, x**2), sympy.Eq(y, x**2 + 1), 6, 15) is False
    assert solve_and_compare_calls[0] == 1  # only 2y = 2x against y = x needed solve
