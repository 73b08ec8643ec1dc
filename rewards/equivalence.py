"""Math-answer equivalence: a certain fast path, then math-verify in bounded workers.

``is_equivalent(gold, pred)`` accepts either side as a bare answer (``3/4``, ``x=2``) or as text
that contains one (a sentence, a solution with ``\\boxed{}``, ``$...$``). The **certain path**
answers only when its answer is provable: exact arithmetic on both sides (Python ints and
``fractions.Fraction``, see :mod:`rewards.const_eval`), a structural match of sets/tuples/intervals
of such numbers, identical normalised text, choice letters, yes/no words. Anything else goes to
math-verify's ``parse`` + ``verify`` in a killable worker process (:mod:`rewards.bounded`), so the
verdict is never worse than math-verify's own; the project's rules (units, percent words,
currency, decimal comma, labelled values, inequalities as intervals, ordinals, yes/no in
sentences) add on top. Model text is never ``eval``-ed or ``sympify``-ed here.

Numeric rule (see docs/rewards.md): integers and fractions compare exactly. A decimal written with
a fractional part (``0.33``) is a rounded value. When the **reference** is a decimal with ``d >= 2``
digits after the point, an exact prediction matches if it rounds to the reference at ``d`` digits
(``0.33`` accepts ``\\frac13``; ``0.5`` is an exact value and accepts only ``\\frac12``). When the
reference is exact (``\\frac13``, ``\\pi``, ``2^{32}``), a decimal prediction matches only if it
equals it exactly (``0.5`` for ``\\frac12``; never ``0.333`` for ``\\frac13`` or ``3.14159`` for
``\\pi``). Two decimals match only when equal.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction

from rewards.const_eval import evaluate_exact
from rewards.extract import (
    _BOX_RE,
    THINK_CLOSE,
    box_contents,
    braced,
    extract_answer,
    extract_with_source,
    tail,
    verify_text,
)
from rewards.failures import log_failure
from rewards.poly_identity import is_linear, proportional, same_polynomial

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "_BOX_RE",
    "compare",
    "decide_fast",
    "extract_answer",
    "is_equivalent",
    "normalize",
    "path_stats",
]

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 3.0
"""Wall-clock bound for one comparison, waiting for a worker included (seconds)."""

MAX_ANSWER_CHARS = 2000
"""Extracted answers longer than this are compared as text only."""

_CACHE_SIZE = 65536

# --------------------------------------------------------------------------------------------
# Normalisation (pure string work, linear regexes on bounded strings)
# --------------------------------------------------------------------------------------------

_TEXT_CMD_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|textnormal|mathrm|mathbf|mbox|operatorname|mathit)\s*\{([^{}]*)\}"
)
_SPACING_RE = re.compile(r"\\\\|\\[,;:! ]|\\q?quad(?![a-zA-Z])|~")
_LEFT_RIGHT_RE = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?![a-zA-Z])")
_DEGREE_RE = re.compile(r"\^ ?\{? ?\\circ ?\}?|°|\\degree(?![a-zA-Z])")
_DFRAC_RE = re.compile(r"\\[dt]frac(?![a-zA-Z])")
_THOUSANDS_BRACE_RE = re.compile(r"(\d)(?:\{,\}|,\\!) ?(?=\d{3}(?!\d))")
_PERCENT_WORD_RE = re.compile(r"(\d) ?(?:percent|per ?cent|pct)\b\.?", re.IGNORECASE)
_ORDINAL_RE = re.compile(r"(\d) ?\^? ?\{? ?(?:st|nd|rd|th) ?\}?(?![a-zA-Z])")
_FRAC_DIGITS_RE = re.compile(r"\\frac ?(\d) ?(\d)")
_CURRENCY_RE = re.compile(r"\\\$|[$€£¥₹]|\b(?:USD|EUR|GBP)\b")
_WS_RE = re.compile(r"\s+")
_RELATION_WORDS = {"\\lt": "<", "\\gt": ">", "!=": "\\ne ", "<=": "\\le ", ">=": "\\ge ", "\\neq": "\\ne "}
_RELATION_WORD_RE = re.compile(r"\\[lg]t(?![a-zA-Z])|\\neq(?![a-zA-Z])|!=|<=|>=")


def _spacing(m: re.Match[str]) -> str:
    return m.group(0) if m.group(0) == "\\\\" else " "  # keep matrix row breaks


def _strip_wrappers(s: str) -> str:
    """Remove surrounding ``$..$``, ``\\(..\\)``, ``\\[..\\]`` and whole-string ``\\boxed{..}``."""
    while True:
        t = s.strip()
        if t.startswith("$$") and t.endswith("$$") and len(t) >= 4 and "$" not in t[2:-2]:
            t = t[2:-2]
        elif t.startswith("$") and t.endswith("$") and len(t) >= 2 and "$" not in t[1:-1]:
            t = t[1:-1]
        elif (t.startswith("\\(") and t.endswith("\\)")) or (t.startswith("\\[") and t.endswith("\\]")):
            t = t[2:-2]
        else:
            m = _BOX_RE.match(t)
            if m and t[m.end() :].lstrip().startswith("{"):
                j = t.index("{", m.end())
                got = braced(t, j, len(t))
                if got is not None and got[1] == len(t):
                    t = got[0]
        t = t.strip()
        if t == s:
            return t
        s = t


def normalize(ans: str) -> str:
    """Canonical surface form of an answer string (pure string work, no parsing)."""
    s = _WS_RE.sub(" ", _strip_wrappers(ans))
    s = (
        s.replace("\u2212", "-")
        .replace("\u2013", "-")
        .replace("\u00d7", "\\times ")
        .replace("\u00b7", "\\cdot ")
        .replace("\u2264", "\\le ")
        .replace("\u2265", "\\ge ")
    )
    s = s.replace("\\displaystyle", "").replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    s = s.replace("\\cfrac", "\\frac").replace("\\leqslant", "\\le").replace("\\geqslant", "\\ge")
    s = _RELATION_WORD_RE.sub(lambda m: _RELATION_WORDS[m.group(0)], s)
    s = _DFRAC_RE.sub(r"\\frac", s)
    for _ in range(3):
        new = _TEXT_CMD_RE.sub(r" \1 ", s)
        if new == s:
            break
        s = new
    s = _WS_RE.sub(" ", _LEFT_RIGHT_RE.sub("", s))
    s = _DEGREE_RE.sub("", s)
    s = _ORDINAL_RE.sub(r"\1", s)
    s = _FRAC_DIGITS_RE.sub(r"\\frac{\1}{\2}", s)
    s = _THOUSANDS_BRACE_RE.sub(r"\1", s)
    s = s.replace("\\%", "%").replace("\\!", "")
    s = _PERCENT_WORD_RE.sub(r"\1%", s)
    s = _CURRENCY_RE.sub("", s)
    s = _SPACING_RE.sub(_spacing, s)
    s = _WS_RE.sub(" ", s).strip()
    while s.endswith((".", "。")) and not s.endswith(".."):
        s = s[:-1].rstrip()
    return _strip_wrappers(s)


# --------------------------------------------------------------------------------------------
# Values of the certain path
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Num:
    value: Fraction
    digits: int | None  # decimal places as written ("0.330" -> 3); None for an exact form
    percent: bool


@dataclass(frozen=True)
class _Inf:
    sign: int


@dataclass(frozen=True)
class _Seq:
    open: str  # "(", "[", "{" (set), "" (bare list, order-insensitive), "M" (matrix), "U" (union)
    close: str
    items: tuple[_Value, ...]


_Value = _Num | _Inf | _Seq

_UNIT_WORDS = frozenset(
    (
        "cm mm km m kg g mg lb lbs pound pounds ounce ounces oz inch inches in feet foot ft yard yards yd "
        "mile miles mi meter meters metre metres centimeter centimeters kilometer kilometers second seconds "
        "sec secs s minute minutes min mins hour hours hr hrs h day days week weeks month months year years "
        "unit units sq square cubic dollar dollars cent cents degree degrees deg rad radian radians liter "
        "liters litre litres l ml point points people person persons student students apple apples cookie "
        "cookies time times way ways mph km/h m/s yuan euro euros rupees rs usd cm^2 cm^3 m^2 m^3 km^2"
    ).split()
)
_UNIT_TOKEN_RE = re.compile(r"^([a-zA-Z/]+)(?:\^\{?[23]\}?|[23²³])?$")
_GLUED_UNIT_RE = re.compile(r"^(\d[\d.,]*)([a-zA-Z]{1,6}(?:\^\{?[23]\}?|[23²³])?)$")
_INT_RE = re.compile(r"^\d+$")
_THOUSANDS_RE = re.compile(r"^[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$")
_DEC_RE = re.compile(r"^(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?$")
_SCI_TIMES_RE = re.compile(r"^(\d+(?:\.\d+)?) ?(?:\\times|\\cdot|\*|x) ?10 ?\^ ?\{? ?([+-]?\d+) ?\}?$")
_FRAC_RE = re.compile(r"^\\frac ?(?:\{ ?([+-]?[\d.]+) ?\}|(\d)) ?(?:\{ ?([+-]?[\d.]+) ?\}|(\d))$")
_SLASH_RE = re.compile(r"^([\d.]+) ?/ ?([\d.]+)$")
_MIXED_RE = re.compile(r"^(\d+) ?(\\frac.*|\d+ ?/ ?\d+)$")
_CHOICE_RE = re.compile(r"^\(?\s?([A-Ea-e])\s?\)?$")
_CHOICE_WITH_TEXT_RE = re.compile(r"^(?:\(([A-E])\)|([A-E])[.:)])\s\S")
_VAR_LHS_RE = re.compile(r"^\s*(?:[a-zA-Z](?:_\{?\w+\}?)?|\\[a-zA-Z]+(?:_\{?\w+\}?)?|[a-zA-Z]\(\w\))\s*$")
_LABEL_RE = re.compile(r"^(?:[A-Za-z][A-Za-z ]{1,30}:\s?|[A-Za-z]:\s)")  # "Max: 3", not "A:B=1"
_DECIMAL_COMMA_RE = re.compile(r"^(?:\d+,(?:\d{1,2}|\d{4,})|0,\d+)$")
_PLAIN_TEXT_RE = re.compile(r"^[A-Za-z][A-Za-z '\-]*$")
_MAX_DIGITS = 400
_UNIT_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS_NUMBER_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_NUMBER_WORD_RE = re.compile(r"^([a-z]+)(?:[ -]([a-z]+))?$")


def _strip_units(s: str) -> str:
    """``12 m^2`` -> ``12``; ``5 dollars`` -> ``5``; ``100m`` -> ``100`` (a few trailing unit words)."""
    parts = s.split(" ")
    for _ in range(4):
        if len(parts) < 2:
            break
        m = _UNIT_TOKEN_RE.match(parts[-1])
        if m and m.group(1).lower() in _UNIT_WORDS:
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
    if "e" in s or "E" in s:
        return max(1, len(s.lower().partition("e")[0].partition(".")[2]))
    frac = s.partition(".")[2]
    return len(frac) if frac.strip("0") else None


def _unsigned_number(s: str) -> _Num | None:
    if len(s) > _MAX_DIGITS:
        return None
    if _THOUSANDS_RE.match(s):
        s = s.replace(",", "")
    if _DEC_RE.match(s):
        if "e" in s or "E" in s:
            mant, _, exp = s.lower().partition("e")
            if abs(int(exp)) > 400:
                return None
            return _Num(Fraction(mant) * Fraction(10) ** int(exp), _decimal_digits(s), False)
        return _Num(Fraction(s), _decimal_digits(s), False)
    m = _SCI_TIMES_RE.match(s)
    if m:
        exp = int(m.group(2))
        if abs(exp) > 400:
            return None
        digits = _decimal_digits(m.group(1))
        return _Num(
            Fraction(m.group(1)) * Fraction(10) ** exp, None if digits is None else digits - exp, False
        )
    m = _FRAC_RE.match(s)
    if m:
        return _ratio(m.group(1) or m.group(2), m.group(3) or m.group(4))
    m = _SLASH_RE.match(s)
    if m:
        return _ratio(m.group(1), m.group(2))
    m = _MIXED_RE.match(s)
    if m:
        frac = _unsigned_number(m.group(2).strip())
        if frac is not None and 0 < frac.value < 1:
            return _Num(int(m.group(1)) + frac.value, frac.digits, False)
    return None


def _ratio(num_s: str, den_s: str) -> _Num | None:
    num = _signed_plain(num_s)
    den = _signed_plain(den_s)
    if num is None or den is None or den.value == 0:
        return None
    approx = num.digits is not None or den.digits is not None
    return _Num(num.value / den.value, None, False) if not approx else None


def _signed_plain(s: str) -> _Num | None:
    s = s.strip()
    sign = 1
    if s[:1] in "+-":
        sign = -1 if s[0] == "-" else 1
        s = s[1:].strip()
    if not s or not (_DEC_RE.match(s) or _THOUSANDS_RE.match(s)):
        return None
    got = _unsigned_number(s)
    return None if got is None else _Num(sign * got.value, got.digits, False)


def _number(s: str, decimal_comma: bool = False) -> _Num | _Inf | None:
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
    if s in ("\\infty", "\\infinity", "∞", "infinity", "inf") and not percent:
        return _Inf(sign)
    if decimal_comma and _DECIMAL_COMMA_RE.match(s):
        s = s.replace(",", ".")
    got = _unsigned_number(s)
    if got is None:
        stripped = _strip_units(s)
        if stripped != s:
            if stripped.endswith("%"):
                percent = True
                stripped = stripped[:-1].strip()
            got = _unsigned_number(stripped)
        word = None if got is not None or percent else _number_word(stripped)
        if word is not None:  # "five", "twenty-one apples"
            return _Num(Fraction(sign * word), None, False)
    if got is None:
        return None
    return _Num(sign * got.value, got.digits, percent)


def _split_top(s: str, seps: str = ",;") -> list[str]:
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] in "{}":
            cur.append(s[i : i + 2])
            depth += 1 if s[i + 1] == "{" else -1
            i += 2
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c in seps and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return [p.strip() for p in parts]


_RELATION_OPS = ("\\le", "\\ge", "<", ">", "\\ne", "\\neq", "\\leq", "\\geq")


_IN_SET_RE = re.compile(r"^[a-zA-Z] ?\\in ?([(\[].*[)\]])$")


def _drop_var_lhs(s: str) -> str:
    """``x = 3`` -> ``3`` when the left side is a single variable name; ``Max: 3`` -> ``3``."""
    s = _LABEL_RE.sub("", s, count=1) if ":" in s[:32] else s
    m = _IN_SET_RE.match(s)
    if m:
        return m.group(1)
    if "=" not in s or any(op in s for op in _RELATION_OPS):
        return s
    if len(_split_top(s)) > 1:  # a list "x=1, y=2": each item is handled on its own
        return s
    lhs, _, rhs = s.partition("=")
    if rhs.strip() and "=" not in rhs and _VAR_LHS_RE.match(lhs):
        return rhs.strip()
    return s


_CHAIN_RE = re.compile(r"=|\\cong(?![a-zA-Z])|\\approx(?![a-zA-Z])|\\equiv(?![a-zA-Z])")


def _chain_tail(s: str) -> str | None:
    """Last side of a prediction written as a chain ``a = b = c`` or ``x \\approx 11``, or None."""
    if any(op in s for op in _RELATION_OPS) or len(_split_top(s)) > 1:
        return None
    if "\\approx" in s:  # "x = 1/3 \approx 0.33": the exact value, unless only a name precedes
        head, _, approx = s.partition("\\approx")
        if not head.strip() or _VAR_LHS_RE.match(head):
            return approx.strip() or None
        s = head.strip()
        if "=" not in s:
            return s
    parts = _CHAIN_RE.split(s)
    if len(parts) < 2 or not parts[-1].strip():
        return None
    if len(parts) >= 3 or not re.search(r"[A-Za-z]", parts[0]) or _VAR_LHS_RE.match(parts[0]):
        return parts[-1].strip()
    return None


_INEQ_RE = re.compile(r"\\leq?(?![a-zA-Z])|\\geq?(?![a-zA-Z])|<=|>=|<|>")
_SET_BUILDER_RE = re.compile(r"^\\\{\s?([a-zA-Z])\s?(?:\\mid|\||:|\\colon)(.*)\\\}$")


def _scalar(s: str, v: _Value | None) -> bool:
    """A number or a closed-form constant (``\\sqrt{2}``, ``e^{23110}``)."""
    return isinstance(v, _Num) or (v is None and (_constant(s) is not None or bool(_HUGE_POWER_RE.match(s))))


_FUNCTION_CALL_RE = re.compile(r"[A-Za-z]\(")


def _is_inequality(s: str) -> bool:
    """An inequality or a chain of them (``x \\ge 5``, ``2 < x < 5``): no ``=``, no set braces,
    no bars, no function call (``P(X<3)``)."""
    if "=" in s or "\\{" in s or "|" in s or _FUNCTION_CALL_RE.search(s):
        return False
    return _INEQ_RE.search(s) is not None


def _interval(s: str, depth: int) -> _Seq | None:
    """``3 < x \\le 4`` / ``x > 2`` / ``\\{x \\mid -1<x<1\\}`` as an interval value, or None."""
    m = _SET_BUILDER_RE.match(s)
    if m:
        s = m.group(2).strip()
    ops = _INEQ_RE.findall(s)
    if not ops or len(ops) > 2:
        return None
    sides = [p.strip() for p in _INEQ_RE.split(s)]
    if any(not p for p in sides):
        return None
    norm = [
        "<" if o in ("<",) else "<=" if o in ("\\le", "\\leq", "<=") else ">" if o == ">" else ">="
        for o in ops
    ]
    if "|" in s:
        return _abs_interval(sides, norm, depth)
    if len(ops) == 2:
        if not re.fullmatch(r"\\?[a-zA-Z]+(?:_\{?\w+\}?)?|[a-zA-Z]\([a-zA-Z]\)", sides[1]):
            return None
        if norm[0][0] != norm[1][0]:
            return None
        lo, hi = (sides[0], sides[2]) if norm[0][0] == "<" else (sides[2], sides[0])
        lo_open = (norm[0] if norm[0][0] == "<" else norm[1]) in ("<", ">")
        hi_open = (norm[1] if norm[0][0] == "<" else norm[0]) in ("<", ">")
    else:
        var_left = bool(re.fullmatch(r"\\?[a-zA-Z]+(?:_\{?\w+\}?)?", sides[0]))
        var_right = bool(re.fullmatch(r"\\?[a-zA-Z]+(?:_\{?\w+\}?)?", sides[1]))
        if var_left == var_right:
            return None
        bound = sides[1] if var_left else sides[0]
        op = norm[0] if var_left else {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[norm[0]]
        if op[0] == ">":
            lo, hi, lo_open, hi_open = bound, "\\infty", op == ">", True
        else:
            lo, hi, lo_open, hi_open = "-\\infty", bound, True, op == "<"
    vlo, vhi = _value(lo, depth + 1), _value(hi, depth + 1)
    if not isinstance(vlo, _Num | _Inf) or not isinstance(vhi, _Num | _Inf):
        return None
    return _Seq("(" if lo_open else "[", ")" if hi_open else "]", (vlo, vhi))


_CUP_RE = re.compile(r"\\cup(?![a-zA-Z])")
_ABS_VAR_RE = re.compile(r"^\|([a-zA-Z])\|$")
_Span = tuple[Fraction | float, bool, Fraction | float, bool, _Num | _Inf, _Num | _Inf]
"""An interval: lower end, lower end closed, upper end, upper end closed, and the two ends as read."""


def _end_key(v: _Num | _Inf) -> Fraction | float:
    return v.value if isinstance(v, _Num) else math.inf * v.sign


def _span(v: _Value | None) -> _Span | None:
    """An interval with number/infinite ends as (lo, lo closed, hi, hi closed, lo, hi); None for
    anything else, and for an empty or one-point interval (math-verify decides those)."""
    if not isinstance(v, _Seq) or v.open not in ("(", "[") or v.close not in (")", "]") or len(v.items) != 2:
        return None
    lo, hi = v.items
    if not isinstance(lo, _Num | _Inf) or not isinstance(hi, _Num | _Inf):
        return None
    opener, closer = _brackets(v)
    if _end_key(lo) >= _end_key(hi):
        return None
    return (_end_key(lo), opener == "[", _end_key(hi), closer == "]", lo, hi)


def _canonical_union(spans: list[_Span]) -> _Seq | None:
    """The union of ``spans`` as disjoint intervals in increasing order (overlapping or touching
    ones merged): two unions are the same set exactly when these are equal. One interval comes
    back as a plain interval, several as a ``"U"`` sequence."""
    if not spans:
        return None
    spans = sorted(spans, key=lambda sp: (sp[0], not sp[1]))
    merged = [list(spans[0])]
    for sp in spans[1:]:
        cur = merged[-1]
        if sp[0] < cur[2] or (sp[0] == cur[2] and (cur[3] or sp[1])):
            if sp[2] > cur[2]:
                cur[2], cur[3], cur[5] = sp[2], sp[3], sp[5]
            elif sp[2] == cur[2]:
                cur[3] = cur[3] or sp[3]
        else:
            merged.append(list(sp))
    parts = tuple(_Seq("[" if m[1] else "(", "]" if m[3] else ")", (m[4], m[5])) for m in merged)
    return parts[0] if len(parts) == 1 else _Seq("U", "U", parts)


def _union(s: str, depth: int) -> _Seq | None:
    """``(-\\infty, -1) \\cup (1, \\infty)``: intervals with number ends joined by ``\\cup``."""
    spans = [_span(_value(part.strip(), depth + 1)) for part in _CUP_RE.split(s)]
    if any(sp is None for sp in spans):
        return None
    return _canonical_union(spans)  # type: ignore[arg-type]


def _as_union(v: _Value) -> _Seq | None:
    """A union or one interval as a canonical union; None for anything else (a list of pairs
    ``(1,2), (3,4)`` may be points, not intervals)."""
    if isinstance(v, _Seq) and v.open == "U":
        return v
    sp = _span(v)
    return None if sp is None else _canonical_union([sp])


def _abs_interval(sides: list[str], norm: list[str], depth: int) -> _Seq | None:
    """``1 \\le |z| \\le 2``, ``|x| > 1``, ``|x| \\le 3`` as the union of intervals they mean."""
    if len(sides) == 3 and _ABS_VAR_RE.match(sides[1]) and norm[0][0] == norm[1][0] == "<":
        lo, hi = _value(sides[0], depth + 1), _value(sides[2], depth + 1)
        lo_closed, hi_closed = norm[0] == "<=", norm[1] == "<="
    elif len(sides) == 2 and _ABS_VAR_RE.match(sides[0]) and norm[0][0] in "<>":
        bound = _value(sides[1], depth + 1)
        if norm[0][0] == "<":
            lo, hi, lo_closed, hi_closed = _Num(Fraction(0), None, False), bound, True, norm[0] == "<="
        else:
            lo, hi, lo_closed, hi_closed = bound, _Inf(1), norm[0] == ">=", False
    else:
        return None
    if not isinstance(lo, _Num) or not isinstance(hi, _Num | _Inf) or lo.value < 0:
        return None
    neg_lo = _Num(-lo.value, lo.digits, False) if lo.value else lo
    neg_hi = _Num(-hi.value, hi.digits, False) if isinstance(hi, _Num) else _Inf(-1)
    spans = [
        _span(_Seq("[" if hi_closed else "(", "]" if lo_closed else ")", (neg_hi, neg_lo))),
        _span(_Seq("[" if lo_closed else "(", "]" if hi_closed else ")", (lo, hi))),
    ]
    if any(sp is None for sp in spans):
        return None
    return _canonical_union(spans)  # type: ignore[arg-type]


_MATRIX_RE = re.compile(r"^\\begin\{([pbvB]?matrix|array)\}(?:\{[lcr|]*\})?(.*)\\end\{\1\}$", re.DOTALL)


def _matrix(s: str, depth: int) -> _Seq | None:
    """``\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}`` (and bmatrix/array) of numbers as rows."""
    m = _MATRIX_RE.match(s)
    if not m or m.group(1) == "vmatrix":  # a determinant is a number, not a matrix
        return None
    rows = [r.strip() for r in m.group(2).strip().removesuffix("\\\\").split("\\\\")]
    out: list[_Value] = []
    for row in rows:
        cells = [c.strip() for c in row.split("&")]
        values: list[_Value] = []
        for c in cells:
            v = _value(c, depth + 1)
            if not isinstance(v, _Num):
                return None
            values.append(v)
        out.append(_Seq("[", "]", tuple(values)))
    return _Seq("M", "M", tuple(out))


def _value(s: str, depth: int = 0, decimal_comma: bool = False) -> _Value | None:
    """Parse a normalised answer into a certain-path value, or None if it needs math-verify."""
    if depth > 3 or not s or len(s) > MAX_ANSWER_CHARS:
        return None
    if s.startswith("\\begin{"):
        return _matrix(s, depth)
    if " and " in s or " or " in s:  # "1, 2 and 3", "x = 1 or x = 2": one list
        s = s.replace(", and ", ", ").replace(" and ", ", ").replace(", or ", ", ").replace(" or ", ", ")
    s = _drop_var_lhs(s.strip())
    num = _number(s, decimal_comma)
    if num is not None:
        return num
    if _CUP_RE.search(s):
        return _union(s, depth)
    if _INEQ_RE.search(s):
        return _interval(s, depth)
    opener, closer, inner = "", "", s
    if s.startswith("\\{") and s.endswith("\\}"):
        opener, closer, inner = "{", "}", s[2:-2]
    elif len(s) >= 2 and s[0] in "([" and s[-1] in ")]" and _closes_at_end(s):
        opener, closer, inner = s[0], s[-1], s[1:-1]
    parts = _split_top(inner)
    if opener == "" and len(parts) < 2:
        return None
    if any(not p for p in parts) and not (len(parts) == 1 and opener == "{"):
        return None
    items: list[_Value] = []
    for p in parts:
        if not p and opener == "{":
            continue
        v = _value(p, depth + 1)
        if v is None:
            return None
        items.append(v)
    if opener in "([" and len(items) == 1 and (isinstance(items[0], _Num) or _is_matrix(items[0])):
        return items[0]  # "(5)" is just 5; "(\begin{pmatrix}..\end{pmatrix})" is the matrix
    return _Seq(opener, closer, tuple(items))


def _closes_at_end(s: str) -> bool:
    """Whether the bracket that opens ``s`` is the one that closes it (``(1,2)``, not ``(1,2),(3,4)``)."""
    depth = 0
    for i, c in enumerate(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i == len(s) - 1
    return False


def _has_repeats(v: _Value) -> bool:
    return (
        isinstance(v, _Seq)
        and v.open in ("{", "")
        and any(_values_equal(x, y) for i, x in enumerate(v.items) for y in v.items[i + 1 :])
    )


_ASSIGNMENT_RE = re.compile(r"^([A-Za-z](?:_\{?\w{1,8}\}?)?) ?= ?([^=]+)$")
_GROUP_SPLIT_RE = re.compile(r" ?; ?| (?:and|or) ")


def _assignments(s: str) -> list[dict[str, str]] | None:
    """``p=5, q=2`` -> ``[{p: 5, q: 2}]``; ``p=5,q=2; p=7,q=2`` (or joined by "and"/"or") -> one
    mapping per group (a group ends where a name repeats). None unless every item is
    ``name = value``, each group names two or more variables, and all groups name the same ones."""
    if "=" not in s or len(s) > MAX_ANSWER_CHARS:
        return None
    groups: list[dict[str, str]] = [{}]
    for part in _GROUP_SPLIT_RE.split(s.replace(", and ", " and ").replace(", or ", " or ")):
        for item in _split_top(part, ","):
            m = _ASSIGNMENT_RE.match(item)
            if not m:
                return None
            name = m.group(1).replace("{", "").replace("}", "")
            if name in groups[-1]:
                groups.append({})
            groups[-1][name] = m.group(2).strip()
    if len(groups[0]) < 2 or any(g.keys() != groups[0].keys() for g in groups):
        return None
    return groups


def _assignments_decide(gold: str, pred: str) -> bool | None:
    """Answers that name their values (``p=5, q=2``): compared by name, never by position, so
    ``p=2, q=5`` is not ``p=5, q=2``; several groups compare as a set of groups. A named answer
    against a tuple compares in the named order (``(3, 4)`` for ``a=3, b=4``); against a bare list
    it is equal when the values match in that order, otherwise (None) math-verify decides."""
    ag, ap = _assignments(gold), _assignments(pred)
    if ag is None or ap is None:
        named, bare = (ag, pred) if ap is None else (ap, gold)
        if named is None or len(named) != 1 or "=" in bare:
            return None
        items = _split_top(bare)
        if len(items) == len(named[0]) and all(
            _fast_compare(v, item) is True for v, item in zip(named[0].values(), items, strict=True)
        ):
            return True  # "y_1 = -2x^2+4x+3, y_2 = ..." against "-2(x-1)^2+5, ..." item by item
        vb = _value(bare)
        if not isinstance(vb, _Seq) or vb.open not in ("", "(") or len(vb.items) != len(named[0]):
            return None
        vn = [_value(v, 1) for v in named[0].values()]
        if any(v is None for v in vn):
            return None
        same = all(_values_equal(x, y) for x, y in zip(vn, vb.items, strict=True))  # type: ignore[arg-type]
        return same if vb.open == "(" else (same or None)  # a tuple is ordered; a bare list may not be
    if ag[0].keys() != ap[0].keys() or len(ag) != len(ap):
        return None
    parsed = [[{k: _value(v, 1) for k, v in g.items()} for g in side] for side in (ag, ap)]
    if any(v is None for side in parsed for g in side for v in g.values()):
        return None
    remaining = list(parsed[1])
    for g in parsed[0]:
        for k, other in enumerate(remaining):
            if all(_values_equal(g[name], other[name]) for name in g):  # type: ignore[arg-type]
                del remaining[k]
                break
        else:
            return False
    return True


def _ambiguous_lists(a: _Value, b: _Value) -> bool:
    """Lists the certain path must not judge: a repeated item in a set or bare list (math-verify
    reads them as sets, ``(1,2),(1,2)`` = ``(1,2)``) or a list of numbers against a list of tuples
    (``p=5,q=2;p=7,q=2`` against ``(5,2),(7,2)``)."""
    if _has_repeats(a) or _has_repeats(b):
        return True
    if isinstance(a, _Seq) and isinstance(b, _Seq) and a.items and b.items:
        kinds_a = {isinstance(x, _Seq) for x in a.items}
        kinds_b = {isinstance(x, _Seq) for x in b.items}
        return kinds_a != kinds_b
    return False


def _candidates(n: _Num) -> tuple[tuple[Fraction, int | None], ...]:
    if not n.percent:
        return ((n.value, n.digits),)
    return ((n.value, n.digits), (n.value / 100, None if n.digits is None else n.digits + 2))


MIN_ROUNDED_DECIMALS = 2
"""A decimal reference is read as rounded only with at least this many decimals (``0.33`` accepts
``\\frac13``, ``5.66`` ``4\\sqrt2``); ``0.5`` or ``12.5`` are exact values: +-0.05 would credit
``\\frac{37}{72}`` or ``\\frac{623}{50}``."""

MIN_EXACT_DIGITS = 10
"""A decimal prediction for an exact reference must carry at least this many significant digits,
all correct (``0.0833333333333333`` for ``\\frac1{12}``; never ``3.14159`` for ``\\pi``)."""


def _significant(value: Fraction, digits: int) -> int:
    scaled = abs(value) * Fraction(10) ** digits  # digits < 0 for 1.5\times10^{3}
    return len(str(scaled.numerator // scaled.denominator)) if scaled >= 1 else 0


def _rounds_to(exact: Fraction, decimal: Fraction, digits: int) -> bool:
    """Whether ``exact`` rounded to ``digits`` places is ``decimal`` (half a unit either way)."""
    return abs(exact - decimal) <= Fraction(1, 2) / Fraction(10) ** digits


def _nums_equal(gold: _Num, pred: _Num) -> bool:
    for gv, gd in _candidates(gold):
        for pv, pd in _candidates(pred):
            if gv == pv:
                return True
            if gd is not None and gd >= MIN_ROUNDED_DECIMALS and pd is None and _rounds_to(pv, gv, gd):
                return True  # the reference is a rounded decimal; the prediction is exact
            if (
                gd is None
                and pd is not None
                and _significant(pv, pd) >= MIN_EXACT_DIGITS
                and _rounds_to(gv, pv, pd)
            ):
                return True  # a machine-precision decimal of the exact reference (0.0833333333333333)
    return False


def _brackets(v: _Seq) -> tuple[str, str]:
    """An interval's brackets, an infinite end read as open (``[2, \\infty]`` is ``[2, \\infty)``,
    as math-verify reads it)."""
    opener, closer = v.open, v.close
    if len(v.items) == 2 and opener in "([" and closer in ")]":
        if isinstance(v.items[0], _Inf):
            opener = "("
        if isinstance(v.items[1], _Inf):
            closer = ")"
    return opener, closer


def _values_equal(a: _Value, b: _Value) -> bool:
    if isinstance(a, _Num) and isinstance(b, _Num):
        return _nums_equal(a, b)
    if isinstance(a, _Inf) and isinstance(b, _Inf):
        return a.sign == b.sign
    if isinstance(a, _Seq) and isinstance(b, _Seq):
        if len(a.items) != len(b.items):
            return False
        if a.open in ("{", "") and b.open in ("{", ""):  # sets and bare lists: any order
            remaining = list(b.items)
            for x in a.items:
                for k, y in enumerate(remaining):
                    if _values_equal(x, y):
                        del remaining[k]
                        break
                else:
                    return False
            return True
        if "" in (a.open, b.open):
            if _brackets(b if a.open == "" else a) != ("(", ")"):
                return False  # a bare list "1, 2" may match a tuple "(1, 2)", never "(1, 2]"
        elif _brackets(a) != _brackets(b):
            return False
        if "{" in (a.open, b.open):
            return False  # a set is not a tuple or an interval
        return all(_values_equal(x, y) for x, y in zip(a.items, b.items, strict=True))
    return False


def _text_key(s: str) -> str:
    return _WS_RE.sub("", s).lower()


_YES_NO = {"yes": "yes", "no": "no", "true": "yes", "false": "no"}
_FIRST_WORD_RE = re.compile(r"^[^A-Za-z]{0,3}([A-Za-z]+)")
_DECIMAL_LITERAL_RE = re.compile(r"\d\.\d")
_HAS_LETTER_RE = re.compile(r"[A-Za-z]")
_COMMAND_RE = re.compile(r"\\[a-zA-Z]+")


def _yes_no(s: str) -> str | None:
    m = _FIRST_WORD_RE.match(s)
    if not m:
        return None
    return _YES_NO.get(m.group(1).lower())


def _constant(s: str) -> Fraction | float | None:
    return evaluate_exact(_drop_var_lhs(s))


def _constants_decide(gold: str, pred: str) -> bool | None:
    """Both sides closed-form constants: exact compare, or a numeric verdict that is certain."""
    cg, cp = _constant(gold), _constant(pred)
    if cg is None or cp is None:
        return None
    g_dec = bool(_DECIMAL_LITERAL_RE.search(gold))
    p_dec = bool(_DECIMAL_LITERAL_RE.search(pred))
    if isinstance(cg, Fraction) and isinstance(cp, Fraction) and not g_dec and not p_dec:
        return cg == cp
    fg, fp = float(cg), float(cp)
    scale = max(abs(fg), abs(fp), 1e-300)
    rel = abs(fg - fp) / scale
    if g_dec and not p_dec:
        m = re.fullmatch(r"-?\d*\.(\d+)", gold.strip())
        if m and len(m.group(1)) >= MIN_ROUNDED_DECIMALS:
            # the reference is a rounded decimal: round the exact prediction to its digits
            return abs(fp - fg) <= 0.5 * 10 ** -len(m.group(1)) * (1 + 1e-9)
        if m and isinstance(cp, Fraction):
            return Fraction(gold.strip()) == cp  # "0.5" is an exact value
        return None if rel <= 1e-12 else False
    if p_dec and not g_dec:
        # the reference is exact: a decimal prediction must equal it, or carry machine precision
        m = re.fullmatch(r"-?(\d*)\.(\d+)", pred.strip())
        if m and len((m.group(1) + m.group(2)).lstrip("0")) >= MIN_EXACT_DIGITS:
            return abs(fp - fg) <= 0.5 * 10 ** -len(m.group(2)) + 4e-16 * scale
        return None if rel <= 1e-12 else False
    if g_dec and p_dec:
        return None if rel <= 1e-12 else False
    if rel <= 1e-12:
        return True  # two closed forms equal to 12 significant digits (math-verify checks 15 with evalf)
    return False if rel > 1e-9 else None


_HUGE_POWER_RE = re.compile(r"^(e|\d{1,6})\^\{?(\d{1,9})\}?$")
_PLUS_MINUS_RE = re.compile(r"^\\pm ?(.+)$")


def _huge_or_pm_decide(gold: str, pred: str) -> bool | None:
    """Two certain refusals the constant reader cannot make on its own. ``e^{23110}`` (a power
    beyond 10**250, which the reader refuses) against a constant it reads (at most 10**250 by its
    own cap): different. ``\\pm c`` against a constant that is neither ``c`` nor ``-c``: different.
    Anything else: None."""
    for a, b in ((gold, pred), (pred, gold)):
        m = _HUGE_POWER_RE.match(a)
        if m and m.group(1) != "0":
            base = math.e if m.group(1) == "e" else int(m.group(1))
            if base > 1 and int(m.group(2)) * math.log10(base) > 260 and _constant(b) is not None:
                return False
        m = _PLUS_MINUS_RE.match(a)
        if m:
            c, d = evaluate_exact(m.group(1)), _constant(b)
            if c is not None and d is not None and _differ(c, d) and _differ(-c, d):
                return False
    return None


_FREE_LETTER_RE = re.compile(r"(?<![a-zA-Z\\])([a-zA-Z])(?![a-zA-Z])")
_CONSTANT_LETTERS = frozenset("eEiIjJ")  # e and imaginary units: never treated as variables
_PROBES = (Fraction(2, 7), Fraction(3, 11), Fraction(-5, 13), Fraction(7, 17))


def _variables(s: str) -> list[str] | None:
    letters = sorted(set(_FREE_LETTER_RE.findall(s)))
    if len(letters) > 3 or _CONSTANT_LETTERS.intersection(letters) or "=" in s or len(s) > 300:
        return None
    return letters


def _evaluate_at(s: str, point: dict[str, Fraction]) -> Fraction | float | None:
    """``s`` evaluated exactly with each variable letter replaced by its rational value."""
    for letter, v in point.items():
        rep = f"(\\frac{{{v.numerator}}}{{{v.denominator}}})"
        s = re.sub(rf"(?<![a-zA-Z\\]){letter}(?![a-zA-Z])", lambda _m, r=rep: r, s)
    return evaluate_exact(s)


def _at_points(s: str, letters: list[str], points: int = 3) -> list[Fraction | float] | None:
    """``s`` evaluated with its variables at ``points`` rational probe points, or None."""
    values: list[Fraction | float] = []
    for k in range(points):
        got = _evaluate_at(s, {x: _PROBES[(j + k) % len(_PROBES)] for j, x in enumerate(letters)})
        if got is None:
            return None
        values.append(got)
    return values


def _differ(a: Fraction | float, b: Fraction | float) -> bool:
    """Provably different: exactly (two Fractions) or beyond float rounding (1e-9 relative)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a != b
    fa, fb = float(a), float(b)
    return abs(fa - fb) > 1e-9 * max(abs(fa), abs(fb), 1e-300)


