"""GPU-memory estimate for a GRPO job (verl 0.9.1, FSDP2 actor, colocated SGLang/vLLM rollout).

Pure arithmetic on a Hugging Face ``config.json`` (a dict) and a handful of job settings; no
torch, no verl. ``tools/preflight/cli.py`` feeds it the composed job config.

Formulas and their assumptions (all sizes in bytes unless a name ends in ``_gib``):

Parameters (decoder-only transformer, Llama/Qwen2/Phi-3 family):
    embed   = V*H                                   (V vocab, H hidden)
    lm_head = V*H, or 0 when ``tie_word_embeddings``
    attn    = H*(nh*hd) + 2*H*(nkv*hd) + (nh*hd)*H  (q, k, v, o; nh heads, nkv KV heads, hd head_dim)
              + (nh*hd + 2*nkv*hd) when the q/k/v projections carry a bias (``attention_bias`` or Qwen2)
    mlp     = 3*H*I                                 (gated MLP: gate, up, down; I intermediate)
              MoE configs (``num_experts``/``num_local_experts``): E*3*H*I_moe + H*E (router)
              + 3*H*I_shared for a shared expert; every expert counts (they all sit in memory)
    norms   = 2*H per layer + H final (RMSNorm weights)
    P       = embed + lm_head + L*(attn + mlp + 2*H) + H
    head_dim defaults to H/nh; KV heads default to nh (plain multi-head attention).

KV cache (the rollout engine's paged cache, bf16 unless the KV dtype says otherwise):
    kv_bytes_per_token = 2 (K and V) * L * nkv * hd * kv_dtype_bytes         (whole model)
    Under tensor parallelism TP each GPU keeps max(1, nkv/TP) KV heads (KV heads are replicated
    when TP > nkv), so per GPU: 2 * L * max(1, nkv/TP) * hd * kv_dtype_bytes.

Actor training state under FSDP2 (full sharding over ``fsdp_size`` GPUs, -1 = all training GPUs):
    weights = P * b_model / S       b_model = bytes of ``fsdp_config.model_dtype`` (fp32 by default:
                                    verl keeps fp32 master weights and computes in bf16)
    grads   = P * b_model / S       (gradients live in the sharded parameter's dtype)
    adam    = 2 * P * 4 / S         (exp_avg and exp_avg_sq in fp32)
    gathered layers = 2 * (P_layer * 2)  FSDP2 all-gathers one decoder layer in bf16 for compute
                                    and prefetches the next
    verl's ``param_offload`` / ``optimizer_offload`` move weights+grads / Adam states to CPU *between*
    phases and load them back for the update, so they do not lower the training-phase peak; they
    free the GPU for the rollout engine. ``offload_policy: true`` (FSDP2 CPUOffloadPolicy) keeps them
    on CPU throughout (the update then runs on CPU): training-phase weights/grads/adam are ~0.

Activations (rough upper bound, gradient checkpointing on, T = tokens per micro-batch per GPU,
i.e. ``ppo_max_token_len_per_gpu`` with dynamic batch size, else micro_batch * (prompt+response)):
    checkpoints = L * T * H * 2              (one bf16 hidden state kept per layer boundary)
    recompute   = T * (6*H + 2*(nh+2*nkv)*hd + 4*I) * 2   (one layer's forward+backward temporaries)
    logits      = T * V * (2 + 4)           (bf16 logits and one fp32 log-softmax buffer)
    This ignores attention score matrices (flash attention does not materialise them) and fused
    kernels; treat it as an order of magnitude, not a promise.
    sdpa mask   = T * T                     only with ``attn_implementation: sdpa`` and
                  ``use_remove_padding``: verl packs the micro-batch into one row, transformers
                  detects the packed sequences from ``position_ids`` and builds a dense
                  block-causal boolean mask of T x T for SDPA (``masking_utils.sdpa_mask``);
                  SDPA's masked kernels may also take it as a bf16 bias (2 * T * T, not counted).

Rollout (hybrid engine: the rollout engine shares each GPU with the actor):
    replicas          = n_gpus / (TP * DP_rollout)
    weights per GPU   = P * 2 / TP      (bf16 serving weights, sharded by TP)
    engine budget     = gpu_memory_utilization * GPU   (vLLM and SGLang reserve this fraction)
    kv per GPU        = budget - weights per GPU - overhead   (overhead: CUDA graphs, activation
                        profiling and the sampler; ``ROLLOUT_OVERHEAD_GIB``)
    kv_tokens_per_replica = kv per GPU / per-GPU KV bytes per token
    in flight per replica = train_batch_size * n / replicas sequences, each at
                            max_prompt_length + max_response_length tokens (the worst case)
    Generation is serialised when in-flight tokens exceed kv_tokens_per_replica or the sequence
    count exceeds ``max_num_seqs``. The actor's state that stays on the GPU during rollout
    (weights unless param_offload, Adam unless optimizer_offload; gradients are freed after the step)
    plus the engine budget must fit in the GPU, otherwise the engine fails at start.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

GIB = 1024**3
# Usable memory of one H100 80GB SXM as the driver reports it (81,559 MiB).
DEFAULT_GPU_MEM_GIB = 79.6
# CUDA graphs, activation profiling and sampler buffers of the rollout engine.
ROLLOUT_OVERHEAD_GIB = 2.0

DTYPE_BYTES = {
    "fp32": 4,
    "float32": 4,
    "float": 4,
    "bf16": 2,
    "bfloat16": 2,
    "fp16": 2,
    "float16": 2,
    "half": 2,
    "fp8": 1,
    "fp8_e4m3": 1,
    "fp8_e5m2": 1,
    "float8": 1,
}


class ModelConfigError(ValueError):
    """The HF config lacks a field the estimate needs."""


def dtype_bytes(name: str | None, default: int = 2) -> int:
    """Bytes per element of a dtype name as verl/vLLM/SGLang spell it (``bf16``, ``bfloat16``, ...)."""
    if not name or name == "auto":
        return default
    key = str(name).lower().removeprefix("torch.")
    if key not in DTYPE_BYTES:
        raise ValueError(f"unknown dtype {name!r}; expected one of {sorted(DTYPE_BYTES)}")
    return DTYPE_BYTES[key]


@dataclass(frozen=True)
class ModelShape:
    """The dimensions of a decoder-only model that memory depends on."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    tied_embeddings: bool
    qkv_bias: bool = False
    experts: int = 0
    moe_intermediate: int = 0
    shared_expert_intermediate: int = 0

    @classmethod
    def from_hf_config(cls, cfg: dict[str, Any]) -> ModelShape:
        """Read a (text) HF ``config.json``; multimodal configs use their ``text_config``."""
        if "text_config" in cfg and isinstance(cfg["text_config"], dict) and "hidden_size" not in cfg:
            merged = dict(cfg["text_config"])
            merged.setdefault("tie_word_embeddings", cfg.get("tie_word_embeddings", False))
            cfg = merged

        def need(*keys: str) -> int:
            for k in keys:
                if cfg.get(k) is not None:
                    return int(cfg[k])
            raise ModelConfigError(f"model config.json has none of {list(keys)}; cannot estimate memory")

        layers = need("num_hidden_layers", "n_layer", "num_layers")
        hidden = need("hidden_size", "n_embd", "d_model")
        heads = need("num_attention_heads", "n_head")
        kv_heads = int(cfg.get("num_key_value_heads") or heads)
        head_dim = int(cfg.get("head_dim") or hidden // heads)
        vocab = need("vocab_size")
        experts = int(
            cfg.get("num_experts") or cfg.get("num_local_experts") or cfg.get("n_routed_experts") or 0
        )
        moe_inter = int(cfg.get("moe_intermediate_size") or 0)
        if experts and not moe_inter:
            moe_inter = need("intermediate_size")
        intermediate = int(cfg.get("intermediate_size") or (0 if experts else 4 * hidden))
        shared = int(cfg.get("shared_expert_intermediate_size") or 0)
        qkv_bias = bool(cfg.get("attention_bias", False)) or cfg.get("model_type") in ("qwen2", "qwen2_moe")
        return cls(
            layers=layers,
            hidden=hidden,
            heads=heads,
            kv_heads=kv_heads,
            head_dim=head_dim,
            intermediate=intermediate,
            vocab=vocab,
            tied_embeddings=bool(cfg.get("tie_word_embeddings", False)),
            qkv_bias=qkv_bias,
            experts=experts,
            moe_intermediate=moe_inter,
            shared_expert_intermediate=shared,
        )

    def params_per_layer(self) -> int:
        h, hd = self.hidden, self.head_dim
        q_out, kv_out = self.heads * hd, self.kv_heads * hd
        attn = h * q_out + 2 * h * kv_out + q_out * h
        if self.qkv_bias:
            attn += q_out + 2 * kv_out
        if self.experts:
            mlp = self.experts * 3 * h * self.moe_intermediate + h * self.experts
            mlp += 3 * h * self.shared_expert_intermediate
        else:
            mlp = 3 * h * self.intermediate
        return attn + mlp + 2 * h

    def params(self) -> int:
        embed = self.vocab * self.hidden
        head = 0 if self.tied_embeddings else self.vocab * self.hidden
        return embed + head + self.layers * self.params_per_layer() + self.hidden

    def kv_bytes_per_token(self, kv_bytes: int = 2, tp: int = 1) -> int:
        """KV-cache bytes per sequence token: whole model (tp=1) or one TP rank's share."""
        heads_per_gpu = max(1.0, self.kv_heads / tp)
        return int(2 * self.layers * heads_per_gpu * self.head_dim * kv_bytes)


@dataclass(frozen=True)
class JobShape:
    """The job settings the estimate reads (taken from the composed verl config)."""

    n_gpus: int
    gpu_mem_gib: float = DEFAULT_GPU_MEM_GIB
    fsdp_size: int = -1
    model_dtype: str = "fp32"
    param_offload: bool = False
    optimizer_offload: bool = False
    offload_policy: bool = False
    train_tokens_per_gpu: int = 16384
    rollout_tp: int = 1
    rollout_dp: int = 1
    rollout_dtype: str = "bfloat16"
    kv_cache_dtype: str | None = None
    gpu_memory_utilization: float = 0.5
    max_num_seqs: int = 256
    train_batch_size: int = 1
    rollout_n: int = 1
    max_prompt_length: int = 512
    max_response_length: int = 512
    attn_implementation: str = "flash_attention_2"
    remove_padding: bool = False


@dataclass
class MemoryEstimate:
    params: int
    params_billion: float
    kv_bytes_per_token: int
    kv_bytes_per_token_per_gpu: int
    rollout_replicas: int
    kv_tokens_per_replica: int
    seqs_in_flight_per_replica: float
    tokens_in_flight_per_replica: int
    seqs_fitting_per_replica: int
    per_gpu_gib: dict[str, float]
    resident_during_rollout_gib: dict[str, float]
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _gib(x: float) -> float:
    return round(x / GIB, 2)


def estimate(model: ModelShape, job: JobShape) -> MemoryEstimate:
    """Apply the formulas in the module docstring; returns numbers plus errors/warnings."""
    errors: list[str] = []
    warnings: list[str] = []
    gpu = job.gpu_mem_gib * GIB
    p = model.params()
    shard = job.fsdp_size if job.fsdp_size and job.fsdp_size > 0 else job.n_gpus
    shard = max(1, shard)
    b_model = dtype_bytes(job.model_dtype, default=4)

    # --- training phase (actor update) ---
    weights = p * b_model / shard
    grads = p * b_model / shard
    adam = 2 * p * 4 / shard
    gathered = 2 * model.params_per_layer() * 2
    t = job.train_tokens_per_gpu
    h, hd = model.hidden, model.head_dim
    inter = model.moe_intermediate if model.experts else model.intermediate
    checkpoints = model.layers * t * h * 2
    recompute = t * (6 * h + 2 * (model.heads + 2 * model.kv_heads) * hd + 4 * inter) * 2
    logits = t * model.vocab * (2 + 4)
    packed_sdpa = job.remove_padding and job.attn_implementation == "sdpa"
    sdpa_mask = t * t if packed_sdpa else 0
    on_gpu_states = 0.0 if job.offload_policy else weights + grads + adam
    train_peak = on_gpu_states + gathered + checkpoints + recompute + logits + sdpa_mask

    # --- rollout phase ---
    tp, dp = max(1, job.rollout_tp), max(1, job.rollout_dp)
    replicas = max(1, job.n_gpus // (tp * dp))
    serve_weights = p * dtype_bytes(job.rollout_dtype) / tp
    kv_b = dtype_bytes(job.kv_cache_dtype, default=dtype_bytes(job.rollout_dtype))
    kv_tok_gpu = model.kv_bytes_per_token(kv_b, tp)
    budget = job.gpu_memory_utilization * gpu
    kv_gpu = max(0.0, budget - serve_weights - ROLLOUT_OVERHEAD_GIB * GIB)
    # A replica spans tp*dp GPUs; each DP rank holds its own cache, TP ranks split the heads.
    kv_tokens_replica = int(kv_gpu // kv_tok_gpu) * dp if kv_tok_gpu else 0
    seq_len = job.max_prompt_length + job.max_response_length
    seqs_in_flight = job.train_batch_size * job.rollout_n / replicas
    tokens_in_flight = int(seqs_in_flight * seq_len)
    seqs_fit = min(kv_tokens_replica // seq_len if seq_len else 0, job.max_num_seqs * dp)

    resident_weights = 0.0 if (job.param_offload or job.offload_policy) else weights
    resident_adam = 0.0 if (job.optimizer_offload or job.offload_policy) else adam
    resident = resident_weights + resident_adam

    per_gpu = {
        "gpu_total": round(job.gpu_mem_gib, 2),
        "train_weights": _gib(weights),
        "train_grads": _gib(grads),
        "train_adam": _gib(adam),
        "train_gathered_layers": _gib(gathered),
        "train_activation_checkpoints": _gib(checkpoints),
        "train_layer_recompute": _gib(recompute),
        "train_logits": _gib(logits),
        "train_sdpa_packed_mask": _gib(sdpa_mask),
        "train_peak": _gib(train_peak),
        "rollout_budget": _gib(budget),
        "rollout_weights": _gib(serve_weights),
        "rollout_overhead": ROLLOUT_OVERHEAD_GIB,
        "rollout_kv_cache": _gib(kv_gpu),
        "actor_resident_during_rollout": _gib(resident),
        "rollout_peak": _gib(budget + resident),
    }
    offload_variants = {}
    for name, po, oo in (
        ("no_offload", False, False),
        ("param_offload", True, False),
        ("optimizer_offload", False, True),
        ("param_and_optimizer_offload", True, True),
    ):
        offload_variants[name] = _gib((0 if po else weights) + (0 if oo else adam))

    if weights + grads + adam > gpu and not job.offload_policy:
        errors.append(
            f"actor weights+grads+Adam alone need {_gib(weights + grads + adam)} GiB per GPU "
            f"({p / 1e9:.2f}B params sharded over {shard} GPUs) > {job.gpu_mem_gib} GiB: use more GPUs "
            "or fsdp_config.offload_policy=true"
        )
    elif train_peak > gpu:
        warnings.append(
            f"training-phase peak estimate {_gib(train_peak)} GiB per GPU > {job.gpu_mem_gib} GiB "
            f"(activations at {t} tokens/GPU: {_gib(checkpoints + recompute + logits)} GiB): lower "
            "actor.ppo_max_token_len_per_gpu or the micro batch"
        )
    if sdpa_mask >= GIB:
        warnings.append(
            f"attn_implementation=sdpa with use_remove_padding: transformers builds a dense {t}x{t} "
            f"block-causal mask per micro-batch ({_gib(sdpa_mask)} GiB, more if SDPA takes it as a "
            "bf16 bias) and SDPA cannot use its flash kernel with it: build flash-attn "
            "(FLASH_ATTN=1 make env-vllm; the launcher then switches to flash_attention_2) or lower "
            "actor.ppo_max_token_len_per_gpu"
        )
    if serve_weights > budget:
        errors.append(
            f"rollout weights need {_gib(serve_weights)} GiB per GPU (TP={tp}) > rollout budget "
            f"{_gib(budget)} GiB (gpu_memory_utilization={job.gpu_memory_utilization}): raise "
            "rollout.tensor_model_parallel_size or gpu_memory_utilization"
        )
    elif kv_tokens_replica < seq_len:
        errors.append(
            f"KV cache holds {kv_tokens_replica} tokens per replica, less than one sequence of "
            f"{seq_len} tokens: raise gpu_memory_utilization or tensor_model_parallel_size"
        )
    elif tokens_in_flight > kv_tokens_replica or seqs_in_flight > job.max_num_seqs * dp:
        warnings.append(
            f"generation will be serialised: {seqs_in_flight:g} sequences in flight per replica "
            f"({tokens_in_flight} tokens at full length) but the KV cache fits {seqs_fit} "
            f"({kv_tokens_replica} tokens, max_num_seqs={job.max_num_seqs})"
        )
    if budget + resident > gpu:
        errors.append(
            f"during rollout the actor keeps {_gib(resident)} GiB per GPU resident and the engine "
            f"reserves {_gib(budget)} GiB: {_gib(budget + resident)} GiB > {job.gpu_mem_gib} GiB. "
            "Set actor fsdp_config.param_offload/optimizer_offload=true or lower gpu_memory_utilization"
        )

    return MemoryEstimate(
        params=p,
        params_billion=round(p / 1e9, 3),
        kv_bytes_per_token=model.kv_bytes_per_token(kv_b, 1),
        kv_bytes_per_token_per_gpu=kv_tok_gpu,
        rollout_replicas=replicas,
        kv_tokens_per_replica=kv_tokens_replica,
        seqs_in_flight_per_replica=round(seqs_in_flight, 2),
        tokens_in_flight_per_replica=tokens_in_flight,
        seqs_fitting_per_replica=int(seqs_fit),
        per_gpu_gib=per_gpu,
        resident_during_rollout_gib=offload_variants,
        errors=errors,
        warnings=warnings,
    )
