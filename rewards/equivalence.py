"""Math-answer equivalence: a certain fast path, then math-verify in bounded workers.

``is_equivalent(gold, pred)`` accepts either side as a bare answer (``3/4``, ``x=2``) or as text
that contains one (a sentence, a solution with ``\\boxed{}``, ``$...$``). The **certain path**
answers only when its answer is provable: exact arithmetic on both sides (Python ints and
``fractions.Fraction``, see :mod:`rewards.const_eval`), a structural match of sets/tuples/intervals
of such numbers, identical normalised text, choice letters, yes/no words. Anything else goes to
math-verify's ``parse`` + ``verify`` in a killable worker process (:mod:`rewards.bounded`), so the
verdict is never worse than math-verify's own; the project's rules (units, percent words,
currency, decimal comma, labelled values, inequalities as intervals, ordinals, yes/no in
sentences) add on top, and letters that differ only in case are different variables
(:mod:`rewards.letter_case`; math-verify reads them all in lowercase). Model text is never ``eval``-ed or ``sympify``-ed here.

Numeric rule (see docs/rewards.md): integers and fractions compare exactly. A decimal written with
a fractional part (``0.33``) is a rounded value. A decimal and an exact value (``\\frac13``,
``\\pi``, ``2^{32}``), whichever is the reference, match only when the decimal has six decimals or
more and is the exact value rounded to them (a reference may also be it truncated):
``0.333333`` for ``\\frac13``, ``0.707107`` for ``\\frac{\\sqrt2}2``; never ``0.33`` or ``0.333``
for ``\\frac13``, ``3.14159`` for ``\\pi``. A shorter decimal matches an exact value it equals
(``0.5`` for ``\\frac12``). Two decimals match when equal, or when the shorter (2+ places, 5+
significant digits) is the longer rounded or cut to its places (``3.1416`` and ``3.14159``).

Where the rules live: :mod:`rewards.certain_path` (the rule chain, :func:`decide_fast`),
:mod:`rewards.answer_text` (normalisation), :mod:`rewards.exact_numbers` and
:mod:`rewards.answer_values` (numbers and structures of them), :mod:`rewards.expressions`,
:mod:`rewards.equations` and :mod:`rewards.named_values`; the workers in :mod:`rewards.bounded`.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from rewards.angles import degrees_as_radians
from rewards.answer_text import (
    COMMAND_RE,
    MAX_ANSWER_CHARS,
    TEXT_CMD_RE,
    decorations_removed,
    greek_variants_as_plain,
    in_math_mode,
    juxtaposed_numbers,
    layout_removed,
    markdown_bold_removed,
    normalize,
    plain_vector_letters,
    prose_words,
    text_key,
    undouble_backslashes,
    unicode_scripts_as_latex,
    zero_subscripts_as_latex,
)
from rewards.answer_values import inequality_list_latex
from rewards.binomial_products import binomials_after_numbers_multiplied
from rewards.certain_path import answer_and_trust, decide_fast, decide_or_apart, prepare_pair
from rewards.chinese_numerals import chinese_numerals_written_out
from rewards.domain_clauses import formulas_without_domains
from rewards.extract import _BOX_RE, extract_answer, verify_text
from rewards.failures import log_failure
from rewards.fraction_coefficients import fraction_coefficients_written_out
from rewards.fullwidth_forms import fullwidth_as_ascii
from rewards.glued_functions import glued_functions_written_out
from rewards.index_sets import index_sets_written_out
from rewards.labelled_forms import labelled_forms_written_out
from rewards.letter_case import differ_only_in_case
from rewards.log_of_power import log_of_power_written_out
from rewards.matrix_forms import matrix_forms_written_out
from rewards.named_results import ResultPair, result_pairs
from rewards.parameter_families import renamed_bodies
from rewards.plain_syntax import is_known_name, plain_to_latex
from rewards.set_algebra import set_algebra_written_out
from rewards.set_words import plain_set_spellings
from rewards.sympy_sets import sympy_sets_written_out

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "_BOX_RE",
    "compare",
    "decide_fast",
    "extract_answer",
    "is_equivalent",
    "normalize",
    "path_stats",
    "undouble_backslashes",
]

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 3.0
"""Wall-clock bound for one comparison, waiting for a worker included (seconds)."""

SYMBOLIC_WORK_S = 2.0
"""Most time a worker spends on one reading of a pair (seconds; the wait for a worker is not
counted); ``REWARDS_SYMBOLIC_WORK_S`` overrides it. Over 21,988 held-out pairs, every pair the
symbolic path credited rightly took under 0.5 s, while the 131 pairs that took longer held 57 % of
all the time and were never credited rightly: a longer comparison is not verified (``timeout``).
Not 1 s: an 800-term binomial sum written out (a test of this project) takes up to 1 s on 2 cores."""

_CACHE_SIZE = 65536


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
    gold, pred = _written_out(gold), _written_out(pred)
    results = result_pairs(gold, pred)  # "mean: 3.5, sd: 1.2" answered "@sd[1.2] @mean[3.5]"
    if results is not None:
        by_name = _by_named_results(results, deadline)
        if by_name is not None:
            _remember(key, by_name.equal)
            return by_name
    renamed = _first_equal(key, renamed_bodies(gold, pred), deadline)  # one family, parameters renamed
    if renamed is not None:
        return renamed
    fast, apart = decide_or_apart(gold, pred)
    if fast is not None:
        _count("certain")
        _remember(key, fast)
        return Verdict(fast, "certain")
    from rewards.bounded import EQUAL, TIMEOUT, UNAVAILABLE, symbolic_compare

    (g, g_sure), (p, p_sure) = answer_and_trust(gold), answer_and_trust(pred)
    answer_key = (f"\0{g}", f"\0{p}") if g_sure and p_sure and g is not None and p is not None else None
    if answer_key is not None:  # rollouts that box the same answer in different text
        with _cache_lock:
            hit = _cache.get(answer_key)
            if hit is not None:
                _stats["cache"] += 1
        if hit is not None:
            _remember(key, hit)
            return Verdict(hit, "cache")
    formulas = formulas_without_domains(gold if g is None else g, pred if p is None else p)
    formula = _first_equal(key, [] if formulas is None else [formulas], deadline)  # "2^n - 1 for n \\ge 1"
    if formula is not None:
        return formula
    mv_gold, mv_pred = _for_verify(gold, g), _for_verify(pred, p)
    work_s = symbolic_work_s()
    outcome = symbolic_compare(mv_gold, mv_pred, float(timeout_s), deadline, work_s)
    if outcome == EQUAL or outcome in (TIMEOUT, UNAVAILABLE):
        result = outcome == EQUAL
    elif apart:
        result = False  # the answers read differ for certain: math-verify given them would refuse
    elif g is not None and p is not None and time.monotonic() < deadline:
        ng, np_ = prepare_pair(degrees_as_radians(g), degrees_as_radians(p))  # cos 60° as cos(pi/3)
        ng, np_ = inequality_list_latex(ng) or ng, inequality_list_latex(np_) or np_  # x<-√2, √2<x
        alt = (in_math_mode(_protect_var(ng, np_)), in_math_mode(_protect_var(np_, ng)))
        if _two_numbers_as_one(ng, np_):
            pass  # "Final answer: x=0 42": math-verify's own reading (above) decides
        elif _prose(ng) or _prose(np_):
            pass  # in math mode its words are a product of letters: 5 s of sympy, no answer
        elif text_key(alt[0]) != text_key(mv_gold) or text_key(alt[1]) != text_key(mv_pred):
            outcome = symbolic_compare(alt[0], alt[1], float(timeout_s), deadline, work_s)
        result = outcome == EQUAL
    else:
        result = False
    if result and g_sure and p_sure and g is not None and p is not None and differ_only_in_case(g, p):
        result = False  # "2X" against "2x": math-verify reads every letter in lowercase
    if outcome in (TIMEOUT, UNAVAILABLE):
        _count("not_verified")
        return Verdict(False, outcome)
    _count("symbolic")
    _remember(key, result)
    if answer_key is not None:
        _remember(answer_key, result)
    return Verdict(result, "symbolic")


def _left(deadline: float) -> float:
    """The time left to a comparison made on the way to another one."""
    return max(0.05, deadline - time.monotonic())


def _first_equal(key: tuple[str, str], readings: list[tuple[str, str]], deadline: float) -> Verdict | None:
    """The verdict of the first of ``readings`` (other readings of the pair ``key``) found equal,
    remembered for ``key``; None when none is (the pair goes on to the other rules)."""
    for gold, pred in readings:
        same = compare(gold, pred, _left(deadline))
        if same.equal:
            _remember(key, True)
            return same
    return None


def _by_named_results(results: list[ResultPair], deadline: float) -> Verdict | None:
    """Equal when the response states every named result of the reference, each equal to it;
    different when a value it states firmly differs (:mod:`rewards.named_results`); else None."""
    verdicts = []
    for result in results:
        if result.pred is None:
            continue
        same = compare(result.gold, result.pred, _left(deadline))
        if not same.equal and result.firm and same.verified:
            return Verdict(False, same.path)
        verdicts.append(same)
    if len(verdicts) == len(results) and all(v.equal for v in verdicts):
        sure = all(v.path in ("certain", "cache") for v in verdicts)
        return Verdict(True, "certain" if sure else "symbolic")
    return None


def symbolic_work_s() -> float:
    """:data:`SYMBOLIC_WORK_S`, or ``REWARDS_SYMBOLIC_WORK_S`` when that is a positive number."""
    raw = os.environ.get("REWARDS_SYMBOLIC_WORK_S")
    return SYMBOLIC_WORK_S if raw is None else _work_s_from(raw)


@functools.lru_cache(maxsize=8)
def _work_s_from(raw: str) -> float:
    """The setting's value; read once per distinct text, so a bad one is logged once, not per pair."""
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        logger.warning(
            "REWARDS_SYMBOLIC_WORK_S=%r is not a positive number of seconds; using %s", raw, SYMBOLIC_WORK_S
        )
        return SYMBOLIC_WORK_S
    return value


