"""Answers that differ only in the case of their letters: ``2X`` against ``2x``, ``Y=1+X`` against
``y=1+x``, ``\\angle ABC`` against ``\\angle abc``, ``\\Delta`` against ``\\delta``.

math-verify reads every symbol in lowercase (latex2sympy's ``lowercase_symbols``, on by default), so
it credits each of these pairs. In mathematics they are other variables, points and angles, and
every labelled public set that has such a pair marks it wrong (STACK's ``AlgEquiv`` tests:
``x``/``X``, ``y=1+x``/``Y=1+X``; Doenet's equality corpus: ``x^2+1``/``X^2+1``). So a pair that
math-verify calls equal is not, when the letters of the two answers are the same up to case but
not in case. Letters that are not variables do not count: words in ``\\text{}``, ``\\mathrm{}`` or
``\\operatorname{}`` (units, names), a function's name written out (``Sin``, ``ArcSin(x)``), and
``e``/``E``, ``i``/``I`` and ``pi``/``Pi``, which calculator syntax writes in capitals for Euler's
number, the imaginary unit and π; nor do the names that label values (``V = 10`` against ``v = 10``, ``p = 5, q = 2``
against ``P = 5, Q = 2``: what is compared is the value, as the certain path does when it credits
``x = 3`` for ``3``). Plain words and choice letters (``Yes``/``yes``, ``C``/``c``) never get here:
the certain path decides them first, ignoring case.
"""

from __future__ import annotations

import re

from rewards.answer_text import greek_as_commands, greek_names
from rewards.plain_syntax import is_known_name

_LABEL_RE = re.compile(r"(?:^|[,;])\s*\\?[A-Za-z]+(?:_\{[^{}]*\}|_[A-Za-z0-9])?\s*=(?!=)")
"""A name that labels a value: at the start or after a comma or semicolon, followed by ``=``."""
_WORDS_RE = re.compile(r"\\(?:text|textbf|textit|textrm|mbox|mathrm|operatorname)\s*\{[^{}]*\}")
_COMMAND_RE = re.compile(r"\\([A-Za-z]+)")
_RUN_RE = re.compile(r"[A-Za-z]+")
_GREEK = greek_names(pi=True, variants=True, capitals=False)
_CONSTANT_LETTERS = frozenset("eEiI")


def math_letters(answer: str) -> list[str]:
    """The letters of ``answer`` that name variables, points or Greek symbols, sorted (a Greek
    letter as its command name or its name in calculator syntax: ``Delta``); not those of a name
    labelling a value (``V = ``)."""
    text = _WORDS_RE.sub(" ", _LABEL_RE.sub(",", greek_as_commands(answer)))
    letters = [m.group(1) for m in _COMMAND_RE.finditer(text) if m.group(1).lower() in _GREEK]
    text = _COMMAND_RE.sub(" ", text)
    for run in _RUN_RE.finditer(text):
        word = run.group()
        if word.lower() == "pi":
            continue  # calculator syntax's constant, Pi in Mathematica's: not a variable
        if len(word) > 1 and word.lower() in _GREEK:
            letters.append(word)  # a Greek letter by name in calculator syntax: Delta*x
            continue
        if len(word) > 1 and (is_known_name(word.lower()) or text[run.end() : run.end() + 1] == "("):
            continue  # a function's name: sin x, Sin(x), ArcSin(x)
        letters.extend(c for c in word if c not in _CONSTANT_LETTERS)
    return sorted(letters)


def differ_only_in_case(gold: str, pred: str) -> bool:
    """Whether the two answers use the same letters up to case but not in case (``2X``, ``2x``)."""
    a, b = math_letters(gold), math_letters(pred)
    return a != b and sorted(x.lower() for x in a) == sorted(x.lower() for x in b)
