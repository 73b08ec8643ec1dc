"""Rational powers of negative numbers with an odd root, read as real roots (``(-8)^{1/3}`` = -2).

School and competition mathematics, and graders such as Khan Academy's KAS, read ``(-8)^{1/3}``
as the real cube root, -2. sympy (so latex2sympy and math-verify) reads the principal complex root,
``1 + \\sqrt{3} i``, and refuses ``(-5)^{1/3}`` against ``-1.709975946``. :func:`odd_roots_as_real`
writes each power of a negative number whose exponent is a fraction with an odd denominator as the
real value (``(-5)^{4/3}`` -> ``(5^{4/3})``, ``(-5)^{-1/3}`` -> ``(-5^{-1/3})``); the certain path
compares the pair again in that form.

The second reading only ever grants credit (:mod:`rewards.certain_path` uses it when the pair as
written is not equal), the way :mod:`rewards.angles` reads degrees. An even root of a negative
number (``(-4)^{1/2}``) has no real value and is left as it is. The exact reader
(:mod:`rewards.const_eval`) already reads ``\\sqrt[3]{-8}`` as -2.
"""

from __future__ import annotations

import re
from fractions import Fraction

from rewards.const_eval import evaluate_exact

_NEGATIVE_POWER_RE = re.compile(
    r"\( ?- ?(\d{1,12}(?:\.\d{1,12})?) ?\) ?\^ ?\{ ?((?:[^{}]|\{[^{}]{0,12}\}){1,40}?) ?\}"
)
"""``(-N)^{E}`` for a number ``N``; ``E`` at most 40 characters and one level of braces
(``\\frac{1}{3}``). Linear: every repetition is bounded."""


def _real_power(m: re.Match[str]) -> str:
    exponent = evaluate_exact(m.group(2))
    if not isinstance(exponent, Fraction) or exponent.denominator % 2 == 0 or exponent.denominator == 1:
        return m.group(0)  # an integer power needs nothing; an even root is not real
    magnitude = f"{m.group(1)}^{{{exponent.numerator}/{exponent.denominator}}}"
    return f"(-{magnitude})" if exponent.numerator % 2 else f"({magnitude})"


def odd_roots_as_real(text: str) -> str:
    """``text`` with every ``(-N)^{p/q}`` (``q`` odd) written as its real value; ``text`` itself
    (the same object) when nothing changes."""
    if "(-" not in text.replace(" ", ""):
        return text
    got = _NEGATIVE_POWER_RE.sub(_real_power, text)
    return text if got == text else got
