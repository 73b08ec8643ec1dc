"""The local emulated Slurm cluster (tools/cluster/local_slurm.sh) and its session fixture."""

from __future__ import annotations

import os
import re
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from slurm_fixture import SCRIPT, LocalSlurm, run_script, slurm_env

PACKAGES = ("slurmctld", "slurmd", "slurm-client", "munge")


def _scontrol_job(cluster: LocalSlurm, job_id: str) -> str:
    return cluster.run(["scontrol", "show", "job", "-d", job_id]).stdout


def _wait_for(predicate, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.25)


@pytest.mark.slurm
def test_two_node_job_runs_a_step_on_each_node_with_8_gpus(local_slurm: LocalSlurm, tmp_path: Path) -> None:
    assert local_slurm.nodes[:2] == ["n1", "n2"]
    out_dir = tmp_path / "steps"
    out_dir.mkdir()
    job = tmp_path / "two_nodes.sh"
    job.write_text(
        "#!/bin/bash\n"
        "#SBATCH --nodes=2 --ntasks-per-node=1 --gres=gpu:8 --time=2\n"
        f"#SBATCH --output={tmp_path}/job-%j.out\n"
        "set -euo pipefail\n"
        f"scontrol show job -d $SLURM_JOB_ID > {tmp_path}/alloc.txt\n"
        f'srun bash -c \'printf "%s|%s|%s|%s|%s\\n" "$SLURMD_NODENAME" "$(hostname)" '
        '"${CUDA_VISIBLE_DEVICES-unset}" "${SLURM_JOB_GPUS-unset}" "${SLURM_GPUS_ON_NODE-unset}" '
        f"> {out_dir}/$SLURMD_NODENAME.txt'\n"
    )
    proc = local_slurm.run(["sbatch", "--parsable", "--wait", str(job)], cwd=tmp_path, timeout=120)
    job_id = proc.stdout.strip().split(";")[0]
    assert job_id.isdigit(), proc.stdout

    steps = {p.stem: p.read_text().strip().split("|") for p in out_dir.glob("*.txt")}
    assert sorted(steps) == ["n1", "n2"], (
        f"steps ran on {sorted(steps)}; job output: {[p.read_text() for p in tmp_path.glob('job-*')]}"
    )
    for node, (nodename, _host, cuda, job_gpus, gpus_on_node) in steps.items():
        assert nodename == node
        assert cuda.split(",") == [str(i) for i in range(8)], f"{node}: CUDA_VISIBLE_DEVICES={cuda}"
        assert job_gpus.split(",") == [str(i) for i in range(8)], f"{node}: SLURM_JOB_GPUS={job_gpus}"
        assert gpus_on_node == "8"

    info = _scontrol_job(local_slurm, job_id)
    assert "JobState=COMPLETED" in info and "ExitCode=0:0" in info, info
    assert "TresPerNode=gres:gpu:8" in info, info
    # What the controller allocated, captured inside the job: per-node lines such as
    # "Nodes=n[1-2] CPU_IDs=0 Mem=0 GRES=gpu:8(IDX:0-7)".
    alloc = (tmp_path / "alloc.txt").read_text()
    granted: dict[str, str] = {}
    for expr, gres in re.findall(r"\bNodes=(\S+) CPU_IDs=\S+ Mem=\S+ GRES=(\S+)", alloc):
        for node in local_slurm.run(["scontrol", "show", "hostnames", expr]).stdout.split():
            granted[node] = gres
    assert granted == {"n1": "gpu:8(IDX:0-7)", "n2": "gpu:8(IDX:0-7)"}, alloc


