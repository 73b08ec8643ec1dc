"""verl 0.9.1's real GRPO trainer through the launcher on the local cluster, on CPU.

ONE real run (module fixture, shared by every assertion here): `sbatch jobs/phi4_vllm.sh` with
PLATFORM=cpu in the site file on 2 emulated nodes x 1 declared GPU: FSDP2 actor + reference
on gloo, two vLLM CPU replicas, the project's Phi-4 reward and reward manager, a tiny
Phi3ForCausalLM with real weights. After step 2 is saved the job gets the time-limit warning
(USR1, as slurmctld sends it at --signal=B:USR1@S): verl's pre-expiry save, `scontrol requeue`,
the second run resumes from the checkpoint and finishes. Then the checkpoint is exported with
verl's model merger and loaded with transformers. A run that is not done by its bound (a weight
sync that fails on CPU hangs instead of exiting) is cancelled and the failure shows the log tail.

Needs the CPU engine env (`make env-cpu`; `make test` builds it before pytest).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from real_runs import JobRun, follow, read_metrics, sbatch

REPO = Path(__file__).resolve().parents[1]
CPU_ENV = Path(os.environ.get("CPU_ENV", REPO / ".venv-cpu"))
STEPS = 5  # the warning goes out after global_step_2: 3 steady steps (~3 s each, each saved) of margin
BOUND_S = 1200  # both runs: ~5 min on an idle 2-core machine, 16 under a load of 12; a hang is cancelled here
OVERRIDES = (
    "data.train_batch_size=4",
    "data.max_response_length=32",
    "actor_rollout_ref.rollout.n=2",
    "actor_rollout_ref.actor.ppo_mini_batch_size=4",
    "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=4096",
    "actor_rollout_ref.rollout.tensor_model_parallel_size=1",
    "actor_rollout_ref.rollout.max_num_batched_tokens=2048",
    f"trainer.total_training_steps={STEPS}",
    f"trainer.save_freq={STEPS}",
    "trainer.test_freq=-1",
    # every step is "near" the job's end: verl's pre-expiry save runs after each one
    "trainer.esi_redundant_time=7200",
)

# the fixture's real run is bounded by BOUND_S itself; pytest-timeout must not cut it first
pytestmark = [pytest.mark.slurm, pytest.mark.slow, pytest.mark.timeout(BOUND_S + 600)]


@dataclass
class RealRun(JobRun):
    ckpt: Path = Path()
    export: Path = Path()


def resumed_step(job_log: str) -> int:
    """The step the first run left in the tracker: the launcher's 'global_step 0 -> N' at the stop."""
    found = re.search(r"trainer: timelimit \(rc \d+\); global_step 0 -> (\d+)", job_log)
    assert found, "the first run did not stop at the time limit"
    return int(found.group(1))


def metrics(path: Path) -> dict[int, dict[str, float]]:
    return read_metrics([path])


@pytest.fixture(scope="module")
def real_run(local_slurm: Any, tmp_path_factory: pytest.TempPathFactory, capsys: Any = None) -> RealRun:
    if not (CPU_ENV / "bin" / "python").exists() or not (CPU_ENV / ".cpu-env-installed").exists():
        pytest.fail(f"no CPU engine env at {CPU_ENV}. Fix: make env-cpu (make test builds it)", pytrace=False)
    from tools.testbed.tiny_model import make_tiny_model

    root = tmp_path_factory.mktemp("train_cpu")
    make_tiny_model(root / "models" / "Phi-4-reasoning-plus", family="phi3", with_weights=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "dataprep",
            "synthetic",
            "--output",
            str(root / "data" / "omni_math"),
            "--n",
            "64",
            "--seed",
            "0",
            "--prompt-template",
            "phi4-reasoning",
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=120,
    )
    site = root / "site.env"
    site.write_text(
        "export PLATFORM=cpu\n"
        f"export ENV_PREFIX_VLLM={CPU_ENV}\n"
        + "".join(
            f"export {k}={root / v}\n"
            for k, v in (
                ("DATA_ROOT", "data"),
                ("MODEL_ROOT", "models"),
                ("CKPT_ROOT", "ckpt"),
                ("LOG_ROOT", "logs"),
            )
        )
    )
    out = root / "out"
    out.mkdir()
    env = dict(local_slurm.env, SITE_ENV=str(site), PREFLIGHT="0", GRPO_REPO=str(REPO))
    env.pop("SLURM_JOB_ID", None)
    job, log = sbatch(env, out, "jobs/phi4_vllm.sh", 2, OVERRIDES)
    ckpt = root / "ckpt" / "phi4_omni_math" / f"phi4_vllm-{job}"
    rc, output = follow(local_slurm, job, log, ckpt, signal_at_step=2, timeout=BOUND_S)
    run = RealRun(job, rc, log, root / "logs" / job, output, ckpt=ckpt, export=root / "export")
    if rc == 0:
        # with the trainer's torch: verl's DTensor shards do not load across torch versions
        proc = subprocess.run(
            [str(CPU_ENV / "bin" / "python"), "-m", "tools.export", str(ckpt), "--out", str(run.export)],
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            capture_output=True,
            text=True,
            timeout=300,
        )
        run.output += proc.stdout + proc.stderr
    return run


