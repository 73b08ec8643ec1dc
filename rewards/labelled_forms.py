"""Whole answers that carry a label around their value, written out as the value for both readers:

- numbered parts, ``(1) 270; (2) 5600`` or ``(a) 5 (b) 7``: the tuple ``(270, 5600)``, in order
  (the labels count 1, 2, ... or a, b, ... from the first; each part holds a value, not a
  sentence; after letters, each holds a digit or LaTeX: ``(a) is wrong, (b) is right`` discusses
  options);
- a named point, ``P(3, -2)`` or ``O(0,0)``: the tuple ``(3, -2)`` (one capital letter, every
  coordinate with a digit: ``F(x, y)`` is a function; ``C(39, 1)`` is a binomial coefficient);
- a map, ``f: x \\mapsto 2x+1``, ``x ↦ (x-1)/2``, ``f^{-1}: x \\to \\frac{x-1}{2}``: its value
  ``2x+1`` (the value must use the variable: ``x \\to 0`` is a limit, not a map);
- a sign in words before a number, ``negative 6``, ``minus 6``: ``-6``;
- labelled values on lines of their own, ``Mean: 16.99\nVariance: 1.30``: one line,
  ``Mean: 16.99, Variance: 1.30``, which the named-value readers take (every line ``Label: value``,
  a label of words without digits: ``Step 1: ...`` is working, not an answer).

Each reads a whole short answer only (:data:`MAX_CHARS`); anything else is returned as it is.
"""

from __future__ import annotations

import re

from rewards.answer_text import prose_words

MAX_CHARS = 400

_PART_LABEL_RE = re.compile(r"\(\s*([1-9]|[a-h])\s*\)")
_PART_SEPARATORS = " \t\n;,."
_PROSE_PART_WORDS = 3
"""A part with this many words is a step of working, not a value."""
_FIRST_LABELS = {"1": "123456789", "a": "abcdefgh"}

_NAMED_POINT_RE = re.compile(r"^\s*[A-Z](?:_\{?\d\}?|')?\s?\(([^()=]{1,60}(?:,[^()=]{1,60}){1,2})\)\s*$")

_MAP_RE = re.compile(
    r"^\s*(?:[A-Za-z](?:\^\{-1\}|\^\{?\s?-\s?1\}?)?\s?:\s?)?([a-z])\s?"
    r"(?:\\mapsto|\\to|\\rightarrow|\\longmapsto|\\longrightarrow|\u21a6|\u2192|->)\s?(.+?)\s*$"
)

_LABELLED_LINE_RE = re.compile(r"^\s*(?:[-*\u2022]\s*)?[A-Za-z][A-Za-z ()_'-]{0,40}:\s*\S[^\n]*$")
_MAX_LINES = 8
_WORKING_LABEL_RE = re.compile(
    r"^\s*(?:[-*\u2022]\s*)?(?:final answer|answer|solution|reasoning|explanation|thoughts?|work|"
    r"working|note|confidence|justification)\s*:",
    re.IGNORECASE,
)

_SIGN_WORD_RE = re.compile(r"^\s*(?:negative|minus|neg\.?)\s+(\d[\d.,]*)\s*$", re.IGNORECASE)


def _labelled_lines(text: str) -> str | None:
    lines = [line for line in text.split("\n") if line.strip()]
    if not 2 <= len(lines) <= _MAX_LINES or not all(_LABELLED_LINE_RE.match(line) for line in lines):
        return None
    if any(_WORKING_LABEL_RE.match(line) for line in lines):
        return None  # "Reasoning: ...\nAnswer: 12": the answer phrase's own reading decides
    return ", ".join(line.strip().lstrip("-*\u2022 ") for line in lines)


def _numbered_parts(text: str) -> str | None:
    labels = list(_PART_LABEL_RE.finditer(text))
    if len(labels) < 2 or text[: labels[0].start()].strip():
        return None
    first = labels[0].group(1)
    expected = _FIRST_LABELS.get(first)
    if expected is None or [m.group(1) for m in labels] != list(expected[: len(labels)]):
        return None
    parts = []
    for m, nxt in zip(labels, [*labels[1:], None], strict=True):
        part = text[m.end() : nxt.start() if nxt is not None else len(text)].strip(_PART_SEPARATORS)
        if not part or prose_words(part) >= _PROSE_PART_WORDS:
            return None  # "(1) We find x = 2. (2) So the answer is 5.": numbered steps, not parts
        if first == "a" and not re.search(r"[\d\\$]", part):
            return None  # "(a) is wrong, (b) is right": options discussed, not answers
        parts.append(part)
    if any("=" in part for part in parts):
        return ", ".join(parts)  # "(1) x = 2 (2) y = 3": named values say which is which
    return "(" + ", ".join(parts) + ")"  # a tuple: part (1) is the first value, whatever the reader


_COUNTING_NAMES = frozenset("CPA")
"""``C(39, 1)``, ``P(5, 2)``, ``A(5, 2)``: combinations and arrangements, not points, when both
arguments are whole numbers."""


def _named_point(text: str) -> str | None:
    m = _NAMED_POINT_RE.match(text)
    items = [] if m is None else [item.strip() for item in m.group(1).split(",")]
    if m is None or not all(re.search(r"\d", item) for item in items):
        return None
    if text.strip()[0] in _COUNTING_NAMES and all(item.isdigit() for item in items):
        return None
    return f"({m.group(1).strip()})"


def _map_value(text: str) -> str | None:
    m = _MAP_RE.match(text)
    if m is None or not re.search(rf"(?<![A-Za-z\\]){m.group(1)}(?![A-Za-z])", m.group(2)):
        return None
    return m.group(2)


def labelled_forms_written_out(text: str) -> str:
    """``text`` with its label read away (module docstring), or as it is."""
    if len(text) > MAX_CHARS:
        return text
    if "\n" in text and ":" in text and (got := _labelled_lines(text)) is not None:
        return got
    if "(" in text:
        for reader in (_numbered_parts, _named_point):
            got = reader(text)
            if got is not None:
                return got
    if (
        "to" in text
        or "map" in text
        or "arrow" in text
        or "\u21a6" in text
        or "\u2192" in text
        or "->" in text
    ) and (got := _map_value(text)) is not None:
        return got
    m = _SIGN_WORD_RE.match(text)
    return f"-{m.group(1)}" if m else text
