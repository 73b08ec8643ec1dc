"""Final-answer extraction and math-answer equivalence.

``extract_answer`` finds the final answer in a solution; ``is_equivalent`` decides whether two
answers are the same. Most pairs are decided by a fast path of plain string work (numbers,
fractions, percentages, sets/tuples/intervals of those, equations ``x=3``, choice letters, text).
Anything else goes to a symbolic comparison (math-verify's LaTeX parser + sympy) in a killable
worker process with a hard wall-clock bound (:mod:`rewards.bounded`); a timeout counts as not
equivalent. Model text is never ``eval``-ed or ``sympify``-ed.

Numeric rule: integers and fractions compare exactly; when either side is a decimal with a
fractional part (``0.3333``, ``1.5e-3``), values match within a relative tolerance of
``NUMERIC_REL_TOL`` (1e-6). A percentage matches its value and its value/100 (``50\\%`` = ``50`` =
``0.5``). The symbolic path uses math-verify's comparison (6 significant digits for floats).
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction

from rewards.const_eval import evaluate_constant

DEFAULT_TIMEOUT_S = 3.0
"""Wall-clock bound for one symbolic comparison (seconds)."""

NUMERIC_REL_TOL = 1e-6
"""Relative tolerance when at least one side is a decimal with a fractional part."""

MAX_ANSWER_CHARS = 2000
"""Answers longer than this (after normalisation) are compared as strings only."""

_CACHE_SIZE = 65536

# --------------------------------------------------------------------------------------------
# Extraction
# --------------------------------------------------------------------------------------------

_THINK_CLOSE = "</think>"
_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![a-zA-Z])")
_HASH_RE = re.compile(r"^[ \t]*####[ \t]*(.+?)[ \t]*$", re.MULTILINE)
_PHRASE_RE = re.compile(
    r"(?:final\s+answer\s*(?:is|was)?\s*[:：]?|the\s+answer\s+is\s*[:：]?)[ \t]*(.+)",
    re.IGNORECASE,
)


def _braced(text: str, start: int) -> tuple[str, int] | None:
    """Content of the brace group opening at ``text[start] == '{'`` and the index after it."""
    depth = 0
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i], i + 1
        i += 1
    return None


_MAX_BOXED_TRIES = 8
_MAX_BOXED_SCAN = 20_000


def _last_boxed(text: str) -> str | None:
    """Content of the last well-formed ``\\boxed``/``\\fbox`` (tries the last few, bounded scans)."""
    starts = [m.end() for m in _BOX_RE.finditer(text)]
    for pos in reversed(starts[-_MAX_BOXED_TRIES:]):
        j = pos
        while j < len(text) and text[j] in " \t":
            j += 1
        if j < len(text) and text[j] == "{":
            got = _braced(text[: j + _MAX_BOXED_SCAN], j)
            if got is not None and got[0].strip():
                return got[0].strip()
        elif j > pos:  # "\\boxed 5": one token up to whitespace or '$'
            m = re.match(r"[^\s$]+", text[j : j + 200])
            if m:
                return m.group(0)
    return None


_PHRASE_LEAD_RE = re.compile(r"^[A-Za-z ,:;\-]*$")
_SENTENCE_END_RE = re.compile(r"[.;]\s|\.$|,\s+(?:which|so|because|since|and|as)\b")


def _clean_phrase(ans: str) -> str:
    """The answer part of an "answer is ..." capture (up to the end of its math or sentence)."""
    ans = ans.strip()
    if not ans.startswith("$"):
        m = _SENTENCE_END_RE.search(ans)
        if m and "$" not in ans[: m.start()]:
            ans = ans[: m.start()]
    if ans.startswith("$"):
        body = ans.lstrip("$")
        end = body.find("$")
        ans = body[:end] if end >= 0 else body
    elif "$" in ans:
        before, _, after = ans.partition("$")
        if _PHRASE_LEAD_RE.match(before):  # "of $6+1=7$": the first math segment
            end = after.find("$")
            ans = after[:end] if end >= 0 else after
        else:  # "r=\\frac{\\pi}{2}$, which ...": the capture began inside math mode
            ans = before
    return re.sub(r"[.。]\s*$", "", ans.strip()).strip()


def extract_answer(text: str) -> str | None:
    """The final answer of a solution, or None.

    Looks only at the text after the last ``</think>`` when there is one. Order: the last
    ``\\boxed{...}`` (nested braces, ``\\boxed x``, ``\\fbox``), else the last ``#### N`` line, else the
    last "the answer is ..." / "final answer: ..." phrase (up to the end of its line).
    """
    if not isinstance(text, str) or not text:
        return None
    cut = text.rfind(_THINK_CLOSE)
    if cut >= 0:
        text = text[cut + len(_THINK_CLOSE) :]
    boxed = _last_boxed(text)
    if boxed is not None:
        return boxed
    hashes = _HASH_RE.findall(text)
    if hashes:
        return _clean_phrase(hashes[-1])
    phrases = _PHRASE_RE.findall(text)
    if phrases:
        ans = _clean_phrase(phrases[-1])
        return ans or None
    return None


# --------------------------------------------------------------------------------------------
# Normalisation
# --------------------------------------------------------------------------------------------

_TEXT_CMD_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|mathrm|mathbf|mbox|operatorname|mathit)\s*\{([^{}]*)\}"
)
_SPACING_RE = re.compile(r"\\[,;:! ]|\\quad|\\qquad|~")
_LEFT_RIGHT_RE = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?![a-zA-Z])")
_DEGREE_RE = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![a-zA-Z])")
_DFRAC_RE = re.compile(r"\\[dt]frac(?![a-zA-Z])")
_THOUSANDS_BRACE_RE = re.compile(r"(\d)\{,\}(\d{3})")
_WS_RE = re.compile(r"\s+")


def _strip_wrappers(s: str) -> str:
    """Remove surrounding ``$..$``, ``\\(..\\)``, ``\\[..\\]`` and whole-string ``\\boxed{..}``."""
    while True:
        t = s.strip()
        if t.startswith("$$") and t.endswith("$$") and len(t) >= 4:
            t = t[2:-2]
        elif t.startswith("$") and t.endswith("$") and len(t) >= 2:
            t = t[1:-1]
        elif (t.startswith("\\(") and t.endswith("\\)")) or (t.startswith("\\[") and t.endswith("\\]")):
            t = t[2:-2]
        else:
            m = _BOX_RE.match(t)
            if m and t[m.end() :].lstrip().startswith("{"):
                j = t.index("{", m.end())
                got = _braced(t, j)
                if got is not None and got[1] == len(t):
                    t = got[0]
        t = t.strip()
        if t == s:
            return t
        s = t


def normalize(ans: str) -> str:
    """Canonical surface form of an answer string (pure string work, no parsing)."""
    s = _strip_wrappers(ans)
    s = (
        s.replace("\u2212", "-")
        .replace("\u2013", "-")
        .replace("\u00d7", "\\times ")
        .replace("\u00b7", "\\cdot ")
    )
    s = s.replace("\\displaystyle", "")
    s = _DFRAC_RE.sub(r"\\frac", s)
    for _ in range(3):
        new = _TEXT_CMD_RE.sub(r"\1", s)
        if new == s:
            break
        s = new
    s = _LEFT_RIGHT_RE.sub("", s)
    s = _DEGREE_RE.sub("", s)
    s = s.replace("\\%", "%").replace("\\$", "").replace("\\!", "")
    s = _THOUSANDS_BRACE_RE.sub(r"\1\2", s)
    s = _SPACING_RE.sub(" ", s)
    s = _WS_RE.sub(" ", s).strip()
    s = re.sub(r"[.。]$", "", s).strip()
    s = _strip_wrappers(s)
    return s


# --------------------------------------------------------------------------------------------
# Fast path: numbers, sequences, choices, text
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Num:
    value: Fraction
    approx: bool  # written as a decimal with a fractional part / scientific notation
    percent: bool


@dataclass(frozen=True)
class _Inf:
    sign: int


@dataclass(frozen=True)
class _Seq:
    open: str  # "(", "[", "{" (set), "" (bare list, order-insensitive)
    close: str
    items: tuple[_Value, ...]


_Value = _Num | _Inf | _Seq

_UNIT_WORDS = (
    "cm|mm|km|m|kg|g|mg|lb|lbs|pounds?|ounces?|oz|inch(?:es)?|in|feet|foot|ft|yards?|yd|miles?|mi|"
    "meters?|metres?|centimeters?|kilometers?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|weeks?|"
    "months?|years?|units?|sq|square|cubic|dollars?|cents?|degrees?|deg|rad|radians?|liters?|litres?|l|ml|"
    "points?|people|persons?|students?|apples?|cookies?|times?|ways?|mph|km/h|m/s"
)
_UNIT_TAIL_RE = re.compile(
    rf"^(.*?[\d}}])\s*(?:(?:{_UNIT_WORDS})(?:\s*\^\s*\{{?[23]\}}?|[23])?\s*)+$", re.IGNORECASE
)
_INT_RE = re.compile(r"^\d+$")
_THOUSANDS_RE = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_DEC_RE = re.compile(r"^(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?$")
_SCI_TIMES_RE = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:\\times|\\cdot|\*|x)\s*10\s*\^\s*\{?\s*([+-]?\d+)\s*\}?$")
_FRAC_RE = re.compile(r"^\\frac\s*(?:\{\s*([+-]?[\d.]+)\s*\}|(\d))\s*(?:\{\s*([+-]?[\d.]+)\s*\}|(\d))$")
_SLASH_RE = re.compile(r"^([\d.]+)\s*/\s*([\d.]+)$")
_MIXED_RE = re.compile(r"^(\d+)\s*(\\frac.*|\d+\s*/\s*\d+)$")
_CHOICE_RE = re.compile(r"^\(?\s*([A-Ea-e])\s*\)?$")
_VAR_LHS_RE = re.compile(r"^\s*(?:[a-zA-Z](?:_\{?\w+\}?)?|\\[a-zA-Z]+(?:_\{?\w+\}?)?)\s*$")
_PLAIN_TEXT_RE = re.compile(r"^[A-Za-z][A-Za-z '\-]*$")
_MAX_DIGITS = 400


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
            return _Num(Fraction(mant) * Fraction(10) ** int(exp), True, False)
        value = Fraction(s)
        frac_part = s.partition(".")[2]
        return _Num(value, bool(frac_part.strip("0")), False)
    m = _SCI_TIMES_RE.match(s)
    if m:
        exp = int(m.group(2))
        if abs(exp) > 400:
            return None
        return _Num(Fraction(m.group(1)) * Fraction(10) ** exp, True, False)
    m = _FRAC_RE.match(s)
    if m:
        num_s = m.group(1) or m.group(2)
        den_s = m.group(3) or m.group(4)
        return _ratio(num_s, den_s)
    m = _SLASH_RE.match(s)
    if m:
        return _ratio(m.group(1), m.group(2))
    m = _MIXED_RE.match(s)
    if m:
        frac = _unsigned_number(m.group(2).strip())
        if frac is not None and 0 < frac.value < 1:
            return _Num(int(m.group(1)) + frac.value, frac.approx, False)
    return None


def _ratio(num_s: str, den_s: str) -> _Num | None:
    num = _unsigned_or_signed(num_s)
    den = _unsigned_or_signed(den_s)
    if num is None or den is None or den.value == 0:
        return None
    return _Num(num.value / den.value, num.approx or den.approx, False)


def _unsigned_or_signed(s: str) -> _Num | None:
    s = s.strip()
    sign = 1
    if s[:1] in "+-":
        sign = -1 if s[0] == "-" else 1
        s = s[1:].strip()
    if not s or not (_DEC_RE.match(s) or _THOUSANDS_RE.match(s)):
        return None
    got = _unsigned_number(s)
    if got is None:
        return None
    return _Num(sign * got.value, got.approx, False)


def _number(s: str) -> _Num | _Inf | None:
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
    if s.startswith("{") and s.endswith("}") and _braced(s, 0) == (s[1:-1], len(s)):
        s = s[1:-1].strip()
    if s in ("\\infty", "\\infinity", "∞", "infinity", "inf") and not percent:
        return _Inf(sign)
    got = _unsigned_number(s)
    if got is None:
        m = _UNIT_TAIL_RE.match(s)
        if m and m.group(1) != s:
            got = _unsigned_number(m.group(1).strip())
    if got is None:
        return None
    return _Num(sign * got.value, got.approx, percent)


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


def _drop_var_lhs(s: str) -> str:
    """``x = 3`` -> ``3`` when the left side is a single variable name."""
    if "=" not in s or any(op in s for op in ("\\le", "\\ge", "<", ">", "\\ne")):
        return s
    if len(_split_top(s)) > 1:  # a list "x=1, y=2": each item is handled on its own
        return s
    lhs, _, rhs = s.rpartition("=")
    first = lhs.split("=")[0]
    if rhs.strip() and _VAR_LHS_RE.match(first):
        return rhs.strip()
    return s


_CHAIN_RE = re.compile(r"=|\\cong(?![a-zA-Z])|\\approx(?![a-zA-Z])|\\equiv(?![a-zA-Z])")


def _chain_tail(s: str) -> str | None:
    """Last side of a prediction written as a chain ``a = b = c`` (three or more sides), or None."""
    if any(op in s for op in ("\\le", "\\ge", "<", ">", "\\ne")):
        return None
    parts = _CHAIN_RE.split(s)
    if len(parts) < 2 or not parts[-1].strip():
        return None
    if len(parts) >= 3 or not re.search(r"[A-Za-z]", parts[0]):  # "a = b = c" or "6+1 = 7"
        return parts[-1].strip()
    return None


def _prepare(gold: str, pred: str) -> tuple[str, str]:
    ng, np_ = normalize(gold), normalize(pred)
    if "=" not in ng and not _CHAIN_RE.search(ng):
        tail = _chain_tail(np_)
        if tail is not None:
            np_ = tail
    return ng, np_


def _value(s: str, depth: int = 0) -> _Value | None:
    """Parse a normalised answer into a fast-path value, or None if it needs the slow path."""
    if depth > 3 or not s:
        return None
    s = _drop_var_lhs(s.strip())
    num = _number(s)
    if num is not None:
        return num
    opener, closer, inner = "", "", s
    if s.startswith("\\{") and s.endswith("\\}"):
        opener, closer, inner = "{", "}", s[2:-2]
    elif len(s) >= 2 and s[0] in "([" and s[-1] in ")]":
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
    if opener in "({[" and opener != "{" and len(items) == 1 and isinstance(items[0], _Num):
        # "(5)" is just 5
        return items[0]
    return _Seq(opener, closer, tuple(items))


def _num_candidates(n: _Num) -> tuple[Fraction, ...]:
    return (n.value, n.value / 100) if n.percent else (n.value,)


def _close(a: Fraction, b: Fraction, approx: bool) -> bool:
    if a == b:
        return True
    if not approx:
        return False
    scale = max(abs(a), abs(b))
    return abs(a - b) <= Fraction(NUMERIC_REL_TOL) * scale


def _values_equal(a: _Value, b: _Value) -> bool:
    if isinstance(a, _Num) and isinstance(b, _Num):
        approx = a.approx or b.approx
        return any(_close(x, y, approx) for x in _num_candidates(a) for y in _num_candidates(b))
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
        if "" not in (a.open, b.open) and (a.open, a.close) != (b.open, b.close):
            return False  # a bare list "1, 2" may match a tuple "(1, 2)" in order
        if "{" in (a.open, b.open):
            return False  # a set is not a tuple or an interval
        return all(_values_equal(x, y) for x, y in zip(a.items, b.items, strict=True))
    return False


def _text_key(s: str) -> str:
    return _WS_RE.sub("", s).lower()


_COMMAND_RE = re.compile(r"\\[a-zA-Z]+")


def _free_letters(s: str) -> bool:
    """Whether ``s`` has a letter outside LaTeX command names other than the constant ``e``."""
    return bool(re.search(r"[a-df-zA-Z]", _COMMAND_RE.sub(" ", s)))


def _constant(s: str, parsed: _Value | None) -> tuple[Fraction | float, ...] | None:
    """Candidate numeric values of a closed-form constant answer, or None."""
    if isinstance(parsed, _Num):
        return _num_candidates(parsed)
    if parsed is not None:
        return None
    value = evaluate_constant(_drop_var_lhs(s))
    return None if value is None else (value,)


_RELATION_RE = re.compile(
    r"[<>=]|\\[lg]eq?(?![a-zA-Z])|\\ne(?![a-zA-Z])|\\in(?![a-zA-Z])|\\cup|\\cap|\\pm|\\mp|,"
)


def _constant_like(s: str, value: tuple[Fraction | float, ...] | None) -> bool:
    """A single closed-form number: evaluated, or free of variables, relations and lists."""
    return value is not None or not (_free_letters(s) or _RELATION_RE.search(s) or "\\{" in s)


def _fast_compare(gold: str, pred: str) -> bool | None:
    """True/False when the fast path can decide, None when the symbolic path must."""
    if _text_key(gold) == _text_key(pred):
        return True
    mg = _CHOICE_RE.match(gold)
    if mg:
        mp = _CHOICE_RE.match(pred)
        if mp:
            return mg.group(1).upper() == mp.group(1).upper()
    vg = _value(gold)
    vp = _value(pred)
    if vg is not None and vp is not None:
        return _values_equal(vg, vp)
    if _PLAIN_TEXT_RE.match(gold) and _PLAIN_TEXT_RE.match(pred):
        return False  # two different plain words/phrases
    cg = _constant(gold, vg)
    cp = _constant(pred, vp)
    if cg is not None and cp is not None:
        rel = NUMERIC_REL_TOL if ("." in gold or "." in pred) else 1e-9
        return any(math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-12) for a in cg for b in cp)
    if (_constant_like(gold, cg) and _free_letters(pred) and "=" not in pred) or (
        _constant_like(pred, cp) and _free_letters(gold) and "=" not in gold
    ):
        return False  # a number against an expression in a variable
    if isinstance(vg, _Num) and not _needs_symbolic(pred):
        return False
    return None


_SYMBOLIC_HINT_RE = re.compile(r"\\[a-zA-Z]+|[\^_/*+()=<>\[\]{}]|\d\s*[a-zA-Z]|[a-zA-Z]\s*\d|^[a-zA-Z]$|-")


def _needs_symbolic(s: str) -> bool:
    """Whether a string could be a math expression that the symbolic path might equate."""
    return bool(_SYMBOLIC_HINT_RE.search(s))


# --------------------------------------------------------------------------------------------
# Public comparison
# --------------------------------------------------------------------------------------------

_cache: OrderedDict[tuple[str, str], bool] = OrderedDict()
_cache_lock = threading.Lock()
_stats = {"calls": 0, "slow": 0}


def _cached(key: tuple[str, str]) -> bool | None:
    with _cache_lock:
        got = _cache.get(key)
        if got is not None:
            _cache.move_to_end(key)
        return got


def _remember(key: tuple[str, str], value: bool) -> None:
    with _cache_lock:
        _cache[key] = value
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def slow_path_stats() -> dict[str, int]:
    """Counters since start: ``calls`` to is_equivalent and how many reached the ``slow`` path."""
    with _cache_lock:
        return dict(_stats)


def decide_fast(gold: str, pred: str) -> bool | None:
    """The fast-path verdict for two raw answers, or None if the symbolic path is needed."""
    if len(gold) > 4 * MAX_ANSWER_CHARS or len(pred) > 4 * MAX_ANSWER_CHARS:
        return _text_key(gold) == _text_key(pred)
    ng, np_ = _prepare(gold, pred)
    if not ng or not np_:
        return False
    return _fast_compare(ng, np_)


def is_equivalent(gold: str, pred: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> bool:
    """Whether answer ``pred`` equals reference answer ``gold``.

    Both may carry ``$..$``, ``\\(..\\)``, ``\\[..\\]``, ``\\boxed{}``, ``\\text{}``, units, ``^\\circ``,
    ``%`` and thousands separators. Never raises; a symbolic comparison that exceeds ``timeout_s``
    seconds of wall-clock time counts as not equivalent.
    """
    try:
        if not isinstance(gold, str) or not isinstance(pred, str):
            return False
        timeout_s = max(float(timeout_s), 0.05)
        if len(gold) > 4 * MAX_ANSWER_CHARS or len(pred) > 4 * MAX_ANSWER_CHARS:
            return _text_key(gold) == _text_key(pred)
        ng, np_ = _prepare(gold, pred)
        with _cache_lock:
            _stats["calls"] += 1
        if not ng or not np_:
            return False
        if len(ng) > MAX_ANSWER_CHARS or len(np_) > MAX_ANSWER_CHARS:
            return _text_key(ng) == _text_key(np_)
        fast = _fast_compare(ng, np_)
        if fast is not None:
            return fast
        key = (ng, np_)
        hit = _cached(key)
        if hit is not None:
            return hit
        with _cache_lock:
            _stats["slow"] += 1
        from rewards.bounded import symbolic_equal

        result = symbolic_equal(ng, np_, timeout_s)
        _remember(key, result)
        return result
    except Exception:  # never let a reward crash the trainer
        import logging

        logging.getLogger(__name__).exception("is_equivalent failed; counting as not equivalent")
        return False
