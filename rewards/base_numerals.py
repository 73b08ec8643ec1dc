"""Numerals written with their base (``10001_2``, ``1112112_{3}``, ``1A_{16}``) on the certain path.

math-verify drops a numeric subscript, so ``10001_3`` and ``10001_2`` were one number to it (17 and
82). Two numerals that both name their base are compared by value; a numeral against plain digits
(``1112112_3`` against ``1112112``: the problem asked for base 3) is left to math-verify, as are
digits the base does not have, and one value in two bases (``10001_2`` against ``101_4``: whether
the base asked for counts is the grader's call; math-verify compares the digits).
"""

from __future__ import annotations

import re

_NUMERAL_RE = re.compile(r"^\s*([0-9A-Za-z]+)_\{?\s*(\d{1,2})\s*\}?\s*$")


def _numeral(s: str) -> tuple[int, int] | None:
    """``(value, base)`` of a numeral that names its base, or None."""
    m = _NUMERAL_RE.match(s)
    if m is None:
        return None
    digits, base = m.group(1), int(m.group(2))
    if not 2 <= base <= 36 or (base <= 10 and not digits.isdigit()):
        return None  # "x_2" is a name with an index, not a numeral
    try:
        return int(digits, base), base
    except ValueError:
        return None  # a digit the base does not have ("19_8")


def base_numerals_decide(gold: str, pred: str) -> bool | None:
    """For two numerals that both name their base: False when their values differ, True when they
    are the same value in the same base (``1112112_3``, ``1112112_{3}``); else None."""
    ng = _numeral(gold)
    np_ = _numeral(pred) if ng is not None else None
    if ng is None or np_ is None:
        return None
    if ng[0] != np_[0]:
        return False
    return True if ng[1] == np_[1] else None
