"""The worker's screen before sympy's set algebra (rewards.constant_sets): finite sets of numeric
constants compared by value, math-verify's verdict otherwise kept, sympy's symmetric difference
skipped where the values decide."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from grader_hooks import hook_over_a_counter

from rewards.constant_sets import constant_sets_verdict, install_constant_set_screen

sympy = pytest.importorskip("sympy")
grader = pytest.importorskip("math_verify.grader")

i = sympy.Symbol("i", real=True)  # latex2sympy reads the i of e^{i\pi/3} as a real symbol
x = sympy.Symbol("x", real=True)
pi, E, UNIT = sympy.pi, sympy.E, sympy.I


def _roots(ks: range, unit: Any = i) -> list[Any]:
    return [sympy.exp(k * pi * unit / 3) for k in ks]


def fs(*elements: Any) -> Any:
    return sympy.FiniteSet(*elements)


@pytest.mark.parametrize(
    ("gold", "pred", "verdict"),
    [
        (fs(0, 1, -1, *_roots(range(1, 6)[:2]), *_roots((4, 5))), fs(0, *_roots(range(6))), True),
        (fs(0, *_roots(range(6))), fs(0, *_roots(range(5))), False),  # one root missing
        (fs(0, *_roots(range(6))), fs(0, 2, *_roots(range(6))), False),  # one element more
        (fs(*_roots(range(6), UNIT)), fs(*_roots(range(6))), True),  # the unit itself
        (fs(sympy.sqrt(2), sympy.Rational(1, 2)), fs(sympy.Rational(1, 2), 2 / sympy.sqrt(2)), True),
        (fs(sympy.sqrt(8), 1), fs(2 * sympy.sqrt(2), 1, sympy.cos(0)), True),  # a repeat, by value
        (fs(sympy.sin(pi / 6), E), fs(sympy.Rational(1, 2), sympy.exp(1)), True),
        (fs(pi, 1), fs(sympy.Rational(355, 113), 1), False),  # 3e-7 apart: different numbers
        (fs(1, 2), fs(1 + sympy.Rational(1, 10**17), 2), None),  # 1e-17: neither; doubles would say equal
        (fs(1, 2), fs(1 + sympy.Rational(1, 10**30), 2), True),  # within 1e-20 at both precisions
        (fs(x, 1), fs(x, 1), None),  # a symbol: left to sympy
        (fs(sympy.Float("0.5"), 1), fs(sympy.Rational(1, 2), 1), None),  # decimals: math-verify rounds
        (fs(sympy.zoo, 1), fs(1, 2), None),  # no finite value
        (sympy.Interval(0, 1), fs(0, 1), None),  # not two finite sets
        (sympy.Tuple(1, 2), fs(1, 2), None),
        (fs(*range(50)), fs(*range(50)), None),  # too many elements to match pairwise
    ],
)
def test_constant_sets_verdict_table(gold: Any, pred: Any, verdict: bool | None) -> None:
    assert constant_sets_verdict(gold, pred) is verdict
    assert constant_sets_verdict(pred, gold) is verdict


@pytest.fixture
def set_algebra_calls() -> Iterator[list[int]]:
    """The screen installed over a counting wrapper of math-verify's own sympy_compare_sets."""
    yield from hook_over_a_counter("sympy_compare_sets", install_constant_set_screen)


def test_the_screen_skips_set_algebra_only_where_values_decide(set_algebra_calls: list[int]) -> None:
    sixth_roots = fs(0, *_roots(range(6)))
    listed = fs(0, 1, -1, *_roots((1, 2, 4, 5)))
    assert grader.sympy_compare_sets(sixth_roots, listed, 6, 15) is True
    assert grader.sympy_compare_sets(sixth_roots, fs(0, *_roots(range(5))), 6, 15) is False
    assert set_algebra_calls[0] == 0
    assert grader.sympy_compare_sets(fs(x, 1), fs(1, x), 6, 15) is True
    assert (
        grader.sympy_compare_sets(fs(sympy.Float("0.333333"), 1), fs(sympy.Rational(1, 3), 1), 6, 15) is True
    )
    assert set_algebra_calls[0] == 2  # a symbol and a decimal: math-verify's own comparison


def test_different_values_keep_math_verifys_element_wise_verdict(set_algebra_calls: list[int]) -> None:
    """Where the values differ, the verdict is math-verify's next step's, the element-wise
    comparison at its float rounding: 3.14159265 and pi agree to six places there."""
    near = fs(sympy.Rational(314159265, 10**8), 2)
    assert constant_sets_verdict(fs(pi, 2), near) is False
    assert grader.sympy_compare_sets(fs(pi, 2), near, 6, 15) is grader.sympy_deep_compare_set_and_tuple(
        fs(pi, 2), near, 6, 15
    )
