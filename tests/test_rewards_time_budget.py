"""The worker's time budget for one step (rewards.time_budget), and its use on math-verify's solving
of two equations (rewards.numeric_screen.SOLVE_BUDGET_S) with the solve memo remembering an overrun
(rewards._symbolic_worker.install_solve_memo)."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from grader_hooks import hook_over_a_counter

from rewards import numeric_screen
from rewards._symbolic_worker import install_solve_memo
from rewards.numeric_screen import install_equation_screen
from rewards.time_budget import OverBudget, time_budget

pytestmark = pytest.mark.timeout(300, method="thread")  # pytest-timeout's signal method arms ITIMER_REAL


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_a_step_past_its_budget_is_interrupted_and_the_alarm_put_back() -> None:
    before = signal.getsignal(signal.SIGALRM)
    started = time.monotonic()
    with pytest.raises(OverBudget), time_budget(0.05) as armed:
        assert armed
        _spin(5.0)
    assert time.monotonic() - started < 4.0  # interrupted long before the loop's end
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


def test_a_step_within_its_budget_runs_to_its_end() -> None:
    with time_budget(5.0) as armed:
        assert armed
        value = sum(range(1000))
    assert value == 499500
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_code_that_catches_every_exception_is_interrupted_again() -> None:
    """OverBudget is not an Exception, and the alarm repeats: a library's ``except Exception``
    (or a bare except that carries on) does not keep the step running."""
    swallowed = [0]

    def stubborn() -> None:
        for _ in range(5):
            try:
                _spin(1.0)
            except Exception:
                swallowed[0] += 1
            except BaseException:  # a bare except: ...
                swallowed[0] += 1
                continue  # ... that carries on

    started = time.monotonic()
    with pytest.raises(OverBudget), time_budget(0.05):
        stubborn()
        _spin(5.0)
    assert time.monotonic() - started < 10.0
    assert swallowed[0] >= 1


def test_no_budget_off_the_main_thread_or_over_another_timer() -> None:
    armed: list[bool] = []

    def step() -> None:
        with time_budget(0.01) as on:
            armed.append(on)

    thread = threading.Thread(target=step)
    thread.start()
    thread.join()
    signal.setitimer(signal.ITIMER_REAL, 60.0)
    previous = signal.signal(signal.SIGALRM, lambda *_: None)
    try:
        step()
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0  # someone else's timer left alone
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert armed == [False, False]


sympy = pytest.importorskip("sympy")
grader = pytest.importorskip("math_verify.grader")


@pytest.fixture
def solve_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The equation screen and the solve memo over a counting wrapper of sympy's solve as
    math-verify calls it, every solve slowed past a budget of 0.05 s."""
    monkeypatch.setattr(numeric_screen, "SOLVE_BUDGET_S", 0.05)
    original = grader.solve

    def slow_solve(*args: Any, **kwargs: Any) -> Any:
        _spin(0.5)
        return original(*args, **kwargs)

    monkeypatch.setattr(grader, "solve", slow_solve)
    restore = install_equation_screen()
    assert restore is not None
    try:
        yield from hook_over_a_counter("solve", install_solve_memo)
    finally:
        restore()


def test_solving_past_the_budget_is_not_equal_and_not_tried_again(solve_calls: list[int]) -> None:
    """Two equal equations that sympy could only show equal by solving, past the budget: not
    shown equal (as when math-verify's solve raises); the overrun is remembered, so the same
    reference against the next answer does not spend the budget again."""
    x, y = sympy.symbols("x y", real=True)
    gold = sympy.Eq(2 * y, 2 * x)
    assert grader.sympy_compare_relational(gold, sympy.Eq(y, x), 6, 15) is False
    assert solve_calls[0] == 1  # the reference's solve, interrupted
    assert grader.sympy_compare_relational(gold, sympy.Eq(3 * y, 3 * x), 6, 15) is False
    assert solve_calls[0] == 1  # remembered: not solved again
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_equal_equations_within_the_budget_are_still_equal() -> None:
    x, y = sympy.symbols("x y", real=True)
    restore = install_equation_screen()
    assert restore is not None
    try:
        assert grader.sympy_compare_relational(sympy.Eq(2 * y, 2 * x), sympy.Eq(y, x), 6, 15) is True
    finally:
        restore()
