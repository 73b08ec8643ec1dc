"""Phi-4-reasoning length-aware reward (Abdin et al., arXiv 2504.21318, section 4).

``final = w_acc * R_acc + w_rep * R_rep`` with ``w_acc = 8/13``, ``w_rep = 1/13``.

``R_acc`` (length-aware accuracy), ``L`` = the response's length in tokens:

- incomplete (hit the length limit without EOS): ``-0.5`` - checked before the format;
- format violation (no ``<think>...</think>``, ``</think>`` before ``<think>``, or more than one of
  either tag): ``-1.0``;
- correct: ``1.0`` up to ``L_pos_control = 25600`` tokens, then a cosine down to ``0.5`` at
  ``L_max = 31744``: ``R = r_min + (r_max - r_min) * (1 + cos(pi * rho)) / 2``,
  ``rho = clip((L - L_pos_control) / (L_max - L_pos_control), 0, 1)``;
- incorrect: ``-1.0`` at ``L = 0``, a cosine up to ``-0.5`` at ``L_neg_control = 3702`` and beyond:
  ``R = r_max + (r_min - r_max) * (1 + cos(pi * rho)) / 2``, ``rho = clip(L / L_neg_control, 0, 1)``.

The answer is graded from the text after the last ``</think>`` against ``ground_truth`` with
:func:`rewards.equivalence.is_equivalent`.

``R_rep`` (repetition penalty) over lowercase ``\\w+`` words and their 5-grams:
``R_rep = -max(n_frequent / n_ngrams, top / (n_words / 5))`` where ``n_frequent`` is the number of
distinct 5-grams seen more than 5 times and ``top`` the highest 5-gram count (that term only when
``top >= 5``); clipped to ``[-1, 0]``; exactly 0 with no repetition or fewer than 5 words
(:mod:`rewards.repetition`, without a Python loop over the words).

So ``score`` lies in ``[-9/13, 8/13]`` with the default weights. Every constant is overridable
through ``reward.custom_reward_function.reward_kwargs`` (keys: ``l_max, l_pos_control,
l_neg_control, r_correct_max, r_correct_min, r_incorrect_max, r_incorrect_min,
incomplete_score, format_violation_score, w_acc, w_rep, ngram_size, ngram_max_count,
chars_per_token``).

``L`` and truncation come from ``extra_info["response_length"]`` / ``extra_info["truncated"]``,
which :class:`rewards.manager.LengthAwareRewardManager` supplies. Without them (another reward
manager), ``L`` is estimated as ``ceil(len(solution_str) / chars_per_token)`` (default 3.5) and the
response counts as incomplete only if the estimate reaches ``l_max``; this is logged once.
"""

from __future__ import annotations

import logging
import math
import sys
import threading
from pathlib import Path
from typing import Any

if __name__.partition(".")[0] != "rewards":  # loaded by file path (verl's load_extern_object)
    _root = str(Path(__file__).resolve().parents[1])
    if _root not in sys.path:
        sys.path.insert(0, _root)

from rewards.equivalence import DEFAULT_TIMEOUT_S, compare, extract_answer
from rewards.failures import log_failure
from rewards.repetition import repetition_penalty

logger = logging.getLogger(__name__)

DEFAULTS: dict[str, float] = {
    "l_max": 31744,
    "l_pos_control": 25600,
    "l_neg_control": 3702,
    "r_correct_max": 1.0,
    "r_correct_min": 0.5,
    "r_incorrect_max": -0.5,
    "r_incorrect_min": -1.0,
    "incomplete_score": -0.5,
    "format_violation_score": -1.0,
    "w_acc": 8 / 13,
    "w_rep": 1 / 13,
    "ngram_size": 5,
    "ngram_max_count": 5,
    "chars_per_token": 3.5,
}

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"
_warned_lock = threading.Lock()
_warned = {"estimate": False}


