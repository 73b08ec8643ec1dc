"""Replacing one attribute of a library object, reversibly: how the symbolic worker installs its
speed-ups into latex2sympy and math-verify (:mod:`rewards.latex_prediction`,
:func:`rewards._symbolic_worker.install_comparison_memo`, ``install_solve_memo``,
:func:`rewards.numeric_screen.install_numeric_screen`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def unhooked(owner: Any, name: str, marker: str) -> Any | None:
    """``owner.name`` where it exists and no hook flagged ``marker`` replaced it yet; else None
    (the library lacks the attribute, or the hook is installed)."""
    original = getattr(owner, name, None)
    if original is None or getattr(original, marker, False):
        return None
    return original


def replace_attribute(owner: Any, name: str, new: Any, marker: str) -> Callable[[], None]:
    """Set ``owner.name`` to ``new``, flagged with the attribute ``marker`` (so a second install
    sees it); returns a function that puts the original back."""
    original = getattr(owner, name)
    setattr(new, marker, True)
    setattr(owner, name, new)

    def restore() -> None:
        setattr(owner, name, original)

    return restore


def hook_grader(name: str, marker: str, wrap: Callable[[Any], Any]) -> Callable[[], None] | None:
    """Replace ``math_verify.grader.<name>`` by ``wrap(original)`` (see :func:`replace_attribute`);
    returns the function that puts the original back, or None when math-verify or that attribute
    is missing or the hook flagged ``marker`` is already installed (then nothing changes)."""
    try:
        from math_verify import grader
    except ImportError:
        return None
    original = unhooked(grader, name, marker)
    if original is None:
        return None
    return replace_attribute(grader, name, wrap(original), marker)
