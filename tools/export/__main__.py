"""Export a verl FSDP checkpoint to a Hugging Face model folder with verl's own model merger.

    python -m tools.export CKPT_DIR [--step N] --out OUT_DIR     (make export CKPT=... OUT=...)

CKPT_DIR is a run's checkpoint dir (``CKPT_ROOT/<experiment>/<run name>``, the one holding
``latest_checkpointed_iteration.txt``). Without ``--step`` the tracker's step is exported. The
folder (weights as safetensors, config.json, tokenizer) is written next to OUT_DIR under a
temporary name and renamed into place when complete: an interrupted export leaves OUT_DIR as
it was. An existing OUT_DIR is replaced only if an earlier export wrote it (``export.json``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tools.export.checkpoint import ActorCheckpoint, CheckpointError, find_checkpoint

MANIFEST = "export.json"


def merge(ckpt: ActorCheckpoint, target: Path) -> None:
    """verl's FSDP model merger: shards of every rank -> one HF model + tokenizer in ``target``."""
    from verl.model_merger.base_model_merger import ModelMergerConfig
    from verl.model_merger.fsdp_model_merger import FSDPModelMerger

    config = ModelMergerConfig(
        operation="merge",
        backend="fsdp",
        local_dir=str(ckpt.actor_dir),
        target_dir=str(target),
        hf_model_config_path=str(ckpt.hf_dir),
    )
    merger = FSDPModelMerger(config)
    merger.merge_and_save()
    merger.cleanup()


def export(ckpt: ActorCheckpoint, out: Path) -> Path:
    out = out.resolve()
    if out.exists() and not (out / MANIFEST).is_file():
        raise CheckpointError(
            f"{out} exists and was not written by an export. Fix: choose another OUT or remove it"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        merge(ckpt, tmp)
        if not (tmp / "config.json").is_file() or not any(tmp.glob("*.safetensors")):
            raise CheckpointError(f"verl's model merger wrote no config.json/safetensors into {tmp}")
        manifest = {
            "checkpoint": str(ckpt.run_dir),
            "step": ckpt.step,
            "world_size": ckpt.world_size,
            "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "tool": "python -m tools.export (verl.model_merger, backend fsdp)",
        }
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
    args = parser.parse_args(argv)
    try:
        ckpt = find_checkpoint(Path(args.ckpt), args.step)
        print(
            f"export: global_step_{ckpt.step} of {ckpt.run_dir} ({ckpt.world_size} shard(s)) -> {args.out}",
            flush=True,
        )
        out = export(ckpt, Path(args.out))
    except CheckpointError as exc:
        print(f"export: error: {exc}", file=sys.stderr)
        return 2
    print(f"export: wrote {out} (load it with AutoModelForCausalLM.from_pretrained)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
