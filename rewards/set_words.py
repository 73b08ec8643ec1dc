"""Whole answers that name the empty set or the real line, in symbols or in words, and interval
unions written in plain text.

``no solution``, ``there is no solution``, ``none``, ``\\varnothing`` and ``\\{\\}`` all answer "no
value solves it"; ``all real numbers``, ``\\mathbb{R}`` and ``(-\\infty, \\infty)`` answer "every
value does". A tutor's checker labels each form equal to the others of its kind; math-verify
reads the words as a product of letters and ``\\varnothing`` as a symbol. Only an answer that is
nothing but such a phrase is read (``x = 2 or no solution`` is not), and two answers get a
verdict only when both are read: the same kind is equal, the other kind different.

``(-inf, -1) U (3, inf)`` (calculator spelling) is written ``(-\\infty, -1) \\cup (3, \\infty)``,
and ``+/-`` or ``+-`` before a value ``\\pm``, for both readers.
"""

from __future__ import annotations

import re

from rewards.answer_text import normalize

__all__ = ["plain_set_spellings", "set_word", "set_words_decide"]

_EMPTY = (
    r"\\emptyset|\\varnothing|\\\{\s*\\\}|\{\s*\}|\u2205|(?:the\s+)?empty\s+set|none|"
    r"(?:there\s+(?:is|are)\s+)?no\s+(?:real\s+)?(?:solutions?|roots?|values?)(?:\s+exists?)?"
)
_REALS = (
    r"\\mathbb\s*\{?\s*R\s*\}?|\u211d|\(\s*-\s*\\infty\s*,\s*\+?\s*\\infty\s*\)|"
    r"(?:(?:x|it)\s+(?:can\s+be|is)\s+)?(?:all|any|every)\s+real(?:\s+numbers?|s)?|"
    r"(?:[a-z]\s*\\in\s*)\\mathbb\s*\{?\s*R\s*\}?"
)
_EMPTY_RE = re.compile(rf"^\s*(?:{_EMPTY})\s*[.!]?\s*$", re.IGNORECASE)
_REALS_RE = re.compile(rf"^\s*(?:{_REALS})\s*[.!]?\s*$", re.IGNORECASE)
_PLAIN_UNION_RE = re.compile(r"^\s*[(\[][^()\[\]]{1,80}[)\]](?:\s*U\s*[(\[][^()\[\]]{1,80}[)\]]){0,8}\s*$")
_INF_RE = re.compile(r"(?<![A-Za-z\\])(?:inf(?:inity)?|oo)(?![A-Za-z])|\u221e")
_UNION_U_RE = re.compile(r"\s+U\s+|(?<=[)\]])U(?=[(\[])")
_PLUS_MINUS_RE = re.compile(r"\+/-\s?|\+-(?=\s?[\w(\\])\s?")


def _plus_minus(m: re.Match[str]) -> str:
    """``+/-`` is always ``\\pm``; ``+-`` only where a value starts (``x = +-2``), not after an
    operand (``x+-(x+2)`` is ``x + (-(x+2))``)."""
    before = m.string[: m.start()].rstrip()[-1:]
    if m.group(0).startswith("+-") and before not in ("", "=", "(", "[", ",", ";"):
        return m.group(0)
    return "\\pm "


def set_word(text: str) -> str | None:
    """``"empty"`` or ``"reals"`` when the whole answer names that set; else None."""
    if len(text) > 80:
        return None
    if _EMPTY_RE.match(text):
        return "empty"
    if _REALS_RE.match(text):
        return "reals"
    return None


def set_words_decide(gold: str, pred: str) -> bool | None:
    """Both answers (normalised here) name the empty set or the reals: equal when the same set;
    else None."""
    if len(gold) > 80 or len(pred) > 80:
        return None
    g = set_word(normalize(gold))
    p = None if g is None else set_word(normalize(pred))
    if g is None or p is None:
        return None
    return g == p


def plain_set_spellings(text: str) -> str:
    """``(-inf, -1) U (3, inf)`` -> ``(-\\infty, -1) \\cup (3, \\infty)`` (an answer that is only
    such a union); ``x = +/- 2`` and ``x = +-2`` -> ``\\pm``."""
    if "+/-" in text or "+-" in text:
        text = _PLUS_MINUS_RE.sub(_plus_minus, text)
    if ("inf" in text or "oo" in text or "\u221e" in text or "U" in text) and _PLAIN_UNION_RE.match(text):
        text = _UNION_U_RE.sub(r" \\cup ", _INF_RE.sub(r"\\infty", text))
    return text
