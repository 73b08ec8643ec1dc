"""verl 0.9.1 reward-loop manager that tells the reward each response's token length.

verl's ``naive`` manager decodes with ``skip_special_tokens=True`` and passes no length. That breaks
length-aware rewards (Phi-4-reasoning) twice: the length is unknown, and tokenizers that register
``<think>``/``</think>`` as special added tokens (Phi-4-reasoning's does) lose the tags, so every
sample looks like a format violation. ``LengthAwareRewardManager`` behaves like ``naive`` except:

- it decodes keeping every token but pad/EOS and the other special tokens *except* the think tags;
- it adds to ``extra_info``: ``response_length`` (valid response tokens) and ``truncated`` (the
  response filled ``actor_rollout_ref.rollout.response_length`` and does not end with EOS).

Load it (verl 0.9.1 resolves ``source=importlib`` managers with
``load_extern_object(module.path, name)``)::

    reward.reward_manager.source=importlib
    reward.reward_manager.name=LengthAwareRewardManager
    reward.reward_manager.module.path=/abs/path/to/repo/rewards/manager.py
"""

from __future__ import annotations

import inspect
import logging
import os
from typing import Any

from omegaconf import OmegaConf
from verl import DataProto
from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase
from verl.utils.reward_score import default_compute_score

logger = logging.getLogger(__name__)

THINK_TAGS = ("<think>", "</think>")


def _as_id_set(value: Any) -> set[int]:
    if value is None:
        return set()
    if isinstance(value, int):
        return {value}
    return {int(v) for v in value}


def eos_token_ids(tokenizer: Any, model_path: str | None = None) -> set[int]:
    """EOS ids: the tokenizer's, plus ``generation_config.json``'s when the model dir is local."""
    ids = _as_id_set(getattr(tokenizer, "eos_token_id", None))
    if model_path and os.path.isfile(os.path.join(model_path, "generation_config.json")):
        try:
            from transformers import GenerationConfig

            ids |= _as_id_set(GenerationConfig.from_pretrained(model_path).eos_token_id)
        except (OSError, ValueError) as exc:
            logger.warning("could not read %s/generation_config.json: %s", model_path, exc)
    return ids


def special_ids_to_drop(tokenizer: Any) -> set[int]:
    """Ids that ``skip_special_tokens=True`` would drop, minus the ``<think>``/``</think>`` tags."""
    drop = set(getattr(tokenizer, "all_special_ids", []) or [])
    decoder = getattr(tokenizer, "added_tokens_decoder", None) or {}
    for token_id, token in decoder.items():
        if getattr(token, "special", False):
            drop.add(int(token_id))
    keep = {tid for tid in (tokenizer.convert_tokens_to_ids(t) for t in THINK_TAGS) if isinstance(tid, int)}
    unk = getattr(tokenizer, "unk_token_id", None)
    if unk is not None:
        keep.discard(unk)  # a tokenizer without the tags maps them to unk
    return drop - keep


def validate_configured_kwargs(compute_score: Any) -> None:
    """Check ``reward.custom_reward_function.reward_kwargs`` once, when the manager is built.

    verl 0.9.1 wraps the custom function as ``partial(_call_with_kwargs, raw_fn, reward_kwargs)``;
    when ``raw_fn``'s module offers ``validate_reward_kwargs`` (``rewards.phi4`` does), a bad value
    raises here, naming the key, instead of scoring every sample wrong.
    """
    args = getattr(compute_score, "args", ())
    if len(args) >= 2 and callable(args[0]) and isinstance(args[1], dict):
        module = inspect.getmodule(args[0])
        validate = getattr(module, "validate_reward_kwargs", None)
        if callable(validate):
            validate(dict(args[1]))


class LengthAwareRewardManager(RewardManagerBase):
    """``naive`` plus ``extra_info["response_length"]`` / ``["truncated"]``, think tags kept."""

    def __init__(
        self,
        config: Any,
        tokenizer: Any,
        compute_score: Any,
        reward_router_address: str | None = None,
        reward_model_tokenizer: Any = None,
    ) -> None:
        super().__init__(config, tokenizer, compute_score)
        self.compute_score = compute_score or default_compute_score
        validate_configured_kwargs(self.compute_score)
        self.is_async_reward_score = inspect.iscoroutinefunction(self.compute_score)
        self.reward_router_address = reward_router_address
        self.reward_model_tokenizer = reward_model_tokenizer
        self.drop_ids = special_ids_to_drop(tokenizer)
        model_path = (
            OmegaConf.select(config, "actor_rollout_ref.model.path", default=None) if config else None
        )
        self.eos_ids = eos_token_ids(tokenizer, model_path if isinstance(model_path, str) else None)
        max_len = (
            OmegaConf.select(config, "actor_rollout_ref.rollout.response_length", default=None)
            if config
            else None
        )
        self.max_response_length: int | None = int(max_len) if isinstance(max_len, int) else None

    def decode(self, ids: list[int]) -> str:
        """Decode a response keeping ``<think>``/``</think>``, dropping pad/EOS/other specials."""
        kept = [i for i in ids if i not in self.drop_ids]
        return self.tokenizer.decode(kept, skip_special_tokens=False)

    def is_truncated(self, ids: list[int], width: int) -> bool:
        """Filled the response budget and the last token is not EOS."""
        limit = self.max_response_length if self.max_response_length is not None else width
        return len(ids) >= limit and (not ids or ids[-1] not in self.eos_ids)

    async def run_single(self, data: DataProto) -> dict:
        data = data[-1:]  # multi-sequence outputs: score the last sequence, as verl's naive does
        data_item = data[0]
        response_ids = data_item.batch["responses"]
        width = response_ids.shape[-1]
        valid_length = int(data_item.batch["attention_mask"][-width:].sum())
        ids = [int(t) for t in response_ids[:valid_length].tolist()]

        data_source = data_item.non_tensor_batch["data_source"]
        ground_truth = data_item.non_tensor_batch["reward_model"]["ground_truth"]
        extra_info = dict(data_item.non_tensor_batch.get("extra_info", None) or {})
        tool_extra_fields = data_item.non_tensor_batch.get("tool_extra_fields", None)
        if tool_extra_fields is not None:
            extra_info.update(tool_extra_fields.items())
        extra_info["num_turns"] = data_item.non_tensor_batch.get("__num_turns__", None)
        extra_info["rollout_reward_scores"] = data_item.non_tensor_batch.get("reward_scores", {})
        extra_info["response_length"] = valid_length
        extra_info["truncated"] = self.is_truncated(ids, width)

        response_str = await self.loop.run_in_executor(None, lambda: self.decode(ids))
        extra_kwargs: dict[str, Any] = (
            {
                "reward_router_address": self.reward_router_address,
                "reward_model_tokenizer": self.reward_model_tokenizer,
            }
            if self.reward_router_address is not None
            else {}
        )
        call = dict(
            data_source=data_source,
            solution_str=response_str,
            ground_truth=ground_truth,
            extra_info=extra_info,
            **extra_kwargs,
        )
        if self.is_async_reward_score:
            result = await self.compute_score(**call)
        else:
            result = await self.loop.run_in_executor(None, lambda: self.compute_score(**call))

        if isinstance(result, dict):
            return {"reward_score": result["score"], "reward_extra_info": dict(result)}
        return {"reward_score": result, "reward_extra_info": {"acc": result}}
