"""The 70B LoRA job (jobs/r1distill70b_lora_vllm.sh) trains for real on CPU, resumes and exports.

Two real runs through the launcher on the local cluster (module fixture), 1 node x 1 declared
GPU, PLATFORM=cpu, the job's own config (jobs/configs/r1distill70b_lora.yaml: rank-32 adapter
on all linear layers, adapter sent to vLLM (lora.merge false), load_format safetensors,
layered_summon, save_lora_only, the reference = the actor with the adapter off) with only the
sizes made tiny, on a tiny Phi3ForCausalLM with real weights standing in for the 70B model:

1. ``sbatch`` with RUN_NAME=lora: steps 1-2, saves global_step_2 (adapter + optimizer only);
2. ``sbatch`` again with the same RUN_NAME (a resubmission): resumes from global_step_2, steps
   3-4, saves global_step_4;
3. ``python -m tools.export --base MODEL``: the adapter merged into the base, loaded by
   transformers.

Three overrides change what trains, not how: lr 1e-2 without warm-up and entropy_coeff 0.01.
A random tiny model scores 0 on every response, so GRPO's advantages are all 0 and, with the
reference equal to the starting policy, the loss has no gradient at all; the entropy term gives
the adapter one, and the large rate moves it far enough to see in bf16 weights and in the KL.
A run not done by its bound (a weight sync that fails on CPU hangs) is cancelled; failures show
the log tail. Needs the CPU engine env (`make env-cpu`; `make test` builds it).
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
from real_runs import JobRun, follow, sbatch

REPO = Path(__file__).resolve().parents[1]
CPU_ENV = Path(os.environ.get("CPU_ENV", REPO / ".venv-cpu"))
JOB = "jobs/r1distill70b_lora_vllm.sh"
MODEL = "DeepSeek-R1-Distill-Llama-70B"
RUN_NAME = "lora"
FIRST, LAST = 2, 4  # run 1 trains steps 1-2, the resubmission 3-4
BOUND_S = 1200  # each run: 7-8 min on this 2-core machine under a load of 6-25; a hang is cancelled here
OVERRIDES = (
    "data.train_batch_size=4",
    "data.max_response_length=32",
    "actor_rollout_ref.rollout.n=2",
    "actor_rollout_ref.actor.ppo_mini_batch_size=4",
    "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=4096",
    "actor_rollout_ref.rollout.tensor_model_parallel_size=1",
    "actor_rollout_ref.rollout.max_model_len=2048",
    "actor_rollout_ref.rollout.max_num_batched_tokens=2048",
    "actor_rollout_ref.actor.optim.lr=1e-2",
    "actor_rollout_ref.actor.optim.lr_warmup_steps=0",
    "actor_rollout_ref.actor.entropy_coeff=0.01",
    "trainer.save_freq=2",
    "trainer.test_freq=-1",
)

pytestmark = [pytest.mark.slurm, pytest.mark.slow, pytest.mark.timeout(2 * BOUND_S + 600)]


@dataclass
class LoraRuns:
    root: Path
    ckpt: Path
    model: Path
    first: JobRun
    second: JobRun
    export: Path
    export_rc: int
    export_output: str


def submit(local_slurm: Any, env: dict[str, str], root: Path, ckpt: Path, steps: int) -> JobRun:
    """``sbatch`` the LoRA job for ``steps`` steps in all and follow it until it ends (bounded)."""
    job, log = sbatch(env, root / "out", JOB, 1, (*OVERRIDES, f"trainer.total_training_steps={steps}"))
    rc, output = follow(
        local_slurm, job, log, ckpt, signal_at_step=0, timeout=BOUND_S, rss_out=root / "out" / f"peak-{job}"
    )
    return JobRun(job, rc, log, root / "logs" / job, output)


@pytest.fixture(scope="module")
def lora_runs(local_slurm: Any, tmp_path_factory: pytest.TempPathFactory) -> LoraRuns:
    if not (CPU_ENV / "bin" / "python").exists() or not (CPU_ENV / ".cpu-env-installed").exists():
        pytest.fail(f"no CPU engine env at {CPU_ENV}. Fix: make env-cpu (make test builds it)", pytrace=False)
    from tools.testbed.tiny_model import make_tiny_model

    root = tmp_path_factory.mktemp("train_cpu_lora")
    model = make_tiny_model(root / "models" / MODEL, family="phi3", with_weights=True)
    subprocess.run(
        [sys.executable, "-m", "dataprep", "synthetic", "--output", str(root / "data" / "omni_math")]
        + ["--n", "64", "--seed", "0", "--prompt-template", "boxed"],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=120,
    )
    site = root / "site.env"
    dirs = {"DATA_ROOT": "data", "MODEL_ROOT": "models", "CKPT_ROOT": "ckpt", "LOG_ROOT": "logs"}
    site.write_text(
        f"export PLATFORM=cpu\nexport ENV_PREFIX_VLLM={CPU_ENV}\n"
        + "".join(f"export {k}={root / v}\n" for k, v in dirs.items())
    )
    (root / "out").mkdir()
    env = dict(local_slurm.env, SITE_ENV=str(site), PREFLIGHT="0", GRPO_REPO=str(REPO), RUN_NAME=RUN_NAME)
    env.pop("SLURM_JOB_ID", None)
    ckpt = root / "ckpt" / "r1distill70b_lora" / RUN_NAME
    first = submit(local_slurm, env, root, ckpt, FIRST)
    second = submit(local_slurm, env, root, ckpt, LAST) if first.rc == 0 else first
    export = root / "export"
    rc, output = -1, ""
    if second.rc == 0:
        # with the trainer's torch: verl's DTensor shards do not load across torch versions
        proc = subprocess.run(
            [str(CPU_ENV / "bin" / "python"), "-m", "tools.export", str(ckpt), "--base", str(model)]
            + ["--out", str(export)],
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            capture_output=True,
            text=True,
            timeout=300,
        )
        rc, output = proc.returncode, proc.stdout + proc.stderr
    return LoraRuns(root, ckpt, model, first, second, export, rc, output)


def test_lora_job_trains_the_adapter_and_vllm_serves_it(lora_runs: LoraRuns) -> None:
    run = lora_runs.first
    assert run.rc == 0, run.why()
    text = run.text()
    # verl started vLLM's CPU build with LoRA slots for the job's rank
    assert "'--enable_lora'" in text and re.search(r"'--max_lora_rank',.{0,120}?'32'", text, re.DOTALL), (
        run.why()
    )
    steps = run.metrics()
    assert sorted(steps) == [1, 2], run.why()
    for step in steps.values():
        assert step["actor/grad_norm"] > 0  # the adapter gets a gradient
        assert step["response_length/mean"] > 0
    # step 2's rollouts come from vLLM with the adapter of step 1: vLLM's log-probs agree with
    # the actor's (bf16 noise) while the actor has moved away from the base (the KL loss against
    # the reference, which is the same model with the adapter switched off)
    moved, served = steps[2]["actor/kl_loss"], steps[2]["rollout_corr/k3_kl"]
    assert moved > 5 * served, f"KL(actor||base) {moved} vs KL(vLLM||actor) {served}"


def test_checkpoint_holds_only_the_adapter_and_its_optimizer(lora_runs: LoraRuns) -> None:
    assert lora_runs.first.rc == 0, lora_runs.first.why()
    import torch

    actor = lora_runs.ckpt / f"global_step_{FIRST}" / "actor"
    assert json.loads((actor / "lora_train_meta.json").read_text())["r"] == 32
    shard = torch.load(actor / "model_world_size_1_rank_0.pt", weights_only=False)
    # 2 layers x (qkv_proj, o_proj, gate_up_proj, down_proj) x (lora_A, lora_B)
    assert len(shard) == 16 and all("lora_" in key for key in shard), sorted(shard)
    assert (actor / "optim_world_size_1_rank_0.pt").is_file()


def test_resubmission_resumes_the_adapter(lora_runs: LoraRuns) -> None:
    run = lora_runs.second
    assert run.rc == 0, run.why()
    text = run.text()
    assert re.search(rf"resume: run {RUN_NAME} resumes from global_step_{FIRST}\b", text), run.why()
    assert re.search(rf"Resuming from \S+/global_step_{FIRST}\b", text), run.why()
    steps = run.metrics()
    assert sorted(steps) == [FIRST + 1, LAST], run.why()
    # verl loaded the adapter-only shard, and the adapter is the trained one: a fresh adapter
    # (B = 0) is the base itself, KL 0 against the reference, as at step 1. vLLM serves the
    # restored adapter from the first step on: the actor is away from the base (measured 0.008)
    # while vLLM's log-probs are the actor's (0.0004); without it in vLLM the two would be equal
    assert "Loaded LoRA-only checkpoint (16 keys)" in text, run.why()
    assert lora_runs.first.metrics()[1]["actor/kl_loss"] == 0
    kl, served = steps[FIRST + 1]["actor/kl_loss"], steps[FIRST + 1]["rollout_corr/k3_kl"]
    assert kl > 5 * served, f"KL(actor||base) {kl} vs KL(vLLM||actor) {served}"
    assert (lora_runs.ckpt / "latest_checkpointed_iteration.txt").read_text().strip() == str(LAST)
    assert f"trainer: finished (run complete at global_step_{LAST})" in text


def test_export_merges_the_adapter_into_the_base(lora_runs: LoraRuns) -> None:
    assert lora_runs.export_rc == 0, lora_runs.export_output
    import torch
    from safetensors.torch import load_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    export = lora_runs.export
    manifest = json.loads((export / "export.json").read_text())
    assert manifest["step"] == LAST and manifest["lora"]["merged"] is True
    assert (manifest["lora"]["rank"], manifest["lora"]["alpha"]) == (32, 32)
    merged = AutoModelForCausalLM.from_pretrained(export, dtype=torch.float32).state_dict()
    base = AutoModelForCausalLM.from_pretrained(lora_runs.model, dtype=torch.float32).state_dict()
    adapter = load_file(export / "lora_adapter" / "adapter_model.safetensors")
    assert merged.keys() == base.keys()
    targets = 0
    for name, weight in base.items():
        a = adapter.get(f"base_model.model.{name.removesuffix('.weight')}.lora_A.weight")
        if a is None:
            assert torch.equal(merged[name], weight), f"{name} is no LoRA target but changed"
            continue
        b = adapter[f"base_model.model.{name.removesuffix('.weight')}.lora_B.weight"]
        delta = b.float() @ a.float()  # alpha / r = 1
        assert delta.abs().max() > 1e-3, f"{name}: the trained adapter is ~0"
        # the merged weight is base + B @ A (bf16 rounding of the sum)
        assert torch.allclose(merged[name], weight + delta, atol=2e-3, rtol=1e-2), name
        assert not torch.equal(merged[name], weight)
        targets += 1
    assert targets == 8  # 2 layers x 4 target modules
    tok = AutoTokenizer.from_pretrained(export)
    model = AutoModelForCausalLM.from_pretrained(export)
    ids = tok("The answer is", return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**ids, max_new_tokens=1, do_sample=False, pad_token_id=tok.pad_token_id)
    assert out.shape[1] == ids["input_ids"].shape[1] + 1


def test_export_of_an_adapter_only_checkpoint_needs_the_base(lora_runs: LoraRuns) -> None:
    assert lora_runs.second.rc == 0, lora_runs.second.why()
    out = lora_runs.root / "export-no-base"
    proc = subprocess.run(
        [str(CPU_ENV / "bin" / "python"), "-m", "tools.export", str(lora_runs.ckpt), "--out", str(out)],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert "holds only the LoRA adapter" in proc.stderr and "--base MODEL_DIR" in proc.stderr, proc.stderr
    assert not out.exists() and not list(out.parent.glob(f".{out.name}.*"))
