"""The worker remembers math-verify's comparison of structurally identical parsed expressions
(rewards._symbolic_worker.install_comparison_memo): the same verdicts, each pair compared once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rewards._symbolic_worker import install_comparison_memo

grader = pytest.importorskip("math_verify.grader")
math_verify = pytest.importorskip("math_verify")

CONFIG = [math_verify.LatexExtractionConfig(boxed_match_priority=0), math_verify.ExprExtractionConfig()]

PAIRS = [  # (gold, pred, the same pair as the certain path prepares it): math-verify's verdicts
    ("$x=\\sec^{-1}\\left(\\frac{1}{n}\\right)$", "$\\frac{1}{n}=\\sec x$", "$x=\\sec^{-1}(\\frac{1}{n})$"),
    ("$x^2/4 + y^2/3 = 1$", "$x^2/16 + y^2/12 = 1/4$", "$\\frac{x^2}{4} + \\frac{y^2}{3} = 1$"),
    ("$\\left(1, \\frac{9}{2}\\right)$", "$(1,4.5)$", "$(1, \\dfrac{9}{2})$"),
    ("$0.5$", "$\\frac{1}{2}$", "$0.50$"),  # Floats of different precision: not the same key
    ("$x < 1$", "$-x > -1$", "$x<1$"),
]


@pytest.fixture
def counted() -> Iterator[list[int]]:
    """The memo installed over a counting wrapper of math-verify's own comparison."""
    original = grader.sympy_expr_eq
    calls = [0]

    def counting(*args: Any, **kwargs: Any) -> bool:
        calls[0] += 1
        return bool(original(*args, **kwargs))

    grader.sympy_expr_eq = counting
    restore: Callable[[], None] | None = install_comparison_memo()
    assert restore is not None, "math-verify's sympy_expr_eq hook is missing"
    try:
        yield calls
    finally:
        restore()
        grader.sympy_expr_eq = original


def _verify(gold: str, pred: str) -> bool:
    return bool(
        math_verify.verify(
            math_verify.parse(gold, CONFIG, parsing_timeout=None),
            math_verify.parse(pred, CONFIG, parsing_timeout=None),
            timeout_seconds=None,
        )
    )


@pytest.fixture
def plain() -> list[tuple[bool, bool]]:
    """math-verify's verdicts without the memo (this fixture runs before ``counted``)."""
    assert not getattr(grader.sympy_expr_eq, "memo", False)
    return [(_verify(gold, pred), _verify(prepared, pred)) for gold, pred, prepared in PAIRS]


def test_verdicts_are_math_verifys_and_a_repeat_is_not_compared_again(
    plain: list[tuple[bool, bool]], counted: list[int]
) -> None:
    assert [(_verify(gold, pred), _verify(prepared, pred)) for gold, pred, prepared in PAIRS] == plain
    first = counted[0]
    assert [_verify(gold, pred) for gold, pred, _ in PAIRS] == [p[0] for p in plain]
    assert counted[0] == first  # every top-level comparison came from the memo
    assert plain[0] == (False, False) and plain[2] == (True, True)  # the table is not vacuous


def test_a_second_install_does_nothing(counted: list[int]) -> None:
    assert install_comparison_memo() is None


def test_written_order_stays_out_of_the_memo(counted: list[int]) -> None:
    # latex2sympy reads "x > 1 and x < 3" as a set that keeps its written order (_unsorted_args)
    for gold, pred in (("$1 < x < 3$", "$x < 3 \\text{ and } x > 1$"), ("$1 < x < 3$", "$1<x<3$")):
        first = _verify(gold, pred)
        before = counted[0]
        assert _verify(gold, pred) == first
        assert counted[0] > before  # compared again: the order is not in the key