def _nonconstant(s: str) -> bool:
    """Provably not a constant: an expression in 1-3 single-letter variables that the exact
    evaluator reads, and that takes two different values at two rational points (the probe points,
    then a far point, then small integers: a floor agrees at near points, ``|V|^{2016}`` underflows
    to 0 at both)."""
    letters = _variables(s)
    if not letters:
        return False
    values = _at_points(s, letters, 2)
    if values is not None and _differ(values[0], values[1]):
        return True
    seen: list[Fraction | float] = [] if values is None else [values[0]]
    for point in _EXTRA_POINTS:
        got = _evaluate_at(s, dict.fromkeys(letters, point))  # every variable at the point
        if got is None:
            continue
        if any(_differ(got, other) for other in seen):
            return True
        seen.append(got)
    return False


_EXTRA_POINTS = (Fraction(31, 3), Fraction(1), Fraction(0), Fraction(2), Fraction(-1))


def _expressions_decide(gold: str, pred: str) -> bool | None:
    """Two expressions in the same 1-3 variables: different at a rational point -> False (a
    proof). Equal at the probe points proves nothing (without a degree bound, a fixed set of
    points can be matched by a wrong answer, e.g. gold + (x-p1)(x-p2)(x-p3)): None, so
    math-verify decides."""
    lg, lp = _variables(gold), _variables(pred)
    if not lg or not lp or lg != lp:
        return None
    vg, vp = _at_points(gold, lg), _at_points(pred, lp)
    if vg is None or vp is None:
        return None
    if any(_differ(a, b) for a, b in zip(vg, vp, strict=True)):
        return False
    return same_polynomial(gold, pred, lg)  # a proof on a grid when both are polynomials


