"""Preflight (the real verl 0.9.1 on CPU) on the 70B LoRA jobs and the capacity checks: the LoRA job
fits one 8 x H100 node on either engine, the same model without LoRA is refused with the memory named,
verl's LoRA rules are caught before the queue, host RAM and checkpoint disk are checked against the
node and the filesystem. The numbers each test expects are derived in tests/test_preflight_memory.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from test_preflight_jobs import Site, errors_of, make_site, run

from tools.preflight import capacity
from tools.preflight.memory import WARN_FRACTION

LORA_JOBS = ("r1distill70b_lora_vllm", "r1distill70b_lora_sglang")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path, shared_fixtures: Path) -> Site:
    return make_site(tmp_path_factory.mktemp("preflight_lora_site"), tiny_model_dir, shared_fixtures)


def job(name: str) -> str:
    return str(REPO_ROOT / "jobs" / f"{name}.sh")


def warnings_of(out: dict, check: str) -> list[str]:
    return [w for w in out["warnings"] if w.startswith(f"[{check}]")]


@pytest.mark.slow
@pytest.mark.parametrize("script", LORA_JOBS)
def test_70b_lora_job_fits_one_node(site, monkeypatch, capsys, script, tmp_path):
    png = tmp_path / "memory.png"
    code, out = run(site, monkeypatch, capsys, job(script), "--plot", str(png))
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert code == 0, out["errors"]
    mem = out["memory"]
    assert mem["params_billion"] == pytest.approx(70.554, abs=0.001)
    assert mem["lora_params"] == 414_187_520
    assert mem["peak_fraction"] <= WARN_FRACTION
    assert not warnings_of(out, "memory") or all("serialised" in w for w in warnings_of(out, "memory"))
    statuses = {c["name"]: c["status"] for c in out["checks"]}
    assert statuses["lora"] == "ok" and statuses["checkpoint disk"] == "ok"
    # LoRA-only checkpoints: adapter + its Adam, 2.5 GB instead of 141 GB of frozen base
    assert mem["node"]["checkpoint_gb"] == 2.5


@pytest.mark.slow
def test_70b_without_lora_on_one_node_fails_with_the_memory_named(site, monkeypatch, capsys):
    code, out = run(
        site,
        monkeypatch,
        capsys,
        job("r1distill70b_lora_vllm"),
        "actor_rollout_ref.model.lora_rank=0",
        "actor_rollout_ref.actor.fsdp_config.model_dtype=fp32",
    )
    assert code == 1
    msgs = errors_of(out, "memory")
    # 70.55e9 params x 16 bytes (fp32 weights, grads, 2 Adam moments) / 8 GPUs = 131.42 GiB
    assert any("131.42 GiB per GPU" in m and "70.55B params x 16 bytes" in m and "LoRA" in m for m in msgs), (
        msgs
    )
    # only lora_rank=0 (bf16 weights, grads and Adam: 8 bytes x 70.55e9 / 8 = 65.71 GiB per GPU)
    code, out = run(
        site, monkeypatch, capsys, job("r1distill70b_lora_vllm"), "actor_rollout_ref.model.lora_rank=0"
    )
    assert code == 1
    msgs = errors_of(out, "memory")
    assert any("> 79.6 GiB of HBM" in m and "full fine-tune" in m and "65.71 GiB" in m for m in msgs), msgs


@pytest.mark.slow
def test_70b_lora_at_tp4(site, monkeypatch, capsys):
    tp4 = "actor_rollout_ref.rollout.tensor_model_parallel_size=4"
    code, out = run(site, monkeypatch, capsys, job("r1distill70b_lora_vllm"), tp4)
    assert code == 0, out["errors"]
    assert out["memory"]["rollout_replicas"] == 2
    # SGLang keeps its 32.85 GiB base shard on each GPU while the actor trains: above 88 %, named
    code, out = run(site, monkeypatch, capsys, job("r1distill70b_lora_sglang"), tp4)
    assert out["memory"]["peak_fraction"] > WARN_FRACTION
    assert any("SGLang keeps its base weights" in w for w in warnings_of(out, "memory"))


@pytest.mark.slow
def test_shipped_phi4_fits_with_the_new_terms(site, monkeypatch, capsys):
    for engine in ("sglang", "vllm"):
        code, out = run(site, monkeypatch, capsys, job(f"phi4_{engine}"))
        assert code == 0, out["errors"]
        assert out["memory"]["peak_fraction"] <= WARN_FRACTION
        assert out["memory"]["per_gpu_gib"]["train_sdpa_bias"] == 2.0
    # the shipped settings before the fix: 39,904 tokens/GPU, fp32 reference, no activation offload
    code, out = run(
        site,
        monkeypatch,
        capsys,
        job("phi4_sglang"),
        "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=39904",
        "actor_rollout_ref.ref.fsdp_config.model_dtype=fp32",
        "actor_rollout_ref.model.enable_activation_offload=false",
    )
    assert code == 1
    assert any("training phase" in e and "ppo_max_token_len_per_gpu" in e for e in errors_of(out, "memory"))
    assert out["memory"]["node"]["host_gb"]["reference"] == 58.6  # fp32 reference in host RAM


@pytest.mark.slow
def test_host_ram_is_checked_against_the_node(site, monkeypatch, capsys):
    code, out = run(site, monkeypatch, capsys, job("phi4_sglang"), node_mem_gb="256")
    assert code == 1
    msgs = errors_of(out, "host memory")
    assert msgs and "NODE_MEM_GB" in msgs[0] and "256 GB" in msgs[0]
    need = out["memory"]["node"]["host_total_gb"]
    assert need > 256
    code, out = run(site, monkeypatch, capsys, job("phi4_sglang"), node_mem_gb=str(round(need / 0.95)))
    assert code == 0 and warnings_of(out, "host memory")  # fits, but above 90 %
    code, out = run(site, monkeypatch, capsys, job("phi4_sglang"), node_mem_gb="lots")
    assert any("NODE_MEM_GB='lots'" in e for e in errors_of(out, "host memory"))


@pytest.mark.slow
def test_checkpoint_disk_against_the_real_filesystem(site, monkeypatch, capsys):
    free_gb = shutil.disk_usage(site.ckpt).free / 1e9
    # enough kept Phi-4 checkpoints (175.9 GB each) to overflow this machine's disk
    keep = int(free_gb // 175.9) + 1
    code, out = run(
        site, monkeypatch, capsys, job("phi4_vllm"), f"trainer.max_actor_ckpt_to_keep={keep}", real_disk=True
    )
    assert code == 1
    msgs = errors_of(out, "checkpoint disk")
    assert msgs and f"175.9 GB each x {keep} kept + 1 being written" in msgs[0]
    assert out["memory"]["node"]["disk_free_gb"] == pytest.approx(free_gb, rel=0.05)
    # a quota smaller than the filesystem: the site says so with CKPT_FREE_GB
    monkeypatch.setenv("CKPT_FREE_GB", "300")
    code, out = run(site, monkeypatch, capsys, job("phi4_vllm"), real_disk=None)
    assert code == 1
    assert any("527.7 GB" in e and "CKPT_FREE_GB" in e for e in errors_of(out, "checkpoint disk"))


@pytest.mark.slow
def test_lora_rules_verl_enforces(site, monkeypatch, capsys):
    base = job("r1distill70b_lora_vllm")
    code, out = run(site, monkeypatch, capsys, base, "actor_rollout_ref.rollout.load_format=dummy")
    assert code == 1 and any("layered_summon" in e and "safetensors" in e for e in errors_of(out, "lora"))
    code, out = run(
        site,
        monkeypatch,
        capsys,
        base,
        "actor_rollout_ref.rollout.load_format=dummy",
        "actor_rollout_ref.rollout.layered_summon=false",
    )
    assert code == 0 and any("host RAM" in w for w in warnings_of(out, "lora"))
    code, out = run(site, monkeypatch, capsys, base, "actor_rollout_ref.model.lora_rank=48")
    assert any("max_lora_rank=64" in w for w in warnings_of(out, "lora"))
    code, out = run(site, monkeypatch, capsys, base, "actor_rollout_ref.model.lora_rank=600")
    assert code == 1 and any("512" in e for e in errors_of(out, "lora"))
    # merged LoRA: vLLM starts without LoRA, no rank rule
    code, out = run(
        site,
        monkeypatch,
        capsys,
        base,
        "actor_rollout_ref.model.lora_rank=600",
        "actor_rollout_ref.model.lora.merge=true",
    )
    assert not errors_of(out, "lora")
    code, out = run(
        site,
        monkeypatch,
        capsys,
        job("r1distill70b_lora_sglang"),
        "actor_rollout_ref.model.target_modules=.*_proj",
    )
    assert code == 1 and any(".*_proj" in e for e in errors_of(out, "lora"))


@pytest.mark.slow
def test_lora_adapter_path(site, monkeypatch, capsys, tmp_path):
    base = job("r1distill70b_lora_vllm")
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    key = "actor_rollout_ref.model.lora_adapter_path"
    code, out = run(site, monkeypatch, capsys, base, f"{key}={adapter}")
    assert code == 1 and any("adapter_config.json" in e for e in errors_of(out, "lora"))
    (adapter / "adapter_config.json").write_text(json.dumps({"r": 64, "lora_alpha": 64}))
    (adapter / "adapter_model.safetensors").write_bytes(b"")
    code, out = run(site, monkeypatch, capsys, base, f"{key}={adapter}")
    assert code == 1 and any("r=64" in e and "lora_rank=64" in e for e in errors_of(out, "lora"))
    code, out = run(
        site, monkeypatch, capsys, base, f"{key}={adapter}", "actor_rollout_ref.model.lora_rank=64"
    )
    assert not errors_of(out, "lora")


def test_node_memory_sources_in_order():
    assert capacity.node_memory_gb(
        {"NODE_MEM_GB": "2000", "SLURM_JOB_ID": "1", "SLURM_MEM_PER_NODE": "1024"}
    ) == (
        2000.0,
        "NODE_MEM_GB",
    )
    # Slurm counts memory in MiB: 1,048,576 MiB = 1,099.5 GB
    gb, source = capacity.node_memory_gb({"SLURM_JOB_ID": "7", "SLURM_MEM_PER_NODE": "1048576", "PATH": ""})
    assert gb == pytest.approx(1099.5, abs=0.1) and "job 7" in source


@pytest.mark.slurm
def test_node_memory_from_the_real_sinfo(local_slurm):
    """The smallest RealMemory the cluster reports (the local cluster's nodes: 65,536 MiB)."""
    gb, source = capacity.node_memory_gb(dict(local_slurm.env))
    assert "sinfo" in source
    assert gb == pytest.approx(65536 * 2**20 / 1e9, rel=0.01)
