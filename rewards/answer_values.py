"""Structured answers of exact numbers: tuples, sets, bare lists, intervals, unions, matrices.

:func:`read_value` turns a normalised answer into a :data:`Value` (a number, an infinity or a
:class:`Seq` of values), or None when it is anything else; :func:`values_equal` compares two values
with math-verify's conventions (sets and bare lists in any order, an infinite end read as open,
a set never a tuple). Inequalities (``3 < x \\le 4``, ``|x| > 1``) are read as the intervals or
unions they mean, and unions are kept canonical (merged, sorted) so equal sets compare equal.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction

from rewards.answer_text import MAX_ANSWER_CHARS, drop_var_lhs, split_top
from rewards.const_eval import evaluate_constant
from rewards.exact_numbers import Inf, Num, nums_equal, read_number


@dataclass(frozen=True)
class Seq:
    open: str  # "(", "[", "{" (set), "" (bare list, order-insensitive), "M" (matrix), "U" (union)
    close: str
    items: tuple[Value, ...]


Value = Num | Inf | Seq


_INEQ_RE = re.compile(r"\\leq?(?![a-zA-Z])|\\geq?(?![a-zA-Z])|<=|>=|<|>")
_INEQ_VAR_RE = re.compile(r"(?!\\pi(?![a-zA-Z])|\\infty(?![a-zA-Z]))\\?[a-zA-Z]+(?:_\{?\w+\}?)?")
"""A variable name in an inequality: ``x``, ``\\lambda``, ``x_{1}`` (not ``\\pi`` or ``\\infty``)."""
_SET_BUILDER_RE = re.compile(
    r"^\\\{\s?([a-zA-Z])\s?(?:\\in\s?(?:\\mathbb\s?\{?R\}?|\\R|\u211d)\s?)?(?:\\mid|\||:|\\colon)(.*)\\\}$"
)
"""``\\{x \\mid ...\\}``, also over the reals (``\\{x \\in \\mathbb{R} : ...\\}``; not another domain:
over the integers a condition is no interval)."""


_FUNCTION_CALL_RE = re.compile(r"[A-Za-z]\(")


def is_inequality(s: str) -> bool:
    """An inequality or a chain of them (``x \\ge 5``, ``2 < x < 5``): no ``=``, no set braces,
    no bars, no function call (``P(X<3)``)."""
    if "=" in s or "\\{" in s or "|" in s or _FUNCTION_CALL_RE.search(s):
        return False
    return _INEQ_RE.search(s) is not None


def _interval(s: str, depth: int) -> Seq | None:
    """``3 < x \\le 4`` / ``x > 2`` / ``\\{x \\mid -1<x<1\\}`` as an interval value, or None."""
    got = _relation_sides(s)
    if got is None:
        return None
    sides, norm = got
    if any("|" in side for side in sides):
        return _abs_interval(sides, norm, depth)
    ends = _interval_ends(sides, norm)
    if ends is None:
        return None
    lo, lo_open, hi, hi_open = ends
    vlo, vhi = read_value(lo, depth + 1), read_value(hi, depth + 1)
    if not isinstance(vlo, Num | Inf) or not isinstance(vhi, Num | Inf):
        return None
    return Seq("(" if lo_open else "[", ")" if hi_open else "]", (vlo, vhi))


def _relation_sides(s: str) -> tuple[list[str], list[str]] | None:
    """The sides of an inequality or a chain of two (a set builder's condition for
    ``\\{x \\mid ...\\}``) and its relations as ``<``, ``<=``, ``>``, ``>=``; None for anything else."""
    m = _SET_BUILDER_RE.match(s)
    if m:
        s = m.group(2).strip()
    ops = _INEQ_RE.findall(s)
    if not ops or len(ops) > 2:
        return None
    sides = [p.strip() for p in _INEQ_RE.split(s)]
    if any(not p for p in sides):
        return None
    norm = [
        "<" if o in ("<",) else "<=" if o in ("\\le", "\\leq", "<=") else ">" if o == ">" else ">="
        for o in ops
    ]
    return sides, norm


def _interval_ends(sides: list[str], norm: list[str]) -> tuple[str, bool, str, bool] | None:
    """The interval an inequality in one variable describes, its ends as written: (lower end,
    lower end open, upper end, upper end open), ``-\\infty`` / ``\\infty`` where it has none."""
    if len(norm) == 2:
        if not re.fullmatch(r"\\?[a-zA-Z]+(?:_\{?\w+\}?)?|[a-zA-Z]\([a-zA-Z]\)", sides[1]):
            return None
        if norm[0][0] != norm[1][0]:
            return None
        lo, hi = (sides[0], sides[2]) if norm[0][0] == "<" else (sides[2], sides[0])
        lo_open = (norm[0] if norm[0][0] == "<" else norm[1]) in ("<", ">")
        hi_open = (norm[1] if norm[0][0] == "<" else norm[0]) in ("<", ">")
        return lo, lo_open, hi, hi_open
    var_left = bool(_INEQ_VAR_RE.fullmatch(sides[0]))
    var_right = bool(_INEQ_VAR_RE.fullmatch(sides[1]))
    if var_left == var_right:
        return None
    bound = sides[1] if var_left else sides[0]
    op = norm[0] if var_left else {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[norm[0]]
    if op[0] == ">":
        return bound, op == ">", "\\infty", True
    return "-\\infty", True, bound, op == "<"


_CUP_RE = re.compile(r"\\cup(?![a-zA-Z])")
_ABS_VAR_RE = re.compile(r"^\|([a-zA-Z])\|$")
_Span = tuple[Fraction | float, bool, Fraction | float, bool, Num | Inf, Num | Inf]
"""An interval: lower end, lower end closed, upper end, upper end closed, and the two ends as read."""


def _end_key(v: Num | Inf) -> Fraction | float:
    return v.value if isinstance(v, Num) else math.inf * v.sign


def _span(v: Value | None) -> _Span | None:
    """An interval with number/infinite ends as (lo, lo closed, hi, hi closed, lo, hi); None for
    anything else, and for an empty or one-point interval (math-verify decides those)."""
    if not isinstance(v, Seq) or v.open not in ("(", "[") or v.close not in (")", "]") or len(v.items) != 2:
        return None
    lo, hi = v.items
    if not isinstance(lo, Num | Inf) or not isinstance(hi, Num | Inf):
        return None
    opener, closer = _brackets(v)
    if _end_key(lo) >= _end_key(hi):
        return None
    return (_end_key(lo), opener == "[", _end_key(hi), closer == "]", lo, hi)


def _canonical_union(spans: list[_Span]) -> Seq | None:
    """The union of ``spans`` as disjoint intervals in increasing order (overlapping or touching
    ones merged): two unions are the same set exactly when these are equal. One interval comes
    back as a plain interval, several as a ``"U"`` sequence."""
    if not spans:
        return None
    spans = sorted(spans, key=lambda sp: (sp[0], not sp[1]))
    merged = [list(spans[0])]
    for sp in spans[1:]:
        cur = merged[-1]
        if sp[0] < cur[2] or (sp[0] == cur[2] and (cur[3] or sp[1])):
            if sp[2] > cur[2]:
                cur[2], cur[3], cur[5] = sp[2], sp[3], sp[5]
            elif sp[2] == cur[2]:
                cur[3] = cur[3] or sp[3]
        else:
            merged.append(list(sp))
    parts = tuple(Seq("[" if m[1] else "(", "]" if m[3] else ")", (m[4], m[5])) for m in merged)
    return parts[0] if len(parts) == 1 else Seq("U", "U", parts)


def _union(s: str, depth: int) -> Seq | None:
    """``(-\\infty, -1) \\cup (1, \\infty)``: intervals with number ends joined by ``\\cup``."""
    spans = [_span(read_value(part.strip(), depth + 1)) for part in _CUP_RE.split(s)]
    if any(sp is None for sp in spans):
        return None
    return _canonical_union(spans)  # type: ignore[arg-type]


def as_union(v: Value) -> Seq | None:
    """A union or one interval as a canonical union; None for anything else (a list of pairs
    ``(1,2), (3,4)`` may be points, not intervals)."""
    if isinstance(v, Seq) and v.open == "U":
        return v
    sp = _span(v)
    return None if sp is None else _canonical_union([sp])


_OR_RE = re.compile(r",? or |\\(?:lor|vee)(?![a-zA-Z])| ?(?:または|もしくは) ?")
_AND_RE = re.compile(r",? and |\\(?:land|wedge)(?![a-zA-Z])| ?かつ ?")
_JA_OR, _JA_AND = ("または", "もしくは"), "かつ"


def _inequality_variable(s: str) -> str | None:
    """The variable of an inequality that :func:`_interval` reads: the side that is a name."""
    names = [p.strip() for p in _INEQ_RE.split(s) if _INEQ_VAR_RE.fullmatch(p.strip())]
    return names[0] if len(names) == 1 else None


_IN_NAME_RE = re.compile(r"^(\\?[a-zA-Z]+(?:_\{?\w+\}?)?)\s?\\in(?![a-zA-Z])")


def inequality_names(s: str) -> frozenset[str] | None:
    """The variable names of an answer made of inequalities (``x > 5``, ``2 < t \\le 3``,
    ``|z| < 1``, ``x \\in (1, 2)``, parts joined by "or", "and" or commas), one per part; None when
    some part names none or is something else, or is a set builder (``\\{x \\mid x > 1\\}``: its
    variable is bound). :func:`read_value` reads only the set, so two answers that name different
    variables (``x > 5``, ``y > 5``; ``x > 5``, ``X > 5``) read alike: the name is math-verify's to
    weigh."""
    if len(s) > MAX_ANSWER_CHARS or not (_INEQ_RE.search(s) or _IN_NAME_RE.match(s)):
        return None
    names: set[str] = set()
    for part in (q.strip() for p in _OR_RE.split(s) for r in _AND_RE.split(p) for q in split_top(r, ",")):
        if _SET_BUILDER_RE.match(part):
            return None  # its variable is bound: {x | x > 1} and {y | y > 1} are one set
        m = _IN_NAME_RE.match(part)
        if m:
            names.add(m.group(1))
            continue
        plain = "=" not in part and "\\{" not in part and not _FUNCTION_CALL_RE.search(part)
        got = _relation_sides(part) if plain else None
        if got is None:
            return None
        found = [
            a.group(1) if (a := _ABS_VAR_RE.match(side)) else side
            for side in got[0]
            if _INEQ_VAR_RE.fullmatch(side) or _ABS_VAR_RE.match(side)
        ]
        if len(found) != 1:
            return None
        names.add(found[0])
    return frozenset(names) or None


def _or_union(s: str, depth: int) -> Seq | None:
    """``x < -1 \\text{ or } x > 1`` (or ``\\lor``, ``\\vee``): inequalities in one variable joined by "or",
    as the union of their intervals; None for anything else (``x = 1 or x = 2`` is a list)."""
    spans = _one_variable_spans([p.strip() for p in _OR_RE.split(s)], depth)
    return None if spans is None else _canonical_union(spans)


def _in_one_variable(parts: list[str]) -> bool:
    """Whether ``parts`` are two or more inequalities (no set braces) in the same one variable."""
    if len(parts) < 2 or not all(is_inequality(p) and "\\{" not in p for p in parts):
        return False
    names = {_inequality_variable(p) for p in parts}
    return len(names) == 1 and None not in names


def _one_variable_spans(parts: list[str], depth: int) -> list[_Span] | None:
    """The intervals of ``parts`` when every part is an inequality in the same one variable."""
    if not _in_one_variable(parts):
        return None
    spans = [_span(_interval(p, depth + 1)) for p in parts]
    return None if any(sp is None for sp in spans) else spans  # type: ignore[return-value]


def _intersection(spans: list[_Span]) -> Seq | None:
    """The intersection of ``spans`` as one interval; None when it is empty or one point."""
    lo = max(spans, key=lambda sp: (sp[0], not sp[1]))  # at the same end, an open one excludes it
    hi = min(spans, key=lambda sp: (sp[2], sp[3]))
    if lo[0] >= hi[2]:
        return None
    return Seq("[" if lo[1] else "(", "]" if hi[3] else ")", (lo[4], hi[5]))


def _and_intersection(s: str, depth: int) -> Seq | None:
    """``x > -1 \\text{ and } x < 2`` (or ``\\land``, ``\\wedge``, かつ): inequalities in one variable
    joined by "and", as the intersection of their intervals; None for anything else, and for an
    empty or one-point intersection (then "and" is read as a comma: ``x < -2 and x > -1`` lists
    the pieces of a union, see :func:`_inequality_list`)."""
    spans = _one_variable_spans([p.strip() for p in _AND_RE.split(s)], depth)
    return None if spans is None else _intersection(spans)


def _inequality_list(s: str, depth: int) -> Seq | None:
    """``x < -2, -1 < x`` or ``x \\ge 1, x \\le 3``: inequalities in one variable separated by commas.
    A comma between conditions on one variable reads as "and" when they have points in common
    (``x \\ge 1, x \\le 3`` is ``[1, 3]``) and as "or" when no two of them do (``x < -2, -1 < x``
    lists the pieces of ``(-\\infty, -2) \\cup (-1, \\infty)``, the way solution sets are written
    in Japanese textbooks; read as "and" it would be the empty set, which no answer means this
    way). Anything in between (one common point, or some of them overlapping) gives None."""
    spans = _one_variable_spans(split_top(s, ","), depth)
    if spans is None:
        return None
    both = _intersection(spans)
    if both is not None:
        return both
    union = _canonical_union(spans)
    if union is None or union.open != "U" or len(union.items) != len(spans):
        return None  # two of them overlap or touch: neither reading is clean
    return union


_CLEAR_GAP = 1e-9
"""Two constant ends are ordered when they differ by more than this (relative to the larger, at
least 1): a float evaluation cannot order ``\\sqrt{2}`` and ``\\frac{\\sqrt{8}}{2}``."""


def _end_value(end: str) -> float | None:
    if end in ("-\\infty", "\\infty"):
        return math.inf if end == "\\infty" else -math.inf
    return evaluate_constant(end)


def inequality_list_latex(s: str) -> str | None:
    """A comma list of inequalities in one variable with constant ends (``x < -\\sqrt{2}, \\sqrt{2} < x``)
    written as the interval or union it means (``(-\\infty, -\\sqrt{2}) \\cup (\\sqrt{2}, \\infty)``), for
    math-verify: the reading of :func:`_inequality_list` ("and" when all share points, "or" when no
    two do), for ends it cannot read exactly (surds, ``\\pi``; their order from
    :func:`rewards.const_eval.evaluate_constant`). None for anything else, and when two ends are too
    close to order (``_CLEAR_GAP``) or the list is neither reading cleanly."""
    parts = split_top(s, ",")
    if len(parts) > 8 or not _in_one_variable(parts):
        return None
    # each: lower end's value, "(" or "[" and that end as written, upper end's value, it and ")" or "]"
    spans: list[tuple[float, str, float, str]] = []
    for part in parts:
        got = _relation_sides(part.strip())
        ends = None if got is None or any("|" in side for side in got[0]) else _interval_ends(*got)
        if ends is None:
            return None
        lo, lo_open, hi, hi_open = ends
        lo_v, hi_v = _end_value(lo), _end_value(hi)
        if lo_v is None or hi_v is None:
            return None
        spans.append((lo_v, f"{'(' if lo_open else '['}{lo}", hi_v, f"{hi}{')' if hi_open else ']'}"))
    finite = sorted(v for sp in spans for v in (sp[0], sp[2]) if math.isfinite(v))
    if any(b - a <= _CLEAR_GAP * max(1.0, abs(a), abs(b)) for a, b in itertools.pairwise(finite)):
        return None  # two ends equal or too close to order: math-verify decides as written
    if any(sp[0] >= sp[2] for sp in spans):
        return None
    low = max(spans, key=lambda sp: sp[0])
    high = min(spans, key=lambda sp: sp[2])
    if low[0] < high[2]:
        return f"{low[1]}, {high[3]}"
    spans.sort(key=lambda sp: sp[0])
    if any(a[2] >= b[0] for a, b in itertools.pairwise(spans)):
        return None  # some overlap, some do not: neither reading is clean
    return " \\cup ".join(f"{sp[1]}, {sp[3]}" for sp in spans)


def _abs_interval(sides: list[str], norm: list[str], depth: int) -> Seq | None:
    """``1 \\le |z| \\le 2``, ``|x| > 1``, ``|x| \\le 3`` as the union of intervals they mean."""
    if len(sides) == 3 and _ABS_VAR_RE.match(sides[1]) and norm[0][0] == norm[1][0] == "<":
        lo, hi = read_value(sides[0], depth + 1), read_value(sides[2], depth + 1)
        lo_closed, hi_closed = norm[0] == "<=", norm[1] == "<="
    elif len(sides) == 2 and _ABS_VAR_RE.match(sides[0]) and norm[0][0] in "<>":
        bound = read_value(sides[1], depth + 1)
        if norm[0][0] == "<":
            lo, hi, lo_closed, hi_closed = Num(Fraction(0), None, False), bound, True, norm[0] == "<="
        else:
            lo, hi, lo_closed, hi_closed = bound, Inf(1), norm[0] == ">=", False
    else:
        return None
    if not isinstance(lo, Num) or not isinstance(hi, Num | Inf) or lo.value < 0:
        return None
    neg_lo = dataclasses.replace(lo, value=-lo.value, percent=False) if lo.value else lo
    neg_hi = dataclasses.replace(hi, value=-hi.value, percent=False) if isinstance(hi, Num) else Inf(-1)
    spans = [
        _span(Seq("[" if hi_closed else "(", "]" if lo_closed else ")", (neg_hi, neg_lo))),
        _span(Seq("[" if lo_closed else "(", "]" if hi_closed else ")", (lo, hi))),
    ]
    if any(sp is None for sp in spans):
        return None
    return _canonical_union(spans)  # type: ignore[arg-type]


_MATRIX_RE = re.compile(r"^\\begin\{([pbvB]?matrix|array)\}(?:\{[lcr|]*\})?(.*)\\end\{\1\}$", re.DOTALL)


def _matrix(s: str, depth: int) -> Seq | None:
    """``\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}`` (and bmatrix/array) of numbers as rows."""
    m = _MATRIX_RE.match(s)
    if not m or m.group(1) == "vmatrix":  # a determinant is a number, not a matrix
        return None
    rows = [r.strip() for r in m.group(2).strip().removesuffix("\\\\").split("\\\\")]
    out: list[Value] = []
    for row in rows:
        cells = [c.strip() for c in row.split("&")]
        values: list[Value] = []
        for c in cells:
            v = read_value(c, depth + 1)
            if not isinstance(v, Num):
                return None
            values.append(v)
        out.append(Seq("[", "]", tuple(values)))
    return Seq("M", "M", tuple(out))


def read_value(s: str, depth: int = 0, decimal_comma: bool = False) -> Value | None:
    """Parse a normalised answer into a certain-path value, or None if it needs math-verify."""
    if depth > 3 or not s or len(s) > MAX_ANSWER_CHARS:
        return None
    if s.startswith("\\begin{"):
        return _matrix(s, depth)
    if " or " in s or "\\lor" in s or "\\vee" in s or any(w in s for w in _JA_OR):
        union = _or_union(s, depth)
        if union is not None:
            return union
    if " and " in s or "\\land" in s or "\\wedge" in s or _JA_AND in s:
        both = _and_intersection(s, depth)
        if both is not None:
            return both
    if " and " in s or " or " in s:  # "1, 2 and 3", "x = 1 or x = 2": one list
        s = s.replace(", and ", ", ").replace(" and ", ", ").replace(", or ", ", ").replace(" or ", ", ")
    s = drop_var_lhs(s.strip())
    num = read_number(s, decimal_comma)
    if num is not None:
        return num
    if _CUP_RE.search(s):
        return _union(s, depth)
    if _INEQ_RE.search(s):
        if "," in s:
            return _inequality_list(s, depth)
        return _interval(s, depth)
    opener, closer, parts = list_parts(s)
    if opener == "" and len(parts) < 2:
        return None
    if any(not p for p in parts) and not (len(parts) == 1 and opener == "{"):
        return None
    items: list[Value] = []
    for p in parts:
        if not p and opener == "{":
            continue
        v = read_value(p, depth + 1)
        if v is None:
            return None
        items.append(v)
    if opener in "([" and len(items) == 1 and (isinstance(items[0], Num) or is_matrix(items[0])):
        return items[0]  # "(5)" is just 5; "(\begin{pmatrix}..\end{pmatrix})" is the matrix
    if opener == "(" and len(items) == 1 and isinstance(items[0], Inf):
        return items[0]  # "(-\infty)" is -\infty
    return Seq(opener, closer, tuple(items))


def list_parts(s: str) -> tuple[str, str, list[str]]:
    """A list answer's brackets (``{`` for a set, ``""`` for a bare list) and its top-level items
    (one item when ``s`` is not a list)."""
    opener, closer, inner = "", "", s
    if s.startswith("\\{") and s.endswith("\\}"):
        opener, closer, inner = "{", "}", s[2:-2]
    elif len(s) >= 2 and s[0] in "([" and s[-1] in ")]" and closes_at_end(s):
        opener, closer, inner = s[0], s[-1], s[1:-1]
    return opener, closer, split_top(inner)


def closes_at_end(s: str) -> bool:
    """Whether the bracket that opens ``s`` is the one that closes it (``(1,2)``, not ``(1,2),(3,4)``)."""
    depth = 0
    for i, c in enumerate(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i == len(s) - 1
    return False


def _has_repeats(v: Value) -> bool:
    return (
        isinstance(v, Seq)
        and v.open in ("{", "")
        and any(values_equal(x, y) for i, x in enumerate(v.items) for y in v.items[i + 1 :])
    )


def ambiguous_lists(a: Value, b: Value) -> bool:
    """Lists the certain path must not judge: a repeated item in a set or bare list (math-verify
    reads them as sets, ``(1,2),(1,2)`` = ``(1,2)``) or a list of numbers against a list of tuples
    (``p=5,q=2;p=7,q=2`` against ``(5,2),(7,2)``)."""
    if _has_repeats(a) or _has_repeats(b):
        return True
    if isinstance(a, Seq) and isinstance(b, Seq) and a.items and b.items:
        kinds_a = {isinstance(x, Seq) for x in a.items}
        kinds_b = {isinstance(x, Seq) for x in b.items}
        return kinds_a != kinds_b
    return False


def interval_brackets(opener: str, closer: str, items: tuple[Value | None, ...]) -> tuple[str, str]:
    """An interval's brackets, an infinite end read as open (``[2, \\infty]`` is ``[2, \\infty)``,
    as math-verify reads it); ``items`` are the values read (None for one that is not a value).
    Square brackets around three items or more are a list, not an interval: a tuple
    (``[1, 2, 4, 8]``, a Python or JSON list, a vector)."""
    if len(items) > 2 and opener == "[" and closer == "]":
        return "(", ")"
    if len(items) == 2 and opener in "([" and closer in ")]":
        if isinstance(items[0], Inf):
            opener = "("
        if isinstance(items[1], Inf):
            closer = ")"
    return opener, closer


def _brackets(v: Seq) -> tuple[str, str]:
    return interval_brackets(v.open, v.close, v.items)


def values_equal(a: Value, b: Value) -> bool:
    if isinstance(a, Num) and isinstance(b, Num):
        return nums_equal(a, b)
    if isinstance(a, Inf) and isinstance(b, Inf):
        return a.sign == b.sign
    if isinstance(a, Seq) and isinstance(b, Seq):
        if len(a.items) != len(b.items):
            return False
        if a.open in ("{", "") and b.open in ("{", ""):  # sets and bare lists: any order
            remaining = list(b.items)
            for x in a.items:
                for k, y in enumerate(remaining):
                    if values_equal(x, y):
                        del remaining[k]
                        break
                else:
                    return False
            return True
        if "" in (a.open, b.open):
            if _brackets(b if a.open == "" else a) != ("(", ")"):
                return False  # a bare list "1, 2" may match a tuple "(1, 2)", never "(1, 2]"
        elif _brackets(a) != _brackets(b):
            return False
        if "{" in (a.open, b.open):
            return False  # a set is not a tuple or an interval
        return all(values_equal(x, y) for x, y in zip(a.items, b.items, strict=True))
    single = a if isinstance(a, Seq) else b
    if isinstance(single, Seq) and single.open == "{" and len(single.items) == 1:
        other = b if single is a else a
        return isinstance(other, Num) and values_equal(single.items[0], other)  # "\\{5\\}" is 5
    return False


def is_matrix(v: Value) -> bool:
    return isinstance(v, Seq) and v.open == "M"


def vector_decide(gold: Value, pred: Value) -> bool | None:
    """A vector written as a one-column matrix against the same vector written as a tuple or list
    (``\\begin{pmatrix}1\\\\2\\end{pmatrix}`` against ``(1, 2)`` or ``[1, 2]``): entry by entry, in
    order. None for anything else: a one-row matrix (a tuple is a column vector; math-verify and
    a competition checker refuse ``(1, 2)`` against ``\\begin{pmatrix}1 & 2\\end{pmatrix}``), a
    matrix with more rows and columns, a set, a bare list, a tuple of tuples."""
    matrix, other = (gold, pred) if is_matrix(gold) else (pred, gold)
    if not is_matrix(matrix) or not isinstance(matrix, Seq) or not isinstance(other, Seq):
        return None
    rows = [r.items for r in matrix.items if isinstance(r, Seq)]
    if rows and all(len(r) == 1 for r in rows):
        entries = tuple(r[0] for r in rows)
    else:
        return None
    if len(entries) < 2 or (other.open, other.close) not in (("(", ")"), ("[", "]")):
        return None
    if not all(isinstance(x, Num) for x in other.items):
        return None
    if len(entries) != len(other.items):
        return False
    pairs = (
        zip(entries, other.items, strict=True) if matrix is gold else zip(other.items, entries, strict=True)
    )
    return all(values_equal(g, p) for g, p in pairs)