def _two_sides(s: str) -> tuple[str, str] | None:
    """``(lhs, rhs)`` of a single equation ``lhs = rhs`` (no other relation, chain or list), or None."""
    if s.count("=") != 1 or len(_CHAIN_RE.findall(s)) != 1 or any(op in s for op in _RELATION_OPS):
        return None
    if len(_split_top(s)) > 1:
        return None
    lhs, _, rhs = s.partition("=")
    lhs, rhs = lhs.strip(), rhs.strip()
    return (lhs, rhs) if lhs and rhs else None


def _equation_difference(s: str) -> str | None:
    """``(lhs)-(rhs)`` of a single equation ``lhs = rhs``, or None."""
    sides = _two_sides(s)
    return None if sides is None else f"({sides[0]})-({sides[1]})"


def _computed_value(s: str) -> str | None:
    """``\\log_2(8) = 3`` -> ``3``: the right side of an equation whose left side is a computation
    without free variables (``e^{i\\pi}``, ``\\binom{5}{2}``, a determinant) or a limit; None else
    (``x + 5 = 3`` is not a value: math-verify decides)."""
    sides = _two_sides(s)
    if sides is None:
        return None
    lhs, rhs = sides
    free = set(_FREE_LETTER_RE.findall(_COMMAND_RE.sub(" ", lhs))) - _CONSTANT_LETTERS
    return rhs if not free or lhs.startswith("\\lim") else None


