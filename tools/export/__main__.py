"""Export a verl FSDP checkpoint to a Hugging Face model folder with verl's own model merger.

    python -m tools.export CKPT_DIR [--step N] [--base MODEL_DIR] --out OUT_DIR
    (make export CKPT=... [STEP=N] [BASE=MODEL_DIR] OUT=...)

CKPT_DIR is a run's checkpoint dir (``CKPT_ROOT/<experiment>/<run name>``, the one holding
``latest_checkpointed_iteration.txt``). Without ``--step`` the tracker's step is exported. The
folder (weights as safetensors, config.json, tokenizer) is written next to OUT_DIR under a
temporary name and renamed into place when complete: an interrupted export leaves OUT_DIR as
it was. An existing OUT_DIR is replaced only if an earlier export wrote it (``export.json``).

A LoRA run's checkpoint is exported with the adapter merged into the base (tools/export/lora.py):
the folder loads as a plain model; the adapter itself stays in ``OUT_DIR/lora_adapter``. A
checkpoint saved with ``save_lora_only`` holds no base weights: ``--base`` names the model the run
trained from (its ``actor_rollout_ref.model.path``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tools.export.checkpoint import ActorCheckpoint, CheckpointError, find_checkpoint

MANIFEST = "export.json"


def merge(ckpt: ActorCheckpoint, target: Path, base: Path | None = None) -> dict[str, Any] | None:
    """verl's FSDP model merger: shards of every rank -> one HF model + tokenizer in ``target``.

    Returns what was merged from a LoRA adapter (None for a full fine-tune's checkpoint)."""
    from verl.model_merger.base_model_merger import ModelMergerConfig

    from tools.export.lora import AdapterMerger

    config = ModelMergerConfig(
        operation="merge",
        backend="fsdp",
        local_dir=str(ckpt.actor_dir),
        target_dir=str(target),
        hf_model_config_path=str(ckpt.hf_dir),
    )
    merger = AdapterMerger(config, base)
    merger.merge_and_save()
    merger.cleanup()
    return merger.lora


def export(ckpt: ActorCheckpoint, out: Path, base: Path | None = None) -> Path:
    out = out.resolve()
    if out.exists() and not (out / MANIFEST).is_file():
        raise CheckpointError(
            f"{out} exists and was not written by an export. Fix: choose another OUT or remove it"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        lora = merge(ckpt, tmp, base)
        if not (tmp / "config.json").is_file() or not any(tmp.glob("*.safetensors")):
            raise CheckpointError(f"verl's model merger wrote no config.json/safetensors into {tmp}")
        manifest = {
            "checkpoint": str(ckpt.run_dir),
            "step": ckpt.step,
            "world_size": ckpt.world_size,
            "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "tool": "python -m tools.export (verl.model_merger, backend fsdp)",
        }
        if lora is not None:
            manifest["lora"] = lora
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        tmp.chmod(0o755)
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            out.rename(old)
        tmp.rename(out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.export", description=__doc__.splitlines()[0])
    parser.add_argument("ckpt", help="a run's checkpoint dir (holds latest_checkpointed_iteration.txt)")
    parser.add_argument(
        "--step", type=int, help="the global step to export (default: the newest complete one)"
    )
    parser.add_argument("--out", required=True, help="the Hugging Face model folder to write")
    parser.add_argument(
        "--base",
        help="a LoRA run's base model folder (its actor_rollout_ref.model.path); needed when the "
        "checkpoint holds only the adapter (save_lora_only)",
    )
    args = parser.parse_args(argv)
    try:
        ckpt = find_checkpoint(Path(args.ckpt), args.step)
        print(
            f"export: global_step_{ckpt.step} of {ckpt.run_dir} ({ckpt.world_size} shard(s)) -> {args.out}",
            flush=True,
        )
        out = export(ckpt, Path(args.out), Path(args.base).resolve() if args.base else None)
    except CheckpointError as exc:
        print(f"export: error: {exc}", file=sys.stderr)
        return 2
    print(f"export: wrote {out} (load it with AutoModelForCausalLM.from_pretrained)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
