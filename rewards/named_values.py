"""Answers that name their values: ``p=5, q=2``, ``y = x^2+1``, ``(p,q)=(3,2)``, ``A:B=1``,
and ``f(z)=z`` renamed to the reference's ``f(x)=x``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rewards.answer_text import MAX_ANSWER_CHARS, RELATION_OPS, letters, split_top
from rewards.answer_values import Seq, read_value, values_equal
from rewards.expressions import CONSTANT_LETTERS
from rewards.plain_syntax import is_known_name

_NAME = r"[A-Za-z](?:_\{?\w{1,8}\}?)?"  # a letter with an optional subscript
_ASSIGNMENT_RE = re.compile(rf"^({_NAME}(?:\((?=[^()]*[\d=])[^()]{{1,24}}\))?) ?= ?([^=]+)$")
"""``name = value``; a name is a letter with an optional subscript and an optional argument that
holds a digit or ``=`` (a value at a point: ``P(X = 0)``, ``f(2)``; not a definition ``f(x)``)."""
_NAME_NOISE_RE = re.compile(r"[{} ]")
_GROUP_SPLIT_RE = re.compile(r" ?; ?| (?:and|or) ")


_DICT_ITEM_RE = re.compile(rf"^[\"']?({_NAME}|\d{{1,6}})[\"']? ?: ?([^:=<>]+)$")


def _dictionary(s: str) -> list[dict[str, str]] | None:
    """``{x: 3, y: 7}`` or ``{0: \\frac16, 1: \\frac13}`` (a Python or JSON dictionary, as models
    sometimes box their answer) as one group of named values; None for anything else (a set
    builder ``\\{x : x > 0\\}`` has escaped braces and a relation)."""
    if not (s.startswith("{") and s.endswith("}")) or ":" not in s or len(s) > MAX_ANSWER_CHARS:
        return None
    group: dict[str, str] = {}
    for item in split_top(s[1:-1], ","):
        m = _DICT_ITEM_RE.match(item)
        if not m or m.group(1) in group:
            return None
        group[m.group(1)] = m.group(2).strip()
    return [group] if len(group) >= 2 else None


def assignments(s: str) -> list[dict[str, str]] | None:
    """``p=5, q=2`` -> ``[{p: 5, q: 2}]``; ``p=5,q=2; p=7,q=2`` (or joined by "and"/"or") -> one
    mapping per group (a group ends where a name repeats); ``{p: 5, q: 2}`` (a dictionary) too.
    None unless every item is ``name = value``, each group names two or more variables, and all
    groups name the same ones."""
    if "=" not in s:
        return _dictionary(s)
    if len(s) > MAX_ANSWER_CHARS:
        return None
    groups: list[dict[str, str]] = [{}]
    for part in _GROUP_SPLIT_RE.split(s.replace(", and ", " and ").replace(", or ", " or ")):
        for item in split_top(part, ","):
            m = _ASSIGNMENT_RE.match(item)
            if not m:
                return None
            name = _NAME_NOISE_RE.sub("", m.group(1))
            if name in groups[-1]:
                groups.append({})
            groups[-1][name] = m.group(2).strip()
    if len(groups[0]) < 2 or any(g.keys() != groups[0].keys() for g in groups):
        return None
    return groups


def assignments_decide(gold: str, pred: str, compare_item: Callable[[str, str], bool | None]) -> bool | None:
    """Answers that name their values (``p=5, q=2``): compared by name, never by position, so
    ``p=2, q=5`` is not ``p=5, q=2``; several groups compare as a set of groups. A named answer
    against a tuple compares in the named order (``(3, 4)`` for ``a=3, b=4``); against a bare list
    it is equal when the values match in that order, otherwise (None) math-verify decides; against
    one value it is different (two named values are not one). A
    prediction that leaves out some of the reference's names is different (``P(X=1)=\\frac13,
    P(X=2)=\\frac12`` for a distribution that also has ``P(X=0)``).
    ``compare_item`` is the certain path's verdict on two single answers (item by item)."""
    ag, ap = assignments(gold), assignments(pred)
    if ag is None or ap is None:
        named, bare = (ag, pred) if ap is None else (ap, gold)
        if named is not None and len(named) == 1 and "=" in bare:
            return _indexed_roots_decide(named[0], bare, compare_item)
        if named is None or len(named) != 1 or "=" in bare:
            return None
        items = split_top(bare)
        one = read_value(bare) if len(items) == 1 and len(named[0]) >= 2 else None
        if one is not None and not isinstance(one, Seq):
            return False  # "x=0, y=42" (or "x=0 \\land y=42") against the one value 42
        if len(items) == len(named[0]) and all(
            compare_item(v, item) is True for v, item in zip(named[0].values(), items, strict=True)
        ):
            return True  # "y_1 = -2x^2+4x+3, y_2 = ..." against "-2(x-1)^2+5, ..." item by item
        vb = read_value(bare)
        if not isinstance(vb, Seq) or vb.open not in ("", "(") or len(vb.items) != len(named[0]):
            return None
        vn = [read_value(v, 1) for v in named[0].values()]
        if any(v is None for v in vn):
            return None
        same = all(values_equal(x, y) for x, y in zip(vn, vb.items, strict=True))  # type: ignore[arg-type]
        return same if vb.open == "(" else (same or None)  # a tuple is ordered; a bare list may not be
    if ag[0].keys() != ap[0].keys():  # a value left out is a wrong answer; other names: math-verify
        return False if ap[0].keys() < ag[0].keys() else None
    if len(ag) != len(ap):
        return None
    parsed = [[{k: read_value(v, 1) for k, v in g.items()} for g in side] for side in (ag, ap)]
    if any(v is None for side in parsed for g in side for v in g.values()):
        return None
    remaining = list(parsed[1])
    for g in parsed[0]:
        for k, other in enumerate(remaining):
            if all(values_equal(g[name], other[name]) for name in g):  # type: ignore[arg-type]
                del remaining[k]
                break
        else:
            return False
    return True


