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

__all__ = ["GSM8K_SOURCES", "compute_score", "math_compute_score"]

GSM8K_SOURCES = frozenset({"openai/gsm8k", "gsm8k"})
"""``data_source`` values scored by :mod:`rewards.gsm8k` (case-insensitive)."""

logger = logging.getLogger(__name__)


def math_compute_score(
    data_source: Any,
    solution_str: Any,
    ground_truth: Any,
    extra_info: Any = None,
    timeout_s: float | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """0/1 accuracy of the final answer (see :func:`rewards.equivalence.extract_answer`)."""
    from rewards.equivalence import DEFAULT_TIMEOUT_S, extract_answer, is_equivalent

    try:
        if not isinstance(solution_str, str):
            return {"score": 0.0, "acc": 0, "pred": ""}
        pred = extract_answer(solution_str)
        if pred is None:
            return {"score": 0.0, "acc": 0, "pred": ""}
        gold = str(ground_truth) if isinstance(ground_truth, str | int | float) else ""
        boxed_gold = extract_answer(gold) if "\\boxed" in gold else None
        ok = is_equivalent(
            boxed_gold or gold, pred, DEFAULT_TIMEOUT_S if timeout_s is None else float(timeout_s)
        )
        return {"score": float(ok), "acc": int(ok), "pred": pred}
    except Exception:  # a reward must never crash the trainer
        logger.exception("math compute_score failed; scoring 0")
        return {"score": 0.0, "acc": 0, "pred": ""}


def compute_score(
    data_source: Any,
    solution_str: Any,
    ground_truth: Any,
    extra_info: Any = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """Score one response by its ``data_source``; returns ``{"score", "acc", "pred"}``."""
    source = str(data_source).lower() if data_source is not None else ""
    if source in GSM8K_SOURCES or source.endswith("/gsm8k"):
        from rewards import gsm8k

        gsm_kwargs = {k: v for k, v in kwargs.items() if k in ("method", "format_score", "score")}
        return gsm8k.compute_score(data_source, solution_str, ground_truth, extra_info, **gsm_kwargs)
    math_kwargs = {k: v for k, v in kwargs.items() if k == "timeout_s"}
    return math_compute_score(data_source, solution_str, ground_truth, extra_info, **math_kwargs)