def _equation_in_unknowns(s: str) -> bool:
    """``a + z = 0``, ``2x = 10``: one equation whose left side is an expression in variables, not
    a name (``x = 5``, ``f(2) = 5``), a segment (``AB = 5``) or a computation (``\\log_2 8 = 3``)."""
    sides = _two_sides(s)
    if sides is None or _VAR_LHS_RE.match(sides[0]) or _NAMED_RATIO_VALUE_RE.match(s):
        return False  # a name, or a ratio of names ("A:B = 1")
    return bool(set(_FREE_LETTER_RE.findall(_COMMAND_RE.sub(" ", sides[0]))) - _CONSTANT_LETTERS)


def _names_differ(gold: str, pred: str) -> bool:
    """Both sides give one value to a single name, and the names differ (``x = 1``, ``y = 1``)."""
    sg, sp = _two_sides(gold), _two_sides(pred)
    if sg is None or sp is None or not _VAR_LHS_RE.match(sg[0]) or not _VAR_LHS_RE.match(sp[0]):
        return False
    return re.sub(r"[{} ]", "", sg[0]) != re.sub(r"[{} ]", "", sp[0])


def _equations_decide(gold: str, pred: str) -> bool | None:
    """Two polynomial equations in the same 1-3 variables: True when one is the other times a
    nonzero rational (``2x+4y-3=0`` and ``y=-\\frac12x+\\frac34``), proven on a grid
    (:func:`rewards.poly_identity.proportional`). Two linear equations that are not proportional
    are different lines or planes: False. Other equations can have the same solutions without
    being proportional (``x^2=0`` and ``x=0``): None, math-verify decides."""
    dg, dp = _equation_difference(gold), _equation_difference(pred)
    if dg is None or dp is None:
        return None
    lg, lp = _variables(dg), _variables(dp)
    if not lg or lg != lp:
        return None
    same = proportional(dg, dp, lg)
    if same is False and is_linear(dg, lg) and is_linear(dp, lg):
        # decimals are the numeric rule's to judge (x = 0.33 for x = 1/3, docs/rewards.md)
        return None if _DECIMAL_LITERAL_RE.search(dg + dp) else False
    return True if same else None


