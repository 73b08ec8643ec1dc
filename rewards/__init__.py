"""verl-compatible reward functions for math RL.

``compute_score`` here dispatches on ``data_source`` so one ``reward.custom_reward_function.path``
serves mixed datasets: GSM8K sources go to :mod:`rewards.gsm8k`; every other source (Omni-MATH,
MATH, any JSONL math set) gets 0/1 accuracy from :func:`rewards.equivalence.is_equivalent` on the
extracted final answer. The Phi-4-reasoning length-aware reward is :mod:`rewards.phi4` and the
verl reward manager that gives it token lengths is :mod:`rewards.manager` (not imported here, it
needs verl).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

if __name__.partition(".")[0] != "rewards":  # loaded by file path (verl's load_extern_object)
    _root = str(Path(__file__).resolve().parents[1])
    if _root not in sys.path:
        sys.path.insert(0, _root)

__all__ = ["GSM8K_SOURCES", "check_timeout", "compute_score", "math_compute_score"]

GSM8K_SOURCES = frozenset({"openai/gsm8k", "gsm8k"})
"""``data_source`` values scored by :mod:`rewards.gsm8k` (case-insensitive)."""

logger = logging.getLogger(__name__)


def check_timeout(value: Any, key: str = "timeout_s") -> float:
    """A positive finite number of seconds, or ValueError naming ``key`` and the fix."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"reward_kwargs.{key}={value!r}: expected a positive number of seconds, e.g. 3")
    try:
        out = float(value)
    except ValueError:
        raise ValueError(
            f"reward_kwargs.{key}={value!r}: expected a positive number of seconds, e.g. 3"
        ) from None
    if not (0 < out < 1e6):
        raise ValueError(f"reward_kwargs.{key}={value!r}: expected a positive number of seconds, e.g. 3")
    return out


def _empty(status: str) -> dict[str, Any]:
    return {"score": 0.0, "acc": 0, "pred": "", "verified": 0, "status": status}


def math_compute_score(
    data_source: Any,
    solution_str: Any,
    ground_truth: Any,
    extra_info: Any = None,
    timeout_s: Any = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """0/1 accuracy of the final answer; ``verified`` is 0 when the comparison could not finish
    within ``timeout_s`` (``status`` says ``timeout`` or ``unavailable``)."""
    from rewards.equivalence import DEFAULT_TIMEOUT_S, compare, extract_answer

    try:
        bound = check_timeout(DEFAULT_TIMEOUT_S if timeout_s is None else timeout_s)
    except ValueError as exc:
        _log_once(str(exc))
        return _empty("bad reward_kwargs: " + str(exc))
    try:
        if not isinstance(solution_str, str):
            return _empty("no response text")
        if isinstance(ground_truth, bool) or not isinstance(ground_truth, str | int | float):
            return _empty("no ground truth")
        gold = ground_truth if isinstance(ground_truth, str) else _number_text(ground_truth)
        verdict = compare(gold, solution_str, bound)
        pred = extract_answer(solution_str) or ""
        return {
            "score": float(verdict.equal),
            "acc": int(verdict.equal),
            "pred": pred,
            "verified": int(verdict.verified),
            "status": verdict.path,
        }
    except Exception as exc:  # a reward must never crash the trainer
        from rewards.failures import log_failure

        log_failure(logger, "math compute_score failed; scoring 0", exc)
        return _empty("error")


def _number_text(value: int | float) -> str:
    try:
        return repr(value)
    except ValueError:  # an int beyond the str() digit limit
        return ""


_logged: set[str] = set()


def _log_once(message: str) -> None:
    if message not in _logged and len(_logged) < 100:
        _logged.add(message)
        logger.error("%s", message)


def _source_name(data_source: Any) -> str:
    if isinstance(data_source, str):
        return data_source.lower()
    if isinstance(data_source, bytes):
        return data_source.decode("utf-8", "replace").lower()
    return ""


def compute_score(
    data_source: Any,
    solution_str: Any,
    ground_truth: Any,
    extra_info: Any = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """Score one response by its ``data_source``; returns ``{"score", "acc", "pred", ...}``.
    Never raises, whatever the argument types."""
    try:
        source = _source_name(data_source)
        if source in GSM8K_SOURCES or source.endswith("/gsm8k"):
            from rewards import gsm8k

            gsm_kwargs = {k: v for k, v in kwargs.items() if k in ("method", "format_score", "score")}
            return gsm8k.compute_score(data_source, solution_str, ground_truth, extra_info, **gsm_kwargs)
        math_kwargs = {k: v for k, v in kwargs.items() if k == "timeout_s"}
        return math_compute_score(data_source, solution_str, ground_truth, extra_info, **math_kwargs)
    except Exception as exc:  # a reward must never crash the trainer
        from rewards.failures import log_failure

        log_failure(logger, "compute_score failed; scoring 0", exc)
        return _empty("error")
