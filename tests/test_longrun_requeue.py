"""Long runs on the local Slurm cluster: save before the time limit, requeue, resume.

The trainer is tools/testbed/fake_trainer.py (TRAINER_CMD): verl's checkpoint layout and tracker, and
verl's own `should_save_ckpt_esi` fed by the expiry timestamp the launcher exports. Everything
else is real: slurmctld's time limit and USR1, the launcher's trap, `scontrol requeue`, Ray.
One job gets slurmctld's own warning (`--time=3 --signal=B:USR1@50`); the others get it by
`scancel --signal=USR1 --batch` once their pre-expiry saves have begun, which keeps them short.
The jobs run concurrently; each test asserts on one.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import test_jobs_slurm
from test_jobs_slurm import REPO, Job, job_info, ray_left, submit, wait_all

site_root = test_jobs_slurm.site_root  # the session fixture: synthetic data, tiny model, storage

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

FAKE = 'python tools/testbed/fake_trainer.py "$@"'
# a 2-minute job whose verl-style expiry is 15 s before its end: the stand-in's pre-expiry
# saves (verl: remaining <= longest step + 60 s) start about 45 s into each run
SHORT = {
    "STOP_GRACE": "15",
    "FAKE_STEP_S": "1",
    "PREFLIGHT": "0",
    "TRAINER_CMD": FAKE,
    "VALIDATION_S": "0",
    "PROBE_ENGINE": "",
}
EXPERIMENT = "gsm8k_qwen"


@pytest.fixture(scope="module")
def engine_site(site_root: Path) -> Path:
    """A real-run site file: the dev .venv stands in for the engine env (it has verl and Ray)."""
    site = site_root / "site_engine.env"
    venv = REPO / ".venv"
    site.write_text(
        (site_root / "site.env").read_text()
        + f"export ENV_PREFIX_SGLANG={venv}\nexport ENV_PREFIX_VLLM={venv}\n"
    )
    return site


def run_names(job: Job) -> str:
    return f"{job.script}-{job.id}"


def ckpt_dir(site_root: Path, job: Job) -> Path:
    return site_root / "ckpt" / EXPERIMENT / run_names(job)


@pytest.fixture(scope="module")
def long_runs(local_slurm: Any, site_root: Path, engine_site: Path) -> dict[str, Job]:
    common = ("--time=2", "--gres=gpu:1", "--exclusive=user", "--cpus-per-task=1")
    jobs = {
        # the real time-limit warning from slurmctld (sent when 50-80 s remain: slurmctld checks
        # every 30 s); never completes (the test cancels run 2 once it reports the resume)
        "real_signal": submit(
            local_slurm,
            "gsm8k_qwen_sglang",
            engine_site,
            "--time=3",
            "--gres=gpu:1",
            "--exclusive=user",
            "--cpus-per-task=1",
            "--signal=B:USR1@50",
            "-w",
            "n1",
            overrides=("trainer.total_training_steps=1000", "trainer.save_freq=1000"),
            **{**SHORT, "STOP_GRACE": "30"},
        ),
        # the same warning sent by hand once the pre-expiry saves run; completes in run 2
        "completes": submit(
            local_slurm,
            "gsm8k_qwen_vllm",
            engine_site,
            *common,
            "--signal=B:USR1@5",
            "-w",
            "n2",
            overrides=("trainer.total_training_steps=30", "trainer.save_freq=1000"),
            **SHORT,
        ),
        "capped": submit(
            local_slurm,
            "gsm8k_qwen_sglang",
            engine_site,
            *common,
            "--signal=B:USR1@5",
            "-w",
            "n1",
            overrides=("trainer.total_training_steps=1000", "trainer.save_freq=1000"),
            MAX_REQUEUES="0",
            **SHORT,
        ),
        "fails_twice": submit(
            local_slurm,
            "gsm8k_qwen_vllm",
            engine_site,
            *common,
            "--signal=B:USR1@5",
            "-w",
            "n2",
            overrides=("trainer.total_training_steps=10", "trainer.save_freq=1"),
            FAKE_FAIL_AT="4",
            **SHORT,
        ),
        # dies before its first step: no progress, so no requeue
        "dies_at_start": submit(
            local_slurm,
            "gsm8k_qwen_sglang",
            engine_site,
            *common,
            "--signal=B:USR1@5",
            "-w",
            "n1",
            overrides=("trainer.total_training_steps=10", "trainer.save_freq=1"),
            FAKE_FAIL_AT="1",
            **SHORT,
        ),
    }
    signal_after = {"completes": "pre-expiry save", "capped": "pre-expiry save"}
    signaled: set[str] = set()
    cancelled_run2 = False
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        for name, marker in signal_after.items():
            job = jobs[name]
            if name not in signaled and marker in job.text():
                local_slurm.run(["scancel", "--signal=USR1", "--batch", job.id], check=False)
                signaled.add(name)
        real = jobs["real_signal"]
        if not cancelled_run2 and "resumes from global_step_" in real.text().partition(") restart 1:")[2]:
            local_slurm.run(["scancel", real.id], check=False)
            cancelled_run2 = True
        states = {n: job_info(local_slurm, j.id).get("JobState", "") for n, j in jobs.items()}
        if all(s in ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT") for s in states.values()):
            break
        time.sleep(1.0)
    wait_all(local_slurm, list(jobs.values()), timeout=30)
    return jobs


def runs(job: Job) -> list[str]:
    """The job's log split into runs (the log is appended to across requeues)."""
    parts = re.split(r"(?=\[launch [\d:]+\] job \d+ \(\S+\) restart \d+:)", job.text())
    return [p for p in parts if p.startswith("[launch")]


