"""Find and check the checkpoint to export: verl 0.9.1's FSDP layout under a run's directory.

CKPT/latest_checkpointed_iteration.txt     the newest complete save (verl writes it last)
CKPT/global_step_N/actor/model_world_size_W_rank_R.pt   one shard per training rank
CKPT/global_step_N/actor/fsdp_config.json  the world size verl saved with
CKPT/global_step_N/actor/huggingface/      config.json + tokenizer files
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

TRACKER = "latest_checkpointed_iteration.txt"
STEP_DIR = re.compile(r"^global_step_(\d+)$")


class CheckpointError(ValueError):
    """A checkpoint that cannot be exported; the message says why and what to do."""


@dataclass(frozen=True)
class ActorCheckpoint:
    run_dir: Path
    step: int
    actor_dir: Path
    world_size: int

    @property
    def hf_dir(self) -> Path:
        return self.actor_dir / "huggingface"


def saved_steps(run_dir: Path) -> list[int]:
    """The ``global_step_N`` directories under ``run_dir``, oldest first."""
    steps = []
    for child in run_dir.iterdir():
        match = STEP_DIR.match(child.name)
        if match and child.is_dir():
            steps.append(int(match.group(1)))
    return sorted(steps)


def tracker_step(run_dir: Path) -> int:
    """The step in ``run_dir``'s tracker file; a clear error when it is missing or bad."""
    tracker = run_dir / TRACKER
    steps = saved_steps(run_dir)
    if not tracker.is_file():
        found = ", ".join(f"global_step_{s}" for s in steps) or "none"
        raise CheckpointError(
            f"{tracker} not found: {run_dir} holds no finished verl checkpoint (step dirs: {found}). "
            "Fix: point CKPT at a run's checkpoint dir (CKPT_ROOT/<experiment>/<run name>), or pick a "
            "complete step with STEP=N"
        )
    text = tracker.read_text().strip()
    if not text.isdigit():
        raise CheckpointError(
            f"{tracker} holds {text!r}, not a step number. Fix: pass STEP=N (one of {steps})"
        )
    return int(text)


def find_checkpoint(run_dir: Path, step: int | None = None) -> ActorCheckpoint:
    """The actor checkpoint of ``step`` (default: the tracker's) under ``run_dir``, checked."""
    run_dir = run_dir.resolve()
    if not run_dir.is_dir():
        raise CheckpointError(
            f"checkpoint dir {run_dir} does not exist. Fix: CKPT=CKPT_ROOT/<experiment>/<run name>"
        )
    chosen = tracker_step(run_dir) if step is None else step
    step_dir = run_dir / f"global_step_{chosen}"
    if not step_dir.is_dir():
        raise CheckpointError(
            f"{step_dir} does not exist (saved steps: {saved_steps(run_dir) or 'none'}). "
            "Fix: STEP=N with one of them"
        )
    actor = step_dir / "actor"
    config_file = actor / "fsdp_config.json"
    if not config_file.is_file():
        raise CheckpointError(
            f"{config_file} not found: global_step_{chosen} is incomplete (a save cut short?). "
            f"Fix: export an older step (saved: {saved_steps(run_dir)})"
        )
    try:
        world_size = int(json.loads(config_file.read_text())["world_size"])
    except (ValueError, KeyError, TypeError) as exc:
        raise CheckpointError(f"{config_file}: no usable world_size ({exc})") from exc
    missing = [
        r for r in range(world_size) if not (actor / f"model_world_size_{world_size}_rank_{r}.pt").is_file()
    ]
    if missing:
        raise CheckpointError(
            f"{actor}: shards of rank(s) {missing} of {world_size} are missing (model_world_size_{world_size}_rank_R.pt): "
            "the save is incomplete. Fix: export an older step"
        )
    if not (actor / "huggingface" / "config.json").is_file():
        raise CheckpointError(f"{actor / 'huggingface'}/config.json not found: the save is incomplete")
    return ActorCheckpoint(run_dir=run_dir, step=chosen, actor_dir=actor, world_size=world_size)
