"""Two equations without solutions are not the same answer for that alone (symbolic worker only).

math-verify compares two equations by the solutions sympy's ``solve`` finds for each
(``sympy_solve_and_compare``), pairing them with ``zip``: two empty lists pair up to "equal".
latex2sympy's symbols are real, so every equation without a real solution equals every other:
``x^2-3x+10=0`` = ``x^2-3x+10=1``, ``e^{10x}=0`` = ``e^{10x}+0.0000001=0``, ``x^2+1=0`` =
``x^4=-5``. A reward would then credit any equation that has no real root for a reference that
has none; the labelled sets that have such pairs mark them wrong (pie-framework's and Doenet's).

So when math-verify says equal and neither equation has a solution, the pair is equal only when
the equations are the same up to a nonzero constant factor: ``lhs - rhs`` of one divided by the
other's cancels to a nonzero number (``x^2+1=0`` = ``2x^2+2=0``).

An equation without free symbols (``\\int_0^1 x\\,dx = \\frac12``, ``\\sin(1) = \\frac13``) has
nothing to solve for: sympy's ``solve`` returns ``[]`` whether it is true or false, so every such
equation "equals" every other, and a response that states a wrong value for the reference's
integral was credited. math-verify compares the two sides' differences first
(``sympy_compare_relational``); that comparison still credits ``\\int_0^1 x\\,dx = 0.5``. The
solutions' comparison never credits a closed equation. sympy's ``solve`` results are
remembered per equation (:func:`rewards._symbolic_worker.install_solve_memo`), so asking again
costs nothing. A verdict of "different" is never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rewards.library_hooks import hook_grader


def without_solutions(equation: Any) -> bool:
    """Whether sympy finds no solution of ``equation`` (an ``Eq``) for its free symbols; False when
    it cannot say (it raises) or ``equation`` is something else."""
    import sympy
    from math_verify import grader

    if not isinstance(equation, sympy.Eq) or not equation.free_symbols:
        return False
    try:
        return list(grader.solve(equation, equation.free_symbols)) == []
    except Exception:  # sympy could not solve it: not known to have no solution
        return False


def closed(relation: Any) -> bool:
    """Whether ``relation`` is a sympy relation without free symbols (``\\sin(1) = \\frac12``)."""
    import sympy

    return isinstance(relation, sympy.core.relational.Relational) and not relation.free_symbols


def proportional(gold: Any, pred: Any) -> bool:
    """Whether ``lhs - rhs`` of the two equations differ by a nonzero constant factor."""
    import sympy

    try:
        ratio = sympy.cancel((gold.lhs - gold.rhs) / (pred.lhs - pred.rhs))
        return bool(ratio.is_number and ratio.is_nonzero)
    except Exception:  # a division or cancellation sympy refuses: not shown proportional
        return False


def install_no_solution_rule() -> Callable[[], None] | None:
    """Wrap math-verify's ``sympy_solve_and_compare``: an "equal" for two equations that both have
    no solution stands only when they are proportional; one for an equation without free symbols
    (:func:`closed`) never stands. Returns a function that restores the
    original, or None when math-verify lacks the hook."""

    def ruled(original: Callable[..., Any]) -> Callable[..., bool]:
        def sympy_solve_and_compare(gold: Any, pred: Any, *args: Any, **kwargs: Any) -> bool:
            same = bool(original(gold, pred, *args, **kwargs))
            if same and gold != pred and (closed(gold) or closed(pred)):
                return False
            if same and gold != pred and without_solutions(gold) and without_solutions(pred):
                return proportional(gold, pred)
            return same

        return sympy_solve_and_compare

    return hook_grader("sympy_solve_and_compare", "no_solution_rule", ruled)
