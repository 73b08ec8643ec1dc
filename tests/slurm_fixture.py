"""The session fixture `local_slurm`: a local emulated Slurm cluster (tools/cluster/local_slurm.sh).

It brings up 2 nodes (n1, n2; each Gres=gpu:8) once per pytest session and yields a
`LocalSlurm` whose `.env` is a complete environment for `subprocess.run(..., env=...)`
(the caller's environment plus SLURM_CONF and /usr/sbin on PATH). It never skips: if the
cluster cannot start, the fixture fails with the script's message and the daemon log tails.

Several pytest sessions may share one cluster directory (for example two developers' runs in
one checkout): each session holds a shared lock on `<dir>/fixture.users` while it runs, and
the cluster is stopped at the end only if a fixture started it and no other session still
holds the lock. A cluster that was already running (started by hand) is left running.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "tools" / "cluster" / "local_slurm.sh"
FIXTURE_NODES = 2
# Variables that steer Slurm's commands; dropped so a real allocation cannot leak in.
SLURM_INPUT_PREFIXES = ("SLURM_", "SBATCH_", "SALLOC_", "SRUN_", "SQUEUE_", "SINFO_", "SCONTROL_", "SCANCEL_")


@dataclass(frozen=True)
class LocalSlurm:
    """A running local cluster: where it lives, its nodes, and the env to reach it."""

    dir: Path
    conf: Path
    nodes: list[str]
    env: dict[str, str] = field(repr=False)

    def run(
        self, args: list[str], *, timeout: float = 120, check: bool = True, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run a Slurm command (sbatch, squeue, ...) against this cluster; text output captured."""
        proc = subprocess.run(
            args, env=self.env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"{' '.join(args)} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
            )
        return proc


def cluster_dir(environ: dict[str, str] | None = None) -> Path:
    """The cluster directory the script uses for this environment."""
    env = os.environ if environ is None else environ
    raw = env.get("LOCAL_SLURM_DIR") or str(REPO / ".local_slurm")
    return Path(raw).resolve()


def slurm_env(conf: Path, environ: dict[str, str] | None = None) -> dict[str, str]:
    """A full subprocess environment that points Slurm's commands at `conf` (and only it)."""
    env = {
        key: value
        for key, value in (os.environ if environ is None else environ).items()
        if not key.startswith(SLURM_INPUT_PREFIXES)  # e.g. SLURM_JOB_ID when pytest runs inside a job
    }
    env["SLURM_CONF"] = str(conf)
    path = env.get("PATH", "/usr/bin:/bin")
    for extra in ("/usr/sbin", "/sbin"):
        if extra not in path.split(os.pathsep):
            path = f"{path}{os.pathsep}{extra}"
    env["PATH"] = path
    return env


def run_script(
    *args: str, env: dict[str, str] | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """Run tools/cluster/local_slurm.sh with `args`; stdout and stderr captured together."""
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        env=dict(os.environ) if env is None else env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=timeout,
        check=False,
    )


def _node_count(directory: Path) -> int:
    try:
        return int((directory / "nodes").read_text().strip())
    except (OSError, ValueError):
        return 0


def _lock(path: Path, mode: int) -> IO[str]:
    handle = path.open("a")
    fcntl.flock(handle, mode)
    return handle


@pytest.fixture(scope="session")
def local_slurm() -> Iterator[LocalSlurm]:
    """The local emulated Slurm cluster (2 nodes), started once per session."""
    directory = cluster_dir()
    directory.mkdir(parents=True, exist_ok=True)
    marker = directory / "fixture.started"
    mutex = _lock(directory / "fixture.mutex", fcntl.LOCK_EX)
    users = _lock(directory / "fixture.users", fcntl.LOCK_SH)  # held until teardown
    try:
        already_up = run_script("status").returncode == 0
        if already_up and _node_count(directory) >= FIXTURE_NODES:
            proc = run_script("up")  # keeps the running node count; waits until the nodes are ready
        else:
            proc = run_script("up", str(FIXTURE_NODES))
            if not already_up:
                marker.write_text(f"{os.getpid()}\n")
        if proc.returncode != 0:
            pytest.fail(
                f"tools/cluster/local_slurm.sh up failed (exit {proc.returncode}) in {directory}:\n{proc.stdout}",
                pytrace=False,
            )
    except BaseException:
        users.close()
        raise
    finally:
        mutex.close()

    nodes = [f"n{k}" for k in range(1, _node_count(directory) + 1)]
    conf = directory / "etc" / "slurm.conf"
    try:
        yield LocalSlurm(dir=directory, conf=conf, nodes=nodes, env=slurm_env(conf))
    finally:
        mutex = _lock(directory / "fixture.mutex", fcntl.LOCK_EX)
        try:
            users.close()
            with (directory / "fixture.users").open("a") as last:
                try:
                    fcntl.flock(last, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    pass  # another pytest session still uses the cluster; it stops it later
                else:
                    if marker.exists():
                        proc = run_script("down")
                        marker.unlink(missing_ok=True)
                        if proc.returncode != 0:
                            print(f"local_slurm: down failed (exit {proc.returncode}):\n{proc.stdout}")
        finally:
            mutex.close()
