"""Prompt token lengths computed exactly as verl 0.9.1's RLHFDataset computes them.

``RLHFDataset.maybe_filter_out_long_prompts`` (text-only path) does, per row::

    tokenizer.apply_chat_template(doc["prompt"], add_generation_prompt=True, tokenize=True,
                                  **apply_chat_template_kwargs)   # minus tokenize/return_dict/return_tensors
    len(normalize_token_ids(...))  <=  data.max_prompt_length

We do the same (batched: the chat template is rendered per conversation and the rendered texts
are tokenized with ``add_special_tokens=False`` either way; a test checks batched == per-row).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def load_tokenizer(path: str) -> Any:
    """A local Hugging Face tokenizer (``AutoTokenizer``), never downloading anything."""
    from pathlib import Path

    if not Path(path).exists():
        raise SystemExit(
            f"error: --tokenizer {path}: no such local directory. Pass the model's local folder "
            "(the one holding tokenizer.json / tokenizer_config.json); downloads are not attempted."
        )
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(path, local_files_only=True)
    if getattr(tok, "chat_template", None) in (None, ""):
        raise SystemExit(
            f"error: tokenizer at {path} has no chat_template; verl applies the chat template to every "
            "prompt, so this model cannot be used as-is (add a chat_template to tokenizer_config.json)."
        )
    return tok


def _flat_ids(out: Any) -> list[int]:
    """The same normalisation as ``verl.utils.tokenizer.normalize_token_ids`` for one sequence."""
    ids = out
    if isinstance(out, dict) and "input_ids" in out:
        ids = out["input_ids"]
    elif hasattr(out, "input_ids"):
        ids = out.input_ids
    if hasattr(ids, "tolist"):
        ids = ids.tolist()
    if isinstance(ids, tuple):
        ids = list(ids)
    if isinstance(ids, list) and len(ids) == 1 and isinstance(ids[0], list | tuple):
        ids = list(ids[0])
    if not isinstance(ids, list):
        raise TypeError(f"unexpected apply_chat_template output type {type(out).__name__}")
    return ids


def _clean_kwargs(kwargs: dict[str, Any] | None) -> dict[str, Any]:
    kw = dict(kwargs or {})
    for key in ("tokenize", "return_dict", "return_tensors"):
        kw.pop(key, None)
    return kw


def prompt_length(
    tokenizer: Any, messages: list[dict[str, str]], chat_kwargs: dict[str, Any] | None = None
) -> int:
    """Token length of one prompt, the verl way (per row)."""
    out = tokenizer.apply_chat_template(
        messages, add_generation_prompt=True, tokenize=True, **_clean_kwargs(chat_kwargs)
    )
    return len(_flat_ids(out))


def prompt_lengths(
    tokenizer: Any, prompts: Sequence[list[dict[str, str]]], chat_kwargs: dict[str, Any] | None = None
) -> list[int]:
    """Token lengths of many prompts: render each with the chat template, tokenize in one batch."""
    if not prompts:
        return []
    kw = _clean_kwargs(chat_kwargs)
    texts = tokenizer.apply_chat_template(list(prompts), add_generation_prompt=True, tokenize=False, **kw)
    enc = tokenizer(list(texts), add_special_tokens=False, return_attention_mask=False)
    return [len(ids) for ids in enc["input_ids"]]


class LengthHistogram:
    """Prompt-length counts (memory bounded by the longest prompt, not the row count)."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    def add(self, lengths: Sequence[int]) -> None:
        for n in lengths:
            self.counts[n] = self.counts.get(n, 0) + 1

    def stats(self) -> dict[str, int]:
        """count/min/p50/p90/p99/max (nearest rank); {} when empty."""
        total = sum(self.counts.values())
        if total == 0:
            return {}
        keys = sorted(self.counts)
        targets = {name: max(1, -(-p * total // 100)) for name, p in (("p50", 50), ("p90", 90), ("p99", 99))}
        out: dict[str, int] = {"count": total, "min": keys[0]}
        seen = 0
        for k in keys:
            seen += self.counts[k]
            for name, rank in targets.items():
                if name not in out and seen >= rank:
                    out[name] = k
        out["max"] = keys[-1]
        return {k: out[k] for k in ("count", "min", "p50", "p90", "p99", "max")}