def _is_matrix(v: _Value) -> bool:
    return isinstance(v, _Seq) and v.open == "M"


_TEXT_WORDS_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|textsf|texttt|textnormal|mbox)\s*\{[^{}]*[A-Za-z]"
)


def _fast_compare(gold: str, pred: str, text_words: bool = False) -> bool | None:
    """True/False when the answer is certain, None when math-verify must decide. ``text_words``:
    a side had words in ``\\text{}`` (normalised to plain letters here), which math-verify reads
    as units or text, not as variables: then no verdict rests on those letters being variables."""
    if _text_key(gold) == _text_key(pred):
        return True
    mg = _CHOICE_RE.match(gold)
    if mg:
        mp = _CHOICE_RE.match(pred) or _CHOICE_WITH_TEXT_RE.match(pred)
        if mp:
            return mg.group(1).upper() == (mp.group(1) or mp.group(2)).upper()
    elif mp := _CHOICE_RE.match(pred):  # a reference "C. x = 42" (the option and its text) against "C"
        mg = _CHOICE_WITH_TEXT_RE.match(gold)
        if mg:
            return (mg.group(1) or mg.group(2)) == mp.group(1).upper()
    yn = _YES_NO.get(_text_key(gold))
    if yn is not None:
        got = _yes_no(pred)
        if got is not None:
            return got == yn
    if "=" in gold and "=" in pred:
        same = None if text_words else _equations_decide(gold, pred)
        if same is not None:
            return same  # the same equation up to a nonzero factor, or two different lines
        if _names_differ(gold, pred):
            return None  # "x = 1" against "y = 1": the name is part of the answer (math-verify)
    if "=" in gold + pred and (_assignments(gold) is not None or _assignments(pred) is not None):
        return _assignments_decide(gold, pred)  # named values: by name, or math-verify
    vg = _value(gold)
    vp = _value(pred, decimal_comma=isinstance(vg, _Num))
    if isinstance(vp, _Num) and not isinstance(vg, _Num):
        vg = _value(gold, decimal_comma=True)  # "1,22" against one number: a decimal comma
    if isinstance(vg, _Seq) and isinstance(vp, _Seq) and "U" in (vg.open, vp.open):
        ug, up = _as_union(vg), _as_union(vp)  # unions of intervals: the same set, in any order
        return None if ug is None or up is None else _values_equal(ug, up)
    if vg is not None and vp is not None:
        if _is_matrix(vg) != _is_matrix(vp):
            return None  # a matrix against a tuple/list: math-verify's convention decides
        if _ambiguous_lists(vg, vp):
            return None
        return _values_equal(vg, vp)
    if _PLAIN_TEXT_RE.match(gold) and _PLAIN_TEXT_RE.match(pred):
        return False  # two different plain words/phrases
    if not text_words and "=" not in pred and _scalar(pred, vp) and _equation_in_unknowns(gold):
        return False  # "a + z = 0" is an equation, not the value 0
    if _scalar(gold, vg) and _is_inequality(pred) or _scalar(pred, vp) and _is_inequality(gold):
        return False  # a number against "x \\ge 5" or "2 < x < 5" (math-verify: never equal)
    if vg is None or vp is None:
        got = _constants_decide(gold, pred)
        if got is None:
            got = _huge_or_pm_decide(gold, pred)
        if got is not None:
            return got
    if isinstance(vg, _Num) and not re.search(r"[\d\\^_/*+()=<>\[\]{}-]", pred):
        return False  # a number against words without any digit or math
    if text_words:
        return None  # "\\frac13 \\text{x}": a unit to math-verify, not the variable x
    g_const = isinstance(vg, _Num) or (vg is None and _constant(gold) is not None)
    p_const = isinstance(vp, _Num) or (vp is None and _constant(pred) is not None)
    if (g_const and _nonconstant(pred)) or (p_const and _nonconstant(gold)):
        return False  # a number against an expression that provably varies
    if vg is None and vp is None:
        return _expressions_decide(gold, pred)
    return None


