"""The worker remembers math-verify's comparison of structurally identical parsed expressions
(rewards._symbolic_worker.install_comparison_memo), and sympy's solve of structurally identical equations
(install_solve_memo): the same verdicts, each pair compared once, each equation solved once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from grader_hooks import hook_over_a_counter

from rewards._symbolic_worker import install_comparison_memo, install_solve_memo

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
    yield from hook_over_a_counter("sympy_expr_eq", install_comparison_memo)


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


EQUATION_PAIRS = [  # one reference, several answers, as GRPO compares them: math-verify's verdicts
    ("$x=\\sec^{-1}\\left(y\\right)$", "$y=\\sec x$"),
    ("$x=\\sec^{-1}\\left(y\\right)$", "$\\sec x = y$"),
    ("$x=\\sec^{-1}\\left(y\\right)$", "$y = 1/\\cos (x)$"),
    ("$x+y=1$", "$y=1-x$"),
    ("$2x+4=6$", "$x=1$"),
    ("$y^2 = 4x$", "$x = y^2/4$"),
]


@pytest.fixture
def solves() -> Iterator[list[int]]:
    """The solve memo installed over a counting wrapper of the solve math-verify calls."""
    yield from hook_over_a_counter("solve", install_solve_memo)


@pytest.fixture
def plain_equations() -> list[bool]:
    """math-verify's verdicts without the solve memo (this fixture runs before ``solves``)."""
    assert not getattr(grader.solve, "memo", False)
    return [_verify(gold, pred) for gold, pred in EQUATION_PAIRS]


def test_an_equation_is_solved_once_with_the_same_verdicts(
    plain_equations: list[bool], solves: list[int]
) -> None:
    assert [_verify(gold, pred) for gold, pred in EQUATION_PAIRS] == plain_equations
    distinct = solves[0]
    assert [_verify(gold, pred) for gold, pred in EQUATION_PAIRS] == plain_equations
    assert solves[0] == distinct  # the second round solved nothing again
    assert distinct <= 2 * len(EQUATION_PAIRS) - 3  # each reference solved once, not per answer
    assert plain_equations[3] and plain_equations[5] and not plain_equations[0]  # not vacuous


def test_solve_memo_installs_once(solves: list[int]) -> None:
    assert install_solve_memo() is None
