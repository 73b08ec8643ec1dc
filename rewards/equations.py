"""Equations on the certain path: the same equation up to a factor, different lines, equations
that give one name values that differ at a point, and the equations that are not values
(``a + z = 0`` against ``0``), that compute one (``\\log_2 8 = 3``) or that state something false
(``7+1 = 42``: not the value 42).
"""

from __future__ import annotations

import re
from fractions import Fraction

from rewards.answer_text import (
    CHAIN_RE,
    COMMAND_RE,
    DECIMAL_LITERAL_RE,
    MAX_ANSWER_CHARS,
    RELATION_OPS,
    VAR_LHS_RE,
    greek_names,
    letters,
    split_chain,
    split_top,
)
from rewards.answer_values import read_value, values_equal
from rewards.const_eval import evaluate_exact
from rewards.elementary_identity import proves_same_function
from rewards.exact_numbers import Num, rounded_form
from rewards.expressions import CONSTANT_LETTERS, FREE_LETTER_RE, variables_of
from rewards.formal_identity import read_pair, same_equation
from rewards.named_values import BRACKETED_NAME_RE, NAME, NAMED_RATIO_VALUE_RE
from rewards.point_values import differs_at_a_point
from rewards.poly_identity import is_linear, proportional

GREEK_NAME_RE = re.compile(
    r"\\(?:" + "|".join(sorted(greek_names(pi=False, variants=True, capitals=True))) + r")(?![a-zA-Z])"
)
"""A Greek letter as a name (``\\delta``, ``\\mu``): a variable, as a Latin letter is; ``\\pi`` is
the constant."""


def _free_names(s: str) -> bool:
    """Whether ``s`` has a variable: a Latin letter outside command names (not ``e``, ``i``, ``j``)
    or a Greek letter (``\\left(\\delta - \\frac14\\right)^2 = \\frac14 \\mu^2`` is no equation between
    numbers)."""
    return bool(set(FREE_LETTER_RE.findall(COMMAND_RE.sub(" ", s))) - CONSTANT_LETTERS) or bool(
        GREEK_NAME_RE.search(s)
    )


def two_sides(s: str) -> tuple[str, str] | None:
    """``(lhs, rhs)`` of a single equation ``lhs = rhs`` (no other relation, chain or list), or None."""
    if s.count("=") != 1 or len(CHAIN_RE.findall(s)) != 1 or any(op in s for op in RELATION_OPS):
        return None
    if len(split_top(s)) > 1:
        return None
    lhs, _, rhs = s.partition("=")
    lhs, rhs = lhs.strip(), rhs.strip()
    return (lhs, rhs) if lhs and rhs else None


def _difference(sides: tuple[str, str]) -> str:
    """``(lhs)-(rhs)`` of an equation's two sides."""
    return f"({sides[0]})-({sides[1]})"


def computed_value(s: str) -> str | None:
    """``\\log_2(8) = 3`` -> ``3``: the right side of an equation whose left side is a computation
    without free variables (``e^{i\\pi}``, ``\\binom{5}{2}``, a determinant) or a limit; None else
    (``x + 5 = 3`` is not a value: math-verify decides)."""
    sides = two_sides(s)
    if sides is None:
        return None
    lhs, rhs = sides
    return rhs if not _free_names(lhs) or lhs.startswith("\\lim") else None


def stated_value(s: str) -> str | None:
    """``2+2=4`` -> ``4``, ``\\log_2 8 = 3`` -> ``3``: the right side of one equation between
    numbers (no letter on either side but ``e`` and ``i``, outside commands); else None."""
    sides = two_sides(s)
    if sides is None or letters(s) - CONSTANT_LETTERS or GREEK_NAME_RE.search(s):
        return None
    return sides[1]


_APPROX_RE = re.compile(r"\\(?:approx|cong|equiv|simeq|sim)(?![a-zA-Z])")


def false_step(s: str) -> bool:
    """Whether a chain ``a = b = c`` has a side between numbers (no letter but ``e`` and ``i``)
    whose value differs from the last side's (``7+1 = 42``, ``x = 0 = 42``): a false statement, not
    a computation that ends in its last side (``5+5+1 = 11``). A decimal agrees with a value it
    rounds (``\\frac13 = 0.33``); a side with no exact value here (``\\pi``) is not judged."""
    s = _APPROX_RE.split(s, maxsplit=1)[0]  # "x = 1/3 \\approx 1.3": the exact value, then a rough one
    if "=" not in s or len(s) > MAX_ANSWER_CHARS:
        return False
    parts = [part.strip() for part in split_chain(s)]
    last = number_of(parts[-1]) if len(parts) >= 2 else None
    if last is None:
        return False
    for part in parts[:-1]:
        if letters(part) - CONSTANT_LETTERS or GREEK_NAME_RE.search(part):
            continue  # "x" in "x = 0 = 42", "\\mu" in "\\mu = 0 = 42": a name
        value = number_of(part)
        if value is None or values_equal(value, last) or values_equal(last, value):
            continue
        if not rounded_form(value, last) and not rounded_form(last, value):
            return True
    return False


