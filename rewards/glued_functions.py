"""Function names glued to their argument, written with a space: ``sinx`` as ``\\sin x``.

Students and models type ``sinx``, ``2cosx``, ``sin2x``, ``sin^2x``, ``lnx`` or ``sinxcosx``
without a space. latex2sympy reads such a run of letters as a product of single letters
(``s i n x``), so ``sinx`` is refused against ``\\sin x``; a calculator, a CAS's input line and
every public label seen read the function. :func:`glued_functions_written_out` rewrites a short
answer whose every run of three letters or more is such an application (a known function name,
then one letter, or nothing before a power, a digit or a parenthesis), and leaves anything else
as it is: prose (``cost``, ``since`` or any word that does not split into applications), an
unknown word, ``log2x`` (base 2 or the logarithm of ``2x``), ``asinx`` (``arcsin x`` or ``a\\sin x``).
A name glued to a Greek letter (``tanθ``, ``sin\\theta``) is applied to it, in parentheses.
One linear pass over at most :data:`MAX_CHARS` characters.
"""

from __future__ import annotations

import re

from rewards.answer_text import greek_names

MAX_CHARS = 200
"""Longer texts are left alone (an answer, not a solution)."""

_NAMES = "arcsin arccos arctan sinh cosh tanh coth sin cos tan cot sec csc ln".split()
"""Function names, longest first where one begins another (``sinh`` before ``sin``); ``log``
is left out: ``logx`` is rare and ``log2x`` is ambiguous."""

_RUN_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")
"""A run of three letters or more that is not a LaTeX command."""

_QUICK_RE = re.compile(r"sin|cos|tan|cot|sec|csc|ln")

_GLUED_AFTER_RE = re.compile(r"\^(?:\d+|\{-?\d+\})[A-Za-z]|\d+[A-Za-z]")
"""After a name that ends its run: a power or a coefficient glued to a letter (``sin^2x``, ``sin2x``)."""

_TEXT_RE = re.compile(r"\\(?:text|mathrm|textbf|textit|operatorname|mbox)\b")
"""Words in text mode are words (``\\text{cost}``)."""

_GREEK_NAMES = sorted(greek_names(pi=True, variants=True, capitals=False), key=len, reverse=True)
_GREEK_ARGUMENT_RE = re.compile(
    r"(?<![\\A-Za-z])(" + "|".join(_NAMES) + r")"
    r"([\u03b1-\u03c9\u0391-\u03a9]|\\(?:" + "|".join(_GREEK_NAMES) + r")(?![A-Za-z]))"
)
"""A function name glued to a Greek letter, in Unicode or LaTeX (``tanθ``, ``sin\\theta``)."""

_WORDS = frozenset("cost cosy sect tank sins cots secs tans".split())
"""English words that split into an application (``cos t``): a run that is one of them is a word."""


def _applications(run: str, after: str) -> list[str] | None:
    """``run`` split into applications (``sinxcosx`` -> ``["\\sin x", "\\cos x"]``); None if it
    does not split. ``after`` is the character after the run: a name may end the run only before
    a power, a digit, a parenthesis or a space (``sin^2x``, ``sin2x``, ``sin(x)``, ``sin x``)."""
    out: list[str] = []
    i = 0
    while i < len(run):
        name = next((n for n in _NAMES if run.startswith(n, i)), None)
        if name is None and i == 0 and run[0] != "a":  # xsinx: x times sin x (asinx is ambiguous)
            out.append(run[0])
            i = 1
            name = next((n for n in _NAMES if run.startswith(n, i)), None)
        if name is None:
            return None
        i += len(name)
        if i == len(run):
            if after not in ("^", "(", " ") and not after.isdigit():
                return None
            out.append(f"\\{name}" if after in ("(", " ", "^") else f"\\{name} ")
        else:
            out.append(f"\\{name}({run[i]})")  # parenthesised: latex2sympy reads \tan x/x as tan(x/x)
            i += 1
    return out


def glued_functions_written_out(text: str) -> str:
    """``text`` with every glued function application written out (``2cosx`` -> ``2\\cos x``),
    or ``text`` itself when any run of three letters or more is not such an application."""
    if len(text) > MAX_CHARS or not _QUICK_RE.search(text) or _TEXT_RE.search(text):
        return text
    greek = _GREEK_ARGUMENT_RE.sub(r"\\\1(\2)", text)  # tanθ -> \tan(θ): sinθ/cosθ is not sin(θ/cos θ)
    if greek != text:
        return glued_functions_written_out(greek)
    parts: list[str] = []
    last = 0
    glued = False
    for m in _RUN_RE.finditer(text):
        after = text[m.end()] if m.end() < len(text) else ""
        apps = None if m.group().lower() in _WORDS else _applications(m.group(), after)
        if apps is None:
            return text
        # sin(x), sin x, sin^(-1)(x) alone: calculator syntax that plain_syntax reads; sin^2x, sin2x: glued
        glued = glued or apps != [f"\\{m.group()}"] or _GLUED_AFTER_RE.match(text, m.end()) is not None
        parts.append(text[last : m.start()])
        parts.append(" ".join(apps))
        last = m.end()
    if not glued:
        return text
    parts.append(text[last:])
    return "".join(parts)
