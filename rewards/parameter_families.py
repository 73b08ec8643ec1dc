"""Answers that are families with declared parameters, compared up to the parameters' names.

``f(x)=x^2+cx+d \\quad (c,d \\in \\mathbb R)`` and ``f(x)=x^2+ax+b \\text{ for some } a,b \\in
\\mathbb R`` are one family: the parameters are bound, so their names do not matter. Neither
reader knows that (math-verify compares ``c`` with ``a``). When both answers end by declaring
the same number of parameters in the same set, the prediction's parameters are renamed to the
reference's in every order (at most ``MAX_PARAMETERS``, so 6 orders) and the bodies compared;
a match credits. No match leaves the pair to the other rules (a family can be written in other
ways than by renaming), so this reading never refuses.
"""

from __future__ import annotations

import re
from itertools import permutations

from rewards.answer_text import letters, rename_letters

__all__ = ["MAX_PARAMETERS", "MAX_TEXT", "declared_family", "renamed_bodies"]

MAX_PARAMETERS = 3
MAX_TEXT = 500
"""Longer texts are not read as a family (an answer, not a solution)."""

_DECLARATION_RE = re.compile(
    r"(?:\\q?quad|\\[ ,;]|[,;])?\s*"
    r"(?:\\text\{\s*(?:for(?: some| all| any| every)?|where|with)\s*\}\s*|(\())?"
    r"(?<![A-Za-z\\])([a-zA-Z](?:\s*,\s*[a-zA-Z]){0,3})\s*\\in\s*\\mathbb\s*\{?\s*([RCZNQ])\s*\}?\s*(\))?\s*\.?\s*$"
)
_TAIL_RE = re.compile(r"(?:\s|\\q?quad|\\[ ,;]|[,;])+$")


def declared_family(text: str) -> tuple[str, tuple[str, ...], str] | None:
    """``(body, parameters, set)`` of ``body (a, b \\in \\mathbb R)`` or ``body \\text{ for some }
    a, b \\in \\mathbb R``; None when ``text`` does not end so or a parameter is not in the body."""
    if len(text) > MAX_TEXT or "\\mathbb" not in text:
        return None
    m = _DECLARATION_RE.search(text)
    if m is None or bool(m.group(1)) != bool(m.group(4)):
        return None
    params = tuple(p.strip() for p in m.group(2).split(","))
    if len(params) > MAX_PARAMETERS or len(set(params)) != len(params):
        return None
    body = _TAIL_RE.sub("", text[: m.start()])
    named = letters(body)
    if not body or "=" not in body or any(p not in named for p in params):
        return None
    return body, params, m.group(3)


def renamed_bodies(gold: str, pred: str) -> list[tuple[str, str]]:
    """The reference's body with the prediction's body under each renaming of its parameters to
    the reference's; empty unless both declare as many parameters in the same set, and the
    prediction uses none of the reference's parameter names for anything else."""
    g, p = declared_family(gold), declared_family(pred)
    if g is None or p is None or g[2] != p[2] or len(g[1]) != len(p[1]):
        return []
    p_letters = letters(p[0])
    if any(name in p_letters and name not in p[1] for name in g[1]):
        return []  # "a" is a parameter of the reference and something else in the prediction
    return [(g[0], rename_letters(p[0], dict(zip(p[1], order, strict=True)))) for order in permutations(g[1])]