def number_of(side: str) -> Num | None:
    """One number as written (its decimals kept), or the exact value of a computation."""
    value = read_value(side)
    if isinstance(value, Num):
        return value
    exact = evaluate_exact(side) if value is None else None
    return Num(exact, None, False) if isinstance(exact, Fraction) else None


def equations_of_numbers(gold: str, pred: str) -> tuple[str, str] | None:
    """``2+2=4`` and ``4=4``: two equations between numbers: the values each states
    (:func:`stated_value`); else None. math-verify in math mode reads both as sympy's ``True``
    (any two true ones equal) or solves them for no variable (any two false ones equal)."""
    vg, vp = stated_value(gold), stated_value(pred)
    return None if vg is None or vp is None else (vg, vp)


def sides_swapped(gold: str, pred: str) -> bool:
    """``2=3`` and ``3=2``: one equation with its two sides written the other way round (the same
    statement, true or false; the value each states on its right differs)."""
    g, p = two_sides(gold), two_sides(pred)
    if g is None or p is None:
        return False
    return [side.replace(" ", "") for side in g] == [side.replace(" ", "") for side in reversed(p)]


_CHAIN_OP_RE = re.compile(r"\\(?:leq?|geq?|neq?|approx|lt|gt)(?![a-zA-Z])|<=|>=|[<>=]")
_CHAIN_OP_NAMES = {
    "\\leq": "\\le",
    "\\geq": "\\ge",
    "\\neq": "\\ne",
    "\\lt": "<",
    "\\gt": ">",
    "<=": "\\le",
    ">=": "\\ge",
}
_FLIPPED = {
    "<": ">",
    ">": "<",
    "\\le": "\\ge",
    "\\ge": "\\le",
    "=": "=",
    "\\ne": "\\ne",
    "\\approx": "\\approx",
}


