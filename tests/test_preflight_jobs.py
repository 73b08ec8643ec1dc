"""tools/preflight/cli.py with the real verl 0.9.1 on CPU: the shipped experiments pass with both
engines, and each class of mistake fails with its own message."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from tools.preflight import cli as preflight

# --- a local "cluster site": Parquet made by dataprep/prepare.py (synthetic GSM8K-format rows and the
# real Omni-MATH sample), model dirs with the tiny tokenizer, a checkpoint root and a site file,
# laid out as jobs/site.env.example describes.
MODEL_CONFIGS = Path(__file__).resolve().parent / "fixtures" / "model_configs"


@dataclass
class Site:
    root: Path
    site_env: Path
    data: Path
    models: Path
    ckpt: Path


def _prepare(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "dataprep", *args],
        check=True,
        capture_output=True,
        cwd=REPO_ROOT,
    )


def make_site(root: Path, tiny_model_dir: Path, shared_fixtures: Path) -> Site:
    data, models, ckpt = root / "data", root / "models", root / "ckpt"
    for d in (data, models, ckpt):
        d.mkdir(parents=True)
    _prepare("synthetic", "--output", str(data / "gsm8k"), "--n", "64")
    _prepare(
        "omni-math",
        "--input",
        str(shared_fixtures / "omni_math_sample.jsonl"),
        "--output",
        str(data / "omni_math"),
        "--test-size",
        "10",
    )
    # Qwen2.5-1.5B-Instruct stand-in: the tiny model as it is.
    shutil.copytree(tiny_model_dir, models / "Qwen2.5-1.5B-Instruct")
    # Phi-4-reasoning-plus stand-in: the tiny tokenizer with Phi-4's real shape and its 32k context,
    # so the memory estimate runs on the real numbers.
    phi = models / "Phi-4-reasoning-plus"
    shutil.copytree(tiny_model_dir, phi)
    cfg = json.loads((MODEL_CONFIGS / "phi4_14b.json").read_text())
    cfg.pop("_comment", None)
    cfg["max_position_embeddings"] = 32768
    (phi / "config.json").write_text(json.dumps(cfg, indent=2))
    # DeepSeek-R1-Distill-Llama-70B stand-in: the tiny tokenizer with Llama 3 70B's shape.
    llama = models / "DeepSeek-R1-Distill-Llama-70B"
    shutil.copytree(tiny_model_dir, llama)
    cfg = json.loads((MODEL_CONFIGS / "llama3_70b.json").read_text())
    cfg.pop("_comment", None)
    (llama / "config.json").write_text(json.dumps(cfg, indent=2))
    site_env = root / "site.env"
    site_env.write_text(
        f"export DATA_ROOT={data}\nexport MODEL_ROOT={models}\nexport CKPT_ROOT={ckpt}\n", encoding="utf-8"
    )
    return Site(root=root, site_env=site_env, data=data, models=models, ckpt=ckpt)


EXPERIMENTS = ["phi4_omni_math", "gsm8k_qwen", "r1distill70b_lora"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path, shared_fixtures: Path) -> Site:
    return make_site(tmp_path_factory.mktemp("preflight_site"), tiny_model_dir, shared_fixtures)


# What a cluster's checkpoint filesystem offers (CI's disk cannot hold a 176 GB Phi-4 checkpoint),
# given the way a site does (CKPT_FREE_GB); tests of the disk check itself pass real_disk=True.
CLUSTER_FS_FREE_GB = "50000"
# A typical 8 x H100 node (DGX H100: 2 TB); tests of the host-RAM check set NODE_MEM_GB themselves.
NODE_MEM_GB = "2000"


def run(
    site: Site,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *argv: str,
    real_disk: bool | None = False,
    node_mem_gb: str | None = NODE_MEM_GB,
):
    """preflight in-process (verl is imported once per session); returns (exit code, JSON)."""
    monkeypatch.setenv("SITE_ENV", str(site.site_env))
    if node_mem_gb is None:
        monkeypatch.delenv("NODE_MEM_GB", raising=False)
    else:
        monkeypatch.setenv("NODE_MEM_GB", node_mem_gb)
    if real_disk:
        monkeypatch.delenv("CKPT_FREE_GB", raising=False)
    elif real_disk is False:  # None: leave CKPT_FREE_GB as the test set it
        monkeypatch.setenv("CKPT_FREE_GB", CLUSTER_FS_FREE_GB)
    for var in (
        "SLURM_JOB_ID",
        "SLURM_JOB_NUM_NODES",
        "SLURM_NNODES",
        "DATA_ROOT",
        "MODEL_ROOT",
        "CKPT_ROOT",
    ):
        monkeypatch.delenv(var, raising=False)
    code = preflight.main([*argv, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] == (code == 0)
    return code, out


def errors_of(out: dict, check: str) -> list[str]:
    return [e for e in out["errors"] if e.startswith(f"[{check}]")]


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["sglang", "vllm"])
@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_shipped_experiment_passes(site, monkeypatch, capsys, experiment, engine):
    code, out = run(site, monkeypatch, capsys, experiment, "--engine", engine, "--nodes", "1")
    assert code == 0, out["errors"]
    assert out["engine"] == engine
    statuses = {c["name"]: c["status"] for c in out["checks"]}
    for name in ("compose", "verl validation", "model", "train data", "val data", "reward", "checkpoint dir"):
        assert statuses[name] == "ok", (name, out["checks"])
    mem = out["memory"]
    for key in ("params_billion", "kv_bytes_per_token", "kv_tokens_per_replica", "per_gpu_gib"):
        assert key in mem
    if experiment == "phi4_omni_math":
        assert mem["params_billion"] == pytest.approx(14.66, abs=0.05)
        assert mem["kv_bytes_per_token"] == 204_800


def test_phi4_reward_without_its_kernel_warns(site, monkeypatch, capsys, tmp_path):
    from rewards import repetition_native

    monkeypatch.setattr(repetition_native, "BUILD_DIR", tmp_path / "not-built")
    code, out = run(site, monkeypatch, capsys, "phi4_omni_math", "--engine", "vllm", "--nodes", "1")
    assert code == 0, out["errors"]
    warned = [w for w in out["warnings"] if w.startswith("[reward]")]
    assert len(warned) == 1 and "make native" in warned[0], out["warnings"]


def test_job_script_gives_experiment_and_engine(site, monkeypatch, capsys):
    script = REPO_ROOT / "jobs" / "gsm8k_qwen_vllm.sh"
    if not script.is_file():
        pytest.skip("jobs/gsm8k_qwen_vllm.sh not present")
    code, out = run(site, monkeypatch, capsys, str(script))
    assert code == 0, out["errors"]
    assert (out["experiment"], out["engine"]) == ("gsm8k_qwen", "vllm")
    assert "engine=vllm" in out["overrides"]


def test_legacy_reward_key_names_the_new_key(site, monkeypatch, capsys):
    code, out = run(
        site,
        monkeypatch,
        capsys,
        "gsm8k_qwen",
        "--engine",
        "sglang",
        "custom_reward_function.path=/x/reward.py",
    )
    assert code == 1
    (msg,) = errors_of(out, "legacy keys")
    assert "custom_reward_function.path" in msg and "IGNORED" in msg
    assert "reward.custom_reward_function.path" in msg


def test_legacy_reward_model_enable(site, monkeypatch, capsys):
    code, out = run(site, monkeypatch, capsys, "gsm8k_qwen", "--engine", "sglang", "reward_model.enable=true")
    assert code == 1
    assert any("'reward.reward_model.enable'" in e for e in errors_of(out, "legacy keys"))


def test_unknown_key_on_command_line_suggests_the_real_one(site, monkeypatch, capsys):
    code, out = run(
        site,
        monkeypatch,
        capsys,
        "gsm8k_qwen",
        "--engine",
        "sglang",
        "actor_rollout_ref.rollout.tensor_parallel_size=2",
    )
    assert code == 1
    (msg,) = errors_of(out, "compose")
    assert "unknown key 'actor_rollout_ref.rollout.tensor_parallel_size'" in msg
    assert "did you mean 'actor_rollout_ref.rollout.tensor_model_parallel_size'" in msg


def test_leftover_plus_from_verl_04(site, monkeypatch, capsys):
    code, out = run(site, monkeypatch, capsys, "gsm8k_qwen", "+data.dataloader_num_workers=4")
    assert code == 1
    assert "drop the leading '+'" in errors_of(out, "compose")[0]


def test_unknown_key_in_experiment_yaml(site, monkeypatch, capsys, tmp_path):
    configs = tmp_path / "configs"
    shutil.copytree(REPO_ROOT / "jobs" / "configs", configs)
    text = (configs / "gsm8k_qwen.yaml").read_text()
    (configs / "typo.yaml").write_text(text + "\ncritic:\n  ppo_mini_batch_sise: 4\n")
    code, out = run(site, monkeypatch, capsys, "typo", "--engine", "sglang", "--config-dir", str(configs))
    assert code == 1
    (msg,) = errors_of(out, "unknown keys")
    assert "critic.ppo_mini_batch_sise" in msg and "critic.ppo_mini_batch_size" in msg


def test_batch_that_does_not_divide_over_gpus(site, monkeypatch, capsys):
    # 5 prompts x n=8 = 40 sequences per mini-batch over 16 GPUs (2 nodes)
    code, out = run(
        site,
        monkeypatch,
        capsys,
        "gsm8k_qwen",
        "--nodes",
        "2",
        "data.train_batch_size=10",
        "actor_rollout_ref.actor.ppo_mini_batch_size=5",
    )
    assert code == 1
    msgs = errors_of(out, "batch sizes") + errors_of(out, "verl validation")
    assert any("5 x 8 = 40" in m and "16 data-parallel ranks" in m for m in msgs), out["errors"]


def test_grpo_with_one_sample_per_prompt_warns(site, monkeypatch, capsys):
    code, out = run(site, monkeypatch, capsys, "gsm8k_qwen", "actor_rollout_ref.rollout.n=1")
    assert code == 0, out["errors"]
    assert any(w.startswith("[algorithm]") and "rollout.n=1" in w for w in out["warnings"])


def test_missing_data_file(site, monkeypatch, capsys):
    missing = site.data / "nope" / "train.parquet"
    code, out = run(site, monkeypatch, capsys, "gsm8k_qwen", f"data.train_files={missing}")
    assert code == 1
    assert any(str(missing) in e and "does not exist" in e for e in errors_of(out, "train data"))


def test_reward_that_raises(site, monkeypatch, capsys, tmp_path):
    bad = tmp_path / "bad_reward.py"
    bad.write_text(
        "def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kw):\n"
        "    raise KeyError('answer')\n"
    )
    code, out = run(site, monkeypatch, capsys, "gsm8k_qwen", f"reward.custom_reward_function.path={bad}")
    assert code == 1
    (msg,) = errors_of(out, "reward")
    assert "KeyError" in msg and "row 0" in msg


def test_reward_with_missing_function_name(site, monkeypatch, capsys, tmp_path):
    ok = tmp_path / "reward.py"
    ok.write_text("def score(**kw):\n    return 1.0\n")
    code, out = run(
        site,
        monkeypatch,
        capsys,
        "gsm8k_qwen",
        f"reward.custom_reward_function.path={ok}",
        "reward.custom_reward_function.name=compute_score",
    )
    assert code == 1
    assert "compute_score" in errors_of(out, "reward")[0]


def test_relative_checkpoint_dir(site, monkeypatch, capsys):
    code, out = run(site, monkeypatch, capsys, "gsm8k_qwen", "trainer.default_local_dir=checkpoints/run1")
    assert code == 1
    (msg,) = errors_of(out, "checkpoint dir")
    assert "relative" in msg and "checkpoints/run1" in msg


def test_allocation_mismatch_inside_slurm(site, monkeypatch, capsys):
    monkeypatch.setenv("SITE_ENV", str(site.site_env))
    monkeypatch.setenv("SLURM_JOB_ID", "42")
    monkeypatch.setenv("SLURM_JOB_NUM_NODES", "2")
    monkeypatch.setenv("SLURM_GPUS_ON_NODE", "4")
    code = preflight.main(["gsm8k_qwen", "--json", "trainer.nnodes=1", "trainer.n_gpus_per_node=8"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    msgs = errors_of(out, "allocation")
    assert any("trainer.nnodes=1" in m and "2 node(s)" in m for m in msgs)
    assert any("n_gpus_per_node=8" in m and "4 GPU(s)" in m for m in msgs)


def test_rollout_tp_must_divide_gpus_per_node(site, monkeypatch, capsys):
    code, out = run(
        site, monkeypatch, capsys, "gsm8k_qwen", "actor_rollout_ref.rollout.tensor_model_parallel_size=3"
    )
    assert code == 1
    assert errors_of(out, "rollout parallelism")


def test_response_longer_than_model_context(site, monkeypatch, capsys):
    code, out = run(site, monkeypatch, capsys, "gsm8k_qwen", "data.max_response_length=8192")
    assert code == 1  # the tiny model's max_position_embeddings is 4096
    assert any("max_position_embeddings=4096" in e for e in errors_of(out, "lengths"))


def test_missing_site_variable_is_explained(site, monkeypatch, capsys, tmp_path):
    partial = tmp_path / "site.env"
    partial.write_text(f"export MODEL_ROOT={site.models}\nexport CKPT_ROOT={site.ckpt}\n")
    monkeypatch.setenv("SITE_ENV", str(partial))
    monkeypatch.delenv("DATA_ROOT", raising=False)
    code = preflight.main(["gsm8k_qwen", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    assert "DATA_ROOT is not set" in errors_of(out, "resolve")[0]


@pytest.mark.slow
def test_command_line_table_and_exit_code(site):
    """The real entry point in a fresh interpreter, as the launcher runs it."""
    env = {
        "PATH": "/usr/bin:/bin",
        "SITE_ENV": str(site.site_env),
        "HOME": str(site.root),
        "PYTHONPATH": str(REPO_ROOT),  # as the launcher and the Makefile set it
    }
    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.preflight",
            "gsm8k_qwen",
            "--engine",
            "vllm",
            "--nodes",
            "1",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=site.root,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "verdict: PASS" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "tools.preflight", "gsm8k_qwen", "reward_model.enable=true"],
        capture_output=True,
        text=True,
        env=env,
        cwd=site.root,
        timeout=120,
    )
    assert bad.returncode == 1
    assert "verdict: FAIL" in bad.stdout and "reward.reward_model.enable" in bad.stdout


def test_engine_rules_lora_on_sglang(site, monkeypatch, capsys):
    code, out = run(
        site,
        monkeypatch,
        capsys,
        "gsm8k_qwen",
        "--engine",
        "sglang",
        "actor_rollout_ref.model.lora_rank=16",
        "actor_rollout_ref.model.target_modules=.*proj",
    )
    assert code == 1
    assert any("all-linear" in m and ".*proj" in m for m in errors_of(out, "lora"))
    # the shipped config's load_format is dummy: the first sync gathers the base into host RAM
    assert any("[lora]" in w and "load_format=safetensors" in w for w in out["warnings"])


def test_rollout_name_override_fighting_the_overlay(site, monkeypatch, capsys):
    code, out = run(
        site, monkeypatch, capsys, "gsm8k_qwen", "--engine", "sglang", "actor_rollout_ref.rollout.name=vllm"
    )
    assert code == 1
    assert any("engine=sglang" in m for m in errors_of(out, "engine"))
