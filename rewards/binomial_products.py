"""A binomial coefficient written next to a number or to another binomial or fraction is a factor.

latex2sympy (math-verify's reader) reads a number, or a binomial coefficient of numbers, written
just before a binomial coefficient or fraction of numbers as if the two were a mixed number:
``50\\binom{10}{5}`` is ``50 + 252`` to it, ``\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}`` is 19 (not
180) and ``\\binom{5}{2}\\frac{1}{2}`` is 21/2 (not 5), the way ``3\\frac{1}{2}`` is 3½. A binomial
coefficient has no mixed form: combinatorics answers are products of them, and Omni-MATH's rule
grader credited ``50 \\binom{100}{50}`` against ``50 \\cdot \\binom{100}{50}``. Both readers see
the product written out (:func:`binomials_after_numbers_multiplied`); ``3\\frac{1}{2}`` stays a
mixed number. A number that ends a longer term (after a letter, a digit, ``.``, ``^``, ``_`` or a
backslash: ``2^3\\binom{4}{2}``, ``a_2\\binom{4}{2}``) is left as written: latex2sympy multiplies
those already. One regex pass, linear in the text.
"""

from __future__ import annotations

import re

_BINOMIAL = r"\\[dt]?binom(?![A-Za-z])"
_NUMBER_BEFORE_BINOMIAL_RE = re.compile(rf"(?<![\w.^_\\])(\d+(?:\.\d+)?|\(\s*\d+\s*\))\s*(?={_BINOMIAL})")
"""``50\\binom``, ``(3)\\binom``."""
_BINOMIAL_BEFORE_FACTOR_RE = re.compile(
    rf"({_BINOMIAL}\s*\{{[^{{}}]*\}}\s*\{{[^{{}}]*\}})\s*(?={_BINOMIAL}|\\[dt]?frac(?![A-Za-z]))"
)
"""``\\binom{5}{2}\\binom``, ``\\binom{5}{2}\\frac`` (arguments without braces of their own)."""


def binomials_after_numbers_multiplied(text: str) -> str:
    """``50\\binom{10}{5}`` -> ``50 \\cdot \\binom{10}{5}``; ``\\binom{5}{2}\\frac{1}{2}`` ->
    ``\\binom{5}{2} \\cdot \\frac{1}{2}``; ``3\\frac{1}{2}`` as it is (see the module docstring)."""
    if "binom" not in text:
        return text
    text = _NUMBER_BEFORE_BINOMIAL_RE.sub(r"\1 \\cdot ", text)
    return _BINOMIAL_BEFORE_FACTOR_RE.sub(r"\1 \\cdot ", text)
