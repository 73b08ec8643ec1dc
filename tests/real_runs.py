"""Shared by the real-trainer tests (test_train_cpu.py, test_train_cpu_lora.py): follow a job on the
local cluster to its end within a bound (tools/demo/watch.py), and read what it left."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable
from contextlib import redirect_stdout
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

from tools.demo import watch


@dataclass
class JobRun:
    """A job followed to its end: watch's exit status, its Slurm log, verl's metrics dir."""

    job: str
    rc: int
    log: Path
    log_dir: Path
    output: str

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def why(self) -> str:
        return (
            f"watch exit {self.rc}; job log {self.log}:\n"
            + "\n".join(self.text().splitlines()[-60:])
            + self.output[-3000:]
        )

    def metrics(self) -> dict[int, dict[str, float]]:
        """Every run's steps (metrics.jsonl, metrics.restartN.jsonl) in this job's log dir."""
        return read_metrics(self.log_dir.glob("metrics*.jsonl"))


def read_metrics(paths: Iterable[Path]) -> dict[int, dict[str, float]]:
    """verl's file-logger lines, by step (later files win for a step logged twice)."""
    steps: dict[int, dict[str, float]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            steps[record["step"]] = record["data"]
    return steps


def sbatch(
    env: dict[str, str], out: Path, script: str, nodes: int, overrides: Iterable[str]
) -> tuple[str, Path]:
    """Submit a job script as the real-run tests do (1 declared GPU per node, the node to this user,
    a 30-minute limit with the launcher's USR1 warning); the job id and its log."""
    proc = subprocess.run(
        [
            "sbatch",
            "--parsable",
            f"--nodes={nodes}",
            "--gres=gpu:1",
            "--exclusive=user",
            "--time=30",
            "--signal=B:USR1@20",
            f"--output={out}/%x-%j.log",
            script,
            *overrides,
        ],
        env=env,
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    job = proc.stdout.strip().split(";")[0]
    return job, out / f"{Path(script).stem}-{job}.log"


def follow(
    local_slurm: Any,
    job: str,
    log: Path,
    ckpt: Path,
    signal_at_step: int,
    timeout: float,
    rss_out: Path | None = None,
) -> tuple[int, str]:
    """watch.watch on this cluster (it talks to Slurm through SLURM_CONF and PATH); its exit status
    and what it printed."""
    old = {k: os.environ.get(k) for k in ("SLURM_CONF", "PATH")}
    os.environ.update(SLURM_CONF=local_slurm.env["SLURM_CONF"], PATH=local_slurm.env["PATH"])
    buf = StringIO()
    try:
        with redirect_stdout(buf):
            rc = watch.watch(job, log, ckpt, signal_at_step=signal_at_step, timeout=timeout, rss_out=rss_out)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return rc, buf.getvalue()