@pytest.mark.slurm
def test_up_again_is_a_no_op_and_env_points_at_the_cluster(local_slurm: LocalSlurm) -> None:
    run_dir = local_slurm.dir / "run"
    pids_before = {p.name: p.read_text().strip() for p in run_dir.glob("*.pid")}
    env = dict(os.environ, LOCAL_SLURM_DIR=str(local_slurm.dir))
    proc = run_script("up", env=env)
    assert proc.returncode == 0, proc.stdout
    assert "started" not in proc.stdout, proc.stdout
    assert {p.name: p.read_text().strip() for p in run_dir.glob("*.pid")} == pids_before

    shown = subprocess.run(
        ["bash", "-c", f'eval "$(bash {SCRIPT} env)" && printf %s "$SLURM_CONF"'],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(shown.stdout) == local_slurm.conf

    status = run_script("status", env=env)
    assert status.returncode == 0, status.stdout
    assert re.search(r"^n1 debug\* idle", status.stdout, re.M), status.stdout


@pytest.mark.slurm
@pytest.mark.slow
def test_up_with_other_settings_refuses_while_jobs_run(local_slurm: LocalSlurm, tmp_path: Path) -> None:
    """`up` with settings that would restart the cluster (another port, GPU count...) must not kill
    the jobs on it (a demo, another shell's tests): it refuses, names the jobs and the way out."""
    job_id = local_slurm.run(
        ["sbatch", "--parsable", "--time=2", f"--output={tmp_path}/sleep-%j.out", "--wrap", "sleep 60"],
        cwd=tmp_path,
    ).stdout.strip()
    try:
        env = dict(os.environ, LOCAL_SLURM_DIR=str(local_slurm.dir), LOCAL_SLURM_GPUS="3")
        proc = run_script("up", env=env)
        assert proc.returncode == 1, proc.stdout
        assert job_id in proc.stdout and "LOCAL_SLURM_DIR" in proc.stdout, proc.stdout
        state = _scontrol_job(local_slurm, job_id)
        assert "JobState=RUNNING" in state or "JobState=PENDING" in state, state
    finally:
        local_slurm.run(["scancel", job_id], check=False)


@pytest.mark.slurm
@pytest.mark.slow
def test_two_jobs_share_the_nodes_when_gpus_allow(local_slurm: LocalSlurm, tmp_path: Path) -> None:
    """Two 2-node jobs (4 GPUs each) run at the same time: each waits to see the other start."""
    job = tmp_path / "pair.sh"
    job.write_text(
        "#!/bin/bash\n"
        "#SBATCH --nodes=2 --ntasks-per-node=1 --gres=gpu:4 --time=2\n"
        f"#SBATCH --output={tmp_path}/pair-%j.out\n"
        f"touch {tmp_path}/started.$SLURM_JOB_ID\n"
        f"for _ in $(seq 120); do [ $(ls {tmp_path}/started.* | wc -l) -ge 2 ] && exit 0; sleep 0.25; done\n"
        "exit 3\n"
    )
    procs = [
        subprocess.Popen(
            ["sbatch", "--parsable", "--wait", str(job)],
            env=local_slurm.env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs


@pytest.mark.slurm
@pytest.mark.slow
def test_requeued_job_runs_again(local_slurm: LocalSlurm, tmp_path: Path) -> None:
    log = tmp_path / "starts.txt"
    job = tmp_path / "requeue.sh"
    job.write_text(
        "#!/bin/bash\n"
        "#SBATCH --nodes=1 --requeue --time=3\n"
        f"#SBATCH --output={tmp_path}/requeue-%j.out --open-mode=append\n"
        f'echo "${{SLURM_RESTART_COUNT:-0}}" >> {log}\n'
        'if [ "${SLURM_RESTART_COUNT:-0}" -ge 1 ]; then exit 0; fi\n'
        "sleep 120\n"
    )
    job_id = local_slurm.run(["sbatch", "--parsable", str(job)], cwd=tmp_path).stdout.strip()
    try:
        _wait_for(lambda: log.exists() and log.read_text().split() == ["0"], "the first run", 30)
        local_slurm.run(["scontrol", "requeue", job_id])
        _wait_for(lambda: log.read_text().split() == ["0", "1"], "the requeued run", 60)
        _wait_for(lambda: "JobState=COMPLETED" in _scontrol_job(local_slurm, job_id), "completion", 30)
    finally:
        local_slurm.run(["scancel", job_id], check=False)


@pytest.mark.slurm
@pytest.mark.slow
def test_signal_before_time_limit_reaches_the_batch_shell(local_slurm: LocalSlurm, tmp_path: Path) -> None:
    """--signal=B:USR1@55 with --time=1 reaches the batch script before the limit (the
    controller checks limits every ~30 s, so the signal comes 5-35 s after the start)."""
    job = tmp_path / "signal.sh"
    job.write_text(
        "#!/bin/bash\n"
        "#SBATCH --nodes=1 --time=1 --signal=B:USR1@55\n"
        f"#SBATCH --output={tmp_path}/signal-%j.out\n"
        "trap 'echo got-USR1; exit 0' USR1\n"
        "for _ in $(seq 120); do sleep 1 & wait $!; done\n"
        "echo no-signal\n"
        "exit 4\n"
    )
    local_slurm.run(["sbatch", "--parsable", "--wait", str(job)], cwd=tmp_path, timeout=150)
    out = next(tmp_path.glob("signal-*.out")).read_text()
    assert "got-USR1" in out, out


# ----------------------------------------------------------------------------- bad input


@pytest.fixture
def private_dir() -> Iterator[Path]:
    """A cluster dir under /tmp that other users can traverse (for the non-root test)."""
    path = Path(tempfile.mkdtemp(prefix="local_slurm_test_", dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _listening_socket() -> socket.socket:
    """A socket listening on a loopback port P where P-1 is free too (so both tests name P)."""
    for _ in range(50):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            probe.bind(("0.0.0.0", port - 1))
        except OSError:
            sock.close()
            continue
        finally:
            probe.close()
        if 1025 <= port <= 65000:
            return sock
        sock.close()
    raise AssertionError("no free pair of loopback ports found")


@pytest.mark.parametrize("offset, role", [(0, "slurmctld"), (1, "slurmd of node n1")])
def test_port_in_use_is_named_and_nothing_starts(private_dir: Path, offset: int, role: str) -> None:
    if os.geteuid() != 0:
        pytest.fail("this test needs root (as `make test` runs in CI); run it as root")
    with _listening_socket() as sock:
        port = sock.getsockname()[1]
        env = dict(os.environ, LOCAL_SLURM_DIR=str(private_dir), LOCAL_SLURM_PORT=str(port - offset))
        proc = run_script("up", "2", env=env, timeout=60)
    assert proc.returncode != 0
    assert f"port {port} ({role}) is already in use" in proc.stdout, proc.stdout
    assert "LOCAL_SLURM_PORT" in proc.stdout
    assert run_script("status", env=env).returncode == 3  # nothing was started
    assert not list((private_dir / "run").glob("*.pid")) if (private_dir / "run").exists() else True


def _as_unprivileged_user(
    args: list[str], env: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    """Run `args` as a non-root user: as `nobody` via setpriv when we are root, else as ourselves."""
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv, "setpriv (util-linux) is needed to drop root in this test"
        args = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups", *args]
    return subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


def test_non_root_up_names_the_packages_and_fails(private_dir: Path) -> None:
    # Copy the script where `nobody` can read it (the checkout may live under /root).
    tools = private_dir / "tools" / "cluster"
    tools.mkdir(parents=True)
    script = tools / "local_slurm.sh"
    shutil.copy(SCRIPT, script)
    script.chmod(script.stat().st_mode | stat.S_IROTH | stat.S_IXOTH)
    env = dict(os.environ, LOCAL_SLURM_DIR=str(private_dir / "cluster"), HOME="/")
    proc = _as_unprivileged_user(["bash", str(script), "up"], env=env, cwd=private_dir)
    assert proc.returncode != 0
    assert "must be started as root" in proc.stderr, proc.stderr
    assert f"apt-get install -y {' '.join(PACKAGES)}" in proc.stderr, proc.stderr
    assert not (private_dir / "cluster").exists()


def test_missing_packages_are_named(tmp_path: Path) -> None:
    """Hide slurmd in a private mount namespace (real absence, no flag) and run `up`."""
    slurmd = shutil.which("slurmd", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
    assert slurmd, "slurmd is not installed; `make sysdeps` installs it"
    if os.geteuid() != 0 or subprocess.run(["unshare", "--mount", "true"], check=False).returncode != 0:
        pytest.skip("needs root and mount namespaces (unshare --mount) to hide slurmd")
    empty = tmp_path / "empty"
    empty.write_text("")
    env = dict(os.environ, LOCAL_SLURM_DIR=str(tmp_path / "cluster"))
    proc = subprocess.run(
        [
            "unshare",
            "--mount",
            "bash",
            "-c",
            'mount --bind "$1" "$2" && exec bash "$3" up',
            "_",
            str(empty),
            slurmd,
            str(SCRIPT),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode != 0
    assert "missing Debian packages: slurmd" in proc.stderr, proc.stderr
    assert f"apt-get install -y {' '.join(PACKAGES)}" in proc.stderr, proc.stderr


def test_second_cluster_in_a_private_dir_with_its_own_ports(tmp_path: Path) -> None:
    """A cluster under a mode-700 directory (like a checkout in /root) starts, runs a job,
    and `down` stops exactly its daemons; the session cluster is untouched."""
    if os.geteuid() != 0:
        pytest.fail("this test needs root (as `make test` runs in CI); run it as root")
    closed = Path(tempfile.mkdtemp(prefix="local_slurm_closed_", dir="/tmp"))  # mode 700
    with _listening_socket() as sock:  # frees port P; P-1 was free too
        base = sock.getsockname()[1] - 1
    env = dict(os.environ, LOCAL_SLURM_DIR=str(closed / "cluster"), LOCAL_SLURM_PORT=str(base))
    try:
        proc = run_script("up", "1", env=env, timeout=120)
        assert proc.returncode == 0, proc.stdout
        assert f"note: {closed} is not searchable by other users" in proc.stdout, proc.stdout
        pids = [p.read_text().strip() for p in (closed / "cluster" / "run").glob("*.pid")]
        assert len(pids) == 3  # munged, slurmctld, slurmd n1
        job_env = slurm_env(closed / "cluster" / "etc" / "slurm.conf", env)
        ran = subprocess.run(
            ["srun", "-N1", "--gres=gpu:8", "printenv", "SLURMD_NODENAME", "CUDA_VISIBLE_DEVICES"],
            env=job_env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert ran.returncode == 0, ran.stderr
        assert ran.stdout.split() == ["n1", "0,1,2,3,4,5,6,7"]
    finally:
        down = run_script("down", env=env, timeout=120)
        shutil.rmtree(closed, ignore_errors=True)
    assert down.returncode == 0, down.stdout
    assert all(not Path(f"/proc/{pid}").exists() for pid in pids)
    assert run_script("status", env=env).returncode == 3
