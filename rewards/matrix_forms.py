"""Matrices written by a shorthand, written out as ``pmatrix`` before either reader compares.

- ``\\operatorname{diag}(a, b, c)`` (``\\mathrm{diag}``, ``\\text{diag}``, ``diag``): the diagonal
  matrix;
- ``(a, b)^{T}`` (``^T``, ``^{\\mathsf T}``, ``^\\top``, ``^{\\intercal}``, ``[a, b]^T``): the
  column vector;
- ``[[1, 2], [3, 4]]`` (a nested list, as Python or sympy's ``Matrix`` writes it): its rows.

math-verify reads ``\\mathrm{diag}`` as a product of letters and ``(a, b)^{\\mathsf T}`` as a
tuple to a power; a competition checker labels both equal to the matrix they name.
"""

from __future__ import annotations

import re

from rewards.answer_text import closing_parenthesis, split_top

__all__ = ["MAX_ENTRIES", "matrix_forms_written_out"]

MAX_ENTRIES = 12
MAX_TEXT = 2000

_DIAG_RE = re.compile(
    r"(?:\\operatorname\{diag\}|\\mathrm\{diag\}|\\text(?:rm)?\{diag\}|(?<![\\A-Za-z])diag)\s*\("
)
_TRANSPOSE_RE = re.compile(
    r"([)\]])\s*\^\s*(?:\{\s*(?:\\mathsf\s*\{?\s*T\s*\}?|\\mathrm\s*\{?\s*T\s*\}?|\\rm\s*T|\\top|\\intercal|T)"
    r"\s*\}|T(?![a-zA-Z])|\\top(?![a-zA-Z])|\\intercal(?![a-zA-Z]))"
)
_OPENING = {")": "(", "]": "["}


def _opening(text: str, end: int) -> int | None:
    """Index of the bracket that the ``)`` or ``]`` at ``end`` closes."""
    depth = 0
    want = _OPENING[text[end]]
    for i in range(end, -1, -1):
        c = text[i]
        if c in ")}]":
            depth += 1
        elif c in "({[":
            depth -= 1
            if depth == 0:
                return i if c == want else None
    return None


def _entries(inner: str) -> list[str] | None:
    items = [item.strip() for item in split_top(inner, ",")]
    return items if 2 <= len(items) <= MAX_ENTRIES and all(items) else None


def _diagonal(entries: list[str]) -> str:
    rows = [" & ".join(e if i == j else "0" for j in range(len(entries))) for i, e in enumerate(entries)]
    return "\\begin{pmatrix}" + " \\\\ ".join(rows) + "\\end{pmatrix}"


def _written_diagonals(text: str) -> str:
    out: list[str] = []
    i = 0
    for m in _DIAG_RE.finditer(text):
        if m.start() < i:
            continue
        end = closing_parenthesis(text, m.end() - 1)
        entries = None if end is None else _entries(text[m.end() : end])
        if end is None or entries is None:
            continue
        out.append(text[i : m.start()])
        out.append(_diagonal(entries))
        i = end + 1
    return "".join(out) + text[i:] if out else text


def _written_transposes(text: str) -> str:
    while True:
        for m in _TRANSPOSE_RE.finditer(text):
            start = _opening(text, m.start(1))
            entries = None if start is None else _entries(text[start + 1 : m.start(1)])
            if start is None or entries is None:
                continue
            column = "\\begin{pmatrix}" + " \\\\ ".join(entries) + "\\end{pmatrix}"
            text = text[:start] + column + text[m.end() :]
            break
        else:
            return text


_NESTED_LIST_RE = re.compile(r"^\s*(?:Matrix\()?\[\s*(\[[^\[\]]*\](?:\s*,\s*\[[^\[\]]*\])+)\s*\]\)?\s*$")
_ROW_RE = re.compile(r"\[([^\[\]]*)\]")


def _nested_list(text: str) -> str | None:
    """``[[1, 2], [3, 4]]`` (or sympy's ``Matrix([[1, 2], [3, 4]])``) as ``pmatrix``: two rows or
    more of the same length; None for anything else."""
    m = _NESTED_LIST_RE.match(text)
    if m is None:
        return None
    rows = [_entries(row) or [row.strip()] for row in _ROW_RE.findall(m.group(1))]
    if any(not all(row) for row in rows) or len({len(row) for row in rows}) != 1:
        return None
    if len(rows) * len(rows[0]) > MAX_ENTRIES * MAX_ENTRIES:
        return None
    return "\\begin{pmatrix}" + " \\\\ ".join(" & ".join(row) for row in rows) + "\\end{pmatrix}"


def matrix_forms_written_out(text: str) -> str:
    """``text`` with ``diag(…)``, ``(…)^T`` and a nested list ``[[…], […]]`` written as
    ``pmatrix``; else ``text`` itself."""
    if len(text) > MAX_TEXT:
        return text
    if "[[" in text.replace(" ", ""):
        nested = _nested_list(text)
        if nested is not None:
            return nested
    if "diag" in text:
        text = _written_diagonals(text)
    if "^" in text and ("T" in text or "\\top" in text or "\\intercal" in text):
        text = _written_transposes(text)
    return text