_FUNC_DEF_RE = re.compile(r"^([a-zA-Z])\(([a-zA-Z])\) ?=(.*)$")


def _rename_variable(gold: str, pred: str) -> str:
    """``f(z)=z`` against ``f(x)=x``: rename the prediction's argument to the reference's."""
    mg, mp = _FUNC_DEF_RE.match(gold), _FUNC_DEF_RE.match(pred)
    if not mg or not mp or mg.group(1) != mp.group(1) or mg.group(2) == mp.group(2):
        return pred
    old, new = mp.group(2), mg.group(2)
    if re.search(rf"(?<![a-zA-Z\\]){new}(?![a-zA-Z])", mp.group(3)):
        return pred  # the new name is already used in the body
    body = re.sub(rf"(?<![a-zA-Z\\]){old}(?![a-zA-Z])", new, mp.group(3))
    return f"{mp.group(1)}({new})={body}"


_NAMED_RHS_RE = re.compile(r"^(?:([a-zA-Z])|\(([a-zA-Z](?:, ?[a-zA-Z]){1,5})\)|\|([A-Z]{2,3})\|) ?=([^=]+)$")


_NAME = r"[A-Za-z](?:_\{?\w+\}?)?"
_NAMED_RATIO_RE = re.compile(rf"^{_NAME}(?: ?: ?{_NAME})+ ?= ?(\d+(?: ?: ?\d+)+)$")
_NAMED_RATIO_VALUE_RE = re.compile(rf"^{_NAME}(?: ?: ?{_NAME})+ ?= ?([^=:<>]+)$")


