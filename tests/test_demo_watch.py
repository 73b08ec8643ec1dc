"""tools/demo/watch.py's memory figure counts the processes of this cluster's job only."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tools.demo.watch import job_rss_bytes


def test_job_memory_leaves_out_another_clusters_job_with_the_same_id(tmp_path: Path, monkeypatch) -> None:
    # several local clusters on one host each number their jobs from 1
    job = f"9{os.getpid()}"
    ours, theirs = tmp_path / "ours.conf", tmp_path / "theirs.conf"
    code = "import time; x = bytearray(64 << 20); time.sleep(60)"  # 64 MiB resident

    def start(conf: Path) -> subprocess.Popen[bytes]:
        env = dict(os.environ, SLURM_JOB_ID=job, SLURM_CONF=str(conf))
        return subprocess.Popen([sys.executable, "-c", code], env=env)

    procs = [start(ours), start(theirs)]
    try:
        time.sleep(3)
        monkeypatch.setenv("SLURM_CONF", str(ours))
        one = job_rss_bytes(job)
        monkeypatch.delenv("SLURM_CONF")
        both = job_rss_bytes(job)  # without a SLURM_CONF to tell them apart: every job `job`
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    assert one >= 64 << 20
    assert both >= one + (60 << 20)