_INDEXED_NAME_RE = re.compile(r"^([A-Za-z])_(\d)$")


def _indexed_roots_decide(
    named: dict[str, str], other: str, compare_item: Callable[[str, str], bool | None]
) -> bool | None:
    """``x_1 = -2, x_2 = 3`` (roots numbered ``x_1`` … ``x_k``) against the solution list
    ``x = -2 or x = 3`` (or ``x = 3, x = -2``): the same values in any order credits; else None."""
    letters_seen = [_INDEXED_NAME_RE.match(name) for name in named]
    if any(m is None for m in letters_seen):
        return None
    letter = {m.group(1) for m in letters_seen if m is not None}
    if len(letter) != 1 or [int(m.group(2)) for m in letters_seen if m is not None] != list(
        range(1, len(named) + 1)
    ):
        return None
    name = letter.pop()
    values: list[str] = []
    for part in _GROUP_SPLIT_RE.split(other.replace(", or ", " or ").replace(", and ", " and ")):
        for item in split_top(part, ","):
            lhs, eq, rhs = item.partition("=")
            if not eq or lhs.strip() != name or not rhs.strip() or "=" in rhs:
                return None
            values.append(rhs.strip())
    if len(values) != len(named):
        return None
    remaining = list(named.values())
    for value in values:
        hit = next((k for k, v in enumerate(remaining) if compare_item(v, value) is True), None)
        if hit is None:
            return None
        del remaining[hit]
    return True


_FUNC_DEF_RE = re.compile(r"^([a-zA-Z](?:\^\{-1\}|\^-1|'{1,2}|_\{?[0-9a-zA-Z]\}?)?)\(([a-zA-Z])\) ?=(.*)$")
"""A function's definition: its name (``f``, ``f^{-1}``, ``f'``, ``g_1``), one argument, its body."""