@pytest.mark.timeout(600)
def test_real_time_limit_signal_saves_requeues_and_resumes(
    long_runs: dict[str, Job], site_root: Path
) -> None:
    job = long_runs["real_signal"]
    parts = runs(job)
    assert len(parts) >= 2, job.text()[-5000:]
    first, second = parts[0], parts[1]
    assert "time limit: USR1 received" in first, first[-3000:]
    assert re.search(r"time limit: checkpoint global_step_\d+ saved|saved in it: not waiting", first), first[
        -3000:
    ]
    requeue = re.search(r"requeue: scontrol requeue \d+ .* resumes from global_step_(\d+)", first)
    assert requeue, first[-3000:]
    step = int(requeue.group(1))
    assert step > 0
    assert "restart 1:" in second
    assert f"resumes from global_step_{step} " in second, second[:2000]
    assert (ckpt_dir(site_root, job) / f"global_step_{step}" / "actor").is_dir()
    assert not ray_left(job)


@pytest.mark.timeout(600)
def test_run_that_completes_after_requeue_does_not_requeue_again(
    long_runs: dict[str, Job], site_root: Path
) -> None:
    job = long_runs["completes"]
    parts = runs(job)
    assert job.state == "COMPLETED" and job.exit_code == "0:0" and job.restarts == 1, job.text()[-5000:]
    assert len(parts) == 2
    saved = re.search(r"requeue: scontrol requeue .* resumes from global_step_(\d+)", parts[0])
    assert saved
    # the window opened before the (hand-sent) signal and verl saved in it: no second checkpoint
    presaved = re.search(r"checkpoint global_step_(\d+) was saved in it: not waiting for another", parts[0])
    assert presaved and "pre-expiry save" in parts[0], parts[0][-3000:]
    # in the window verl saves after every step: one more step may end between the signal and the
    # stop, and the requeue then resumes from that newer checkpoint (never an older one)
    assert int(saved.group(1)) >= int(presaved.group(1))
    # the same W&B run id in both runs (WANDB_RESUME=allow continues it)
    ids = {re.search(r"env WANDB_RUN_ID=(\S+)", p).group(1) for p in parts}
    assert len(ids) == 1, ids
    assert f"resumes from global_step_{saved.group(1)} " in parts[1]
    assert f"fake_trainer: resumed from global_step_{saved.group(1)}" in parts[1]
    assert "fake_trainer: training complete at step 30" in parts[1]
    assert "no requeue" in parts[1] and "scontrol requeue" not in parts[1]
    ckpt = ckpt_dir(site_root, job)
    assert (ckpt / "latest_checkpointed_iteration.txt").read_text().strip() == "30"
    # verl's retention: max_actor_ckpt_to_keep=2, the newest kept
    kept = sorted(int(p.name.rsplit("_", 1)[1]) for p in ckpt.glob("global_step_*"))
    assert len(kept) == 2 and kept[-1] == 30, kept
    history = (ckpt / "launcher_history.tsv").read_text().splitlines()
    assert [ln.split("\t")[3] for ln in history] == ["timelimit", "completed"]


