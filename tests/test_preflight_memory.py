"""The memory estimate (tools/preflight/memory.py) against published model sizes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.preflight import memory as mem
from tools.preflight import node

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
    assert gap == pytest.approx(3 * t * t / mem.GIB, abs=0.02)  # bool mask T*T + its bf16 bias 2*T*T


# ---------------------------------------------------------------------------- terms added for issue 12/16
GIB = mem.GIB
P_PHI4 = 14_659_507_200  # embed 100352*5120 x2 (untied) + 40 x 340,797,440 per layer + 5120


def test_phi4_parameter_count_from_first_principles():
    phi4 = shape("phi4_14b.json")
    # per layer: q,o 2 x 5120 x 5120 + k,v 2 x 5120 x 1280 + MLP 3 x 5120 x 17920 + 2 norms x 5120
    assert phi4.params_per_layer() == 2 * 5120 * 5120 + 2 * 5120 * 1280 + 3 * 5120 * 17920 + 2 * 5120
    assert phi4.params() == P_PHI4


def test_sdpa_bias_is_a_second_bf16_copy_of_the_mask():
    t = 32768
    sdpa = mem.estimate(
        shape("phi4_14b.json"),
        phi4_job(train_tokens_per_gpu=t, attn_implementation="sdpa", remove_padding=True),
    )
    flash = mem.estimate(shape("phi4_14b.json"), phi4_job(train_tokens_per_gpu=t, remove_padding=True))
    # boolean mask T*T bytes = 1 GiB at T = 32768, and its bf16 bias 2*T*T = 2 GiB
    assert sdpa.per_gpu_gib["train_sdpa_packed_mask"] == 1.0
    assert sdpa.per_gpu_gib["train_sdpa_bias"] == 2.0
    assert flash.per_gpu_gib["train_sdpa_bias"] == 0.0
    assert sdpa.per_gpu_gib["train_peak"] - flash.per_gpu_gib["train_peak"] == pytest.approx(3.0, abs=0.02)


def test_every_gpu_pays_two_cuda_contexts_and_their_nccl_buffers():
    g = mem.estimate(shape("phi4_14b.json"), phi4_job()).per_gpu_gib
    # FSDP worker: context + NCCL (8 GPUs); engine TP worker at TP=2: context + NCCL
    assert g["worker_context"] == mem.CUDA_CONTEXT_GIB + mem.NCCL_GIB == 1.1
    assert g["engine_context"] == 1.1
    alone = mem.estimate(shape("qwen2_5_0_5b.json"), phi4_job(n_gpus=1, rollout_tp=1)).per_gpu_gib
    # one GPU, TP=1: nobody to talk to, no NCCL communicator
    assert alone["worker_context"] == alone["engine_context"] == mem.CUDA_CONTEXT_GIB


def test_what_the_sleeping_engine_keeps_during_the_update():
    llama = shape("llama3_70b.json")
    lora = dict(n_gpus=8, rollout_tp=8, lora_rank=32, model_dtype="bf16", train_tokens_per_gpu=16384)
    sgl = mem.estimate(llama, mem.JobShape(engine="sglang", **lora)).per_gpu_gib
    vll = mem.estimate(llama, mem.JobShape(engine="vllm", **lora)).per_gpu_gib
    # SGLang's adapter mode releases only the KV cache: the bf16 base stays, 70.55e9 x 2 / TP 8 bytes
    assert sgl["engine_weights_kept_asleep"] == pytest.approx(70_553_706_496 * 2 / 8 / GIB, abs=0.01)
    assert sgl["engine_kept_asleep"] == pytest.approx(16.43 + mem.ENGINE_CUDA_GRAPHS_GIB, abs=0.01)
    # vLLM's level-1 sleep moves its weights to host RAM; both keep their CUDA graphs
    assert vll["engine_kept_asleep"] == mem.ENGINE_CUDA_GRAPHS_GIB
    assert sgl["train_peak"] - vll["train_peak"] == pytest.approx(16.43, abs=0.02)
    merged = mem.estimate(llama, mem.JobShape(engine="sglang", lora_merge=True, **lora)).per_gpu_gib
    assert merged["engine_kept_asleep"] == mem.ENGINE_CUDA_GRAPHS_GIB  # merged LoRA: full release
    eager = mem.estimate(llama, mem.JobShape(engine="vllm", enforce_eager=True, **lora)).per_gpu_gib
    assert eager["engine_kept_asleep"] == 0.0
    awake = mem.estimate(shape("phi4_14b.json"), phi4_job(free_cache_engine=False)).per_gpu_gib
    # free_cache_engine=false: the whole budget (0.7 x 79.6) stays reserved while the actor trains
    assert awake["engine_kept_asleep"] == pytest.approx(0.7 * 79.6 + 2.0, abs=0.01)


def test_reference_model_lives_in_host_ram_and_visits_the_gpu_by_layer():
    phi4 = shape("phi4_14b.json")
    fp32 = mem.estimate(phi4, phi4_job(ref_dtype="fp32", train_tokens_per_gpu=32768))
    bf16 = mem.estimate(phi4, phi4_job(ref_dtype="bf16", train_tokens_per_gpu=32768))
    # one fp32 layer shard on the GPU at a time: 340,797,440 x 4 / 8 bytes = 0.16 GiB (bf16: 0.08)
    gap = fp32.per_gpu_gib["ref_logprob_peak"] - bf16.per_gpu_gib["ref_logprob_peak"]
    assert gap == pytest.approx(340_797_440 * 2 / 8 / GIB, abs=0.01)
    host32 = node.node_estimate(phi4, phi4_job(ref_dtype="fp32")).host_gb["reference"]
    host16 = node.node_estimate(phi4, phi4_job(ref_dtype="bf16")).host_gb["reference"]
    assert host32 == round(P_PHI4 * 4 / 1e9, 1) == 58.6  # the whole fp32 model on one node
    assert host16 == 29.3
    lora = mem.estimate(shape("llama3_70b.json"), mem.JobShape(n_gpus=8, lora_rank=8, ref_dtype="fp32"))
    assert lora.per_gpu_gib["ref_logprob_peak"] == 0.0  # LoRA: the reference is the actor without adapter


def test_phi4_host_ram_per_node_matches_the_issue():
    est = node.node_estimate(
        shape("phi4_14b.json"), phi4_job(engine="sglang", ref_dtype="fp32", model_dtype="fp32")
    )
    h = est.host_gb
    # fp32 params 4 B + Adam 8 B + fp32 ref 4 B per param, plus SGLang's bf16 backup 8 GPUs x P x 2 / TP 2
    assert (h["actor_weights"], h["actor_adam"], h["reference"], h["engine_weight_backup"]) == (
        58.6,
        117.3,
        58.6,
        117.3,
    )
    before_processes = est.host_total_gb - h["processes"]
    assert before_processes == pytest.approx(P_PHI4 * (4 + 8 + 4 + 8) / 1e9, abs=0.2)  # 351.8 GB
    vllm = node.node_estimate(shape("phi4_14b.json"), phi4_job(engine="vllm", ref_dtype="fp32"))
    assert "engine_weight_backup" not in vllm.host_gb  # level-2 sleep discards, no backup


def test_checkpoint_disk_full_and_lora():
    phi4 = node.node_estimate(shape("phi4_14b.json"), phi4_job(max_ckpt_to_keep=2))
    # fp32 model shard 4 B + Adam 8 B per param = 175.9 GB; 2 kept + 1 being written
    assert phi4.checkpoint_gb == round(P_PHI4 * 12 / 1e9, 1) == 175.9
    assert phi4.disk_needed_gb == pytest.approx(3 * P_PHI4 * 12 / 1e9, abs=0.1)
    llama = shape("llama3_70b.json")
    job = dict(n_gpus=8, lora_rank=32, model_dtype="bf16", max_ckpt_to_keep=2)
    only = node.node_estimate(llama, mem.JobShape(save_lora_only=True, **job))
    # adapter 414,187,520 x 2 B + its bf16 Adam 2 x 2 B = 6 B per adapter param
    assert only.checkpoint_gb == round(414_187_520 * 6 / 1e9, 1) == 2.5
    full = node.node_estimate(llama, mem.JobShape(**job))
    assert full.checkpoint_gb == round((70_553_706_496 + 414_187_520) * 2 / 1e9 + 414_187_520 * 4 / 1e9, 1)


def test_llama70b_shape_and_lora_parameters():
    llama = shape("llama3_70b.json")
    # 2 x 128256 x 8192 + 80 x (2 x 8192^2 + 2 x 8192 x 1024 + 3 x 8192 x 28672 + 2 x 8192) + 8192
    assert llama.params() == 70_553_706_496
    # r x (in + out) per targeted Linear: q,o 16384; k,v 9216; gate,up,down 36864 -> 161,792 r per layer
    assert llama.lora_params(32) == 80 * 32 * (2 * 16384 + 2 * 9216 + 3 * 36864) == 414_187_520
    assert llama.lora_params(32, ["q_proj", "v_proj"]) == 80 * 32 * (16384 + 9216)
    assert llama.lora_params(32, r".*\.(q|k|v|o)_proj") == 80 * 32 * (2 * 16384 + 2 * 9216)
    assert llama.lora_params(32, "all-linear", ["down_proj"]) == 80 * 32 * (2 * 16384 + 2 * 9216 + 2 * 36864)
    # KV per token per GPU at TP=8: 2 x 80 layers x 1 head x 128 x 2 B
    assert llama.kv_bytes_per_token(tp=8) == 40_960


def test_vllm_lora_slots_round_up_like_verl():
    assert [mem.vllm_lora_rank(r) for r in (1, 2, 16, 33, 320, 512)] == [1, 8, 16, 64, 320, 512]
    with pytest.raises(ValueError, match="512"):
        mem.vllm_lora_rank(513)


def llama70b_lora_job(**kw):
    base = dict(
        n_gpus=8,
        engine="vllm",
        rollout_tp=8,
        gpu_memory_utilization=0.75,
        train_batch_size=16,
        rollout_n=8,
        max_prompt_length=1024,
        max_response_length=15360,
        train_tokens_per_gpu=16384,
        param_offload=True,
        model_dtype="bf16",
        lora_rank=32,
        attn_implementation="sdpa",
        remove_padding=True,
        activation_offload=True,
    )
    base.update(kw)
    return mem.JobShape(**base)


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_llama70b_lora_fits_one_node_at_tp8(engine):
    est = mem.estimate(shape("llama3_70b.json"), llama70b_lora_job(engine=engine))
    assert not est.errors
    assert est.peak_fraction <= mem.WARN_FRACTION
    g = est.per_gpu_gib
    # frozen bf16 base sharded over 8: 70.55e9 x 2 / 8 = 16.43 GiB (+ the adapter's 0.1)
    assert g["train_weights"] == pytest.approx((70_553_706_496 + 414_187_520) * 2 / 8 / GIB, abs=0.01)
    # adapter grads (bf16) and Adam (2 bf16 moments) over 8 GPUs
    assert g["train_grads"] == pytest.approx(414_187_520 * 2 / 8 / GIB, abs=0.01)
    assert g["train_adam"] == pytest.approx(414_187_520 * 4 / 8 / GIB, abs=0.01)
    # KV = budget 0.75 x 79.6 - weights 16.43 - LoRA slots (414M x 2 B = 0.77 GiB) - vLLM's 1 GiB of
    # profiled activations (SGLang keeps them outside mem_fraction_static: they add to its peak)
    inside = 1.0 if engine == "vllm" else 0.0
    assert g["rollout_kv_cache"] == pytest.approx(59.7 - 16.43 - 0.77 - inside, abs=0.02)
    assert g["rollout_peak"] == pytest.approx(59.7 + (1.0 - inside) + 2.0 + 2.2 + g["train_adam"], abs=0.02)


def test_llama70b_lora_at_tp4_sglang_is_flagged_and_full_finetune_refused():
    sgl4 = mem.estimate(shape("llama3_70b.json"), llama70b_lora_job(engine="sglang", rollout_tp=4))
    # base kept asleep at TP=4: 70.55e9 x 2 / 4 = 32.85 GiB on every GPU during the update
    assert sgl4.peak_phase == "training" and sgl4.peak_fraction > mem.WARN_FRACTION
    assert any("SGLang keeps its base weights" in w for w in sgl4.warnings)
    full = mem.estimate(
        shape("llama3_70b.json"), llama70b_lora_job(lora_rank=0, model_dtype="fp32", optimizer_offload=True)
    )
    # 16 bytes per param (fp32 weights 4 + grads 4 + Adam 8) x 70.55e9 / 8 GPUs = 131.42 GiB
    assert any("131.42 GiB per GPU" in e and "LoRA" in e for e in full.errors)


def test_warns_above_88_percent_and_errors_above_the_gpu():
    phi4 = shape("phi4_14b.json")
    at = {
        t: mem.estimate(
            phi4,
            phi4_job(
                train_tokens_per_gpu=t, attn_implementation="sdpa", remove_padding=True, ref_dtype="bf16"
            ),
        )
        for t in (24576, 32768, 39904)
    }
    assert at[24576].peak_fraction < mem.WARN_FRACTION and not any(
        "estimated peak" in w for w in at[24576].warnings
    )
    assert mem.WARN_FRACTION < at[32768].peak_fraction < 1
    assert any("estimated peak" in w and "ppo_max_token_len_per_gpu" in w for w in at[32768].warnings)
    assert at[39904].peak_fraction > 1
    assert any("estimated peak" in e and "training phase" in e for e in at[39904].errors)


def test_weight_sync_and_log_prob_phases():
    est = mem.estimate(
        shape("phi4_14b.json"), phi4_job(train_tokens_per_gpu=32768, logprob_tokens_per_gpu=16384)
    )
    g = est.per_gpu_gib
    # sync: fp32 actor shard P x 4 / 8 + bf16 engine weights P x 2 / TP 2 + one 2048 MiB bucket
    #       + CUDA graphs 2 + two contexts 1.1 each
    assert g["weight_sync_peak"] == pytest.approx(
        P_PHI4 * 4 / 8 / GIB + P_PHI4 * 2 / 2 / GIB + 2 + 2 + 2.2, abs=0.02
    )
    # old log-probs at 16,384 tokens: actor shard + 2 gathered bf16 layers + one layer's temporaries
    # (16384 x 117,760 x 2 B) + logits (16384 x 100,352 x 6 B) + sleeping engine 2 + contexts 2.2
    per_token_layer = (6 * 5120 + 2 * (40 + 20) * 128 + 4 * 17920) * 2
    expected = (
        (P_PHI4 * 4 / 8 + 2 * 340_797_440 * 2 + 16384 * per_token_layer + 16384 * 100352 * 6) / GIB + 2 + 2.2
    )
    assert g["actor_logprob_peak"] == pytest.approx(expected, abs=0.02)
    assert est.peak_phase == "training" and est.peak_gib == g["train_peak"]


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_plot_stacks_add_up_to_each_phase_and_draw(tmp_path, engine):
    from tools.preflight import plot

    est = mem.estimate(shape("llama3_70b.json"), llama70b_lora_job(engine=engine)).to_dict()
    stacks = plot.phase_stacks(est)
    g = est["per_gpu_gib"]
    for phase, key in (
        ("training", "train_peak"),
        ("rollout", "rollout_peak"),
        ("log-prob", "actor_logprob_peak"),
        ("weight sync", "weight_sync_peak"),
    ):
        assert sum(stacks[phase].values()) == pytest.approx(g[key], abs=0.05), phase
    out = plot.draw(est, tmp_path / "sub" / "memory.png", "70B LoRA")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000
    assert [p.name for p in out.parent.iterdir()] == ["memory.png"]  # no temp file left
