"""Numbers written with a scale word: ``1.5 million`` is 1,500,000, ``2 billion`` is 2,000,000,000,
``3 lakh`` is 300,000 (finance and word-problem answers: TAT-QA, FinQA, AQuA).

Credit only: a number with a scale word equals the bare number of the same value
(``1.5 million`` for ``1500000``, either way round). A bare number against the same number with a
scale word (``6508`` against ``6508 million``) gets no verdict here: a question may ask for the
answer in millions, as it may in metres, and math-verify reads the word as a unit.
"""

from __future__ import annotations

import re
from fractions import Fraction

from rewards.exact_numbers import Num, read_number

_SCALES = {"thousand": 3, "lakh": 5, "million": 6, "crore": 7, "billion": 9, "trillion": 12}
_SCALED_RE = re.compile(
    rf"^([-+]?\s?[\d.,]{{1,40}})\s?({'|'.join(_SCALES)})s?(?![A-Za-z])(.{{0,40}})$",
    re.IGNORECASE,
)
"""A number, a scale word (``million``, ``millions``), and what may follow it (a unit word)."""


def scaled_value(answer: str) -> Fraction | None:
    """The value of a number written with a scale word (``1.5 million`` -> 1500000,
    ``2.5 billion dollars`` -> 2500000000), or None."""
    m = _SCALED_RE.match(answer.strip())
    if m is None:
        return None
    number = read_number(m.group(1) + m.group(3))  # "1.5" + " dollars": a unit word may follow
    if not isinstance(number, Num) or number.percent:
        return None
    return number.value * 10 ** _SCALES[m.group(2).lower()]


def scaled_equal(gold: str, pred: str) -> bool:
    """Whether one answer is a number with a scale word and the other the bare number of its value
    (``1500000`` against ``1.5 million``, ``\\$2 billion`` against ``2,000,000,000``)."""
    for scaled, bare in ((gold, pred), (pred, gold)):
        value = scaled_value(scaled)
        if value is None:
            continue
        number = read_number(bare)
        if isinstance(number, Num) and not number.percent and number.value == value:
            return True
    return False