def _written_out(text: str) -> str:
    """What both readers compare: paragraph layout (``\\noindent``, a closing ``\\\\``),
    decorations, markdown bold and vector arrows removed; numbered parts, a named point, a map and
    a sign in words as their values (:mod:`rewards.labelled_forms`); sets as sympy prints them as
    intervals and sets (:mod:`rewards.sympy_sets`); a set given by an index, a diagonal matrix, a
    transposed tuple, a plain-text interval union and operations on finite sets of numbers written
    out; ``+/-`` as ``\\pm``; ``\\ln(e^{x})`` as ``(x)``; ``1/2\\sqrt3`` as ``\\frac{1}{2}\\sqrt3``;
    ``50\\binom{10}{5}`` as a product; a whole answer in Chinese numerals in digits; fullwidth forms
    in ASCII (``２ｘ``); Unicode powers and subscripts in LaTeX (``a²``); ``v0`` as ``v_{0}``; a
    function glued to its argument spaced (``sinx``); ``\\varepsilon`` as ``\\epsilon``."""
    text = layout_removed(text)  # "16 \\\\ \\noindent": a page's layout
    text = labelled_forms_written_out(fullwidth_as_ascii(text))  # "(1) 270; (2) 5600", "P(3, -2)"
    text = sympy_sets_written_out(text)  # "Union(Interval(-oo, 2), Interval.open(3, oo))"
    text = plain_vector_letters(markdown_bold_removed(decorations_removed(text)))
    text = greek_variants_as_plain(text)
    text = zero_subscripts_as_latex(unicode_scripts_as_latex(text))
    text = glued_functions_written_out(text)
    text = fraction_coefficients_written_out(chinese_numerals_written_out(text))
    text = binomials_after_numbers_multiplied(text)
    text = matrix_forms_written_out(index_sets_written_out(text))
    return log_of_power_written_out(set_algebra_written_out(plain_set_spellings(text)))