def _relation_chain(s: str) -> tuple[list[str], list[str]] | None:
    """Sides (spaces removed) and relations of ``1 < x \\le 2``, relations outside brackets only;
    None without a relation, with an empty side or with a comma outside brackets."""
    sides: list[str] = []
    ops: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(s):
        c = s[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c == ",":
            return None
        elif depth == 0:
            m = _CHAIN_OP_RE.match(s, i)
            if m is not None:
                sides.append(s[start:i].replace(" ", ""))
                ops.append(_CHAIN_OP_NAMES.get(m.group(0), m.group(0)))
                start = i = m.end()
                continue
        i += 1
    sides.append(s[start:].replace(" ", ""))
    if not ops or not all(sides):
        return None
    return sides, ops


def reversed_chain(gold: str, pred: str) -> bool:
    """``2 \\ne 3`` and ``3 \\ne 2``; ``1 < x < 2 < y < 3`` and ``3 > y > 2 > x > 1``: one chain of
    relations written from its other end (the same statement, true or false)."""
    g, p = _relation_chain(gold), _relation_chain(pred)
    if g is None or p is None or len(g[0]) != len(p[0]):
        return False
    return g[0] == p[0][::-1] and g[1] == [_FLIPPED[op] for op in reversed(p[1])]


def equation_in_unknowns(s: str) -> bool:
    """``a + z = 0``, ``2x = 10``: one equation whose left side is an expression in variables, not
    a name (``x = 5``, ``f(2) = 5``), a segment (``AB = 5``) or a computation (``\\log_2 8 = 3``)."""
    sides = two_sides(s)
    if sides is None or VAR_LHS_RE.match(sides[0]) or NAMED_RATIO_VALUE_RE.match(s):
        return False  # a name, or a ratio of names ("A:B = 1")
    if BRACKETED_NAME_RE.match(sides[0]):  # "[K:\\mathbb Q] = 16", "|A| = 3": a quantity, named
        return False
    return _free_names(sides[0])


_SOLUTION_ITEM_RE = re.compile(r"^([A-Za-z]) ?=(?!=)")


def _solution_names(s: str) -> set[str] | None:
    """The names of a list whose every item is ``name = value`` (``x=5, x=6`` -> ``{x}``), or None."""
    items = split_top(s)
    if len(items) < 2:
        return None
    found = [_SOLUTION_ITEM_RE.match(item) for item in items]
    return {m.group(1) for m in found if m} if all(found) else None


def names_differ(gold: str, pred: str) -> bool:
    """Both sides give one value to a single name, and the names differ (``x = 1``, ``y = 1``), or
    both are lists of such values and their names differ (``x=5, x=6`` against ``y=5, y=6``)."""
    sg, sp = two_sides(gold), two_sides(pred)
    if sg is not None and sp is not None and VAR_LHS_RE.match(sg[0]) and VAR_LHS_RE.match(sp[0]):
        return re.sub(r"[{} ]", "", sg[0]) != re.sub(r"[{} ]", "", sp[0])
    names_g, names_p = _solution_names(gold), _solution_names(pred)
    return bool(names_g and names_p and names_g != names_p)


_FUNCTION_OF_RE = re.compile(r"^[a-zA-Z]\(([a-zA-Z])\)$")


def graph_and_function(gold: str, pred: str) -> tuple[str, str] | None:
    """``y = 2x + 3`` against ``f(x) = 2x + 3``: the right sides, when one side names ``y`` and the
    other a function of a variable of both right sides; else None."""
    sg, sp = two_sides(gold), two_sides(pred)
    if sg is None or sp is None:
        return None
    for a, b in ((sg, sp), (sp, sg)):
        m = _FUNCTION_OF_RE.match(b[0].replace(" ", ""))
        if a[0].replace(" ", "") == "y" and m and m.group(1) != "y":
            var = rf"(?<![a-zA-Z\\]){m.group(1)}(?![a-zA-Z])"
            if re.search(var, a[1]) and re.search(var, b[1]):
                return sg[1], sp[1]
    return None


_CALL_RE = re.compile(r"(?<![A-Za-z\\])([A-Za-z]) ?\( ?([a-z]) ?\)")
_FREE_Y_RE = re.compile(r"y(?! ?\()")


def function_as_y(gold: str, pred: str) -> tuple[str, str] | None:
    """``y - 4 = 2(t+1)`` against ``y(t) - 4 = 2(t+1)`` or ``f(x) - 4 = g(x) + 2`` against
    ``y - 4 = g(x) + 2``: the pair with the function named only on one side (one letter applied to
    one variable, not named on the other side) written ``y``, when the other side has ``y`` and
    this one has no ``y`` of its own; else None."""
    if gold.count("=") != 1 or pred.count("=") != 1:
        return None
    for a, b, flip in ((gold, pred, False), (pred, gold, True)):
        if not _FREE_Y_RE.search(COMMAND_RE.sub(" ", a)) or _FREE_Y_RE.search(COMMAND_RE.sub(" ", b)):
            continue  # "y" in "xy" is the letter too
        names = {m.group(1) for m in _CALL_RE.finditer(b)}
        own = [f for f in names if f == "y" or not re.search(rf"(?<![A-Za-z\\]){f} ?\(", a)]
        if len(own) != 1:
            continue
        renamed = _CALL_RE.sub(lambda m, f=own[0]: "y" if m.group(1) == f else m.group(0), b)
        return (renamed, a) if flip else (a, renamed)
    return None


def equations_decide(gold: str, pred: str) -> bool | None:
    """Two polynomial equations in the same 1-3 variables: True when one is the other times a
    nonzero rational (``2x+4y-3=0`` and ``y=-\\frac12x+\\frac34``), proven on a grid
    (:func:`rewards.poly_identity.proportional`). Two linear equations that are not proportional
    are different lines or planes: False. Other equations can have the same solutions without
    being proportional (``x^2=0`` and ``x=0``): None, math-verify decides. Equations beyond
    polynomials (``T = 2\\pi\\sqrt{r/k}``) are the same when ``lhs - rhs`` of one is a nonzero
    rational multiple of the other's as rational functions of their atoms
    (:func:`rewards.formal_identity.same_equation`), or have the same left side and right sides
    equal by :func:`rewards.elementary_identity.proves_same_function`; ``y = f`` and ``y = g``
    whose right sides take different values at a point are different
    (:func:`_values_of_a_name_differ`)."""
    sg, sp = two_sides(gold), two_sides(pred)
    if sg is None or sp is None:
        return None
    dg, dp = _difference(sg), _difference(sp)
    lg, lp = variables_of(dg), variables_of(dp)
    if lg and lg == lp:
        same = proportional(dg, dp, lg)
        if same is False and is_linear(dg, lg) and is_linear(dp, lg):
            # decimals are the numeric rule's to judge (x = 0.33 for x = 1/3, docs/rewards.md)
            return None if DECIMAL_LITERAL_RE.search(dg + dp) else False
        if same:
            return True
    # any other equations: lhs - rhs the same rational function of the atoms up to a factor
    if same_equation(dg, dp):
        return True
    if sg[0].replace(" ", "") == sp[0].replace(" ", "") and proves_same_function(read_pair(sg[1], sp[1])):
        return True  # "y = \\sin^2 x + \\cos^2 x" against "y = 1": the same left side, equal right sides
    return _values_of_a_name_differ(sg, sp)


_NAME_RE = re.compile(rf"^{NAME}$")


def _values_of_a_name_differ(sg: tuple[str, str], sp: tuple[str, str]) -> bool | None:
    """``y = (x-a)^{5999}`` against ``y = (a-x)^{5999}``, ``g(t) = \\sin t`` against ``g(t) = \\cos t``:
    one name, or one function of a variable, on the left of both, the name absent from both right
    sides, whose right sides take different values at a point
    (:func:`rewards.point_values.differs_at_a_point`): False, a point that solves one equation and
    not the other; else None. ``sg``, ``sp``: the two sides of each equation."""
    name = sg[0].replace(" ", "")
    if not (_NAME_RE.match(name) or _FUNCTION_OF_RE.match(name)) or name != sp[0].replace(" ", ""):
        return None
    if name[0] in FREE_LETTER_RE.findall(sg[1]) or name[0] in FREE_LETTER_RE.findall(sp[1]):
        return None
    return differs_at_a_point(sg[1], sp[1])
