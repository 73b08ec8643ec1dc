"""The memory estimate (tools/preflight/memory.py) against published model sizes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.preflight import memory as mem

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "model_configs"


def shape(name: str):
    return mem.ModelShape.from_hf_config(json.loads((FIXTURES / name).read_text()))


def test_phi4_parameters_and_kv_bytes():
    phi4 = shape("phi4_14b.json")
    assert phi4.params() == pytest.approx(14.7e9, rel=0.005)
    # 2 (K,V) x 40 layers x 10 KV heads x 128 head_dim x 2 bytes (bf16)
    assert phi4.kv_bytes_per_token() == 204_800


def test_qwen25_05b_matches_published_count():
    qwen = shape("qwen2_5_0_5b.json")
    assert qwen.tied_embeddings
    assert qwen.head_dim == 64  # derived: 896 / 14
    assert qwen.params() == pytest.approx(0.49e9, rel=0.02)
    assert qwen.kv_bytes_per_token() == 2 * 24 * 2 * 64 * 2


def test_untying_embeddings_adds_vocab_times_hidden():
    cfg = json.loads((FIXTURES / "qwen2_5_0_5b.json").read_text())
    tied = mem.ModelShape.from_hf_config(cfg).params()
    cfg["tie_word_embeddings"] = False
    assert mem.ModelShape.from_hf_config(cfg).params() - tied == 151936 * 896


def test_kv_heads_are_replicated_when_tp_exceeds_them():
    qwen = shape("qwen2_5_0_5b.json")  # 2 KV heads
    assert qwen.kv_bytes_per_token(tp=2) == qwen.kv_bytes_per_token() // 2
    # TP=4 > 2 KV heads: every rank keeps one full head, not half a head
    assert qwen.kv_bytes_per_token(tp=4) == qwen.kv_bytes_per_token(tp=2)


def test_missing_field_names_it():
    with pytest.raises(mem.ModelConfigError, match="num_hidden_layers"):
        mem.ModelShape.from_hf_config({"hidden_size": 8, "num_attention_heads": 2, "vocab_size": 10})


def phi4_job(**kw):
    base = dict(
        n_gpus=8,
        rollout_tp=2,
        gpu_memory_utilization=0.7,
        train_batch_size=16,
        rollout_n=8,
        max_prompt_length=1020,
        max_response_length=31744,
        param_offload=True,
        optimizer_offload=True,
        train_tokens_per_gpu=32768,
    )
    base.update(kw)
    return mem.JobShape(**base)


def test_fsdp_sharding_and_offload_breakdown():
    est = mem.estimate(shape("phi4_14b.json"), phi4_job())
    g = est.per_gpu_gib
    p = est.params
    assert g["train_weights"] == pytest.approx(p * 4 / 8 / mem.GIB, abs=0.01)  # fp32 master, 8-way shard
    assert g["train_adam"] == pytest.approx(2 * g["train_weights"], abs=0.02)
    assert g["rollout_weights"] == pytest.approx(p * 2 / 2 / mem.GIB, abs=0.01)  # bf16 over TP=2
    assert est.rollout_replicas == 4
    r = est.resident_during_rollout_gib
    assert r["param_and_optimizer_offload"] == 0.0
    assert r["no_offload"] == pytest.approx(g["train_weights"] + g["train_adam"], abs=0.02)
    assert r["param_offload"] < r["no_offload"] and r["optimizer_offload"] < r["no_offload"]
    assert g["actor_resident_during_rollout"] == 0.0


def test_kv_capacity_and_serialisation_warning():
    est = mem.estimate(shape("phi4_14b.json"), phi4_job())
    per_gpu_kv = est.per_gpu_gib["rollout_kv_cache"] * mem.GIB
    assert est.kv_tokens_per_replica == pytest.approx(per_gpu_kv / (204_800 / 2), rel=0.01)
    assert est.seqs_in_flight_per_replica == 16 * 8 / 4
    assert est.kv_tokens_per_replica < est.tokens_in_flight_per_replica
    assert any("serialised" in w for w in est.warnings)
    assert not est.errors
    small = mem.estimate(shape("phi4_14b.json"), phi4_job(max_response_length=1024, max_prompt_length=1024))
    assert not any("serialised" in w for w in small.warnings)


def test_weights_that_do_not_fit_are_an_error():
    est = mem.estimate(shape("phi4_14b.json"), phi4_job(rollout_tp=1, gpu_memory_utilization=0.3))
    assert any("rollout weights" in e for e in est.errors)
    one_gpu = mem.estimate(shape("phi4_14b.json"), phi4_job(n_gpus=1, rollout_tp=1))
    assert any("weights+grads+Adam" in e for e in one_gpu.errors)


def test_resident_actor_state_plus_engine_budget_must_fit():
    est = mem.estimate(
        shape("phi4_14b.json"),
        phi4_job(param_offload=False, optimizer_offload=False, gpu_memory_utilization=0.9),
    )
    assert any("resident" in e for e in est.errors)


def test_sdpa_with_packed_sequences_counts_the_dense_mask():
    t = 39904
    packed = mem.estimate(
        shape("phi4_14b.json"),
        phi4_job(train_tokens_per_gpu=t, attn_implementation="sdpa", remove_padding=True),
    )
    assert packed.per_gpu_gib["train_sdpa_packed_mask"] == pytest.approx(t * t / mem.GIB, abs=0.01)
    assert any("sdpa" in w and f"{t}x{t}" in w and "flash-attn" in w for w in packed.warnings)
    flash = mem.estimate(
        shape("phi4_14b.json"),
        phi4_job(train_tokens_per_gpu=t, attn_implementation="flash_attention_2", remove_padding=True),
    )
    padded = mem.estimate(
        shape("phi4_14b.json"),
        phi4_job(train_tokens_per_gpu=t, attn_implementation="sdpa", remove_padding=False),
    )
    for est in (flash, padded):
        assert est.per_gpu_gib["train_sdpa_packed_mask"] == 0.0
        assert not any("sdpa" in w for w in est.warnings)
    gap = packed.per_gpu_gib["train_peak"] - flash.per_gpu_gib["train_peak"]
    assert gap == pytest.approx(t * t / mem.GIB, abs=0.02)
