"""Sets given by an index over a few integers, written out as their elements.

``\\{e^{k\\pi i/3} : k = 0, 1, \\ldots, 5\\}`` is the set of six numbers; a reference or a model
may write either form, and neither reader compares a builder with its elements (math-verify
parses the builder as a condition). Written out, ``\\{0\\} \\cup \\{e^{k\\pi i/3} : k=0,\\dots,5\\}``
becomes ``\\{0, e^{(0)\\pi i/3}, …, e^{(5)\\pi i/3}\\}`` and both readers compare elements.

Only an index that is one letter and runs over integers listed, given by a range with dots
(``k = 1, 2, \\ldots, 6``), by ``k \\in \\{…\\}`` or by two bounds on a letter declared an integer
(``0 \\le k \\le 5, k \\in \\mathbb Z``; without it ``-1 < x < 1`` is an interval) is written
out, at most ``MAX_ELEMENTS`` values; anything else is left as written.
"""

from __future__ import annotations

import re

from rewards.answer_text import letters, rename_letters

__all__ = ["MAX_ELEMENTS", "index_sets_written_out"]

MAX_ELEMENTS = 64
"""A builder with more values than this stays a builder."""
MAX_TEXT = 2000
"""Texts longer than this are not scanned (an answer, not a solution)."""

_SEPARATOR_RE = re.compile(r"\s*(?::|\\mid(?![a-zA-Z])|\|)\s*")
_DOTS_RE = re.compile(r"^(?:\\[lc]?dots|\\ldots|\.\.\.?|…)$")
_INT_RE = re.compile(r"^\s*(-?\d{1,6})\s*$")
_LISTED_RE = re.compile(r"^([a-zA-Z])\s*=\s*(.+)$")
_IN_SET_RE = re.compile(r"^([a-zA-Z])\s*\\in\s*\\\{(.+)\\\}$")
_BOUNDS_RE = re.compile(
    r"^(-?\d{1,6})\s*(<|\\leq?(?![a-zA-Z]))\s*([a-zA-Z])\s*(<|\\leq?(?![a-zA-Z]))\s*(-?\d{1,6})$"
)
_INTEGER_DECLARATION_RE = re.compile(
    r"(?:^|,|;|\\text\{\s*(?:and|where)\s*\})\s*([a-zA-Z])\s*\\in\s*\\mathbb\s*\{?\s*[ZN]\s*\}?\s*(?=$|,|;)"
)
"""``k \\in \\mathbb{Z}`` before or after a condition: two bounds then give the integers between."""
_CUP_RE = re.compile(r"\s*\\cup(?![a-zA-Z])\s*")
_TRAILING_RE = re.compile(r"(?:,?\s*\\text\{[^{}]*\}|\s*\.)$")


def _values(items: list[str]) -> list[int] | None:
    """``0, 1, \\ldots, 5`` -> 0..5; ``1, 3, 5`` -> as listed; None if not integers."""
    out: list[int] = []
    for i, raw in enumerate(items):
        item = raw.strip()
        if _DOTS_RE.match(item):
            if len(out) < 2 or i != len(items) - 2:
                return None  # a range needs two values before the dots and one after
            last = _INT_RE.match(items[-1])
            step = out[-1] - out[-2]
            if last is None or step == 0:
                return None
            end = int(last.group(1))
            if (end - out[-1]) % step or (end - out[-1]) // step < 1:
                return None
            if len(out) + (end - out[-1]) // step > MAX_ELEMENTS:
                return None
            out.extend(range(out[-1] + step, end + (1 if step > 0 else -1), step))
            return out
        m = _INT_RE.match(item)
        if m is None:
            return None
        out.append(int(m.group(1)))
        if len(out) > MAX_ELEMENTS:
            return None
    return out


def _index(condition: str) -> tuple[str, list[int]] | None:
    """The index letter and its values from ``k = 0, 1, \\ldots, 5``, ``k \\in \\{1, 2\\}`` or
    ``0 \\le k < 6, k \\in \\mathbb Z``; None for any other condition."""
    condition = _TRAILING_RE.sub("", condition.strip()).strip()
    declared = _INTEGER_DECLARATION_RE.search(condition)
    if declared is not None:
        condition = (condition[: declared.start()] + condition[declared.end() :]).strip(" ,;")
    m = _BOUNDS_RE.match(condition)
    if m and declared is not None and declared.group(1) == m.group(3):  # "x" in "-1 < x < 1" is real
        lo, hi = int(m.group(1)), int(m.group(5))
        lo += 1 if m.group(2) == "<" else 0
        hi -= 1 if m.group(4) == "<" else 0
        if not 0 < hi - lo + 1 <= MAX_ELEMENTS:
            return None
        return m.group(3), list(range(lo, hi + 1))
    m = _IN_SET_RE.match(condition) or _LISTED_RE.match(condition)
    if m is None:
        return None
    values = _values(m.group(2).split(","))
    return (m.group(1), values) if values else None


def _substituted(expr: str, letter: str, value: int) -> str:
    """``expr`` with each standalone ``letter`` (not inside a command name) as ``{(value)}``."""
    return rename_letters(expr, {letter: f"{{({value})}}"})


def _set_end(text: str, start: int) -> int | None:
    """Index after the ``\\}`` closing the ``\\{`` at ``start``; None when it does not close."""
    depth = 0
    i = start
    while i < len(text):
        if text.startswith("\\{", i):
            depth += 1
            i += 2
        elif text.startswith("\\}", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        elif text[i] == "\\":
            i += 2
        else:
            i += 1
    return None


def _written_out(body: str) -> list[str] | None:
    """Elements of a builder's body ``expr : k = …``; None when it is not such a builder."""
    parts = _SEPARATOR_RE.split(body, maxsplit=1)
    if len(parts) != 2 or "\\{" in parts[0]:
        return None
    expr, condition = parts[0].strip(), parts[1]
    found = _index(condition)
    if found is None or not expr:
        return None
    letter, values = found
    if letter not in letters(expr):
        return None
    return [_substituted(expr, letter, v) for v in values]


def index_sets_written_out(text: str) -> str:
    """``text`` with each ``\\{expr : k = …\\}`` replaced by its elements, and a union of written
    sets (``\\{0\\} \\cup \\{…\\}``) made one set when a builder was written out; else ``text``."""
    if "\\{" not in text or len(text) > MAX_TEXT or not _SEPARATOR_RE.search(text):
        return text
    out: list[str] = []
    i = 0
    changed = False
    while True:
        start = text.find("\\{", i)
        if start < 0:
            out.append(text[i:])
            break
        end = _set_end(text, start)
        if end is None:
            out.append(text[i:])
            break
        elements = _written_out(text[start + 2 : end - 2])
        out.append(text[i:start])
        if elements is None:
            out.append(text[start:end])
        else:
            out.append("\\{" + ", ".join(elements) + "\\}")
            changed = True
        i = end
    if not changed:
        return text
    return _union_as_one_set("".join(out))


def _union_as_one_set(text: str) -> str:
    """``\\{0\\} \\cup \\{1, 2\\}`` -> ``\\{0, 1, 2\\}`` when the text is only such a union."""
    stripped = text.strip()
    parts = _CUP_RE.split(stripped)
    if len(parts) < 2:
        return text
    bodies: list[str] = []
    for part in parts:
        if not part.startswith("\\{") or _set_end(part, 0) != len(part):
            return text
        bodies.append(part[2:-2].strip())
    return "\\{" + ", ".join(b for b in bodies if b) + "\\}"
