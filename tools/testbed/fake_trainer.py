#!/usr/bin/env python3
"""Stand-in for `python -m verl.trainer.main_ppo` in the launcher's tests (TRAINER_CMD).

It behaves like verl's RayPPOTrainer where the launcher can tell: it resumes from
``CKPT_DIR/latest_checkpointed_iteration.txt``, "trains" one step every ``FAKE_STEP_S``
seconds, and saves verl's checkpoint layout (``global_step_N/actor/...``, ``data.pt``, then the
tracker, written last) every ``trainer.save_freq`` steps, at the last step, and when verl's own
``should_save_ckpt_esi`` says the expiry timestamp the launcher exported
(``MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP``) is near. It keeps at most
``trainer.max_actor_ckpt_to_keep`` checkpoints, like verl, and logs each step as verl's file
logger does (``{"step": N, "data": {"timing_s/step": ...}}`` to ``VERL_FILE_LOGGER_PATH``).

    TRAINER_CMD='python tools/testbed/fake_trainer.py "$@"'   # the launcher passes the trainer args

Settings: the Hydra overrides ``trainer.save_freq=``, ``trainer.total_training_steps=``,
``trainer.max_actor_ckpt_to_keep=`` and ``trainer.esi_redundant_time=`` among the arguments
(defaults 5, 10, 2, 0); environment ``FAKE_STEP_S`` (default 1.0), ``FAKE_FAIL_AT`` (exit with
``FAKE_EXIT_CODE``, default 1, when that step starts).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

TRACKER = "latest_checkpointed_iteration.txt"


def say(msg: str) -> None:
    print(f"fake_trainer: {msg}", flush=True)


def override(args: list[str], key: str, default: int) -> int:
    """The last ``key=value`` among the Hydra overrides, as an int."""
    value = default
    for arg in args:
        if arg.startswith(key + "="):
            value = int(arg.split("=", 1)[1])
    return value


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


def save(ckpt_dir: Path, step: int, keep: int) -> None:
    """verl's layout: global_step_N/{actor/, data.pt}, then the tracker, written last."""
    final = ckpt_dir / f"global_step_{step}"
    tmp = ckpt_dir / f".global_step_{step}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "actor").mkdir(parents=True)
    (tmp / "actor" / "model_world_size_1_rank_0.pt").write_text(f"weights at step {step}\n")
    (tmp / "data.pt").write_text(f"dataloader state at step {step}\n")
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    write_atomic(ckpt_dir / TRACKER, str(step))
    steps = sorted(int(p.name.rsplit("_", 1)[1]) for p in ckpt_dir.glob("global_step_*") if p.is_dir())
    for old in steps[:-keep] if keep > 0 else []:
        shutil.rmtree(ckpt_dir / f"global_step_{old}", ignore_errors=True)
    say(f"saved checkpoint global_step_{step}")


def main(args: list[str]) -> int:
    from verl.utils.checkpoint.checkpoint_manager import should_save_ckpt_esi

    ckpt_dir = Path(os.environ["CKPT_DIR"])
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    save_freq = override(args, "trainer.save_freq", 5)
    total = override(args, "trainer.total_training_steps", 10)
    keep = override(args, "trainer.max_actor_ckpt_to_keep", 2)
    redundant = override(args, "trainer.esi_redundant_time", 0)
    step_s = float(os.environ.get("FAKE_STEP_S", "1.0"))
    fail_at = int(os.environ.get("FAKE_FAIL_AT", "0"))
    tracker = ckpt_dir / TRACKER
    step = int(tracker.read_text().strip()) if tracker.exists() else 0
    metrics_path = os.environ.get("VERL_FILE_LOGGER_PATH")
    # verl's FileLogger opens its file with "wb" when the trainer starts
    metrics = open(metrics_path, "wb", buffering=0) if metrics_path else None
    say(f"resumed from global_step_{step}" if step else "fresh start")
    say(f"args: {' '.join(args)}")
    max_step_s = 0.0
    while step < total:
        step += 1
        if step == fail_at:
            say(f"failing at step {step} (FAKE_FAIL_AT)")
            return int(os.environ.get("FAKE_EXIT_CODE", "1"))
        t0 = time.monotonic()
        time.sleep(step_s)
        max_step_s = max(max_step_s, time.monotonic() - t0)
        say(f"step {step}/{total}")
        if metrics is not None:
            row = {
                "step": step,
                "data": {"timing_s/step": time.monotonic() - t0, "training/global_step": step},
            }
            metrics.write(json.dumps(row).encode() + b"\n")
        near_expiry = should_save_ckpt_esi(max_steps_duration=max_step_s, redundant_time=redundant)
        if save_freq > 0 and (step == total or step % save_freq == 0 or near_expiry):
            if near_expiry and step % save_freq and step != total:
                say("pre-expiry save (verl's should_save_ckpt_esi)")
            save(ckpt_dir, step, keep)
    say(f"training complete at step {step}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
