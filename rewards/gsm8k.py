"""GSM8K reward: numeric match of the final answer (verl ``compute_score`` signature).

``method="strict"`` (default) takes the answer from a ``#### N`` line (else ``\\boxed{}``);
``method="flexible"`` takes ``\\boxed{}``, else ``#### N``, else the last number in the text.
Numbers compare by value: ``1,000`` = ``1000`` = ``1000.00``; ``$``, units and a trailing ``.`` are
ignored. The ground truth may be the bare number or a full GSM8K solution ending in ``#### N``.
"""

from __future__ import annotations

import re
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

if __name__.partition(".")[0] != "rewards":  # loaded by file path (verl's load_extern_object)
    _root = str(Path(__file__).resolve().parents[1])
    if _root not in sys.path:
        sys.path.insert(0, _root)

from rewards.equivalence import extract_answer

_HASH_RE = re.compile(r"####\s*(-?[\d.,$\s]*\d)")
_NUMBER_RE = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?|-?\.\d+")
_BOX_RE = re.compile(r"\\(?:boxed|fbox)")
_MAX_SCAN_CHARS = 200_000


def _to_decimal(s: str) -> Decimal | None:
    s = s.replace("\u2212", "-").replace(",", "").replace("$", "").replace("\\", "").strip().rstrip(".")
    s = re.sub(r"\s+", "", s)
    m = re.fullmatch(r"-?(?:\d+(?:\.\d*)?|\.\d+)", s)
    if not m:
        return None
    try:
        return Decimal(s)
    except InvalidOperation:
        return None


def _boxed_number(text: str) -> str | None:
    if not _BOX_RE.search(text):
        return None
    boxed = extract_answer(text)
    if boxed is None:
        return None
    nums = _NUMBER_RE.findall(boxed.replace("\\!", "").replace("{,}", ","))
    return nums[-1] if nums else None


def extract_solution(solution_str: str, method: str = "strict") -> str | None:
    """The predicted number as written, or None (``method`` is ``strict`` or ``flexible``)."""
    text = solution_str[-_MAX_SCAN_CHARS:]
    cut = text.rfind("</think>")
    if cut >= 0:
        text = text[cut + len("</think>") :]
    hashes = _HASH_RE.findall(text)
    if method == "strict":
        if hashes:
            return hashes[-1].strip()
        return _boxed_number(text)
    if method != "flexible":
        raise ValueError(f"gsm8k method must be 'strict' or 'flexible', got {method!r}")
    boxed = _boxed_number(text)
    if boxed is not None:
        return boxed
    if hashes:
        return hashes[-1].strip()
    nums = [n for n in _NUMBER_RE.findall(text) if n not in ("", ".")]
    return nums[-1] if nums else None


def _gold_number(ground_truth: Any) -> Decimal | None:
    gt = str(ground_truth)
    hashes = _HASH_RE.findall(gt)
    return _to_decimal(hashes[-1] if hashes else gt)


def compute_score(
    data_source: Any,
    solution_str: Any,
    ground_truth: Any,
    extra_info: Any = None,
    method: str = "strict",
    format_score: float = 0.0,
    score: float = 1.0,
    **kwargs: Any,
) -> dict[str, Any]:
    """``score`` if the answer equals ``ground_truth``, ``format_score`` if an answer was found
    but is wrong, 0.0 if none was found. Returns ``{"score", "acc", "pred"}``; never raises
    (except for an invalid ``method``, a configuration error)."""
    if method not in ("strict", "flexible"):
        raise ValueError(f"gsm8k method must be 'strict' or 'flexible', got {method!r}")
    if not isinstance(solution_str, str) or not solution_str:
        return {"score": 0.0, "acc": 0, "pred": ""}
    try:
        pred = extract_solution(solution_str, method)
        if pred is None:
            return {"score": 0.0, "acc": 0, "pred": ""}
        pv, gv = _to_decimal(pred), _gold_number(ground_truth)
        ok = pv is not None and gv is not None and pv == gv
        return {"score": float(score if ok else format_score), "acc": int(ok), "pred": pred}
    except Exception:  # a reward must never crash the trainer
        import logging

        logging.getLogger(__name__).exception("gsm8k compute_score failed; scoring 0")
        return {"score": 0.0, "acc": 0, "pred": ""}
