"""Angles written in degrees, read as the radians they are (``\\cos 60^\\circ`` = ``\\frac12``).

math-verify (and latex2sympy) drop the degree sign, so ``\\cos 60^\\circ`` is read as the cosine of
60 radians and refused against ``\\frac12``, and ``30^\\circ`` is refused against ``\\frac{\\pi}{6}``.
:func:`degrees_as_radians` writes each number with a degree sign as its exact multiple of ``\\pi``
(``60^\\circ`` -> ``\\frac{\\pi}{3}``, ``22.5^\\circ`` -> ``\\frac{\\pi}{8}``); the certain path and the
worker compare the pair again in that form.

The second reading only ever grants credit (:mod:`rewards.certain_path` and
:mod:`rewards.equivalence` use it when the pair as written is not equal): ``30^\\circ`` against
``30`` stays credited by the unit-dropping rule, ``\\cos 60^\\circ`` against ``\\cos 60`` stays
credited as math-verify credits it. What is not read: a degree sign followed by ``C``, ``F`` or
``K`` (a temperature), or by minutes (``30^\\circ 15'``), and a number with more than 12 digits.
"""

from __future__ import annotations

import re
from fractions import Fraction

_DEGREE_NUMBER_RE = re.compile(
    r"(?<![\w.])(\d{1,12}(?:\.\d{1,12})?|\.\d{1,12}) ?"
    r"(?:\^ ?\{ ?\\circ ?\}|\^ ?\\circ(?![a-zA-Z])|°|\\degree(?![a-zA-Z]))"
    r"(?! ?(?:\\,|\\ |~)? ?(?:\\text\{ ?)?(?:\\mathrm\{ ?)?[CFK](?![a-zA-Z])| ?\d| ?')"
)
"""A number followed by a degree sign (``^\\circ``, ``^{\\circ}``, ``°``, ``\\degree``), not by a
temperature scale's letter, digits or a minute sign. Linear: the number and the sign are bounded
and the lookahead reads a bounded width."""


def _pi_multiple(degrees: Fraction) -> str:
    """An angle in degrees as LaTeX for its multiple of pi: 60 -> ``\\frac{\\pi}{3}``, 180 -> ``\\pi``."""
    turn = degrees / 180
    p, q = turn.numerator, turn.denominator
    if p == 0:
        return "0"
    top = "\\pi" if p == 1 else f"{p}\\pi"
    return top if q == 1 else f"\\frac{{{top}}}{{{q}}}"


def _as_radians(m: re.Match[str]) -> str:
    return _pi_multiple(Fraction(m.group(1)))


def degrees_as_radians(text: str) -> str:
    """``text`` with every number in degrees written as its exact multiple of ``\\pi``
    (``\\sin(30^{\\circ})`` -> ``\\sin(\\frac{\\pi}{6})``, ``180°`` -> ``\\pi``); ``text`` itself
    (the same object) when it has none."""
    if "circ" not in text and "°" not in text and "degree" not in text:
        return text
    return _DEGREE_NUMBER_RE.sub(_as_radians, text)


_TRIG_NAME = r"\\(?:sin|cos|tan|cot|sec|csc)(?![a-zA-Z])"
_TRIG_NAME_RE = re.compile(_TRIG_NAME)
_TRIG_OF_WHOLE_RE = re.compile(
    rf"({_TRIG_NAME}) ?(?:\( ?(\d{{1,3}}) ?\)|\{{ ?(\d{{1,3}}) ?\}}|(\d{{1,3}})(?![\d.]))"
)
_DEGREE_STEP = 15
"""A whole-number argument read as degrees is a multiple of this (15, 30, 45, 60, 90, ...)."""


def _argument(m: re.Match[str]) -> int:
    return int(m.group(2) or m.group(3) or m.group(4))


def _in_radians(m: re.Match[str]) -> str:
    return f"{m.group(1)}({_pi_multiple(Fraction(_argument(m)))})"


def reference_trig_in_degrees(gold: str) -> str | None:
    """A normalised reference that applies trigonometric functions only to whole numbers that are
    multiples of 15 up to 360 (``\\cos(60)``, ``\\sin 90 + 1``) and has no other letters, with
    those arguments written in radians (``\\cos(\\frac{\\pi}{3})``); None otherwise.

    Nobody writes the cosine of 60 radians as a reference answer: such a reference comes from a
    problem in degrees (WeBWorK's degree context). The caller uses it to grant credit only."""
    found = list(_TRIG_OF_WHOLE_RE.finditer(gold))
    if not found or len(found) != len(_TRIG_NAME_RE.findall(gold)):
        return None
    if re.search(r"[a-zA-Z]", _TRIG_OF_WHOLE_RE.sub(" ", gold)):
        return None  # \pi, a variable or another function: not a table value in degrees
    if any(a == 0 or a > 360 or a % _DEGREE_STEP for a in map(_argument, found)):
        return None
    return _TRIG_OF_WHOLE_RE.sub(_in_radians, gold)


def whole_trig_in_degrees(text: str) -> str:
    """``text`` (normalised) with the whole-number arguments of its trigonometric functions read as
    degrees (``\\sin(30)`` -> ``\\sin(\\frac{\\pi}{6})``): a prediction to a reference in degrees."""
    return _TRIG_OF_WHOLE_RE.sub(_in_radians, text) if "\\" in text else text