def test_real_two_node_run_trains_and_saves_verl_checkpoints(real_run: RealRun) -> None:
    assert real_run.rc == 0, real_run.why()
    steps = set(real_run.metrics())
    # every step is logged, except possibly the one the first run saved while the launcher stopped
    # it at the warning: verl logs a step's metrics after its checkpoint, so the stop can fall between
    unlogged = set(range(1, STEPS + 1)) - steps
    assert max(steps) >= 2 and unlogged <= {resumed_step(real_run.text())}, real_run.why()
    tracker = real_run.ckpt / "latest_checkpointed_iteration.txt"
    assert tracker.read_text().strip() == str(STEPS)
    actor = real_run.ckpt / f"global_step_{STEPS}" / "actor"
    # two training processes (one per node): verl's FSDP shard per rank, config, HF files
    for name in (
        "model_world_size_2_rank_0.pt",
        "model_world_size_2_rank_1.pt",
        "optim_world_size_2_rank_0.pt",
        "fsdp_config.json",
        "huggingface/config.json",
    ):
        assert (actor / name).is_file(), f"{actor / name} missing"
    assert (real_run.ckpt / f"global_step_{STEPS}" / "data.pt").is_file()
    # CPU mode's default: each TP=1 vLLM replica runs its model in the engine-core process
    config = yaml.safe_load((real_run.log_dir / "config.yaml").read_text())
    assert (
        config["actor_rollout_ref"]["rollout"]["engine_kwargs"]["vllm"]["distributed_executor_backend"]
        == "uni"
    )
    first = metrics(real_run.log_dir / "metrics.jsonl")
    for step in first.values():
        # the project's Phi-4 reward scored real rollouts of 2 responses per prompt
        assert "critic/score/mean" in step and -1.5 <= step["critic/score/mean"] <= 1.5
        assert step["response_length/mean"] > 0


def test_time_limit_saves_requeues_and_resumes_from_the_real_checkpoint(real_run: RealRun) -> None:
    assert real_run.rc == 0, real_run.why()
    text = real_run.text()
    assert "time limit: USR1 received" in text, real_run.why()
    # either the save the launcher waited for, or one verl made in its pre-expiry window already
    saved = re.search(r"time limit: .*checkpoint global_step_(\d+) (?:was )?saved", text)
    assert saved, real_run.why()
    # the newest complete checkpoint when the trainer stopped: the one named at the warning, or a
    # later one verl finished while the launcher stopped it (the launcher logs "global_step 0 -> N")
    step = resumed_step(text)
    assert step >= int(saved.group(1)) >= 2, real_run.why()
    assert "Force saving checkpoint: ESI instance expiration approaching." in text  # verl's pre-expiry save
    assert f"requeue: scontrol requeue {real_run.job}" in text
    # run 2 (restart 1): the launcher and verl both say where it resumes from
    second_run = text[text.index(f"job {real_run.job} (phi4_vllm) restart 1:") :]
    assert re.search(rf"resume: run \S+ resumes from global_step_{step} ", second_run), real_run.why()
    assert re.search(rf"Resuming from \S+/global_step_{step}\b", second_run), real_run.why()
    second = metrics(real_run.log_dir / "metrics.restart1.jsonl")
    assert min(second) == step + 1 and max(second) == STEPS  # the step counter continues
    assert f"trainer: finished (run complete at global_step_{STEPS})" in text


def test_timing_report_reads_the_real_metrics(real_run: RealRun) -> None:
    assert real_run.rc == 0, real_run.why()
    proc = subprocess.run(
        [sys.executable, "-m", "tools.timing", str(real_run.log_dir), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    report = proc.stdout
    for phase in ("gen", "reward", "old_log_prob", "ref", "update_actor", "update_weights"):
        assert f'"{phase}"' in report, f"phase {phase} missing from the timing report:\n{report[:2000]}"


def test_export_loads_in_transformers_and_generates(real_run: RealRun) -> None:
    assert real_run.rc == 0, real_run.why()
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    manifest = json.loads((real_run.export / "export.json").read_text())
    assert manifest["step"] == STEPS and manifest["world_size"] == 2
    model = AutoModelForCausalLM.from_pretrained(real_run.export)
    tok = AutoTokenizer.from_pretrained(real_run.export)
    assert model.config.architectures == ["Phi3ForCausalLM"]
    ids = tok("The answer is", return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**ids, max_new_tokens=1, do_sample=False, pad_token_id=tok.pad_token_id)
    assert out.shape[1] == ids["input_ids"].shape[1] + 1
    assert not list(real_run.export.parent.glob(f".{real_run.export.name}.*"))  # no temp dir left
