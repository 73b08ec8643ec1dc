"""Numbers of the certain path: exact values as written, and the rule for comparing them.

:func:`read_number` reads one normalised answer as a :class:`Num` (a ``Fraction`` with the decimal
places it was written with, and whether it was a percent) or an :class:`Inf`: integers, decimals,
``1.5\\times10^{3}``, ``\\frac{3}{4}``, ``3/4``, repeating decimals (``0.1\\overline{6}``, ``0.1666...``, exact),
mixed numbers, thousands separators, a decimal comma
where asked, trailing unit words (``12 m^2``), number words (``twenty-one``). :func:`nums_equal` is
the numeric rule of docs/rewards.md: exact values compare exactly; a decimal with six decimals or
more accepts the exact values that round to it (truncate, for a reference); a shorter one, only
an exact value it equals.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from fractions import Fraction

from rewards.extract import braced


@dataclass(frozen=True)
class Num:
    value: Fraction
    digits: int | None  # decimal places as written ("0.330" -> 3); None for an exact form
    percent: bool
    shown: int | None = None
    """Places after the point of a scientific form's mantissa (``6.02\\times10^{23}``,
    ``6.02E23``: 2, where ``digits`` is -21): the precision the rounding rules read; None: ``digits``."""


@dataclass(frozen=True)
class Inf:
    sign: int


_UNIT_WORDS = frozenset(
    (
        "cm mm km m kg g mg lb lbs pound pounds ounce ounces oz inch inches in feet foot ft yard yards yd "
        "mile miles mi meter meters metre metres centimeter centimeters kilometer kilometers second seconds "
        "sec secs s minute minutes min mins hour hours hr hrs h day days week weeks month months year years "
        "unit units sq square cubic dollar dollars cent cents degree degrees deg rad radian radians liter "
        "liters litre litres l ml point points people person persons student students apple apples cookie "
        "cookies time times way ways mph km/h m/s yuan euro euros rupees rs usd cm^2 cm^3 m^2 m^3 km^2 "
        "mol mole moles mmol kj joule joules kw kwh watt watts newton newtons pa kpa atm volt volts hz khz "
        "kelvin amp amps ev kev mev"
    ).split()
)
_UNIT_TOKEN_RE = re.compile(r"^([a-zA-Z/]+)(?:\^\{?[23]\}?|[23²³])?$")
_GLUED_UNIT_RE = re.compile(r"^(\d[\d.,]*)([a-zA-Z]{1,6}(?:\^\{?[23]\}?|[23²³])?)$")
_SPACED_POWER_RE = re.compile(r" +\^")
_INT_RE = re.compile(r"^\d+$")
_THOUSANDS_RE = re.compile(r"^[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$")
_DEC_RE = re.compile(r"^(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?$")
_SCI_TIMES_RE = re.compile(r"^(\d+(?:\.\d+)?) ?(?:\\times|\\cdot|\*|x) ?10 ?\^ ?\{? ?([+-]?\d+) ?\}?$")
_FRAC_RE = re.compile(r"^\\frac ?(?:\{ ?([+-]?[\d.]+) ?\}|(\d)) ?(?:\{ ?([+-]?[\d.]+) ?\}|(\d))$")
_SLASH_RE = re.compile(r"^([\d.]+) ?/ ?([\d.]+)$")
_REPEATING_RE = re.compile(r"^(\d*)\.(\d*)(?:\\overline ?\{(\d{1,12})\}|\\dot ?\{(\d)\})$")
_MIXED_RE = re.compile(r"^(\d+) ?(\\frac.*|\d+ ?/ ?\d+)$")
_ELLIPSIS_RE = re.compile(r"^(\d*)\.(\d{2,5}) ?(?:\.\.\.|\\[lc]?dots|…)$")
"""``0.333...``, ``0.1666\\ldots``: a short decimal that ends by repeating a digit or a pair of
digits, then an ellipsis (:func:`_repeating_by_ellipsis`)."""


_SPACE_GROUPED_RE = re.compile(r"^[1-9]\d{0,2}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?$")
"""Digits grouped by thousands with spaces (``1 234 567``), with a decimal point or comma."""
_GROUP_SPACE_RE = re.compile(r"[ \u00a0\u202f]")
_DECIMAL_COMMA_RE = re.compile(r"^(?:\d+,(?:\d{1,2}|\d{4,})|0,\d+)$")


_MAX_DIGITS = 400
_UNIT_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS_NUMBER_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_NUMBER_WORD_RE = re.compile(r"^([a-z]+)(?:[ -]([a-z]+))?$")


_RATE_DENOMINATOR_RE = re.compile(r"^[a-z]{3,12}$")


def _is_unit_word(token: str) -> bool:
    """A unit word (``km``), or a rate of one per a unit or a word of three letters or more
    (``ml/dose``, ``dollars/hour``; not ``h/k``, a quotient of letters)."""
    token = token.lower()
    if token in _UNIT_WORDS:
        return True
    top, slash, bottom = token.partition("/")
    return (
        bool(slash)
        and top in _UNIT_WORDS
        and (bottom in _UNIT_WORDS or bool(_RATE_DENOMINATOR_RE.match(bottom)))
    )


def _strip_units(s: str) -> str:
    """``12 m^2`` -> ``12``; ``5 dollars`` -> ``5``; ``100m`` -> ``100``; ``50 ml/dose`` -> ``50``
    (a few trailing unit words). A power set apart from its unit (``6 cm ^2``, from
    ``6 \\text{ cm}^2``) stays with the unit."""
    parts = _SPACED_POWER_RE.sub("^", s).split(" ")
    for _ in range(4):
        if len(parts) < 2:
            break
        m = _UNIT_TOKEN_RE.match(parts[-1])
        if m and _is_unit_word(m.group(1)):
            parts.pop()
        else:
            break
    s = " ".join(parts)
    m = _GLUED_UNIT_RE.match(s)
    if (
        m
        and _UNIT_TOKEN_RE.match(m.group(2))
        and _UNIT_TOKEN_RE.match(m.group(2)).group(1).lower() in _UNIT_WORDS
    ):  # type: ignore[union-attr]
        return m.group(1)
    return s


def _number_word(s: str) -> int | None:
    """``five`` -> 5, ``Twenty-one`` -> 21 (a whole answer written as a number word, 0-99)."""
    m = _NUMBER_WORD_RE.match(s.lower()) if len(s) <= 20 else None
    if not m:
        return None
    first, second = m.group(1), m.group(2)
    if second is None and first in _UNIT_NUMBER_WORDS:
        return _UNIT_NUMBER_WORDS.index(first)
    if first in _TENS_NUMBER_WORDS:
        tens = 20 + 10 * _TENS_NUMBER_WORDS.index(first)
        if second is None:
            return tens
        if second in _UNIT_NUMBER_WORDS[1:10]:
            return tens + _UNIT_NUMBER_WORDS.index(second)
    return None


def _decimal_digits(s: str) -> int | None:
    frac = s.partition(".")[2]
    return len(frac) if frac.strip("0") else None


FLOAT_ARTIFACT_DIGITS = 16
"""A decimal with this many fractional digits, or significant digits, may be a binary float
printed in full."""


def _significant_digits(s: str) -> int:
    return len(s.replace(".", "").lstrip("0"))


def _float_artifact(s: str) -> str:
    """A binary float printed in full, as the shorter decimal it is: ``0.30000000000000004``
    (``0.1 + 0.2`` printed by Python) -> ``0.3`` (16 or more fractional digits that 15
    significant digits print much shorter); ``560.9999999999999``, ``0.9999999999999939`` (a
    program's sum) -> ``561``, ``1`` (16 or more significant digits, of which the first 12 give a
    decimal at least 6 digits shorter: a double's rounding noise, not digits a writer chose).
    ``0.1234567890123456`` and ``3.141592653589793`` stay as written."""
    if "." not in s or "e" in s.lower():
        return s
    if len(s.partition(".")[2]) >= FLOAT_ARTIFACT_DIGITS:
        short = format(float(s), ".15g")
        if "e" not in short and len(short) <= len(s) - 4:
            return short
    digits = _significant_digits(s)
    if digits >= FLOAT_ARTIFACT_DIGITS:
        short = format(float(s), ".12g")
        if "e" not in short and _significant_digits(short) <= digits - 6:
            return short
    return s


def _unsigned_number(s: str) -> Num | None:
    if len(s) > _MAX_DIGITS:
        return None
    if _THOUSANDS_RE.match(s):
        s = s.replace(",", "")
    if _DEC_RE.match(s):
        s = _float_artifact(s)
        if "e" in s or "E" in s:
            mant, _, exp = s.lower().partition("e")
            if abs(int(exp)) > 400:
                return None
            shown = len(mant.partition(".")[2])  # 1e50: a decimal too (never an exact form)
            return Num(Fraction(mant) * Fraction(10) ** int(exp), shown - int(exp), False, shown)
        return Num(Fraction(s), _decimal_digits(s), False)
    m = _SCI_TIMES_RE.match(s)
    if m:
        exp = int(m.group(2))
        if abs(exp) > 400:
            return None
        digits = _decimal_digits(m.group(1))
        return Num(
            Fraction(m.group(1)) * Fraction(10) ** exp,
            None if digits is None else digits - exp,
            False,
            digits,
        )
    m = _FRAC_RE.match(s)
    if m:
        return _ratio(m.group(1) or m.group(2), m.group(3) or m.group(4))
    m = _REPEATING_RE.match(s)
    if m:  # 0.1\overline{6}: the repeating decimal's exact value, 1/6
        return Num(_repeating_value(m.group(1), m.group(2), m.group(3) or m.group(4)), None, False)
    m = _ELLIPSIS_RE.match(s)
    if m:
        return _repeating_by_ellipsis(m.group(1), m.group(2))
    m = _SLASH_RE.match(s)
    if m:
        return _ratio(m.group(1), m.group(2))
    m = _MIXED_RE.match(s)
    if m:
        frac = _unsigned_number(m.group(2).strip())
        if frac is not None and 0 < frac.value < 1:
            return Num(int(m.group(1)) + frac.value, frac.digits, False)
    return None


def _repeating_by_ellipsis(whole: str, digits: str) -> Num | None:
    """``0.333...`` is 1/3 and ``0.4545...`` is 5/11: the last digit (or pair of digits), written
    twice before the ellipsis, repeats. Up to five decimals only: a longer decimal is read by the
    rounding rule (``2.718281828...`` stays e's digits, not a repeating 1828), and a short one that
    does not repeat (``3.14...``, ``1.4142...``) is no exact number."""
    for period in (1, 2):
        if len(digits) >= 2 * period and digits[-period:] == digits[-2 * period : -period]:
            return Num(_repeating_value(whole, digits[: -2 * period], digits[-period:]), None, False)
    return None


def _repeating_value(whole: str, fixed: str, period: str) -> Fraction:
    """The exact value of ``whole.fixed`` followed by ``period`` repeating for ever."""
    shift = 10 ** len(fixed)
    value = int(whole or "0") + Fraction(int(fixed or "0"), shift)
    return value + Fraction(int(period), shift * (10 ** len(period) - 1))


def _ratio(num_s: str, den_s: str) -> Num | None:
    num = _signed_plain(num_s)
    den = _signed_plain(den_s)
    if num is None or den is None or den.value == 0:
        return None
    approx = num.digits is not None or den.digits is not None
    return Num(num.value / den.value, None, False) if not approx else None


def _signed_plain(s: str) -> Num | None:
    s = s.strip()
    sign = 1
    if s[:1] in "+-":
        sign = -1 if s[0] == "-" else 1
        s = s[1:].strip()
    if not s or not (_DEC_RE.match(s) or _THOUSANDS_RE.match(s)):
        return None
    got = _unsigned_number(s)
    return None if got is None else dataclasses.replace(got, value=sign * got.value, percent=False)


def read_number(s: str, decimal_comma: bool = False, words: bool = False) -> Num | Inf | None:
    """A number (``-1,000.5``, ``12 m^2``, ``25%``, ``\\infty``); with ``words``, also a whole
    answer written as a number word (``five``, ``twenty-one apples``)."""
    s = s.strip()
    if not s:
        return None
    percent = False
    if s.endswith("%"):
        percent = True
        s = s[:-1].strip()
    sign = 1
    while s[:1] in ("+", "-"):
        if s[0] == "-":
            sign = -sign
        s = s[1:].strip()
    if s.startswith("{") and s.endswith("}") and braced(s, 0, len(s)) == (s[1:-1], len(s)):
        s = s[1:-1].strip()
    if (s in ("\\infty", "\\infinity", "∞") or s.lower() in ("infinity", "inf", "infty")) and not percent:
        return Inf(sign)
    if decimal_comma and _DECIMAL_COMMA_RE.match(s):
        s = s.replace(",", ".")
    elif _SPACE_GROUPED_RE.match(s):  # 1 234,5 (SI, French, Russian): the comma can only be decimal
        s = _GROUP_SPACE_RE.sub("", s).replace(",", ".")
    got = _unsigned_number(s)
    if got is None:
        stripped = _strip_units(s)
        if stripped != s:
            if stripped.endswith("%"):
                percent = True
                stripped = stripped[:-1].strip()
            got = _unsigned_number(stripped)
        word = None if got is not None or percent or not words else _number_word(stripped)
        if word is not None:  # "five", "twenty-one apples"
            return Num(Fraction(sign * word), None, False)
    if got is None:
        return None
    return dataclasses.replace(got, value=sign * got.value, percent=percent)


def _candidates(n: Num) -> tuple[tuple[Fraction, int | None, int | None], ...]:
    """(value, places of the value, places the rounding rules read) as written, and for a percent
    also as a fraction."""
    shown = n.digits if n.shown is None else n.shown
    if not n.percent:
        return ((n.value, n.digits, shown),)
    as_fraction = None if n.digits is None else n.digits + 2
    return (
        (n.value, n.digits, shown),
        (n.value / 100, as_fraction, as_fraction if n.shown is None else shown),
    )


MIN_ROUNDED_DECIMALS = 2
"""Two decimals written to different places are compared as rounded (:data:`MIN_SHARED_DIGITS`)
only when the shorter has at least this many decimals: ``0.5`` or ``12.5`` are exact values."""

MIN_DECIMALS_FOR_EXACT = 6
"""A decimal and an exact value (``\\frac13``, ``\\sqrt2``, ``\\pi``), on either side, match only
when the decimal has at least this many decimals (and :data:`MIN_SIGNIFICANT_FOR_EXACT`
significant digits), all correct: ``0.707107`` for ``\\frac{\\sqrt2}2``, ``-0.333333`` for
``-\\frac13``; never ``3.14159`` for ``\\pi``, ``1.41`` for ``\\sqrt2``, ``0.33`` for ``\\frac13``,
whichever is the reference. Shorter decimals match only an exact value they equal (``0.25`` for
``\\frac14``). Six places is math-verify's own rounding, and what graders' labels mostly say: on
4,166 held-out pairs nine refuse a shorter decimal and none credits one; a later round found one
tutoring checker with a built-in tolerance that does (docs/rewards.md)."""

MIN_SIGNIFICANT_FOR_EXACT = 3
"""A decimal standing for an exact value also needs this many significant digits: ``0.000001``
does not stand for every exact value under 1.5e-6."""


MIN_SHARED_DIGITS = 5
"""Two decimals written to different places match when the shorter, with at least
``MIN_ROUNDED_DECIMALS`` decimals and this many significant digits, is the longer rounded or cut
to its places (``3.1416`` and ``3.14159``, ``0.0666668`` and ``0.066666793``; never ``2.23`` and
``2.232``, nor ``12.5`` and ``12.54``)."""


def rounded_form(exact: Num, decimal: Num) -> bool:
    """Whether ``decimal`` (two decimals or more, not a percent) is ``exact`` (no decimals)
    rounded or cut to its places: ``0.33`` for ``\\frac13``. Not an equality (a prediction
    ``0.33`` is not the answer ``\\frac13``, :data:`MIN_DECIMALS_FOR_EXACT`), but one writer's
    own rounding: the step ``\\frac13 = 0.33`` of a computation, a reference ``2/3 or 0.67``."""
    places = decimal.digits if decimal.shown is None else decimal.shown
    return (
        exact.digits is None
        and decimal.digits is not None
        and not exact.percent
        and not decimal.percent
        and places >= MIN_ROUNDED_DECIMALS
        and cut_to(exact.value, decimal.value, decimal.digits)
    )


def decimal_for_exact(places: int, value: Fraction, shown: int | None = None) -> bool:
    """Whether a decimal with ``places`` decimals and this value may stand for an exact value
    (:data:`MIN_DECIMALS_FOR_EXACT`). A reference in scientific form counts the places its
    mantissa shows (``shown``): ``1.09951162778E+12`` (11) stands for ``4^{20}`` rounded to them,
    as ``0.707107`` does for ``\\frac{\\sqrt2}2``; ``1.1E+12`` (1) does not. A prediction is not
    given ``shown``: its rounded scientific form of an exact integer (``4.2949673E9`` for
    ``2^{32}``) is not that integer."""
    if shown is not None and shown > places:
        places = shown
    return places >= MIN_DECIMALS_FOR_EXACT and _significant(value, places) >= MIN_SIGNIFICANT_FOR_EXACT


def _significant(value: Fraction, digits: int) -> int:
    scaled = abs(value) * Fraction(10) ** digits  # digits < 0 for 1.5\times10^{3}
    return len(str(scaled.numerator // scaled.denominator)) if scaled >= 1 else 0


def _rounds_to(exact: Fraction, decimal: Fraction, digits: int) -> bool:
    """Whether ``exact`` rounded to ``digits`` places is ``decimal`` (half a unit either way)."""
    return abs(exact - decimal) <= Fraction(1, 2) / Fraction(10) ** digits


def cut_to(exact: Fraction, decimal: Fraction, digits: int) -> bool:
    """Whether ``exact`` rounded or truncated (toward zero) to ``digits`` places is ``decimal``: a
    reference does not say which of the two its author did (KAS truncates ``(-5)^{1/3}`` to
    ``-1.709975946``)."""
    unit = Fraction(10) ** digits
    return _rounds_to(exact, decimal, digits) or Fraction(int(exact * unit)) / unit == decimal


def nums_equal(gold: Num, pred: Num) -> bool:
    both_percent = gold.percent and pred.percent  # 10% and 0.1%: percents of one thing, compared as written
    for gv, gd, g_shown in _candidates(gold)[:1] if both_percent else _candidates(gold):
        for pv, pd, p_shown in _candidates(pred)[:1] if both_percent else _candidates(pred):
            if gv == pv:
                return True
            if gd is not None and pd is None and decimal_for_exact(gd, gv, g_shown) and cut_to(pv, gv, gd):
                return True  # the reference is a rounded or truncated decimal; the prediction is exact
            if (
                gd is None
                and pd is not None
                and decimal_for_exact(pd, pv)  # a prediction's places as written: 4.2949673E9 is not 2^{32}
                and _rounds_to(gv, pv, pd)
            ):
                return True  # a decimal of the exact reference, rounded at six places or more
            if (
                gd is not None
                and pd is not None
                and gd != pd
                and _same_decimal((gv, gd, g_shown), (pv, pd, p_shown))
            ):
                return True
    return False


def _same_decimal(a: tuple[Fraction, int, int | None], b: tuple[Fraction, int, int | None]) -> bool:
    """Two decimals where the one with fewer places (at least 2 shown, and 5 significant digits)
    is the other rounded or cut to them (:data:`MIN_SHARED_DIGITS`)."""
    (short, short_digits, short_shown), (long, _, _) = sorted((a, b), key=lambda n: n[1])
    return (
        short_shown is not None
        and short_shown >= MIN_ROUNDED_DECIMALS
        and _significant(short, short_digits) >= MIN_SHARED_DIGITS
        and cut_to(long, short, short_digits)
    )
