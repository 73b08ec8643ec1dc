"""Quantities with physical units on the certain path: ``1 J`` = ``0.001 kJ`` = ``1 N \\cdot m``.

:func:`read_quantity` reads a normalised answer that is one number followed by a unit expression
(``9.8 m/s^2``, ``5000 mA``, ``1.2 \\times 10^{3} kg m / s^2``, ``12 cm ^2``, ``3 hours``) as the
number as written and the unit's exact factor to SI base units with its dimension.
:func:`quantities_decide` compares two such answers when **both** carry a unit: the same dimension
compares the values in one unit by the numeric rule of :mod:`rewards.exact_numbers` (exactly, or a
rounded decimal reference), another dimension is a different answer (``9.8 N`` against ``9.8 m``,
``12 m^2`` against ``12 m``). A side without a unit, or with any token that is not a unit of the
table below, is left to the other rules (``12 m^2`` against ``12`` stays the unit-dropping rule).

The table holds units with exact SI factors only: SI base and derived units with their prefixes,
litres, minutes to weeks, the international inch/foot/yard/mile and avoirdupois pound/ounce, the
US gallon, electronvolt, atmosphere, bar, angstrom. Left out on purpose: symbols more often
something else in an answer (bare ``C`` and ``F``: after normalisation ``25^\\circ C`` is
``25 C``; ``in``; ``S``; ``l``), units whose factor is a measured constant (``amu``, ``slug``,
calories), temperatures in Celsius or Fahrenheit (affine), angles, and months or years
against days (calendar lengths vary; ``1 year`` = ``12 months`` is exact and read).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from rewards.exact_numbers import Num, nums_equal, read_number

Dims = tuple[int, int, int, int, int, int, int, int]
"""Exponents of m, kg, s, A, K, mol, cd and calendar months."""

_M, _KG, _S, _A, _K, _MOL, _CD, _MONTH = range(8)


def _dims(**powers: int) -> Dims:
    names = ("m", "kg", "s", "A", "K", "mol", "cd", "month")
    return tuple(powers.get(n, 0) for n in names)  # type: ignore[return-value]


_NONE: Dims = (0, 0, 0, 0, 0, 0, 0, 0)

_PREFIXES = {
    "P": Fraction(10) ** 15,
    "T": Fraction(10) ** 12,
    "G": Fraction(10) ** 9,
    "M": Fraction(10) ** 6,
    "k": Fraction(1000),
    "h": Fraction(100),
    "da": Fraction(10),
    "d": Fraction(1, 10),
    "c": Fraction(1, 100),
    "m": Fraction(1, 1000),
    "µ": Fraction(1, 10**6),
    "μ": Fraction(1, 10**6),
    "u": Fraction(1, 10**6),
    "n": Fraction(1, 10**9),
    "p": Fraction(1, 10**12),
    "f": Fraction(1, 10**15),
}
"""SI prefixes (atto and below, exa and above are left out: ``am`` is a time of day). ``u`` is
micro where a keyboard has no µ (``um``, ``ug``, ``uF``: pint, Moodle's formulas question type)."""

_PREFIXABLE: dict[str, tuple[Fraction, Dims]] = {
    "m": (Fraction(1), _dims(m=1)),
    "g": (Fraction(1, 1000), _dims(kg=1)),
    "s": (Fraction(1), _dims(s=1)),
    "A": (Fraction(1), _dims(A=1)),
    "K": (Fraction(1), _dims(K=1)),
    "mol": (Fraction(1), _dims(mol=1)),
    "cd": (Fraction(1), _dims(cd=1)),
    "N": (Fraction(1), _dims(kg=1, m=1, s=-2)),
    "J": (Fraction(1), _dims(kg=1, m=2, s=-2)),
    "W": (Fraction(1), _dims(kg=1, m=2, s=-3)),
    "Wh": (Fraction(3600), _dims(kg=1, m=2, s=-2)),
    "Pa": (Fraction(1), _dims(kg=1, m=-1, s=-2)),
    "Hz": (Fraction(1), _dims(s=-1)),
    "C": (Fraction(1), _dims(A=1, s=1)),
    "V": (Fraction(1), _dims(kg=1, m=2, s=-3, A=-1)),
    "Ω": (Fraction(1), _dims(kg=1, m=2, s=-3, A=-2)),
    "ohm": (Fraction(1), _dims(kg=1, m=2, s=-3, A=-2)),
    "F": (Fraction(1), _dims(kg=-1, m=-2, s=4, A=2)),
    "T": (Fraction(1), _dims(kg=1, s=-2, A=-1)),
    "Wb": (Fraction(1), _dims(kg=1, m=2, s=-2, A=-1)),
    "H": (Fraction(1), _dims(kg=1, m=2, s=-2, A=-2)),
    "L": (Fraction(1, 1000), _dims(m=3)),
    "eV": (Fraction(1602176634, 10**28), _dims(kg=1, m=2, s=-2)),
    "cal": (Fraction(4184, 1000), _dims(kg=1, m=2, s=-2)),  # the thermochemical calorie
    "M": (Fraction(1000), _dims(mol=1, m=-3)),  # molar, mol/L
}
"""Units that take an SI prefix (``kJ``, ``mA``, ``µs``), with their factor to SI base units."""

_UNPREFIXED_ONLY = frozenset({"C", "F", "M"})
"""Symbols read only with a prefix (``µC``, ``nF``, ``mM``): a bare ``C`` or ``F`` is more often a
temperature scale (``25^\\circ C`` normalises to ``25 C``), a bare ``M`` a million or a name."""

_INCH = Fraction(254, 10000)
_POUND = Fraction(45359237, 10**8)
_MINUTE, _HOUR, _DAY = Fraction(60), Fraction(3600), Fraction(86400)

_WHOLE_UNITS: dict[str, tuple[Fraction, Dims]] = {
    "min": (_MINUTE, _dims(s=1)),
    "h": (_HOUR, _dims(s=1)),
    "hr": (_HOUR, _dims(s=1)),
    "ml": (Fraction(1, 10**6), _dims(m=3)),
    "ft": (12 * _INCH, _dims(m=1)),
    "yd": (36 * _INCH, _dims(m=1)),
    "mi": (63360 * _INCH, _dims(m=1)),
    "lb": (_POUND, _dims(kg=1)),
    "oz": (_POUND / 16, _dims(kg=1)),
    "gal": (231 * _INCH**3, _dims(m=3)),
    "mph": (63360 * _INCH / _HOUR, _dims(m=1, s=-1)),
    "kph": (Fraction(1000) / _HOUR, _dims(m=1, s=-1)),
    "atm": (Fraction(101325), _dims(kg=1, m=-1, s=-2)),
    "mmHg": (Fraction(133322387415, 10**9), _dims(kg=1, m=-1, s=-2)),
    "torr": (Fraction(101325, 760), _dims(kg=1, m=-1, s=-2)),
    "Torr": (Fraction(101325, 760), _dims(kg=1, m=-1, s=-2)),
    "bar": (Fraction(10**5), _dims(kg=1, m=-1, s=-2)),
    "Å": (Fraction(1, 10**10), _dims(m=1)),
    "month": (Fraction(1), _dims(month=1)),
    "year": (Fraction(12), _dims(month=1)),
    "yr": (Fraction(12), _dims(month=1)),
    "decade": (Fraction(120), _dims(month=1)),
    "century": (Fraction(1200), _dims(month=1)),
    "day": (_DAY, _dims(s=1)),
    "week": (7 * _DAY, _dims(s=1)),
}
"""Units read only as written."""

_WORD_UNITS: dict[str, str] = {
    "meter": "m",
    "metre": "m",
    "gram": "g",
    "second": "s",
    "sec": "s",
    "ampere": "A",
    "amp": "A",
    "kelvin": "K",
    "mole": "mol",
    "newton": "N",
    "joule": "J",
    "watt": "W",
    "pascal": "Pa",
    "hertz": "Hz",
    "coulomb": "C",
    "farad": "F",
    "volt": "V",
    "tesla": "T",
    "liter": "L",
    "litre": "L",
    "electronvolt": "eV",
    "calorie": "cal",
    "ohm": "ohm",
}
"""Unit names that take a prefix word (``kilometers``, ``milliseconds``); plural ``s`` allowed."""

_PREFIX_WORDS = {
    "kilo": "k",
    "hecto": "h",
    "deka": "da",
    "deca": "da",
    "deci": "d",
    "centi": "c",
    "milli": "m",
    "micro": "µ",
    "nano": "n",
    "pico": "p",
    "mega": "M",
    "giga": "G",
    "tera": "T",
}

_WHOLE_WORDS: dict[str, str] = {
    "minute": "min",
    "hour": "h",
    "inch": "in",
    "foot": "ft",
    "feet": "ft",
    "yard": "yd",
    "mile": "mi",
    "pound": "lb",
    "lbs": "lb",
    "ounce": "oz",
    "gallon": "gal",
    "angstrom": "Å",
    "mins": "min",
    "hrs": "h",
    "yrs": "year",
    "centuries": "century",
    "inches": "in",
    "day": "day",
    "week": "week",
    "month": "month",
    "year": "year",
    "decade": "decade",
    "century": "century",
}
"""Other unit names, plural ``s`` allowed; each names a unit of the tables or ``in``."""

_INCH_UNIT = (_INCH, _dims(m=1))
"""The inch, read only from ``inch``/``inches``: ``in`` is a word."""


def _unit_symbol(name: str, bare: frozenset[str] = frozenset()) -> tuple[Fraction, Dims] | None:
    """The factor and dimension of one unit token (``kJ``, ``mA``, ``hours``), or None; ``bare``:
    symbols of :data:`_UNPREFIXED_ONLY` read without a prefix too."""
    if name in _WHOLE_UNITS:
        return _WHOLE_UNITS[name]
    if name in _PREFIXABLE and (name not in _UNPREFIXED_ONLY or name in bare):
        return _PREFIXABLE[name]
    for prefix, factor in _PREFIXES.items():
        base = name[len(prefix) :]
        if name.startswith(prefix) and base in _PREFIXABLE:
            scale, dims = _PREFIXABLE[base]
            return factor * scale, dims
    word = name.lower()
    for candidate in (word, word[:-1] if word.endswith("s") else word):
        if candidate in _WHOLE_WORDS:
            whole = _WHOLE_WORDS[candidate]
            return _INCH_UNIT if whole == "in" else _WHOLE_UNITS[whole]
        for prefix_word, prefix in ("", ""), *_PREFIX_WORDS.items():
            if candidate.startswith(prefix_word) and candidate[len(prefix_word) :] in _WORD_UNITS:
                symbol = _WORD_UNITS[candidate[len(prefix_word) :]]
                scale, dims = _PREFIXABLE[symbol]
                return (_PREFIXES[prefix] if prefix else 1) * scale, dims
    return None


@dataclass(frozen=True)
class Quantity:
    number: Num
    scale: Fraction  # the unit's factor to SI base units
    dims: Dims
    letters: Counter[str]  # the unit's letters read as a product of variables


_NUMBER_RE = re.compile(
    r"^[+-]? ?(?:\\frac ?\{ ?\d+ ?\} ?\{ ?\d+ ?\}|\d+ ?/ ?\d+(?= )|"
    r"10 ?(?:\^|\*\*) ?(?:\{ ?[+-]?\d+ ?\}|[+-]?\d+)|"
    r"(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
    r"(?: ?(?:\\times|\\cdot|\*|x) ?10 ?(?:\^|\*\*) ?(?:\{ ?[+-]?\d+ ?\}|[+-]?\d+))?)"
)
_POWER_OF_TEN_RE = re.compile(r"^([+-]?) ?10 ?\^ ?\{? ?([+-]?\d+) ?\}?$")
_WRAPPER_RE = re.compile(
    r"\\(?:mathrm|text|textrm|rm|mathit|operatorname|mbox|unit)\s*\{((?:[^{}]|\{[^{}]*\})*)\}"
)
_FRAC_RE = re.compile(r"\\frac ?\{([^{}]*)\} ?\{([^{}]*)\}")
_TIMES_RE = re.compile(r"\\cdot(?![a-zA-Z])|\\times(?![a-zA-Z])|[⋅*]")  # normalize: × and · to commands
_SYMBOL_COMMANDS = (("\\Omega", "Ω"), ("\\mu ", "µ"), ("\\mu", "µ"), ("\\AA", "Å"), ("\\ohm", "Ω"))
_TOKEN_RE = re.compile(
    r" *(?:([A-Za-zΩµμÅ]+)|(\^ ?\{ ?[+-]?\d+ ?\}|\^ ?\( ?[+-]?\d+ ?\)|\^ ?[+-]?\d)|([/()])) *"
)

_MAX_UNIT_CHARS = 80


def _value(number: str) -> Num | None:
    text = number.replace("**", "^").replace(" ", "")
    m = _POWER_OF_TEN_RE.match(text)
    if m:
        return Num((-1 if m.group(1) == "-" else 1) * Fraction(10) ** int(m.group(2)), None, False)
    text = re.sub(r"\^([+-]?\d+)$", r"^{\1}", text)
    return read_number(text)


@dataclass(frozen=True)
class _Units:
    scale: Fraction  # the factor to SI base units
    dims: Dims
    letters: Counter[str]  # the letters as a product of variables: "kg m / s^2" is k g m s^-2


def _parse_units(text: str, bare: frozenset[str] = frozenset()) -> _Units | None:
    """The factor and dimension of a unit expression: products (space, ``*``, ``\\cdot``), one
    ``/`` (everything after it divides: ``kg m / s^2``), parentheses, whole powers; with the
    letters it is written with, as latex2sympy would multiply them."""
    s = text
    for _ in range(3):
        s = _WRAPPER_RE.sub(r" \1 ", s)
    while "\\frac" in s:
        new = _FRAC_RE.sub(r"(\1)/(\2)", s)
        if new == s:
            return None
        s = new
    for command, symbol in _SYMBOL_COMMANDS:
        s = s.replace(command, symbol)
    s = _TIMES_RE.sub(" ", s.replace("**", "^"))  # normalize turned \\, ~ and the like into spaces
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(s):
        m = _TOKEN_RE.match(s, pos)
        if not m or m.end() == pos:
            return None
        if m.group(1):
            tokens.append(("unit", m.group(1)))
        elif m.group(2):
            tokens.append(("power", re.sub(r"[\^{}() ]", "", m.group(2))))
        else:
            tokens.append((m.group(3), m.group(3)))
        pos = m.end()
    got, end = _product(tokens, 0, 0, bare)
    return got if got is not None and end == len(tokens) else None


def _product(
    tokens: list[tuple[str, str]], i: int, depth: int, bare: frozenset[str] = frozenset()
) -> tuple[_Units | None, int]:
    scale, dims, letters = Fraction(1), _NONE, Counter[str]()
    divide, seen = False, False
    while i < len(tokens):
        kind, text = tokens[i]
        if kind == "/":
            if divide or not seen:
                return None, i
            divide, i = True, i + 1
            continue
        if kind == ")":
            break
        if kind == "(":
            if depth >= 3:
                return None, i
            inner, i = _product(tokens, i + 1, depth + 1, bare)
            if inner is None or i >= len(tokens) or tokens[i][0] != ")":
                return None, i
            i += 1
            factor, written, last = inner, inner.letters, ""
        elif kind == "unit":
            unit = _unit_symbol(text, bare)
            if unit is None:
                return None, i
            factor, written, last = _Units(*unit, Counter()), Counter(text[:-1]), text[-1]
            i += 1
        else:
            return None, i  # a power without a unit before it
        power = 1
        if i < len(tokens) and tokens[i][0] == "power":
            power, i = int(tokens[i][1]), i + 1
            if power == 0 or abs(power) > 6:
                return None, i
        sign = -1 if divide else 1
        scale *= factor.scale ** (sign * power)
        dims = tuple(a + sign * power * b for a, b in zip(dims, factor.dims, strict=True))  # type: ignore[assignment]
        for letter, count in written.items():  # "mg^2" is m g^2 to latex2sympy; "(m s)^2" is m^2 s^2
            letters[letter] += sign * count * (1 if last else power)
        if last:
            letters[last] += sign * power
        seen = True
    if not seen or (divide and tokens[i - 1][0] == "/"):
        return None, i
    return _Units(scale, dims, letters), i


def read_quantity(s: str, bare: frozenset[str] = frozenset()) -> Quantity | None:
    """One number followed by a unit expression of the table (``5000 mA``, ``9.8 N / kg``,
    ``3 hours``), or None (no unit, a word that is not a unit, a variable, several numbers);
    ``bare``: symbols of :data:`_UNPREFIXED_ONLY` read without a prefix too (``1 C``)."""
    if len(s) > _MAX_UNIT_CHARS + 40:
        return None
    m = _NUMBER_RE.match(s)
    if not m:
        return None
    rest = s[m.end() :].strip()
    if not rest or len(rest) > _MAX_UNIT_CHARS or not re.match(r"[A-Za-z\\Ωµμ]", rest):
        return None
    number = _value(m.group(0).strip())
    unit = _parse_units(rest, bare)
    if number is None or unit is None or unit.dims == _NONE:
        return None
    return Quantity(number, unit.scale, unit.dims, Counter({k: v for k, v in unit.letters.items() if v}))


def spaced_unit_value(s: str) -> Num | None:
    """The number of ``s`` when ``s`` is one number, a space and a unit expression of the table
    (``0.17 V``, ``-120 m/(min^2)``, ``12 N``), else None. The space is required: ``12N`` may be
    a product with a variable ``N``."""
    m = _NUMBER_RE.match(s)
    if not m or not s[m.end() : m.end() + 1].isspace() or read_quantity(s) is None:
        return None
    return _value(m.group(0).strip())


_BRACED_UNIT_RE = re.compile(r"(?<=\d) ?\{ ?([A-Za-z]{2,5}) ?\}(?= ?\^| *$)")
"""A unit in braces right after a number (``6840{ft}^2``)."""


def braced_units_unbraced(s: str) -> str:
    """``6840{ft}^2`` as ``6840 ft^2``: braces around a unit of two letters or more after a number
    only group it (latex2sympy would read ``(f t)^2``); letters that are no unit stay braced."""
    if "{" not in s:
        return s
    return _BRACED_UNIT_RE.sub(lambda m: f" {m.group(1)}" if _unit_symbol(m.group(1)) else m.group(0), s)


def _in_unit(q: Quantity, scale: Fraction) -> Num | None:
    """``q``'s number in the unit of factor ``scale``; None when the decimal places it was written
    with do not carry over (the factor between the units is not a power of ten)."""
    ratio = q.scale / scale
    value = q.number.value * ratio
    if q.number.digits is None:
        return Num(value, None, False)
    k = 0
    while ratio.numerator % 10 == 0 and ratio.denominator == 1:
        ratio, k = ratio / 10, k + 1
    while ratio.denominator % 10 == 0 and ratio.numerator == 1 and ratio != 1:
        ratio, k = ratio * 10, k - 1
    return Num(value, q.number.digits - k, False, q.number.shown) if ratio == 1 else None


def quantities_decide(gold: str, pred: str) -> bool | None:
    """Two quantities with units: equal values in one unit (True), another value or another
    dimension (False); None unless both sides are read as quantities."""
    if not (_unit_start(gold) and _unit_start(pred)):
        return None
    qg, qp = read_quantity(gold), read_quantity(pred)
    if (qg is None) != (qp is None):  # "1 C" against "1000 mC": coulombs, as the other side says
        bare = _prefixed_symbols(pred if qg is None else gold)
        if bare:
            qg, qp = read_quantity(gold, bare), read_quantity(pred, bare)
    if qg is None or qp is None:
        return None
    if qg.dims != qp.dims:
        # "2mg" (milligrams) against "2 m g" (metre grams): the same product of letters, so the
        # same answer when the letters are variables (a weight in physics); left to the other rules
        return None if qg.letters == qp.letters and qg.number.value == qp.number.value else False
    pred_in_gold = _in_unit(qp, qg.scale)
    if pred_in_gold is not None:
        return nums_equal(qg.number, pred_in_gold)
    gold_in_pred = _in_unit(qg, qp.scale)
    if gold_in_pred is not None:
        return nums_equal(gold_in_pred, qp.number)
    return qg.number.value * qg.scale == qp.number.value * qp.scale


_PREFIXED_SYMBOL_RE = re.compile(r"(?<![A-Za-z])(?:da|[PTGMkhdcmµμunpf]|\\mu ?)([CFM])(?![A-Za-z])")


def _prefixed_symbols(s: str) -> frozenset[str]:
    """The symbols of :data:`_UNPREFIXED_ONLY` that ``s`` writes with a prefix (``1000 mC``,
    ``500 mM``): then they name that unit, and a bare ``C`` on the other side is a coulomb, not a
    temperature, a bare ``M`` molar."""
    return frozenset(_PREFIXED_SYMBOL_RE.findall(s))


def _unit_start(s: str) -> bool:
    return (
        bool(s)
        and (s[0].isdigit() or s[0] in "+-." or s.startswith("\\frac"))
        and any(c.isalpha() or c in "Ωµμ" for c in s)
    )


def common_unit_dropped(gold: str, pred: str) -> tuple[str, str]:
    """Both answers without the unit that ends both (``9.81 \\pm 0.01 m/s^{2}`` and ``(9.81 \\pm
    0.01) m/s^{2}`` -> ``9.81 \\pm 0.01`` and ``(9.81 \\pm 0.01)``), so that a ``\\pm`` written out
    gives each value the unit, not only the last; else both as they are. The unit follows a number
    or a bracket after a space and is one a quantity reads, of two characters or more (``2 \\pm
    1 m`` may be a product with a variable ``m``)."""
    head_g, _, tail_g = gold.rpartition(" ")
    head_p, _, tail_p = pred.rpartition(" ")
    after_value = all(head[-1:].isdigit() or head.endswith(")") for head in (head_g, head_p))
    if (
        tail_g != tail_p
        or len(tail_g) < 2
        or not tail_g[0].isalpha()
        or not after_value
        or read_quantity(f"1 {tail_g}") is None
    ):
        return gold, pred
    return head_g.rstrip(), head_p.rstrip()


_TEMPERATURE_RE = re.compile(r"^([-+]?\d+(?:\.\d+)?) ?([CFK])$")
"""A temperature as the answers normalise it: ``15^\\circ C``, ``15 degrees Celsius`` -> ``15 C``."""


def _celsius(number: Num, scale: str) -> Fraction:
    if scale == "F":
        return (number.value - 32) * Fraction(5, 9)
    return number.value - Fraction(27315, 100) if scale == "K" else number.value


def temperatures_decide(gold: str, pred: str) -> bool | None:
    """Two temperatures with a scale letter each (``C``, ``F``, ``K``; a bare ``C`` or ``F`` is no
    unit of :func:`read_quantity`): in one scale, their numbers by the numeric rule; in two, equal
    when one is the other converted exactly (``15 C`` and ``59 F``; ``15 C`` is not ``15 F``,
    which math-verify, reading only the numbers, had credited). None unless both are such."""
    mg, mp = _TEMPERATURE_RE.match(gold), _TEMPERATURE_RE.match(pred)
    if mg is None or mp is None or "K" == mg.group(2) == mp.group(2):
        return None  # kelvins alone: read_quantity's
    ng, np_ = read_number(mg.group(1)), read_number(mp.group(1))
    if not isinstance(ng, Num) or not isinstance(np_, Num):
        return None
    if mg.group(2) == mp.group(2):
        return nums_equal(ng, np_)
    return _celsius(ng, mg.group(2)) == _celsius(np_, mp.group(2))
