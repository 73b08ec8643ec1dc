"""A numeric screen before sympy's ``simplify`` in math-verify's symbolic comparison (worker only).

math-verify's ``sympy_symbolic_eq(a, b)`` is true only when ``simplify(a - b)`` is zero. That
call takes 20 ms to seconds, and on most pairs that reach it the answer is no. Where ``a - b`` is
an elementary expression (numbers, ``pi``, ``E``, ``I``, symbols, ``+ * ^``, exp/log, trigonometric
and hyperbolic functions and their inverses, ``Abs``, ``gamma``, ``factorial``, ``binomial``), it is first evaluated at one point, each
symbol a positive irrational-looking number, substituted (``xreplace``) and evaluated with
sympy's ``evalf``, twice: the point at 40 digits, the value at 30, then 60 and 50. A value
clearly away from zero (above 1e-10 in size) both times, the two agreeing, means ``a - b`` is not
identically zero, so ``simplify`` cannot make it zero, and the answer is no without it. (An
identity evaluates to rounding noise, around 1e-40, which the two precisions also tell apart.
``evalf(subs=...)`` is not used: it answers 256 for ``2|\\sin x| - |e^{ix} - e^{-ix}|``.)

Sound for math-verify's verdict: ``simplify`` rewrites an expression into an equal one, for the
values its symbols may take (latex2sympy's symbols are real; the point is real and positive, so
it is one of those values; a symbol with any assumption a positive irrational number may break,
such as integer, is not screened). An identity sympy applies only for positive values (``\\log
x^2 = 2\\log x``) holds at the point, so its difference is 0 there and goes to ``simplify`` as
before. Anything else (functions of unknown kind, sums, integrals, limits, matrices, relations,
sets) goes to ``simplify`` unscreened. An unknown function applied to plain symbols (``f(x)``) is
an opaque value of its own (a positive symbol at the point); applied to anything else
(``f(2x)``) it is not screened.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from rewards.library_hooks import hook_grader
from rewards.time_budget import OverBudget, time_budget

POINT = ("(sqrt(5) - 1) / 2", "sqrt(2)", "sqrt(3) - 1", "sqrt(5) - 1", "2*sqrt(2) - 2", "sqrt(7) - 1")
"""Values given to the symbols, in order of their names, cycling: positive, away from 0, 1 and
the integers (0.618, 1.414, 0.732, 1.236, 0.828, 1.646)."""
CLEARLY_NONZERO = 1e-10
PRECISIONS = ((40, 30), (60, 50))
"""(digits of the point, digits of the value): the value is computed twice and must agree, so
that rounding of the point, amplified by cancellation, cannot pass for a difference."""
AGREEMENT = 1e-6
SOLVE_BUDGET_S = 1.0
"""Seconds math-verify's solving of two equations may take (:func:`install_equation_screen`).
Every solve that showed two relations equal, on the reward tests and 6,394 held-out pairs, took
0.12 s or less; differential equations (``ml\\ddot{\\theta}(t) - mg\\sin\\theta(t) = ...`` against
another form) take 0.6 to 10 s and fail, and held a comparison to its 3 s bound."""


@functools.cache
def _elementary_types() -> tuple[type, ...]:
    import sympy
    from sympy.functions.elementary import hyperbolic, trigonometric

    named = [
        sympy.Add,
        sympy.Mul,
        sympy.Pow,
        sympy.Symbol,
        sympy.Number,
        sympy.NumberSymbol,
        sympy.core.numbers.ImaginaryUnit,
        sympy.exp,
        sympy.log,
        sympy.Abs,
        sympy.gamma,  # and the two written with it: defined at the screen's point (not an integer)
        sympy.factorial,
        sympy.binomial,
    ]
    for module in (trigonometric, hyperbolic):
        for name in (
            "sin cos tan cot sec csc asin acos atan acot asec acsc "
            "sinh cosh tanh coth sech csch asinh acosh atanh acoth asech acsch"
        ).split():
            if hasattr(module, name):
                named.append(getattr(module, name))
    return tuple(named)


def _ordered_symbols(symbols: set[Any]) -> list[Any] | None:
    """The symbols in order of their names, or None when one is not a plain symbol or its
    assumptions may exclude a positive irrational value."""
    import sympy

    ordered = sorted(symbols, key=lambda s: getattr(s, "name", ""))
    for symbol in ordered:
        if not isinstance(symbol, sympy.Symbol):
            return None
        if symbol.is_real is False or symbol.is_positive is False or symbol.is_rational or symbol.is_zero:
            return None  # is_rational covers integers, primes, even and odd
    return ordered


@functools.cache
def _point_value(i: int, digits: int) -> Any:
    """The value of the ``i``-th symbol at ``digits`` digits (computed once)."""
    import sympy

    exact = sympy.sympify(POINT[i % len(POINT)])
    return sympy.Float(exact.evalf(digits), digits)


def _value_at_point(difference: Any, symbols: list[Any], point_digits: int, digits: int) -> complex | None:
    import sympy

    point = {symbol: _point_value(i, point_digits) for i, symbol in enumerate(symbols)}
    value = difference.xreplace(point).evalf(digits)
    if not isinstance(value, sympy.Expr) or not value.is_number or value.has(sympy.nan, sympy.zoo):
        return None
    if not value.is_finite:
        return None
    return complex(value)


def _applies_to_symbols(node: Any) -> bool:
    """Whether ``node`` is an unknown function applied to plain symbols (``f(x)``, ``g(x, y)``)."""
    import sympy
    from sympy.core.function import AppliedUndef

    return isinstance(node, AppliedUndef) and all(isinstance(arg, sympy.Symbol) for arg in node.args)


def _opaque_applications(expr: Any) -> Any:
    """``expr`` with each application of an unknown function to plain symbols (``f(x)``) replaced
    by a positive symbol of its own, or None when an unknown function is applied to anything else
    (``f(2x)``: ``f(x + x)`` is the same value, which independent symbols would not know). Nothing
    is known of ``f``, so ``simplify`` treats ``f(x)`` as an opaque value: a difference clearly
    nonzero for one choice of those values is not identically zero."""
    import sympy
    from sympy.core.function import AppliedUndef

    if not isinstance(expr, sympy.Basic):
        return expr
    applications = expr.atoms(AppliedUndef)
    if not applications:
        return expr
    if not all(_applies_to_symbols(app) for app in applications):
        return None
    ordered = sorted(applications, key=sympy.srepr)
    return expr.xreplace({app: sympy.Dummy(f"applied{k}", positive=True) for k, app in enumerate(ordered)})


def clearly_different(a: Any, b: Any) -> bool:
    """Whether ``a - b`` is an elementary expression clearly nonzero at the screen's point (see
    the module docstring); False whenever that is not shown, including every error."""
    import sympy

    try:
        if not isinstance(a, sympy.Expr) or not isinstance(b, sympy.Expr):
            return False
        difference = _opaque_applications(a - b)
        if not isinstance(difference, sympy.Expr):
            return False
        allowed = _elementary_types()
        if not all(isinstance(node, allowed) for node in sympy.preorder_traversal(difference)):
            return False
        symbols = _ordered_symbols(difference.free_symbols)
        if symbols is None:
            return False
        values = []
        for point_digits, digits in PRECISIONS:
            value = _value_at_point(difference, symbols, point_digits, digits)
            if value is None or abs(value) <= CLEARLY_NONZERO:
                return False
            values.append(value)
        first, second = values
        return abs(first - second) <= AGREEMENT * max(abs(first), abs(second))
    except Exception:  # a value sympy cannot compute: the comparison goes on unscreened
        return False


def install_numeric_screen() -> Callable[[], None] | None:
    """Screen math-verify's ``sympy_symbolic_eq`` (see the module docstring). Returns a function
    that restores the original, or None when math-verify lacks the hook."""

    def screened(original: Callable[[Any, Any], Any]) -> Callable[[Any, Any], bool]:
        def sympy_symbolic_eq(a: Any, b: Any) -> bool:
            if clearly_different(a, b):
                return False
            return bool(original(a, b))

        return sympy_symbolic_eq

    return hook_grader("sympy_symbolic_eq", "screened", screened)


def _explicit(equation: Any) -> tuple[Any, Any] | None:
    """``(y, f)`` when ``equation`` gives the symbol ``y`` (or an unknown function of symbols,
    ``f(x)``, as one more unknown) explicitly, ``y = f`` or ``f = y`` with ``y`` not in ``f``; or
    when one side is a product of distinct symbols and a number (``\\Delta \\varphi = f``, which
    latex2sympy reads as a product), ``y`` the last of them by name that is not in ``f``, and the
    value ``f`` over the rest of the product (nonzero at the screen's point); else None."""
    import sympy

    for side, other in ((equation.lhs, equation.rhs), (equation.rhs, equation.lhs)):
        if (isinstance(side, sympy.Symbol) or _applies_to_symbols(side)) and not other.has(side):
            return side, other
    for side, other in ((equation.lhs, equation.rhs), (equation.rhs, equation.lhs)):
        if isinstance(side, sympy.Mul):
            coefficient, factors = side.as_coeff_mul()
            if coefficient == 0 or len(factors) < 2 or len(set(factors)) != len(factors):
                continue
            if not all(isinstance(f, sympy.Symbol) for f in factors):
                continue
            for symbol in sorted(factors, key=lambda f: f.name, reverse=True):
                if not other.has(symbol):
                    return symbol, other / (side / symbol)
    return None


def explicitly_different(gold: Any, pred: Any) -> bool:
    """Whether two equations give the same symbol explicitly (``y = f``, ``y = g``) by expressions
    clearly different at the screen's point (:func:`clearly_different`), or one gives a symbol
    explicitly (``y = f``) and the other, with ``y`` in it, is clearly not satisfied by ``f`` at that
    point. Then a point on the first (the symbols at the screen's values, ``y`` at ``f``'s) is not
    on the second: the equations are different relations, and solving them cannot show them equal.
    False whenever that is not shown."""
    import sympy

    try:
        if not isinstance(gold, sympy.Eq) or not isinstance(pred, sympy.Eq):
            return False
        a, b = _explicit(gold), _explicit(pred)
        if a is not None and b is not None and a[0] == b[0]:
            return clearly_different(a[1], b[1])
        return (a is not None and _off_the_relation(a, pred)) or (
            b is not None and _off_the_relation(b, gold)
        )
    except Exception:  # anything unexpected: the comparison goes on unscreened
        return False


def _off_the_relation(explicit: tuple[Any, Any], equation: Any) -> bool:
    """Whether the point of ``y = f`` at the screen's values (``y`` at ``f``'s value there, a real
    number) is clearly not on ``equation``, which has ``y`` in it but does not give it explicitly
    (``y = 580 \\cdot 1.03^t`` against ``\\frac{y}{1.08^t} = 580``)."""
    symbol, value = explicit
    if not equation.has(symbol):
        return False
    lhs, rhs = equation.lhs.xreplace({symbol: value}), equation.rhs.xreplace({symbol: value})
    symbols = _ordered_symbols((lhs - rhs).free_symbols | value.free_symbols)
    if symbols is None:
        return False
    for point_digits, digits in PRECISIONS:
        at = _value_at_point(value, symbols, point_digits, digits)
        if at is None or abs(at.imag) > CLEARLY_NONZERO * max(1.0, abs(at)):
            return False  # y is not a real number there: no point of the first relation
    return clearly_different(lhs, rhs)


def install_equation_screen() -> Callable[[], None] | None:
    """Screen math-verify's ``sympy_solve_and_compare``, the last step of its comparison of two
    relations, which asks sympy to ``solve`` each (a second or more for ``y = 50 \\cdot 0.9^x``):
    two equations :func:`explicitly_different` are not equal without it, and the rest get
    :data:`SOLVE_BUDGET_S` (in a worker's main thread; past it, not shown equal). Returns a
    function that restores the original, or None when math-verify lacks the hook."""

    def screened(original: Callable[..., Any]) -> Callable[..., bool]:
        def sympy_solve_and_compare(gold: Any, pred: Any, *args: Any, **kwargs: Any) -> bool:
            if explicitly_different(gold, pred):
                return False
            try:
                with time_budget(SOLVE_BUDGET_S):
                    return bool(original(gold, pred, *args, **kwargs))
            except OverBudget:
                return False  # not shown equal in time: as when math-verify's solve raises

        return sympy_solve_and_compare

    return hook_grader("sympy_solve_and_compare", "screened", screened)
