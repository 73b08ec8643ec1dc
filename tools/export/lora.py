"""Merge a LoRA run's adapter into its base model, so the export is a plain Hugging Face model.

verl 0.9.1's model merger does not merge adapters: ``save_lora_adapter``
(``verl/model_merger/base_model_merger.py:311``) moves the ``lora_`` tensors into
``<target>/lora_adapter/`` (PEFT's ``adapter_config.json`` + ``adapter_model.safetensors``) and
saves only the rest as the model. With ``checkpoint.save_lora_only: true`` (the 70B LoRA config)
the checkpoint holds no base weights at all (``verl/utils/checkpoint/fsdp_checkpoint_manager.py:322``),
so that rest is empty and the base has to come from the model the run started from.

:class:`AdapterMerger` is verl's FSDP merger with its save step replaced for checkpoints that hold
an adapter: verl writes ``lora_adapter/`` as usual; the base is the checkpoint's own base weights
when it saved them, else ``base`` (the run's ``actor_rollout_ref.model.path``); PEFT applies the
adapter and ``merge_and_unload`` folds ``B @ A * alpha / r`` into each target weight; the merged
model, tokenizer and generation config are saved. ``lora_adapter/`` stays in the folder for
engines that serve the adapter on its own (``vllm serve BASE --lora-modules``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch
from verl.model_merger.fsdp_model_merger import FSDPModelMerger

from tools.export.checkpoint import CheckpointError

ADAPTER_DIR = "lora_adapter"
# config.json keys that must agree between the checkpoint's model and the base it is merged into
SHAPE_KEYS = (
    "model_type",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "vocab_size",
)


def has_adapter(state_dict: dict[str, Any]) -> bool:
    """True when the merged state dict holds LoRA tensors (verl names them ``...lora_A/B...``)."""
    return any("lora_" in key for key in state_dict)


def check_base(base: Path, hf_dir: Path) -> None:
    """``base`` is a model folder whose shape is the checkpoint's; else a clear error."""
    config = base / "config.json"
    if not config.is_file():
        raise CheckpointError(
            f"--base {base}: no config.json there. Fix: pass the model folder the run trained from "
            "(its actor_rollout_ref.model.path)"
        )
    if not any(base.glob("*.safetensors")) and not any(base.glob("pytorch_model*.bin")):
        raise CheckpointError(f"--base {base}: no weights (*.safetensors, pytorch_model*.bin) there")
    theirs = json.loads(config.read_text())
    ours = json.loads((hf_dir / "config.json").read_text())
    wrong = [
        f"{k}: base {theirs.get(k)!r}, run {ours.get(k)!r}"
        for k in SHAPE_KEYS
        if theirs.get(k) != ours.get(k)
    ]
    if wrong:
        raise CheckpointError(
            f"--base {base} is not the model this run trained ({'; '.join(wrong)}). "
            f"Fix: pass the run's actor_rollout_ref.model.path"
        )


class AdapterMerger(FSDPModelMerger):
    """verl's FSDP merger that folds a LoRA adapter into the base before saving."""

    def __init__(self, config: Any, base: Path | None) -> None:
        super().__init__(config)
        self.base = base
        self.lora: dict[str, Any] | None = None

    def save_hf_model_and_tokenizer(self, state_dict: dict[str, torch.Tensor]) -> None:
        if not has_adapter(state_dict):
            super().save_hf_model_and_tokenizer(state_dict)
            return
        from peft import PeftModel
        from transformers import AutoModelForCausalLM

        hf_dir = Path(self.hf_model_config_path)
        if self.base is not None:
            check_base(self.base, hf_dir)
        n_adapter = sum(1 for key in state_dict if "lora_" in key)
        # moves the lora_ tensors into target/lora_adapter and renames the base keys in place
        adapter = self.save_lora_adapter(state_dict)
        if adapter is None:  # has_adapter said otherwise; verl's naming changed
            raise CheckpointError("verl's merger found no LoRA tensors to save")
        if state_dict:
            model = AutoModelForCausalLM.from_config(self.model_config, torch_dtype=torch.bfloat16)
            missing, unexpected = model.load_state_dict(state_dict, strict=False)
            tied = set(getattr(model, "_tied_weights_keys", None) or [])
            missing = [k for k in missing if k not in tied]
            if unexpected or missing:
                raise CheckpointError(
                    f"the checkpoint's base weights do not fit {self.model_config.architectures}: "
                    f"missing {missing[:5]}, unexpected {unexpected[:5]}"
                )
            source = "the checkpoint's base weights"
        elif self.base is None:
            raise CheckpointError(
                f"{self.config.local_dir} holds only the LoRA adapter ({n_adapter} tensors; "
                "actor.checkpoint.save_lora_only), no base weights. Fix: pass the model the run "
                "trained from: --base MODEL_DIR (make export ... BASE=MODEL_DIR), the run's "
                "actor_rollout_ref.model.path"
            )
        else:
            model = AutoModelForCausalLM.from_pretrained(self.base, torch_dtype=torch.bfloat16)
            source = str(self.base)
        peft_model = PeftModel.from_pretrained(model, adapter)
        merged = peft_model.merge_and_unload()
        merged = self.patch_model_generation_config(merged)
        merged.save_pretrained(self.config.target_dir)
        adapter_config = json.loads((Path(adapter) / "adapter_config.json").read_text())
        self.lora = {
            "adapter": ADAPTER_DIR,
            "adapter_tensors": n_adapter,
            "rank": adapter_config.get("r"),
            "alpha": adapter_config.get("lora_alpha"),
            "target_modules": sorted(adapter_config.get("target_modules") or []),
            "base": source,
            "merged": True,
        }
        print(
            f"export: merged the LoRA adapter (r={self.lora['rank']}, alpha={self.lora['alpha']}) into {source}"
        )
        from verl.utils import hf_processor, hf_tokenizer

        for saver in (hf_processor, hf_tokenizer):
            obj = saver(self.hf_model_config_path, trust_remote_code=self.config.trust_remote_code)
            if obj is not None:
                obj.save_pretrained(self.config.target_dir)