def _prose(answer: str) -> bool:
    """Whether a normalised answer holds two words or more (``f(m) = km for any positive integer
    constant k``, from ``\\text{}``)."""
    return prose_words(COMMAND_RE.sub(" ", answer)) >= 2


_TRAILING_VAR_RE = re.compile(r"([^a-zA-Z\\{])\s?([a-zA-Z])$")


_MATH_MODE = ("$", "\\(", "\\[", "\\boxed", "\\fbox")


def _for_verify(text: str, answer: str | None) -> str:
    """What math-verify parses: a bare answer in ``$...$`` (its LaTeX extraction needs math mode;
    without it ``2\\sqrt{3}`` reads as ``2``; a currency sign ``\\$`` does not open it), any other
    text as it is (its end, squeezed)."""
    if answer is text and len(text) <= MAX_ANSWER_CHARS:
        unescaped = text.replace("\\$", "")  # a currency sign
        if not any(m in unescaped for m in _MATH_MODE) and not _has_plain_word(text):
            return in_math_mode(
                _braced_last_factor(plain_to_latex(text) or text)
            )  # "pi/4" as \pi /4, not p i/4
    return verify_text(text)  # prose, and a bare answer with a word ("Therefore 0.5"): in math mode, letters


_PLAIN_WORD_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}(?![A-Za-z])")


_OPERATOR_RE = re.compile(r"[+*/^=<>]|\s-\s")


def _has_plain_word(text: str) -> bool:
    """Whether a bare answer without operators has a word of four letters or more outside
    ``\\text{}`` that no calculator syntax names (``Therefore 0.5``, ``5, obviously``; not
    ``sqrt``, ``theta``, ``infinity``, nor ``2as + 4for + is + print``, a sum of products)."""
    outside = TEXT_CMD_RE.sub(" ", text)
    if _OPERATOR_RE.search(outside):
        return False
    return any(not is_known_name(w) for w in _PLAIN_WORD_RE.findall(outside))


_LAST_FACTOR_RE = re.compile(r"(\\cdot|\\times)\s*([A-Za-z])\s*$")


def _braced_last_factor(latex: str) -> str:
    """``a \\cdot t`` -> ``a \\cdot {t}``: math-verify drops a last letter that names a unit (t, s,
    m, g, h, c, d, l), and ``a \\cdot`` then does not parse (``v*t`` read as nothing, ``3*g`` as 3).
    After an explicit product sign the letter is a factor."""
    return _LAST_FACTOR_RE.sub(r"\1{\2}", latex)


def _two_numbers_as_one(gold: str, pred: str) -> bool:
    """Whether the prepared prediction has two numbers side by side (``0 42``) and the reference
    does not: sent alone in math mode, math-verify would read them as one mixed number."""
    return juxtaposed_numbers(pred) and not juxtaposed_numbers(gold)


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
