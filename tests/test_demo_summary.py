"""The demo's "what happened" rows say what the job really did, from verl's metrics and the job log."""

from __future__ import annotations

import json
from pathlib import Path

from tools.demo.summary import read_runs, summarize, what_happened


def write_metrics(path: Path, steps: list[int]) -> None:
    lines = [
        json.dumps(
            {
                "step": s,
                "data": {
                    "timing_s/step": 40.0 if i == 0 else 3.0,
                    "timing_s/gen": 1.0,
                    "critic/score/mean": -0.3,
                },
            }
        )
        for i, s in enumerate(steps)
    ]
    path.write_text("\n".join(lines) + "\n")


def test_stop_between_save_and_log_is_explained(tmp_path: Path) -> None:
    write_metrics(tmp_path / "metrics.jsonl", [1, 2])
    write_metrics(tmp_path / "metrics.restart1.jsonl", [4, 5])
    log = tmp_path / "job.log"
    log.write_text(
        "[launch 16:23:37] time limit: verl's pre-expiry window opened at 13:51:56 UTC, before the signal,"
        " and checkpoint global_step_2 was saved in it: not waiting for another\n"
        "[launch 16:23:37] trainer: timelimit (rc 0); global_step 0 -> 3\n"
        "[launch 16:23:39] requeue: scontrol requeue 3 (restart 1 of at most 20)\n"
        "[launch 16:23:52] resume: run phi4_vllm-3 resumes from global_step_3 (x/latest_checkpointed_iteration.txt)\n"
    )
    rows = dict(what_happened(read_runs(tmp_path), log, None, None, None, 300.0))
    assert rows["steps logged"].startswith("4 (1, 2, 4, 5) in 2 run(s)")
    assert "step 3 trained and checkpointed, stopped before verl logged it" in rows["steps logged"]
    assert rows["resume"] == "from global_step_3 (job log)"
    assert rows["time limit"] == (
        "warning with global_step_2 saved; trainer stopped with global_step_3 on disk; 1 requeue(s)"
    )
    assert rows["seconds/step"].startswith("3.00 s mean over 2 steady step(s)")


def test_planned_steps_follow_total_training_steps() -> None:
    cfg = {"trainer": {"total_training_steps": 5, "total_epochs": 2}, "data": {"train_batch_size": 4}}
    rows = dict(summarize(cfg, {"splits": {"train": 58}}, None))
    assert rows["steps"] == "5 (trainer.total_training_steps; the data gives 14 per epoch x 2 epoch(s) = 28)"
    cfg["trainer"]["total_training_steps"] = None
    assert dict(summarize(cfg, {"splits": {"train": 58}}, None))["steps"] == "14 per epoch x 2 epoch(s) = 28"
