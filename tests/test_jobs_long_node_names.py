"""A job on a node with a 40-character name starts Ray (issue 12, item 2).

Cloud-style Slurm node names (AWS ParallelCluster, slurm-gcp) are long; Ray refuses Unix socket
paths over 107 bytes, and its per-node temp dir used to carry the node name. A second local
cluster, whose one node is really called by such a name (LOCAL_SLURM_NODE_PREFIX), runs a dry
run through sbatch: real slurmd, real Ray, the launcher unchanged.
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_jobs_slurm
from slurm_fixture import LocalSlurm, run_script, slurm_env
from test_jobs_slurm import ray_left, submit, wait_all

site_root = test_jobs_slurm.site_root

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

LONG_NAME = "queue-gpu-st-p5en48xlarge-compute-node-1"  # 40 characters


def free_port_pair() -> int:
    """A port p with p and p+1 free, above Linux's ephemeral range and below 65000."""
    for port in range(61000 + os.getpid() % 1500 * 2, 64990, 2):
        with socket.socket() as a, socket.socket() as b:
            try:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port pair in 61000-64990")


@pytest.fixture(scope="module")
def long_name_slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSlurm]:
    directory = tmp_path_factory.mktemp("ls_long")
    env = dict(
        os.environ,
        LOCAL_SLURM_DIR=str(directory),
        LOCAL_SLURM_PORT=str(free_port_pair()),
        LOCAL_SLURM_NODE_PREFIX=LONG_NAME[:-1],
    )
    proc = run_script("up", "1", env=env)
    assert proc.returncode == 0, proc.stdout
    try:
        conf = directory / "etc" / "slurm.conf"
        yield LocalSlurm(dir=directory, conf=conf, nodes=[LONG_NAME], env=slurm_env(conf))
    finally:
        run_script("down", env=env)


def test_long_node_name_starts_ray(long_name_slurm: LocalSlurm, site_root: Path) -> None:
    assert len(LONG_NAME) == 40
    nodes = subprocess.run(
        ["sinfo", "-h", "-N", "-o", "%N"], env=long_name_slurm.env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert nodes == [LONG_NAME]
    slurm: Any = long_name_slurm
    job = submit(
        slurm,
        "gsm8k_qwen_sglang",
        site_root / "site.env",
        "--gres=gpu:1",
        "--exclusive=user",
        "--cpus-per-task=1",
        DRY_RUN="1",
        PREFLIGHT="0",
    )
    wait_all(slurm, [job], timeout=300)
    text = job.text()
    assert job.state == "COMPLETED" and job.exit_code == "0:0", text[-4000:]
    assert f"ray_cluster: {LONG_NAME} joined (1 GPU)" in text, text[-3000:]
    assert f"probe {LONG_NAME}: task ran on slurm node {LONG_NAME} " in text
    assert not ray_left(job)