def _named_rhs(s: str) -> str | None:
    """The value a reference names: ``y = x^2+2x+1`` -> ``x^2+2x+1``, ``(p,q)=(3,2)`` -> ``(3,2)``,
    ``|AB|=1`` -> ``1``. One ``=`` after a single-letter name (not ``e``/``i``), a tuple of such
    names or a segment's length, that the right side does not use, and no relation; else None."""
    m = _NAMED_RATIO_RE.match(s) or _NAMED_RATIO_VALUE_RE.match(s)
    if m:  # "V_{1}:V_{2}=11:21" -> "11:21", "A:B=1" -> "1"
        return m.group(1).strip()
    m = _NAMED_RHS_RE.match(s)
    if not m or any(op in s for op in _RELATION_OPS):
        return None
    names = set(m.group(1) or m.group(3) or m.group(2).replace(" ", "").replace(",", ""))
    if names & _CONSTANT_LETTERS:
        return None
    rhs = m.group(4).strip()
    if not rhs or names.intersection(re.findall(r"[a-zA-Z]", _COMMAND_RE.sub(" ", rhs))):
        return None
    return rhs


def _prepare(gold: str, pred: str) -> tuple[str, str]:
    ng, np_ = normalize(gold), normalize(pred)
    np_ = _rename_variable(ng, np_)
    if "=" not in ng and not _CHAIN_RE.search(ng):
        got = _chain_tail(np_)
        if got is not None:
            np_ = got
    elif "=" not in np_ and not _CHAIN_RE.search(np_):
        got = _named_rhs(ng)  # a reference that names its value, against a bare expression
        if got is not None:
            ng = got
    return ng, np_


# --------------------------------------------------------------------------------------------
# Sides: a bare answer, or text that contains one
# --------------------------------------------------------------------------------------------

_WORDS_RE = re.compile(r"[A-Za-z]{2,}")


def _is_sentence(s: str) -> bool:
    outside = re.sub(r"\$[^$]*\$", " ", s[:MAX_ANSWER_CHARS])
    outside = _COMMAND_RE.sub(" ", _TEXT_CMD_RE.sub(" ", outside))
    return len(_WORDS_RE.findall(outside)) >= 3


def _answer_and_trust(text: str) -> tuple[str | None, bool]:
    """:func:`answer_of` and whether it came from a box, a ``####`` line or a bare answer (True)
    or from an "answer is ..." phrase in prose (False: good enough to credit, not to refuse)."""
    if "\\boxed" in text or "\\fbox" in text or THINK_CLOSE in text or "####" in text:
        got, source = extract_with_source(text)
        if source == "boxed" and text.count("\\boxed") + text.count("\\fbox") > 1:
            # several boxes: the extraction may have kept only some (prose between them)
            return got, False
        return got, source in ("boxed", "hash")
    got = answer_of(text)
    return got, got is text


def answer_of(text: str) -> str | None:
    """The answer a side gives: its boxed / ``####`` / "answer is" answer, the text itself when it
    is a bare answer, or None (a sentence without anchors: math-verify's extraction decides)."""
    if "\\boxed" in text or "\\fbox" in text or THINK_CLOSE in text or "####" in text:
        return extract_answer(text)
    if len(text) > MAX_ANSWER_CHARS:
        return extract_answer(text)
    if _is_sentence(text):
        got = extract_answer(text)
        return got if got is not None and not _is_sentence(got) else None
    return text


# --------------------------------------------------------------------------------------------
# Public comparison
# --------------------------------------------------------------------------------------------

_cache: OrderedDict[tuple[str, str], bool] = OrderedDict()
_cache_lock = threading.Lock()
_stats = {"calls": 0, "certain": 0, "cache": 0, "symbolic": 0, "not_verified": 0}


def path_stats() -> dict[str, int]:
    """Counters since start: ``calls`` and how each was decided (``certain``, ``cache``,
    ``symbolic``: math-verify in a worker, ``not_verified``: timeout or no worker in time)."""
    with _cache_lock:
        return dict(_stats)


def slow_path_stats() -> dict[str, int]:
    """Backwards-compatible view of :func:`path_stats`: ``calls`` and ``slow`` (worker) calls."""
    s = path_stats()
    return {"calls": s["calls"], "slow": s["symbolic"] + s["not_verified"]}


def _count(key: str) -> None:
    with _cache_lock:
        _stats[key] += 1


_DOUBLED_CMD_RE = re.compile(
    r"(?<!\\)\\\\(?:frac|dfrac|tfrac|sqrt|left|right|boxed|le|ge|leq|geq|ne|neq|pi|cdot|times|in|"
    r"infty|pm|cup|cap|text|mathrm|begin|end)(?![a-zA-Z])"
)
_SINGLE_CMD_RE = re.compile(r"(?<!\\)\\[a-zA-Z]")


