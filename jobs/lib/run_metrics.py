"""What the launcher needs from verl's JSONL metrics and the composed config (long_run.sh).

    python jobs/lib/run_metrics.py steps FILE...     training steps logged, longest step, longest validation
    python jobs/lib/run_metrics.py config FILE       trainer.test_freq, trainer.esi_redundant_time,
                                                     trainer.total_training_steps (0: set by the epochs)
                                                     and the rollout's tensor_model_parallel_size (cpu_mode.sh)

verl's file logger (``trainer.logger`` contains ``file``) writes one line per training step,
``{"step": N, "data": {"timing_s/step": ..., "timing_s/testing": ...}}``; a validation before
training is logged without ``timing_s/step``, so only lines with it count as steps. Output is
``key=value`` words for the shell; unreadable lines and missing files count as nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL file; a missing file or a damaged line gives nothing."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    rows = []
    for line in text.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue  # a line being written when the job was stopped
        if isinstance(row, dict) and isinstance(row.get("data"), dict):
            rows.append(row)
    return rows


def step_summary(paths: list[Path]) -> dict[str, float]:
    """Training steps logged, the longest step and the longest validation, in seconds."""
    steps, longest, testing = 0, 0.0, 0.0
    for path in paths:
        for row in read_lines(path):
            data = row["data"]
            if isinstance(data.get("timing_s/step"), int | float):
                steps += 1
                longest = max(longest, float(data["timing_s/step"]))
            if isinstance(data.get("timing_s/testing"), int | float):
                testing = max(testing, float(data["timing_s/testing"]))
    return {"steps": steps, "max_step_s": longest, "max_testing_s": testing}


def config_summary(path: Path) -> dict[str, float]:
    """trainer.test_freq, esi_redundant_time, total_training_steps and the rollout's
    tensor_model_parallel_size of a composed config (verl's defaults if absent)."""
    import yaml

    config = yaml.safe_load(path.read_text()) or {}
    trainer = config.get("trainer") or {}
    rollout = (config.get("actor_rollout_ref") or {}).get("rollout") or {}
    return {
        "test_freq": int(trainer.get("test_freq", -1) or -1),
        "esi_redundant_time": float(trainer.get("esi_redundant_time", 0) or 0),
        "total_training_steps": int(trainer.get("total_training_steps", 0) or 0),
        "rollout_tp": int(rollout.get("tensor_model_parallel_size", 1) or 1),
    }


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("steps", "config"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "steps":
        summary = step_summary([Path(a) for a in argv[1:]])
    else:
        summary = config_summary(Path(argv[1]))
    print(" ".join(f"{k}={v:g}" for k, v in summary.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