def rename_variable(gold: str, pred: str) -> str:
    """``f(z)=z`` against ``f(x)=x``: rename the prediction's argument to the reference's."""
    mg, mp = _FUNC_DEF_RE.match(gold), _FUNC_DEF_RE.match(pred)
    if not mg or not mp or mg.group(1) != mp.group(1) or mg.group(2) == mp.group(2):
        return pred
    old, new = mp.group(2), mg.group(2)
    if re.search(rf"(?<![a-zA-Z\\]){new}(?![a-zA-Z])", mp.group(3)):
        return pred  # the new name is already used in the body
    body = re.sub(rf"(?<![a-zA-Z\\]){old}(?![a-zA-Z])", new, mp.group(3))
    return f"{mp.group(1)}({new})={body}"


_NAMED_RHS_RE = re.compile(
    r"^(?:([a-zA-Z])(?:_(?:\{[^{}=]{1,20}\}|[a-zA-Z0-9]))?|\(([a-zA-Z](?:, ?[a-zA-Z]){1,5})\)|\|([A-Z]{2,3})\|) ?=([^=]+)$"
)
"""A name (a letter, with a subscript: ``y``, ``a_n``, ``I_{\\max}``; a tuple of letters; a segment
``|AB|``), ``=``, the value."""


NAME = r"[A-Za-z](?:_\{?\w+\}?)?"
"""A one-letter name, with a subscript (``y``, ``a_n``, ``I_{max}``)."""
_NAMED_RATIO_RE = re.compile(rf"^{NAME}(?: ?: ?{NAME})+ ?= ?(\d+(?: ?: ?\d+)+)$")
NAMED_RATIO_VALUE_RE = re.compile(rf"^{NAME}(?: ?: ?{NAME})+ ?= ?([^=:<>]+)$")


_WORD_NAME_RE = re.compile(r"^\s*([A-Za-z]{3,})\s?=\s?([^=]{1,200})$")
"""A word of three letters or more naming the value on the right (``result = 3.14``)."""


BRACKETED_NAME_RE = re.compile(
    r"^(?:\[[^\[\]=]{1,40}\]|\\[lL]Vert[^=]{1,40}\\[rR]Vert|\\\|[^=]{1,40}\\\||\|[^|=]{1,40}\|)$"
)
"""A quantity named in brackets: ``[K:\\mathbb Q]``, ``\\lVert T^n \\rVert``, ``\\|v\\|``, ``|A|``."""


def named_rhs(s: str) -> str | None:
    """The value a reference names: ``y = x^2+2x+1`` -> ``x^2+2x+1``, ``(p,q)=(3,2)`` -> ``(3,2)``,
    ``|AB|=1`` -> ``1``, ``I_{\\max} = \\frac{q_0}{\\sqrt{2LC}}`` -> the fraction. One ``=`` after a
    one-letter name (not ``e``/``i`` unless subscripted), a tuple of such names or a segment's
    length, whose letter the right side does not use, and no relation; else None."""
    m = _NAMED_RATIO_RE.match(s) or NAMED_RATIO_VALUE_RE.match(s)
    if m:  # "V_{1}:V_{2}=11:21" -> "11:21", "A:B=1" -> "1"
        return m.group(1).strip()
    if any(op in s for op in RELATION_OPS):
        return None
    lhs, eq, rhs = s.partition("=")
    if eq and "=" not in rhs and BRACKETED_NAME_RE.match(lhs.strip()) and rhs.strip():
        if letters(lhs) - letters(rhs):
            return rhs.strip()  # "\\lVert T^n \\rVert = 1/n!": the norm of T (not "|x| = x")
    w = _WORD_NAME_RE.match(s)
    if w and not is_known_name(w.group(1)) and w.group(1).lower() not in w.group(2).lower():
        return w.group(2).strip()  # "result = 3.14", "area = 25": a word naming the value
    m = _NAMED_RHS_RE.match(s)
    if not m:
        return None
    names = set(m.group(1) or m.group(3) or m.group(2).replace(" ", "").replace(",", ""))
    subscripted = m.group(1) is not None and s[m.end(1) : m.end(1) + 1] == "_"
    if names & CONSTANT_LETTERS and not subscripted:  # "e = 2" is not a name; "I_{\max} = 2" is
        return None
    rhs = m.group(4).strip()
    if not rhs or names & letters(rhs):
        return None
    return rhs