def length_aware_accuracy(correct: bool, length: int, params: dict[str, float] | None = None) -> float:
    """``R_acc`` for a complete, well-formed response of ``length`` tokens."""
    p = DEFAULTS if params is None else params
    length = max(0, int(length))
    if correct:
        span = p["l_max"] - p["l_pos_control"]
        rho = (
            min(1.0, max(0.0, (length - p["l_pos_control"]) / span))
            if span > 0
            else float(length > p["l_max"])
        )
        lo, hi = p["r_correct_min"], p["r_correct_max"]
        return lo + (hi - lo) * 0.5 * (1.0 + math.cos(math.pi * rho))
    rho = min(1.0, length / p["l_neg_control"]) if p["l_neg_control"] > 0 else 1.0
    hi, lo = p["r_incorrect_max"], p["r_incorrect_min"]
    return hi + (lo - hi) * 0.5 * (1.0 + math.cos(math.pi * rho))


_OTHER_TAGS_CHECKED = 16  # '<' looked at one by one before format_ok counts the tags instead


def format_ok(text: str) -> bool:
    """Exactly one ``<think>`` and one ``</think>``, in that order.

    Usually a skim over the text at memchr speed: a ``<think>`` found from the start and a
    ``</think>`` found from the end after it are the only tags when no other ``<`` starts one. A
    response with many ``<`` (inequalities) has its tags counted instead."""
    i = text.find(THINK_OPEN)
    if i < 0:
        return False
    j = text.rfind(THINK_CLOSE)
    if j < i:
        return False
    at = text.find("<")
    for _ in range(_OTHER_TAGS_CHECKED):
        if at < 0:
            return True
        if at not in (i, j) and text.startswith(("<think>", "</think>"), at):
            return False
        at = text.find("<", at + 1)
    return text.count(THINK_OPEN) == 1 and text.count(THINK_CLOSE) == 1


_KNOWN_EXTRA = frozenset({"timeout_s", "reward_router_address", "reward_model_tokenizer"})
_INT_KEYS = frozenset({"ngram_size", "ngram_max_count"})
_POSITIVE_KEYS = frozenset({"l_max", "chars_per_token", "ngram_size"})
_params_cache: dict[tuple[tuple[str, str], ...], dict[str, float] | ValueError] = {}


def validate_reward_kwargs(kwargs: dict[str, Any]) -> dict[str, float]:
    """The reward's parameters from ``reward_kwargs``; ValueError naming the bad key and the fix.

    :class:`rewards.manager.LengthAwareRewardManager` calls this once when verl builds it, so a
    typo stops the run at start-up instead of scoring every sample wrong.
    """
    params = dict(DEFAULTS)
    for key, value in kwargs.items():
        if key in params:
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ValueError(
                    f"phi4 reward_kwargs.{key}={value!r}: expected a number (default {DEFAULTS[key]})"
                )
            try:
                number = float(value)
            except ValueError:
                raise ValueError(
                    f"phi4 reward_kwargs.{key}={value!r}: expected a number (default {DEFAULTS[key]})"
                ) from None
            if not math.isfinite(number):
                raise ValueError(f"phi4 reward_kwargs.{key}={value!r}: expected a finite number")
            if key in _INT_KEYS and (number != int(number) or number < 1):
                raise ValueError(f"phi4 reward_kwargs.{key}={value!r}: expected a positive integer")
            if key in _POSITIVE_KEYS and number <= 0:
                raise ValueError(f"phi4 reward_kwargs.{key}={value!r}: expected a positive number")
            params[key] = number
        elif key == "timeout_s":
            from rewards import check_timeout

            params["timeout_s"] = check_timeout(value, "timeout_s")
        elif key not in _KNOWN_EXTRA:
            with _warned_lock:
                if key not in _warned_keys:
                    _warned_keys.add(key)
                    logger.warning(
                        "phi4 reward: ignoring unknown reward_kwargs key %r (known: %s)",
                        key,
                        ", ".join(sorted(DEFAULTS) + ["timeout_s"]),
                    )
    params.setdefault("timeout_s", DEFAULT_TIMEOUT_S)
    return params


_warned_keys: set[str] = set()


