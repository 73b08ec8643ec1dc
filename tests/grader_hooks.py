"""A worker hook installed over a counting wrapper of math-verify's own grader function, for tests
that check which calls still reach it (rewards._symbolic_worker's memos, rewards.numeric_screen)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def hook_over_a_counter(name: str, install: Callable[[], Callable[[], None] | None]) -> Iterator[list[int]]:
    """``install`` a hook over a counting wrapper of ``math_verify.grader.<name>``; yields the
    count of calls that reached it, and puts everything back afterwards."""
    from math_verify import grader

    original = getattr(grader, name)
    calls = [0]

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    setattr(grader, name, counting)
    restore = install()
    assert restore is not None, f"math-verify's {name} hook is missing"
    try:
        yield calls
    finally:
        restore()
        setattr(grader, name, original)
