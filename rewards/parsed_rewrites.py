"""Rewrites of parsed answers (sympy expressions from math-verify's ``parse``) before the
worker compares them (:mod:`rewards._symbolic_worker`): each keeps a value and makes a form
sympy compares quickly and rightly.

- :func:`has_extreme_power`: a power with an extreme exponent (``2^{2^{100}}``): compared by form;
- :func:`expand_finite_sums`: a sum or product over a range of integers written out term by term;
- :func:`differential_equation_against_value`: a differential equation is never a bare value;
- :func:`opaque_derivatives`: ``\\frac{dM}{dt}`` of a plain symbol is a symbol of its own;
- :func:`small_factorials_evaluated`: ``2!`` as 2 (latex2sympy leaves it unevaluated);
- :func:`canonical_bound_names`: the variables bound by sums, products and integrals renamed in order.

:func:`under_relations` and :func:`each_rewritten` are the walk they share: under relations and
``And``/``Or`` in written order, and per parsed item, keeping math-verify's own reading of an item
that does not rebuild. sympy is imported when a rewrite first runs, never at import.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

EXTREME_EXPONENT = 10**6
"""A power of a number with an exponent beyond this (or within its inverse of 0) is extreme."""


def has_extreme_power(parsed: list[Any]) -> bool:
    """Whether a parsed answer holds a power of a number with an extreme exponent that is not a
    written integer (``2^{2^{100}}``, ``2^{\\frac{1}{2^{1000}}}``). sympy's simplification of such
    a value runs for minutes; math-verify's own timeout then makes the pair "not equal"."""
    import sympy

    for expr in parsed:
        if not isinstance(expr, sympy.Basic):
            continue
        for node in sympy.preorder_traversal(expr):
            if not isinstance(node, sympy.Pow) or node.exp.is_Integer or not node.base.is_number:
                continue
            if not node.exp.is_number:
                continue
            try:
                size = abs(float(node.exp.evalf(15)))
            except (ArithmeticError, TypeError, ValueError):
                return True  # an exponent too large to evaluate
            if size > EXTREME_EXPONENT or 0 < size < 1 / EXTREME_EXPONENT:
                return True
    return False


MAX_EXPANDED_TERMS = 2000
"""A sum or product over a numeric range of at most this many terms is written out term by term."""


class _TooLong(Exception):
    """A sum or product over more terms than :data:`MAX_EXPANDED_TERMS`."""


def _expand_one(node: Any) -> Any:
    import sympy

    if len(node.limits) != 1 or len(node.limits[0]) != 3:
        return node
    index, low, high = node.limits[0]
    if index not in node.function.free_symbols:  # F_k F_{n-k-1}: latex2sympy's F_k is one symbol
        count_expr = high - low + 1  # Karr's convention, sympy's: the same for reversed limits
        return node.function * count_expr if isinstance(node, sympy.Sum) else node.function**count_expr
    if not (low.is_Integer and high.is_Integer) or node.function.is_polynomial(index):
        return node  # symbolic bounds, or a polynomial summand: sympy's closed form is quick
    count = int(high) - int(low) + 1
    if count < 0:
        return node  # reversed limits: sympy's convention (Karr's), not an empty sum
    if count > MAX_EXPANDED_TERMS:
        raise _TooLong
    terms = [node.function.xreplace({index: sympy.Integer(i)}) for i in range(int(low), int(high) + 1)]
    return sympy.Add(*terms) if isinstance(node, sympy.Sum) else sympy.Mul(*terms)


def expand_finite_sums(parsed: list[Any]) -> list[Any] | None:
    """``parsed`` with each sum and product over a range of integers written out term by term
    (``\\sum_{k=0}^{1000} \\binom{1000}{k} 2^{1000-k} \\sqrt{3}^k``), an exact value sympy then
    compares quickly; sympy's own evaluation of such a sum (Euler-Maclaurin under ``evalf``) runs
    for minutes, and math-verify's timeout makes the pair "different". A polynomial summand is
    left to sympy's closed form. A term that does not depend on the index
    (``\\sum_{k=0}^{n-1} F_k F_{n-k-1}``: latex2sympy reads ``F_{n-k-1}`` as one symbol) gives the
    closed form ``term * (high - low + 1)`` (``term**(high - low + 1)`` for a product), as sympy's
    ``doit`` does, for any bounds: with a symbolic bound, ``evalf`` spent 0.3 s on Euler-Maclaurin
    to find no number. None when a range is longer than :data:`MAX_EXPANDED_TERMS`."""
    import sympy

    def expand(expr: Any) -> Any:  # "a = b" kept even when now True; an And in its written order
        return under_relations(
            expr, lambda e: e.replace(lambda n: isinstance(n, (sympy.Sum, sympy.Product)), _expand_one)
        )

    try:
        return each_rewritten(parsed, (sympy.Sum, sympy.Product), expand)
    except _TooLong:
        return None


def under_relations(expr: Any, rewrite: Callable[[Any], Any]) -> Any:
    """``rewrite`` applied to the sides of a relation and to the arguments of an ``And``/``Or`` in
    latex2sympy's written order (``_unsorted_args``, which math-verify reads), rebuilt unevaluated
    (``a = b`` stays a relation even when it became true); to any other expression directly."""
    import sympy

    if isinstance(expr, sympy.core.relational.Relational):
        return expr.func(
            under_relations(expr.lhs, rewrite), under_relations(expr.rhs, rewrite), evaluate=False
        )
    if isinstance(expr, sympy.logic.boolalg.BooleanFunction):
        args = getattr(expr, "_unsorted_args", expr.args)
        return expr.func(*(under_relations(a, rewrite) for a in args), evaluate=False)
    return rewrite(expr)