def undouble_backslashes(text: str) -> str:
    """``$\\\\frac{1}{2}$`` (text escaped twice, as a JSON or Python string literal) -> ``$\\frac{1}{2}$``.

    Only when the text has a common command written with two backslashes (``\\\\frac``, which as
    LaTeX would be a row break followed by the word "frac") and no command with one: then
    each ``\\\\`` stands for one backslash (a row break ``\\\\`` of such text is four). A command
    right after a row break (``1\\\\\\frac12``, three backslashes) counts as neither, so normal
    LaTeX is left alone. Used by the certain path only; math-verify gets the text as written."""
    if "\\\\" not in text or not _DOUBLED_CMD_RE.search(text) or _SINGLE_CMD_RE.search(text):
        return text
    return text.replace("\\\\", "\\")


def decide_fast(gold: str, pred: str) -> bool | None:
    """The certain path's verdict for two answers (or texts), or None if math-verify is needed."""
    if gold.strip() == pred.strip():
        return True  # the same text gives the same answer, whatever it is
    gold, pred = undouble_backslashes(gold), undouble_backslashes(pred)
    (g, g_sure), (p, p_sure) = _answer_and_trust(gold), _answer_and_trust(pred)
    if g is None or p is None:
        return _sentence_rules(gold, pred)
    if len(g) > MAX_ANSWER_CHARS or len(p) > MAX_ANSWER_CHARS:
        return _text_key(g) == _text_key(p) or None
    ng, np_ = _prepare(g, p)
    if not ng or not np_:
        return None
    text_words = bool(_TEXT_WORDS_RE.search(g) or _TEXT_WORDS_RE.search(p))
    verdict = _fast_compare(ng, np_, text_words)
    if verdict is not True and "=" not in ng and not _CHAIN_RE.search(ng):
        value = _computed_value(np_)  # a reference value against "\\log_2(8) = 3"
        if value is not None and _fast_compare(ng, value, text_words) is True:
            return True
    if verdict is False and not (g_sure and p_sure):
        if g_sure and _every_box_differs(g, pred, True, text_words):
            return False
        if p_sure and _every_box_differs(p, gold, False, text_words):
            return False
        return None  # an answer read from prose may be the wrong phrase: math-verify decides
    return verdict


def _every_box_differs(answer: str, text: str, answer_is_gold: bool, text_words: bool) -> bool:
    """``text`` has several boxes and ``answer`` provably differs from each of them and from the
    list of them all, whichever of those math-verify's extraction would take."""
    if text.count("\\boxed") + text.count("\\fbox") < 2:
        return False
    boxes = box_contents(text)
    if boxes is None or len(boxes) < 2:
        return False
    if len(set(boxes)) == 1:  # the same answer boxed twice
        boxes = boxes[:1]
    candidates = [*boxes, ", ".join(boxes)] if len(boxes) > 1 else boxes
    n_answer = normalize(answer)
    if (
        _scalar(n_answer, _value(n_answer))
        and _fast_compare(normalize(boxes[0]), normalize(boxes[-1])) is False
    ):
        candidates.pop()  # a list with two different items is not one number
    for box in candidates:
        ng, np_ = _prepare(answer, box) if answer_is_gold else _prepare(box, answer)
        if not ng or not np_ or _fast_compare(ng, np_, text_words) is not False:
            return False
    return True


def _sentence_rules(gold: str, pred: str) -> bool | None:
    """Yes/no and short-text answers against a sentence (``No`` vs ``No, there is none.``)."""
    for short, text in ((gold, pred), (pred, gold)):
        a = answer_of(short)
        yn = None if a is None else _YES_NO.get(_text_key(normalize(a)))
        if yn is not None:
            got = _yes_no(normalize(tail(text)).lstrip("*# "))
            if got is not None:
                return got == yn
    return None


@dataclass(frozen=True)
class Verdict:
    equal: bool
    path: str  # "certain", "cache", "symbolic", "timeout", "unavailable", "invalid"

    @property
    def verified(self) -> bool:
        return self.path not in ("timeout", "unavailable")


def compare(gold: str, pred: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> Verdict:
    """Whether ``pred`` equals reference ``gold``, and how that was decided. Never raises; returns
    within ``timeout_s`` (waiting for a worker included); a comparison that could not finish in
    time is not equal with ``path`` ``timeout`` or ``unavailable``."""
    deadline = time.monotonic() + max(0.05, float(timeout_s))
    if not isinstance(gold, str) or not isinstance(pred, str):
        return Verdict(False, "invalid")
    _count("calls")
    key = (gold, pred)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            _stats["cache"] += 1
            return Verdict(hit, "cache")
    if not gold.strip() or not pred.strip():
        _count("certain")
        return Verdict(False, "certain")
    fast = decide_fast(gold, pred)
    if fast is not None:
        _count("certain")
        _remember(key, fast)
        return Verdict(fast, "certain")
    from rewards.bounded import EQUAL, TIMEOUT, UNAVAILABLE, symbolic_compare

    (g, g_sure), (p, p_sure) = _answer_and_trust(gold), _answer_and_trust(pred)
    answer_key = (f"\0{g}", f"\0{p}") if g_sure and p_sure and g is not None and p is not None else None
    if answer_key is not None:  # rollouts that box the same answer in different text
        with _cache_lock:
            hit = _cache.get(answer_key)
            if hit is not None:
                _stats["cache"] += 1
        if hit is not None:
            _remember(key, hit)
            return Verdict(hit, "cache")
    mv_gold, mv_pred = _for_verify(gold, g), _for_verify(pred, p)
    outcome = symbolic_compare(mv_gold, mv_pred, float(timeout_s), deadline)
    if outcome == EQUAL or outcome in (TIMEOUT, UNAVAILABLE):
        result = outcome == EQUAL
    elif g is not None and p is not None and time.monotonic() < deadline:
        ng, np_ = _prepare(g, p)
        alt = (f"${_protect_var(ng, np_)}$", f"${_protect_var(np_, ng)}$")
        if _text_key(alt[0]) != _text_key(mv_gold) or _text_key(alt[1]) != _text_key(mv_pred):
            outcome = symbolic_compare(alt[0], alt[1], float(timeout_s), deadline)
        result = outcome == EQUAL
    else:
        result = False
    if outcome in (TIMEOUT, UNAVAILABLE):
        _count("not_verified")
        return Verdict(False, outcome)
    _count("symbolic")
    _remember(key, result)
    if answer_key is not None:
        _remember(answer_key, result)
    return Verdict(result, "symbolic")


_TRAILING_VAR_RE = re.compile(r"([^a-zA-Z\\{])\s?([a-zA-Z])$")


_MATH_MODE = ("$", "\\(", "\\[", "\\boxed", "\\fbox")


def _for_verify(text: str, answer: str | None) -> str:
    """What math-verify parses: a bare answer in ``$...$`` (its LaTeX extraction needs math mode;
    without it ``2\\sqrt{3}`` reads as ``2``), any other text as it is (its end, squeezed)."""
    if answer is text and not any(m in text for m in _MATH_MODE) and len(text) <= MAX_ANSWER_CHARS:
        return f"${text}$"
    return verify_text(text)


def _protect_var(s: str, other: str) -> str:
    """``... \frac12 m`` -> ``... \frac12{m}`` when ``m`` is a variable of the other side too:
    math-verify's unit normalisation would otherwise drop a trailing ``m`` (metres)."""
    m = _TRAILING_VAR_RE.search(s)
    if m and re.search(rf"(?<![a-zA-Z\\]){m.group(2)}(?![a-zA-Z])", other):
        return f"{s[: m.start(2)]}{{{m.group(2)}}}"
    return s


def _remember(key: tuple[str, str], value: bool) -> None:
    with _cache_lock:
        _cache[key] = value
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def is_equivalent(gold: str, pred: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> bool:
    """Whether answer ``pred`` equals reference answer ``gold`` (see :func:`compare`)."""
    try:
        return compare(gold, pred, timeout_s).equal
    except Exception as exc:  # never let a reward crash the trainer
        log_failure(logger, "is_equivalent failed; counting as not equivalent", exc)
        return False
