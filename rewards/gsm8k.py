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

_NON_BLANK_RE = re.compile(r"\S")
_HASH_NUMBER_RE = re.compile(r"-?[\d.,$ \t]*\d")
_NUMBER_RE = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?|-?\.\d+")
_BOX_RE = re.compile(r"\\(?:boxed|fbox)")
_MAX_SCAN_CHARS = 20_000
"""Only the end of a response can hold its final answer; longer texts are cut from the front."""


def _hash_numbers(text: str) -> list[str]:
    """The number after the last ``####`` that has one (linear: plain searches, one bounded match)."""
    pos = len(text)
    for _ in range(8):
        at = text.rfind("####", 0, pos)
        if at < 0:
            return []
        start = _NON_BLANK_RE.search(text, at + 4)
        after = text[start.start() : start.start() + 200] if start else ""
        m = _HASH_NUMBER_RE.match(after)
        if m:
            return [m.group(0)]
        pos = at
    return []


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
    hashes = _hash_numbers(text)
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
    if isinstance(ground_truth, bool) or not isinstance(ground_truth, str | int | float):
        return None
    if isinstance(ground_truth, int):
        return Decimal(ground_truth)  # no str(): an int past 4,300 digits cannot be printed
    gt = ground_truth if isinstance(ground_truth, str) else repr(ground_truth)
    hashes = _hash_numbers(gt)
    return _to_decimal(hashes[-1] if hashes else gt)


_reported: set[str] = set()


def _bad_kwargs(method: Any, format_score: Any, score: Any) -> str | None:
    """What is wrong with the reward_kwargs (logged once per distinct problem), or None."""
    problem = None
    if method not in ("strict", "flexible"):
        problem = f"gsm8k reward_kwargs.method={method!r}: use 'strict' or 'flexible'"
    else:
        for key, value in (("format_score", format_score), ("score", score)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                problem = f"gsm8k reward_kwargs.{key}={value!r}: expected a number"
                break
    if problem is not None and problem not in _reported and len(_reported) < 32:
        _reported.add(problem)
        import logging

        logging.getLogger(__name__).error("%s; every sample scores 0 until it is fixed", problem)
    return problem


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
    but is wrong, 0.0 if none was found. Returns ``{"score", "acc", "pred", "verified",
    "status"}``; never raises (bad reward_kwargs: score 0, logged once, named in ``status``)."""
    problem = _bad_kwargs(method, format_score, score)
    if problem is not None:
        return {"score": 0.0, "acc": 0, "pred": "", "verified": 0, "status": f"bad reward_kwargs: {problem}"}
    if not isinstance(solution_str, str) or not solution_str:
        return {"score": 0.0, "acc": 0, "pred": "", "verified": 1, "status": "no answer"}
    try:
        pred = extract_solution(solution_str, method)
        if pred is None:
            return {"score": 0.0, "acc": 0, "pred": "", "verified": 1, "status": "no answer"}
        pv, gv = _to_decimal(pred), _gold_number(ground_truth)
        ok = pv is not None and gv is not None and pv == gv
        return {
            "score": float(score if ok else format_score),
            "acc": int(ok),
            "pred": pred,
            "verified": 1,
            "status": "certain",
        }
    except Exception:  # a reward must never crash the trainer
        import logging

        logging.getLogger(__name__).exception("gsm8k compute_score failed; scoring 0")
        return {"score": 0.0, "acc": 0, "pred": "", "verified": 1, "status": "no answer"}
