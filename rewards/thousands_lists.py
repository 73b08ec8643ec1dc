"""Lists whose numbers have thousands commas: ``750,000, 350,000`` against ``750000, 350000``.

A comma in a list is either a separator or a thousands comma, and the text alone cannot say
which (``1,536`` is one number or two). A prediction with more items than the reference is read
again with some of its commas as thousands commas: a comma is one when it is followed, without a
space, by exactly three digits and then no digit, and preceded by a group of one to three digits
that starts a number (not a decimal's digits) or by another such group of three. Among the
readings with as many items as the reference, one whose items the certain path finds equal to the
reference's, in their order, credits the pair; no reading refuses it (the pair keeps the verdict
it had). The reference's own commas always separate its items: ``(8,125,2)`` is a triple, not
``(8125, 2)``. A model cannot profit from this: each reading is a list of numbers as written, and
only the one that is the reference, in order, counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rewards.answer_text import MAX_ANSWER_CHARS, split_outside_brackets
from rewards.answer_values import closes_at_end

_COMMA_RE = re.compile(",")
_GROUP_RE = re.compile(r"^\d{3}(?!\d)")
_FIRST_GROUP_RE = re.compile(r"(?<![\d.])[1-9]\d{0,2}$")
_BRACKETS = {"(": ")", "[": "]", "\\{": "\\}", "{": "}"}
MAX_READINGS = 8
MAX_ITEMS = 40
MAX_STEPS = 2000
"""Readings tried at most per text: the ways to group commas grow exponentially with their count."""


def _unwrapped(s: str) -> tuple[str, str, str]:
    """``(a, b)`` -> ``("(", "a, b", ")")``; a text without outer brackets -> ``("", s, "")``."""
    for open_, close in _BRACKETS.items():
        if s.startswith(open_) and s.endswith(close) and len(s) > len(open_) + len(close):
            inner = s[len(open_) : -len(close)]
            if closes_at_end(s):  # "(1), (2)" is two items, not one pair of brackets
                return open_, inner, close
    return "", s, ""


def items(s: str) -> list[str]:
    """The top-level items of a list, as written (spaces kept), outer brackets aside."""
    return split_outside_brackets(_unwrapped(s.strip())[1], _COMMA_RE)


def readings(s: str, count: int) -> list[str]:
    """``s`` written again with thousands commas removed, one text per way of reading some of its
    commas as thousands commas that leaves ``count`` items (at most :data:`MAX_READINGS`)."""
    open_, inner, close = _unwrapped(s.strip())
    parts = split_outside_brackets(inner, _COMMA_RE)
    if len(parts) <= count or len(parts) > MAX_ITEMS or len(s) > MAX_ANSWER_CHARS:
        return []
    found: list[str] = []
    steps = [0]

    def walk(k: int, done: list[str], current: str, grouped: bool) -> None:
        """``grouped``: ``current`` already ends in a thousands group of three digits."""
        steps[0] += 1
        if len(found) >= MAX_READINGS or steps[0] > MAX_STEPS:
            return
        if len(done) + 1 > count or len(done) + 1 + len(parts) - k < count:
            return  # too many items already, or too few left to reach ``count``
        if k == len(parts):
            if len(done) + 1 == count:
                found.append(open_ + ",".join([*done, current]) + close)
            return
        nxt = parts[k]
        if (grouped or _FIRST_GROUP_RE.search(current)) and _GROUP_RE.match(nxt):
            walk(k + 1, done, current + nxt, True)  # a thousands comma
        walk(k + 1, [*done, current], nxt, False)  # a separator

    walk(1, [], parts[0], False)
    return found


def thousands_list_decide(gold: str, pred: str, compare: Callable[[str, str], bool | None]) -> bool | None:
    """True when the prediction has more items than the reference and one of its readings with
    thousands commas (:func:`readings`) has the reference's items, in their order, by ``compare``;
    else None. The reference's own commas separate its items (``(8,125,2)`` is a triple)."""
    if "," not in pred:
        return None
    wanted = [item.strip() for item in items(gold)]
    for reading in readings(pred, len(wanted)):
        got = [item.strip() for item in items(reading)]
        if len(got) == len(wanted) and all(compare(g, p) is True for g, p in zip(wanted, got, strict=True)):
            return True
    return None