def each_rewritten(parsed: list[Any], kinds: tuple[type, ...], rewrite: Callable[[Any], Any]) -> list[Any]:
    """``parsed`` with ``rewrite`` applied to each expression that holds a node of ``kinds``;
    ``parsed`` as it was when one does not rebuild (math-verify's own reading). An expansion past
    its bound (:class:`_TooLong`) goes to the caller."""
    import sympy

    out: list[Any] = []
    for expr in parsed:
        if isinstance(expr, sympy.Basic) and expr.has(*kinds):
            try:
                expr = rewrite(expr)
            except _TooLong:
                raise
            except Exception:  # a form that does not rebuild: math-verify's own reading
                return parsed
        out.append(expr)
    return out


def differential_equation_against_value(gold: list[Any], pred: list[Any]) -> bool:
    """Whether the reference is a differential equation (``m\\frac{dv}{dt}+bv=f``; not a derivative
    named on one side, ``\\frac{dy}{dx} = 2x``) and the answer is not a relation. math-verify reads
    an equation whose left side holds only symbols as an assignment and compares its right side
    (``f``) with the answer, so a response that only named ``f`` was credited; the right side of a
    differential equation is never its solution."""
    import sympy

    golds = [x for x in gold if isinstance(x, sympy.Basic)]
    preds = [x for x in pred if isinstance(x, sympy.Basic)]
    return (
        bool(golds)
        and bool(preds)
        and all(
            isinstance(x, sympy.Eq)
            and x.has(sympy.Derivative)
            and not isinstance(x.lhs, sympy.Derivative)  # dy/dx = 2x: the derivative, named
            and not isinstance(x.rhs, sympy.Derivative)
            for x in golds
        )
        and not any(
            isinstance(x, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanFunction))
            for x in preds
        )
    )


def opaque_derivatives(parsed: list[Any]) -> list[Any]:
    """``parsed`` with each derivative of a plain symbol (``\\frac{dM}{dt}``, which latex2sympy
    reads as ``Derivative(m, t)``: ``m`` a symbol, not a function of ``t``) as a symbol of its own
    (not ``\\frac{d}{dx} x``, which is 1).
    Evaluated, such a derivative is 0, and math-verify then credits ``\\frac{dM}{dt} = -kM^6`` for
    ``\\frac{dM}{dt} = kM^6`` (both sides solved for ``k`` are 0); as a symbol, it is the same
    quantity in both answers and nothing else."""
    import sympy

    def plain_derivative(node: Any) -> bool:
        return (
            isinstance(node, sympy.Derivative)
            and isinstance(node.expr, sympy.Symbol)
            and node.expr not in node.variables  # d/dx x is 1
        )

    def opaque(expr: Any) -> Any:
        return under_relations(
            expr, lambda e: e.replace(plain_derivative, lambda node: sympy.Symbol(str(node), real=True))
        )

    return each_rewritten(parsed, (sympy.Derivative,), opaque)


SMALL_FACTORIAL = 20
"""Factorials of whole numbers up to this are written as their values."""


def small_factorials_evaluated(parsed: list[Any]) -> list[Any]:
    """``parsed`` with each factorial of a whole number up to :data:`SMALL_FACTORIAL` as its value
    (``x/1!`` as ``x``, ``x^2/2!`` as ``x^2/2``): latex2sympy leaves ``factorial(1)`` unevaluated,
    and math-verify then refuses ``x`` for ``x/1!``."""
    import math

    import sympy

    def small(node: Any) -> bool:
        arg = node.args[0] if isinstance(node, sympy.factorial) else None
        return arg is not None and arg.is_Integer and 0 <= int(arg) <= SMALL_FACTORIAL

    def evaluated(expr: Any) -> Any:
        return under_relations(
            expr, lambda e: e.replace(small, lambda n: sympy.Integer(math.factorial(int(n.args[0]))))
        )

    return each_rewritten(parsed, (sympy.factorial,), evaluated)


def canonical_bound_names(parsed: list[Any]) -> list[Any]:
    """``parsed`` with the variables bound by each sum, product and integral renamed in order
    (``bound0``, ``bound1``, ... with the same assumptions): ``\\sum_{k=0}^{n} \\binom{n}{k} x^k``
    and ``\\sum_{j=0}^{n} \\binom{n}{j} x^j`` are the same expression, which sympy does not see
    when the names differ. Renaming a bound variable never changes a value."""
    import sympy

    bound = (sympy.Sum, sympy.Product, sympy.Integral)

    def rename(node: Any, counter: list[int]) -> Any:
        mapping = {}
        for limit in node.limits:
            variable = limit[0]
            if isinstance(variable, sympy.Symbol) and all(
                not sympy.sympify(end).has(variable) for end in limit[1:]
            ):
                mapping[variable] = sympy.Symbol(f"bound{counter[0]}", **variable.assumptions0)
                counter[0] += 1
        return node.xreplace(mapping) if mapping else node

    def canonical(expr: Any) -> Any:
        counter = [0]  # each expression numbers its own bound variables from 0
        return under_relations(
            expr, lambda e: e.replace(lambda n: isinstance(n, bound), lambda n: rename(n, counter))
        )

    return each_rewritten(parsed, bound, canonical)
