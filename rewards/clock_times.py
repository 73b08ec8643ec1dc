"""Times of day with a meridiem: ``2:35 P.M.`` is ``14:35`` and not ``2:35 A.M.``.

math-verify reads ``2:35 P.M.`` as the numbers in it and credited ``2:35 A.M.`` for it.
:func:`clock_times_decide` compares two times of day when at least one names its half of the day
(``AM``/``PM``, ``a.m.``/``p.m.``, any case): as minutes since midnight, a time without one read
as a 24-hour time or, up to 12 o'clock, as either half (``2:35`` for ``2:35 PM``: the model left
out what the question made clear). Two times without a meridiem are left to the other rules:
``2:35`` may be a ratio. One anchored regex, linear in the answer.
"""

from __future__ import annotations

import re

_CLOCK_RE = re.compile(r"^(\d{1,2}):([0-5]\d)(?::[0-5]\d)? ?(?:([ap])\.? ?m\.?)?$", re.IGNORECASE)


def _minutes(m: re.Match[str]) -> set[int] | None:
    hour, minute, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").lower()
    if half:
        if not 1 <= hour <= 12:
            return None  # "14:35 PM": not a time
        return {((hour % 12) + (12 if half == "p" else 0)) * 60 + minute}
    if hour > 23:
        return None
    readings = {hour * 60 + minute}
    if 1 <= hour <= 12:
        readings.add(((hour % 12) + 12) * 60 + minute)
        readings.add((hour % 12) * 60 + minute)
    return readings


def clock_times_decide(gold: str, pred: str) -> bool | None:
    """Whether two normalised answers are the same time of day (see the module docstring); None
    unless both are times and one of them names its half of the day."""
    mg, mp = _CLOCK_RE.match(gold.strip()), _CLOCK_RE.match(pred.strip())
    if mg is None or mp is None or not (mg.group(3) or mp.group(3)):
        return None
    got, want = _minutes(mp), _minutes(mg)
    if got is None or want is None:
        return None
    return bool(got & want)
