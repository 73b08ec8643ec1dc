"""Lists, tuples, sets and intervals whose items are expressions (``(3, \\frac{\\pi}{2})``,
``\\{x, x-1\\}``, ``[x, x+1]``), decided item by item with the certain path's own verdict.

:mod:`rewards.answer_values` decides such structures when every item is an exact number. Here an
item may be anything the certain path can judge on its own (a constant, a polynomial, an
expression it proves equal or different), and the structure's verdict follows math-verify's
conventions, the same ones :func:`rewards.answer_values.values_equal` applies to numbers:

- a set or a bare list matches a set or a bare list in any order;
- a tuple or an interval matches item by item, in order, with the same brackets (an infinite end
  read as open); a bare list matches a tuple ``(...)`` in order; a set never matches a tuple.

The verdict is certain or None:

- True needs every item matched by a certain True (in order, or one to one for sets);
- False needs one item certainly different: at its position, or from every item of the other set;
- anything else (an undecided item, a repeated item that may make two sets of different sizes
  equal) is None, and math-verify decides the whole answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rewards.answer_values import interval_brackets, list_parts, read_value

MAX_ITEMS = 8
"""Longer lists are left to math-verify (an unordered match compares every pair of items)."""

_NOT_AN_ITEM_RE = re.compile(
    r"=|<|>|\\[lg]eq?(?![a-zA-Z])|\\neq?(?![a-zA-Z])|\\in(?![a-zA-Z])|\\pm(?![a-zA-Z])|\\mp(?![a-zA-Z])"
    r"|\\cup|\\cap|\\setminus|\\text|\\mathrm|\\begin| or | and |\\quad"
)
"""An item that is an equation, an inequality, a ``\\pm`` pair, a set operation, words or a
matrix: its meaning in a list is not one value, so the list is left to math-verify."""

_NESTED_RE = re.compile(r"^(?:\\\{|[(\[])")
_THOUSANDS_RE = re.compile(r"^\d{3}$")

CompareItem = Callable[[str, str], bool | None]


def _items(s: str) -> tuple[str, str, list[str]] | None:
    opener, closer, parts = list_parts(s)
    if len(parts) < (1 if opener == "{" else 2) or len(parts) > MAX_ITEMS or any(not p for p in parts):
        return None
    if any(_NOT_AN_ITEM_RE.search(p) for p in parts):
        return None
    if any(_THOUSANDS_RE.match(p) for p in parts[1:]):
        return None  # "1,000, 2": a thousands separator, or a list of numbers (answer_values)
    return opener, closer, parts


def _is_nested(item: str) -> bool:
    return bool(_NESTED_RE.match(item)) and len(list_parts(item)[2]) > 1


def _brackets(opener: str, closer: str, parts: list[str]) -> tuple[str, str]:
    return interval_brackets(
        opener, closer, tuple(read_value(p, 1) for p in parts) if len(parts) == 2 else (None,) * len(parts)
    )


def _in_order(gold: list[str], pred: list[str], compare_item: CompareItem) -> bool | None:
    if len(gold) != len(pred):
        return False
    verdict: bool | None = True
    for g, p in zip(gold, pred, strict=True):
        got = compare_item(g, p)
        if got is False:
            return False
        if got is None:
            verdict = None
    return verdict


def _any_order(gold: list[str], pred: list[str], compare_item: CompareItem) -> bool | None:
    table = [[compare_item(g, p) for p in pred] for g in gold]
    if any(all(v is False for v in row) for row in table):
        return False  # an item of the reference that the prediction lacks
    if any(all(row[j] is False for row in table) for j in range(len(pred))):
        return False  # an item of the prediction that the reference lacks
    if len(gold) != len(pred):
        return None  # a repeated item may make the two the same set
    free = set(range(len(pred)))
    for row in table:  # certain equality is transitive, so a greedy match finds one if any
        j = next((j for j in sorted(free) if row[j] is True), None)
        if j is None:
            return None
        free.discard(j)
    return True


def lists_decide(gold: str, pred: str, compare_item: CompareItem) -> bool | None:
    """Two normalised list answers compared item by item (module docstring), or None when either
    is not such a list or the verdict is not certain. ``compare_item`` is the certain path's
    verdict on two single answers."""
    g, p = _items(gold), _items(pred)
    if g is None or p is None:
        return None
    (g_open, g_close, g_parts), (p_open, p_close, p_parts) = g, p
    nested = {_is_nested(x) for x in (*g_parts, *p_parts)}
    if len(nested) > 1:
        return None  # numbers against tuples ("p=5,q=2;p=7,q=2" against "(5,2),(7,2)")
    if g_open in ("{", "") and p_open in ("{", ""):
        return _any_order(g_parts, p_parts, compare_item)
    g_brackets = _brackets(g_open, g_close, g_parts)
    p_brackets = _brackets(p_open, p_close, p_parts)
    if "" in (g_open, p_open):
        if (p_brackets if g_open == "" else g_brackets) != ("(", ")"):
            return False  # a bare list may match a tuple "(a, b)", never "(a, b]"
    elif g_brackets != p_brackets or "{" in (g_open, p_open):
        return False  # a set is not a tuple; "(a, b)" is not "[a, b]"
    return _in_order(g_parts, p_parts, compare_item)
