"""jobs/lib/compose.py (the launcher's config record) gives exactly what verl's own
`python -m verl.trainer.main_ppo ... --cfg job --resolve` prints, for the shipped experiments
with the launcher's kinds of overrides (engine switch, `+` keys, hydra.run.dir, user keys)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CASES = {
    # the demo's job in CPU mode: `+` keys into engine_kwargs, a group switch, a user override
    "phi4_vllm_cpu": (
        "phi4_omni_math",
        "engine=vllm",
        "trainer.device=cpu",
        "+actor_rollout_ref.rollout.enable_sleep_mode=false",
        "actor_rollout_ref.actor.use_torch_compile=false",
        "data.train_batch_size=4",
    ),
    "r1distill70b_lora_sglang": ("r1distill70b_lora", "engine=sglang", "trainer.nnodes=1"),
}


def run(args: list[str], env: dict[str, str]) -> str:
    proc = subprocess.run(args, env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


@pytest.mark.parametrize("case", sorted(CASES))
def test_compose_equals_verls_own_composition(case: str, tmp_path: Path) -> None:
    name, *overrides = CASES[case]
    env = dict(
        os.environ,
        DATA_ROOT=str(tmp_path / "d"),
        MODEL_ROOT=str(tmp_path / "m"),
        CKPT_ROOT=str(tmp_path / "c"),
    )
    common = [f"--config-path={REPO / 'jobs' / 'configs'}", f"--config-name={name}", *overrides]
    common.append(f"hydra.run.dir={tmp_path / 'hydra'}")
    ours = run([sys.executable, "jobs/lib/compose.py", *common], env)
    verls = run([sys.executable, "-m", "verl.trainer.main_ppo", *common, "--cfg", "job", "--resolve"], env)
    assert ours == verls
    assert "actor_rollout_ref:" in ours and str(tmp_path / "d") in ours  # resolved, not empty


def test_compose_bad_input_names_the_problem(tmp_path: Path) -> None:
    configs = f"--config-path={REPO / 'jobs' / 'configs'}"
    proc = subprocess.run(
        [sys.executable, "jobs/lib/compose.py", configs, "--config-name=no_such_experiment"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0 and "no_such_experiment.yaml" in proc.stderr
    env = dict(os.environ, DATA_ROOT="/d", MODEL_ROOT="/m", CKPT_ROOT="/c")
    proc = subprocess.run(
        [sys.executable, "jobs/lib/compose.py", configs, "--config-name=gsm8k_qwen", "trainer.no_such_key=1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode != 0 and "no_such_key" in proc.stderr