@pytest.mark.timeout(600)
def test_requeue_cap_is_honoured(long_runs: dict[str, Job]) -> None:
    job = long_runs["capped"]
    text = job.text()
    assert job.state == "FAILED" and job.exit_code == "4:0" and job.restarts == 0, text[-4000:]
    assert "requeued 0 times (MAX_REQUEUES=0)" in text and "scontrol requeue" not in text
    assert not ray_left(job)


@pytest.mark.timeout(600)
def test_run_failing_the_same_way_twice_stops(long_runs: dict[str, Job]) -> None:
    job = long_runs["fails_twice"]
    parts = runs(job)
    assert job.state == "FAILED" and job.exit_code == "6:0" and job.restarts == 1, job.text()[-5000:]
    assert "requeue: scontrol requeue" in parts[0] and "failing at step 4" in parts[0]
    assert "resumes from global_step_3 " in parts[1]
    assert "ended the same way as the previous one (failed-rc1@3)" in parts[1]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", ["steps_without_tracker", "tracker_names_missing_step"])
def test_checkpoint_dir_without_usable_tracker_is_an_error(
    local_slurm: Any, site_root: Path, engine_site: Path, case: str
) -> None:
    run = f"broken-{case}"
    ckpt = site_root / "ckpt" / EXPERIMENT / run
    (ckpt / "global_step_20" / "actor").mkdir(parents=True, exist_ok=True)
    (ckpt / "global_step_40" / "actor").mkdir(parents=True, exist_ok=True)
    if case == "tracker_names_missing_step":
        (ckpt / "latest_checkpointed_iteration.txt").write_text("60\n")
    job = submit(
        local_slurm,
        "gsm8k_qwen_sglang",
        engine_site,
        "--gres=gpu:1",
        "--exclusive=user",
        "--cpus-per-task=1",
        RUN_NAME=run,
    )
    wait_all(local_slurm, [job], timeout=90)
    text = job.text()
    assert job.state == "FAILED" and job.exit_code == "2:0", text
    if case == "steps_without_tracker":
        assert "no latest_checkpointed_iteration.txt" in text and "silently train from scratch" in text
        assert f"echo 40 > {ckpt}/latest_checkpointed_iteration.txt" in text
    else:
        assert "says step 60" in text and "one of: 20 40" in text
    assert "ray:" not in text  # stopped before anything started
    subprocess.run(["rm", "-rf", str(ckpt)], check=True)


@pytest.mark.timeout(600)
def test_run_that_dies_before_its_first_step_is_not_requeued(long_runs: dict[str, Job]) -> None:
    job = long_runs["dies_at_start"]
    text = job.text()
    assert job.state == "FAILED" and job.exit_code == "1:0" and job.restarts == 0, text[-4000:]
    assert "failing at step 1" in text and "failed before it made progress" in text
    assert "scontrol requeue" not in text
    assert not ray_left(job)


@pytest.mark.timeout(600)
def test_resubmitting_a_complete_run_ends_before_ray(
    local_slurm: Any, site_root: Path, engine_site: Path
) -> None:
    """A run already at trainer.total_training_steps is not started (verl would exit at once and the
    launcher would requeue it as a time limit without progress)."""
    run = "already-complete"
    ckpt = site_root / "ckpt" / EXPERIMENT / run
    (ckpt / "global_step_5" / "actor").mkdir(parents=True, exist_ok=True)
    (ckpt / "latest_checkpointed_iteration.txt").write_text("5\n")
    job = submit(
        local_slurm,
        "gsm8k_qwen_vllm",
        engine_site,
        "--gres=gpu:1",
        "--exclusive=user",
        "--cpus-per-task=1",
        overrides=("trainer.total_training_steps=5",),
        RUN_NAME=run,
        **SHORT,
    )
    wait_all(local_slurm, [job], timeout=120)
    text = job.text()
    assert job.state == "COMPLETED" and job.restarts == 0, text[-4000:]
    assert "is complete: global_step_5 >= trainer.total_training_steps=5" in text
    assert "ray:" not in text and "trainer: starting" not in text and "scontrol requeue" not in text
    subprocess.run(["rm", "-rf", str(ckpt)], check=True)
