"""Logging of the failures a reward absorbs, without flooding the trainer's log.

A reward never raises into verl: a failure scores 0 (or a format violation) and is logged. The
same defect usually repeats for every sample of a batch (a dataset column of the wrong type, a
bug on one answer form), and verl calls ``compute_score`` thousands of times per step, so each
kind of failure (where it was caught, the exception's type) is logged with its traceback the
first ``TRACEBACKS`` times, then as one line when its count reaches a power of two or of ten.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

TRACEBACKS = 3
"""Failures of one kind logged with their traceback before the log switches to counts."""

_counts: Counter[tuple[str, str]] = Counter()
_lock = threading.Lock()


def log_failure(logger: logging.Logger, what: str, exc: BaseException) -> None:
    """Log ``exc``, caught where ``what`` says, from inside its ``except`` block."""
    key = (what, type(exc).__name__)
    with _lock:
        _counts[key] += 1
        n = _counts[key]
    if n <= TRACEBACKS:
        logger.exception("%s (failure %d of this kind)", what, n)
        if n == TRACEBACKS:
            logger.error("%s: further %s failures are counted, not traced", what, key[1])
    elif n & (n - 1) == 0 or str(n).rstrip("0") == "1":  # a power of two or of ten
        logger.error("%s: %d %s failures so far (last: %s)", what, n, key[1], _short(exc))


def _short(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # an exception whose __str__ raises
        text = "?"
    return text[:200]


def failure_counts() -> dict[tuple[str, str], int]:
    """Failures seen so far in this process, by (where, exception type)."""
    with _lock:
        return dict(_counts)
