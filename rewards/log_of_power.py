"""A logarithm of a power of its own base, written as the exponent.

``\\ln(e^{x})``, ``\\ln(\\exp(x))``, ``log(exp(x))`` and ``\\log_{b}(b^{x})`` are ``x`` for every
real ``x`` (and base ``b > 0``, ``b \\ne 1``, where the logarithm exists at all). Symbolic-expression
checkers label them so; sympy leaves ``log(exp(x))`` alone (it is not ``x`` for complex ``x``), so
math-verify refuses. The rewrite runs before either reader compares, only on whole brackets whose
content is exactly such a power; ``\\log(x^2)`` and ``\\ln(2e^x)`` stay as written.
"""

from __future__ import annotations

import re

from rewards.answer_text import closing_parenthesis

__all__ = ["log_of_power_written_out"]

MAX_TEXT = 2000

_LOG_RE = re.compile(
    r"(\\ln|(?<![A-Za-z\\])ln|(?<![A-Za-z\\])log|\\log_\{([^{}]{1,20})\}|\\log_([A-Za-z0-9]))\s*(?:\\left)?\s*\("
)
_EXP_RE = re.compile(r"^(?:\\exp|exp)\s*(?:\\left)?\s*\((.*)(?:\\right)?\)$")
_BRACED_POWER_RE = re.compile(r"^(.{1,20}?)\^\{(.*)\}$")
_BARE_POWER_RE = re.compile(r"^(.{1,20}?)\^([A-Za-z0-9])$")


MAX_ARGUMENT = 300
"""A logarithm's argument longer than this is not read (each ``ln(`` scans at most this far)."""


def _balanced(s: str) -> bool:
    depth = 0
    for c in s:
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _exponent(argument: str, base: str) -> str | None:
    """``U`` when ``argument`` is exactly ``base^{U}``, ``base^U`` or (base ``e``) ``\\exp(U)``."""
    arg = argument.strip()
    if base == "e":
        m = _EXP_RE.match(arg)
        if m and _balanced(m.group(1)):
            return m.group(1).strip()
    m = _BRACED_POWER_RE.match(arg) or _BARE_POWER_RE.match(arg)
    if m is None or not _balanced(m.group(2)):
        return None
    stated = m.group(1).strip()
    if stated[:1] in "({" and stated[-1:] in ")}" and _balanced(stated[1:-1]):
        stated = stated[1:-1].strip()  # "(x+1)^{n}" against the base "x+1"
    return m.group(2).strip() if stated.replace(" ", "") == base.replace(" ", "") else None


def log_of_power_written_out(text: str) -> str:
    """``text`` with each ``\\ln(e^{U})`` or ``\\log_b(b^{U})`` as ``(U)``; else ``text`` itself."""
    if len(text) > MAX_TEXT or "ln" not in text and "log" not in text:
        return text
    out: list[str] = []
    i = 0
    for m in _LOG_RE.finditer(text):
        if m.start() < i:
            continue
        end = closing_parenthesis(text, m.end() - 1, MAX_ARGUMENT)
        if end is None:
            continue
        inner = text[m.end() : end]
        inner = inner.removesuffix("\\right") if inner.rstrip().endswith("\\right") else inner
        head = m.group(1)
        base = m.group(2) or m.group(3) or ("e" if head.lstrip("\\") in ("ln", "log") else None)
        if head.lstrip("\\") == "log" and not inner.strip().startswith(("\\exp", "exp")):
            continue  # "\\log(10^x)": the base of a bare log is not said
        exponent = None if base is None else _exponent(inner.rstrip().removesuffix("\\right"), base.strip())
        if exponent is None:
            continue
        out.append(text[i : m.start()])
        out.append(f"({exponent})")
        i = end + 1
    return "".join(out) + text[i:] if out else text
