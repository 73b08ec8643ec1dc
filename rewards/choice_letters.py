"""Multiple-choice answers: an option letter against a letter, the option with its text or value,
a response that opens with the option it chose, or an answer without that letter.

``B`` = ``(B)`` = ``b`` = ``B. Carl has a winning strategy.`` = ``**D) no horizontal asymptotes**``
(for ``D``) = ``The correct answer is (C) III and IV`` (for ``C``) = ``B(6)``; a reference
``C. x = 42`` (the option and its text) against ``C``. A one-letter option against an answer that
holds that letter nowhere (``B`` against ``x = \\pm 2``) is refused: read as maths the letter is a
symbol, and an expression without it never equals it. The letter ``e`` is left out (Euler's
number, nor ``i``). Options run from A to J (MMLU-Pro has ten; lower case only a to e, as ``f``,
``g`` and ``h`` name functions). The option's *value* against a letter (``-12`` for ``B``) needs the question's options:
no verdict here.
"""

from __future__ import annotations

import re

from rewards.extract import extract_answer

_CHOICE_RE = re.compile(r"^\(?\s?([A-Ja-e])\s?\)?$")
_CHOICE_WITH_TEXT_RE = re.compile(r"^(?:\(([A-Ja-e])\)|([A-J])[.:)])\s\S")
_CHOICE_WITH_VALUE_RE = re.compile(r"^([A-J])\s?\([^()]{1,40}\)$")
"""An option letter with the option's value in parentheses (``B(6)``, ``B\\text{（6）}``)."""
_OPTION_SENTENCE_RE = re.compile(
    r"^[\s*#]*(?:(?:the\s+)?(?:correct\s+|final\s+)?(?:answer|option|choice)(?:\s+is)?\s*:?\s*)?\**"
    r"(?:\(([A-J])\)|([A-J])[.:)])\s+\S",
    re.IGNORECASE,
)
"""A response that opens with the option it chose and that option's text (``B. Carl has a winning
strategy.``, ``**D) no horizontal asymptotes**``, ``The correct answer is (C) III and IV``)."""


def choice_letter(answer: str) -> str | None:
    """The option letter an answer is (``B``, ``(b)``), in upper case, or None."""
    m = _CHOICE_RE.match(answer)
    return None if m is None else m.group(1).upper()


def choices_decide(gold: str, pred: str) -> bool | None:
    """Two normalised answers of which one is an option letter: the verdict, or None."""
    if (letter := choice_letter(gold)) is not None:
        mp = _CHOICE_RE.match(pred) or _CHOICE_WITH_TEXT_RE.match(pred) or _CHOICE_WITH_VALUE_RE.match(pred)
        if mp:
            return letter == (mp.group(1) or mp.group(2)).upper()
        return False if _letter_absent(letter, pred) else None
    if (letter := choice_letter(pred)) is not None:  # a reference "C. x = 42" against "C"
        mg = _CHOICE_WITH_TEXT_RE.match(gold)
        if mg:
            return (mg.group(1) or mg.group(2)).upper() == letter
        return False if _letter_absent(letter, gold) else None
    return None


def chosen_option(text: str) -> str | None:
    """The option letter a response opens with, or that its answer phrase gives with the option's
    text (``Therefore, the answer is (a) Baire category theorem.``), in upper case; or None."""
    m = _OPTION_SENTENCE_RE.match(text)
    if m is None:
        phrase = extract_answer(text)
        m = None if phrase is None else _OPTION_SENTENCE_RE.match(phrase)
    return None if m is None else (m.group(1) or m.group(2)).upper()


def _letter_absent(letter: str, other: str) -> bool:
    """Whether a one-letter answer (not ``e``, Euler's number, nor ``i``, the imaginary unit) cannot
    equal ``other``: ``other`` holds that letter nowhere, in either case, not even inside a command
    name."""
    return letter not in "eEiI" and letter.lower() not in other.lower()