def _params(kwargs: dict[str, Any]) -> dict[str, float]:
    """Validated parameters, computed once per distinct ``reward_kwargs`` (not per sample)."""
    key = tuple(sorted((k, repr(v)) for k, v in kwargs.items() if k not in _KNOWN_EXTRA or k == "timeout_s"))
    got = _params_cache.get(key)
    if got is None:
        try:
            got = validate_reward_kwargs(kwargs)
        except ValueError as exc:
            logger.error("%s; every sample scores as a format violation until it is fixed", exc)
            got = exc
        if len(_params_cache) < 64:
            _params_cache[key] = got
    if isinstance(got, ValueError):
        raise got
    return got


def _length_and_truncation(text: str, extra_info: Any, params: dict[str, float]) -> tuple[int, bool, str]:
    info = extra_info if isinstance(extra_info, dict) else {}
    length = info.get("response_length")
    if isinstance(length, int | float) and not isinstance(length, bool) and length >= 0:
        return int(length), bool(info.get("truncated", False)), "manager"
    with _warned_lock:
        if not _warned["estimate"]:
            _warned["estimate"] = True
            logger.warning(
                "phi4 reward: extra_info has no 'response_length'/'truncated' (use "
                "reward.reward_manager.name=LengthAwareRewardManager); estimating the length as "
                "len(text)/%.1f characters per token and truncation as length >= l_max",
                params["chars_per_token"],
            )
    estimate = math.ceil(len(text) / params["chars_per_token"])
    return estimate, estimate >= params["l_max"], "estimate"


def compute_score(
    data_source: Any,
    solution_str: Any,
    ground_truth: Any,
    extra_info: Any = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """The Phi-4-reasoning reward; returns ``score, acc, pred`` and the parts (never raises)."""
    try:
        params = _params(kwargs)
    except Exception as exc:  # logged once by _params; never raised per sample
        return {
            "score": float(DEFAULTS["w_acc"] * DEFAULTS["format_violation_score"]),
            "acc": 0,
            "pred": "",
            "acc_score": DEFAULTS["format_violation_score"],
            "rep_score": 0.0,
            "response_length": 0,
            "truncated": 0,
            "format_ok": 0,
            "verified": 0,
            "status": f"bad reward_kwargs: {exc}",
        }
    timeout_s = params["timeout_s"]
    result: dict[str, Any] = {
        "score": 0.0,
        "acc": 0,
        "pred": "",
        "acc_score": params["format_violation_score"],
        "rep_score": 0.0,
        "response_length": 0,
        "truncated": 0,
        "format_ok": 0,
        "verified": 1,
        "status": "",
    }
    try:
        text = solution_str if isinstance(solution_str, str) else ""
        length, truncated, _source = _length_and_truncation(text, extra_info, params)
        result["response_length"] = length
        result["truncated"] = int(truncated)
        rep = repetition_penalty(text, int(params["ngram_size"]), int(params["ngram_max_count"]))
        result["rep_score"] = rep
        if truncated:
            acc_score = params["incomplete_score"]
        elif not format_ok(text):
            acc_score = params["format_violation_score"]
        else:
            result["format_ok"] = 1
            answer_text = text[text.rindex(THINK_CLOSE) + len(THINK_CLOSE) :]
            pred = extract_answer(answer_text)
            correct = False
            gold = ground_truth if isinstance(ground_truth, str) else None
            if isinstance(ground_truth, int | float) and not isinstance(ground_truth, bool):
                gold = repr(ground_truth) if abs(ground_truth) < 1e300 else None
            if gold is not None and answer_text.strip():
                verdict = compare(gold, answer_text, timeout_s)
                correct = verdict.equal
                result["verified"] = int(verdict.verified)
                result["status"] = verdict.path
            result["pred"] = pred or ""
            result["acc"] = int(correct)
            acc_score = length_aware_accuracy(correct, length, params)
        result["acc_score"] = acc_score
        result["score"] = float(params["w_acc"] * acc_score + params["w_rep"] * rep)
    except Exception as exc:  # a reward must never crash the trainer
        log_failure(logger, "phi4 compute_score failed; scoring as a format violation", exc)
        result["score"] = float(params["w_acc"] * params["format_violation_score"])
    return result
