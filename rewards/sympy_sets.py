"""Sets as sympy prints them, written out as intervals and sets (a model that solves with sympy
in a tool call often pastes its printed result):

- ``Interval(a, b)`` is ``[a, b]``; ``Interval.open(a, b)`` ``(a, b)``; ``Interval.Lopen(a, b)``
  ``(a, b]``; ``Interval.Ropen(a, b)`` ``[a, b)``; ``Interval(a, b, True, False)`` by its flags
  (left open, right open); an infinite end is open (``Interval(-oo, 2)`` is ``(-\\infty, 2]``);
- ``FiniteSet(1, 2)`` is ``\\{1, 2\\}``; ``EmptySet`` is ``\\emptyset``; ``Reals`` is
  ``(-\\infty, \\infty)``;
- ``Union(A, B)`` is ``A \\cup B``; ``Intersection(A, B)`` is ``A \\cap B``.

Infinite ends are written ``\\infty``; other arguments stay as sympy printed them (``sqrt(2)``).
Only a whole short answer is rewritten (:data:`MAX_CHARS`); one that does not parse is returned as
it is.
"""

from __future__ import annotations

import re

from rewards.answer_text import closing_parenthesis, split_top

MAX_CHARS = 600
_MAX_SETS = 20

_CALL_RE = re.compile(
    r"\b(Interval\.open|Interval\.Lopen|Interval\.Ropen|Interval|FiniteSet|Union|Intersection)\("
)
_NAMES_RE = re.compile(r"\b(?:Interval|FiniteSet|Union|Intersection|EmptySet|Reals)\b")
_BRACKETS = {
    "Interval": ("[", "]"),
    "Interval.open": ("(", ")"),
    "Interval.Lopen": ("(", "]"),
    "Interval.Ropen": ("[", ")"),
}
_FLAGS = {"True": True, "False": False}


def _end(arg: str) -> str:
    return {"oo": "\\infty", "-oo": "-\\infty"}.get(arg, arg)


def _written(name: str, args: list[str]) -> str | None:
    if name in _BRACKETS:
        left, right = _BRACKETS[name]
        if name == "Interval" and len(args) == 4 and args[2] in _FLAGS and args[3] in _FLAGS:
            left, right = "(" if _FLAGS[args[2]] else "[", ")" if _FLAGS[args[3]] else "]"
            args = args[:2]
        if len(args) != 2:
            return None
        low, high = _end(args[0]), _end(args[1])
        left = "(" if low == "-\\infty" else left  # an infinite end is open: Interval(-oo, 2)
        right = ")" if high == "\\infty" else right
        return f"{left}{low}, {high}{right}"
    if name == "FiniteSet":
        return "\\{" + ", ".join(args) + "\\}"
    if len(args) < 2:
        return None
    return (" \\cup " if name == "Union" else " \\cap ").join(args)


def sympy_sets_written_out(text: str) -> str:
    """``text`` with sympy's printed sets written out (module docstring), or as it is."""
    if len(text) > MAX_CHARS or not _NAMES_RE.search(text):
        return text
    s = text.replace("EmptySet", "\\emptyset").replace("Reals", "(-oo, oo)")
    for _ in range(_MAX_SETS):
        calls = list(_CALL_RE.finditer(s))
        if not calls:
            return s
        m = calls[-1]  # the last call opened holds no other call after its name: innermost first
        end = closing_parenthesis(s, m.end() - 1)  # every bracket kind nests: "(-\\infty, 2]" is one
        if end is None:
            return text
        args = split_top(s[m.end() : end], ",")
        if any(not a for a in args):
            return text
        written = _written(m.group(1), args)
        if written is None:
            return text
        s = s[: m.start()] + written + s[end + 1 :]
    return text
