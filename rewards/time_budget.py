"""A wall-clock budget for one step of a comparison inside a symbolic worker (its main thread).

:func:`time_budget` arms ``ITIMER_REAL`` for the step; past the budget, ``SIGALRM`` raises
:class:`OverBudget` in the step, and again every :data:`REPEAT_S` until the step ends, so a
library that catches what it raises and carries on is interrupted again. ``OverBudget`` derives
from ``BaseException``: sympy's and math-verify's ``except Exception`` do not swallow it, and the
caller that set the budget catches it. Outside the main thread, or with a timer already armed by
someone else, the step runs without a budget (the worker's own bound, a SIGKILL from its parent,
still holds).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

REPEAT_S = 0.05
"""After the budget, the alarm repeats at this interval until the step ends."""


class OverBudget(BaseException):
    """The step ran past its budget."""


def _raise_over_budget(_signum: int, _frame: Any) -> None:
    raise OverBudget


@contextmanager
def time_budget(seconds: float) -> Iterator[bool]:
    """Run the ``with`` body under a budget of ``seconds`` (yields whether the budget is armed).
    The body raises :class:`OverBudget` past it; the timer and the previous ``SIGALRM`` handler
    are restored on the way out, whatever happens."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        yield False
        return
    previous = signal.signal(signal.SIGALRM, _raise_over_budget)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(1e-3, seconds), REPEAT_S)
        yield True
    finally:
        _disarm(previous)


def _disarm(previous: Any) -> None:
    """Stop the timer and put the previous handler back. An alarm that fires while this runs
    raises here too: it is dropped and the step retried, until both are done."""
    while True:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            return
        except OverBudget:
            continue
