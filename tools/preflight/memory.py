"""GPU, host-RAM and checkpoint-disk estimate for a GRPO job (verl 0.9.1, FSDP2 actor, colocated
SGLang/vLLM rollout), full fine-tune or LoRA.

Pure arithmetic on a Hugging Face ``config.json`` (a dict) and a handful of job settings; no
torch, no verl. ``tools/preflight/files.py`` feeds it the composed job config. All sizes in bytes
unless a name ends in ``_gib``; P is the parameter count, b(x) the bytes per element of dtype x.

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

LoRA (PEFT, what verl's FSDP engine builds: workers/engine/fsdp/transformer_impl.py:339-385):
    a targeted Linear(in, out) gets A (r x in) and B (out x r): r*(in+out) trainable parameters.
    ``all-linear`` = every Linear of the decoder layers (q,k,v,o,gate,up,down; Phi-3's fused qkv_proj
    and gate_up_proj), not lm_head. P_lora = L * sum over targets of r*(in+out).
    verl casts the adapter to the base's dtype (``model_dtype``), and torch's AdamW keeps its two
    moments in the parameter's dtype, so the adapter costs P_lora*b_model*(1 weight + 1 grad + 2 Adam).
    With LoRA the reference policy is the actor with the adapter disabled (``ref_in_actor``,
    trainer/ppo/ray_trainer.py:360): no second model.

Actor under FSDP2 (sharded over S = ``fsdp_size`` GPUs, -1 = all training GPUs):
    weights = P*b_model/S          b_model = ``fsdp_config.model_dtype``, fp32 by default in verl 0.9.1
                                   (trainer/config/engine/fsdp.yaml: ``model_dtype: fp32``)
    grads   = P_train*b_model/S    (P_train = P, or P_lora with LoRA: the base is frozen)
    adam    = 2*P_train*b_opt/S    (b_opt = 4 for a fp32 model, else b_model)
    gathered layers = 2*(P_layer*2)   FSDP2 all-gathers one decoder layer in bf16 and prefetches the next
    ``param_offload``/``optimizer_offload`` move weights / Adam states to CPU between phases (they
    come back for the update: no saving at the training peak, but the GPU is free for the engine);
    ``offload_policy: true`` keeps them on CPU throughout (training-phase weights/grads/adam ~0).

Activations (gradient checkpointing on; T = tokens per micro-batch per GPU: ``ppo_max_token_len_per_gpu``
with dynamic batch size, else micro_batch * (prompt+response)):
    checkpoints = L*T*H*2          one bf16 hidden state kept per layer boundary (0 on the GPU with
                                   ``model.enable_activation_offload``: they go to host RAM)
    recompute   = T*(6*H + 2*(nh+2*nkv)*hd + 4*I)*2   one layer's forward+backward temporaries
    logits      = T*V*(2 + 4)      bf16 logits and one fp32 log-softmax buffer
    sdpa mask   = T*T              only with ``attn_implementation: sdpa`` and ``use_remove_padding``:
                                   transformers builds a dense block-causal boolean mask for the packed row
    sdpa bias   = 2*T*T            SDPA's memory-efficient/math kernels take a boolean mask as an additive
                                   bf16 bias (-inf where masked): a second T x T tensor, 2 bytes each
    Flash attention materialises neither; this ignores fused kernels: an order of magnitude, not a promise.

Rollout (hybrid engine: the engine shares each GPU with the actor):
    replicas        = n_gpus / (TP*DP)
    serving weights = P*2/TP (bf16, sharded by TP)
    engine budget   = gpu_memory_utilization * GPU (vLLM's gpu_memory_utilization, SGLang's
                      mem_fraction_static): weights + KV cache, and for vLLM its profiled activations
    kv per GPU      = budget - serving weights - LoRA slots (P_lora(r')*2, r' = the engine's
                      max_lora_rank) - ENGINE_ACTIVATION_GIB for vLLM; SGLang's activations sit
                      outside mem_fraction_static and add to its rollout peak instead
    CUDA graphs     = ENGINE_CUDA_GRAPHS_GIB outside the budget (SGLang captures them after sizing its
                      pools; vLLM's sleep-mode pools hold only weights and KV), 0 with ``enforce_eager``
    Generation is serialised when the in-flight tokens (train_batch_size*n/replicas sequences of
    prompt+response) exceed the KV cache or ``max_num_seqs``.

What the sleeping engine keeps on the GPU while the actor trains (``free_cache_engine: true``):
    SGLang releases the tags verl passes (sglang_rollout/async_sglang_server.py:504-525): kv_cache and
      weights; in LoRA adapter mode only kv_cache, so the base weights P*2/TP stay on the GPU. CUDA
      graphs are never released (no ``cuda_graph`` tag). Released weights are backed up in host RAM
      (``enable_weights_cpu_backup``, set for the hybrid engine at async_sglang_server.py:374-387).
    vLLM sleeps at level 2 (weights and KV discarded, restored by the weight sync) or, in LoRA adapter
      mode, level 1 (vllm_async_server.py:1289-1305): the weights are copied to host RAM and the KV
      discarded. Its CuMemAllocator pools hold only the "weights" and "kv_cache" allocations, so CUDA
      graphs stay too.
    Every GPU also runs two processes, the engine's TP worker and the FSDP worker, each with a CUDA
    context (CUDA_CONTEXT_GIB) and NCCL communicators (NCCL_GIB: NCCL_BUFFSIZE 4 MiB x 2 directions x
    up to 32 channels = 256 MiB per communicator, plus NVLS/tree buffers).

The reference model (when the job has one: KL in loss or reward, no LoRA) is built with
``forward_only``, which verl 0.9.1 always wraps with CPU offload (FSDP2 ``CPUOffloadPolicy(pin_memory=True)``,
workers/engine/fsdp/transformer_impl.py:453-463): its weights live in pinned host RAM in ``ref``
``model_dtype`` (fp32 by default) and visit the GPU one layer at a time. Its GPU cost is the log-prob
phase: the gathered layers, one fp32 layer shard, one layer's temporaries, logits and mask at the
log-prob token budget.

The per-GPU peak is the largest of four phases: training (actor update + the sleeping engine +
contexts), rollout (engine budget + CUDA graphs + contexts + the actor state that stays), log-prob
(actor or reference forward) and the weight sync (actor weights + engine weights + one bucket of
``update_weights_bucket_megabytes``). Preflight errors above the GPU, warns above WARN_FRACTION (88 %)
of it: the estimate omits allocator fragmentation and kernels' workspaces.

Host RAM per node and checkpoint disk: ``tools/preflight/node.py``.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

GIB = 1024**3
GB = 1e9
# Usable memory of one H100 80GB SXM as the driver reports it (81,559 MiB).
DEFAULT_GPU_MEM_GIB = 79.6
# Warn above this share of HBM: fragmentation and kernel workspaces are not in the estimate.
WARN_FRACTION = 0.88
# The engine's forward activations and sampler: inside vLLM's budget, outside SGLang's static fraction.
ENGINE_ACTIVATION_GIB = 1.0
# Outside the budget and kept while the engine sleeps (see the module docstring).
ENGINE_CUDA_GRAPHS_GIB = 2.0
# A CUDA context with cuBLAS/cuDNN handles on an H100 (what nvidia-smi shows for a bare torch process).
CUDA_CONTEXT_GIB = 0.6
# NCCL buffers of one process's communicators (NCCL_BUFFSIZE 4 MiB x 2 x 32 channels + NVLS/tree).
NCCL_GIB = 0.5

LORA_ALL_LINEAR = "all-linear"

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
    fused_projections: bool = False  # Phi-3: qkv_proj and gate_up_proj

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
            fused_projections=cfg.get("model_type") == "phi3",
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

    def linears(self) -> dict[str, tuple[str, int, int, int]]:
        """Per decoder layer: module name -> (parent, in features, out features, copies)."""
        h, q, kv = self.hidden, self.heads * self.head_dim, self.kv_heads * self.head_dim
        inter = self.moe_intermediate if self.experts else self.intermediate
        copies = self.experts or 1
        if self.fused_projections:
            return {
                "qkv_proj": ("self_attn", h, q + 2 * kv, 1),
                "o_proj": ("self_attn", q, h, 1),
                "gate_up_proj": ("mlp", h, 2 * inter, copies),
                "down_proj": ("mlp", inter, h, copies),
            }
        return {
            "q_proj": ("self_attn", h, q, 1),
            "k_proj": ("self_attn", h, kv, 1),
            "v_proj": ("self_attn", h, kv, 1),
            "o_proj": ("self_attn", q, h, 1),
            "gate_proj": ("mlp", h, inter, copies),
            "up_proj": ("mlp", h, inter, copies),
            "down_proj": ("mlp", inter, h, copies),
        }

    def lora_targets(self, targets: Any, exclude: Any = None) -> list[str]:
        """The layer modules PEFT wraps for ``target_modules``/``exclude_modules`` (its matching rules:
        ``all-linear``; a string is a regex full-matched against the module key; a list matches a key
        equal to or ending in ``.<name>``)."""

        def matches(spec: Any, name: str, parent: str) -> bool:
            key = f"model.layers.0.{parent}.{name}"
            if spec is None:
                return False
            if spec == LORA_ALL_LINEAR:
                return True
            if isinstance(spec, str):
                return re.fullmatch(spec, key) is not None
            return any(key == s or key.endswith(f".{s}") for s in spec)

        return [
            n
            for n, (parent, *_) in self.linears().items()
            if matches(targets, n, parent) and not matches(exclude or None, n, parent)
        ]

    def lora_params(self, rank: int, targets: Any = LORA_ALL_LINEAR, exclude: Any = None) -> int:
        """Trainable LoRA parameters: L * sum over targeted Linear(in, out) of r*(in+out)."""
        if rank <= 0:
            return 0
        lin = self.linears()
        per_layer = sum(
            rank * (lin[n][1] + lin[n][2]) * lin[n][3] for n in self.lora_targets(targets, exclude)
        )
        return self.layers * per_layer


def vllm_lora_rank(rank: int) -> int:
    """verl rounds the LoRA rank up to the next rank vLLM allows (rollout/vllm_rollout/utils.py:83-102)."""
    for allowed in VLLM_MAX_LORA_RANKS:
        if rank <= allowed:
            return allowed
    raise ValueError(f"LoRA rank {rank} > {VLLM_MAX_LORA_RANKS[-1]}, the largest rank vLLM serves")


# vllm.config.lora.MaxLoRARanks (verl's fallback list at rollout/vllm_rollout/utils.py:94)
VLLM_MAX_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)


@dataclass(frozen=True)
class JobShape:
    """The job settings the estimate reads (taken from the composed verl config)."""

    n_gpus: int
    gpu_mem_gib: float = DEFAULT_GPU_MEM_GIB
    gpus_per_node: int = 8
    fsdp_size: int = -1
    model_dtype: str = "fp32"
    param_offload: bool = False
    optimizer_offload: bool = False
    offload_policy: bool = False
    activation_offload: bool = False
    train_tokens_per_gpu: int = 16384
    logprob_tokens_per_gpu: int = 0  # 0: same as train_tokens_per_gpu
    engine: str = "vllm"
    rollout_tp: int = 1
    rollout_dp: int = 1
    rollout_dtype: str = "bfloat16"
    kv_cache_dtype: str | None = None
    gpu_memory_utilization: float = 0.5
    enforce_eager: bool = False
    free_cache_engine: bool = True
    max_num_seqs: int = 256
    train_batch_size: int = 1
    rollout_n: int = 1
    max_prompt_length: int = 512
    max_response_length: int = 512
    attn_implementation: str = "flash_attention_2"
    remove_padding: bool = False
    lora_rank: int = 0
    lora_targets: Any = LORA_ALL_LINEAR
    lora_exclude: Any = None
    lora_merge: bool = False
    ref_dtype: str | None = None  # None: no separate reference model
    weight_sync_bucket_mb: int = 2048
    use_shm: bool = False
    # checkpoint contents
    save_model: bool = True
    save_optimizer: bool = True
    save_hf_model: bool = False
    save_lora_only: bool = False
    max_ckpt_to_keep: int | None = None

    @property
    def lora(self) -> bool:
        return self.lora_rank > 0

    @property
    def lora_adapter_mode(self) -> bool:
        """verl sends the engine an adapter (not merged weights): LoRA with ``lora.merge`` off."""
        return self.lora and not self.lora_merge


@dataclass
class MemoryEstimate:
    params: int
    params_billion: float
    lora_params: int
    kv_bytes_per_token: int
    kv_bytes_per_token_per_gpu: int
    rollout_replicas: int
    kv_tokens_per_replica: int
    seqs_in_flight_per_replica: float
    tokens_in_flight_per_replica: int
    seqs_fitting_per_replica: int
    per_gpu_gib: dict[str, float]
    resident_during_rollout_gib: dict[str, float]
    peak_gib: float = 0.0
    peak_phase: str = ""
    peak_fraction: float = 0.0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _gib(x: float) -> float:
    return round(x / GIB, 2)


def _attention_masks(job: JobShape, t: int) -> tuple[float, float]:
    """(dense boolean mask, its bf16 bias copy) for T packed tokens with sdpa; (0, 0) otherwise."""
    if job.remove_padding and job.attn_implementation == "sdpa":
        return float(t * t), float(2 * t * t)
    return 0.0, 0.0


def estimate(model: ModelShape, job: JobShape) -> MemoryEstimate:
    """Apply the formulas in the module docstring; returns numbers plus errors/warnings."""
    errors: list[str] = []
    warnings: list[str] = []
    gpu = job.gpu_mem_gib * GIB
    p = model.params()
    p_lora = model.lora_params(job.lora_rank, job.lora_targets, job.lora_exclude)
    shard = job.fsdp_size if job.fsdp_size and job.fsdp_size > 0 else job.n_gpus
    shard = max(1, shard)
    b_model = dtype_bytes(job.model_dtype, default=4)
    b_opt = 4 if b_model == 4 else b_model  # torch AdamW keeps its moments in the parameter's dtype
    p_train = p_lora if job.lora else p

    # --- per-process fixed costs (every GPU runs an FSDP worker and an engine worker) ---
    tp, dp = max(1, job.rollout_tp), max(1, job.rollout_dp)
    worker_ctx = CUDA_CONTEXT_GIB * GIB + (NCCL_GIB * GIB if job.n_gpus > 1 else 0.0)
    engine_ctx = CUDA_CONTEXT_GIB * GIB + (NCCL_GIB * GIB if tp * dp > 1 else 0.0)
    graphs = 0.0 if job.enforce_eager else ENGINE_CUDA_GRAPHS_GIB * GIB
    serve_weights = p * dtype_bytes(job.rollout_dtype) / tp
    # SGLang in LoRA adapter mode releases only its KV cache: the base weights stay while the actor trains.
    kept_weights = serve_weights if (job.engine == "sglang" and job.lora_adapter_mode) else 0.0
    if not job.free_cache_engine:
        kept_asleep = job.gpu_memory_utilization * gpu + graphs
    else:
        kept_asleep = kept_weights + graphs
    fixed_asleep = kept_asleep + engine_ctx + worker_ctx

    # --- training phase (actor update) ---
    weights = (p * b_model + p_lora * b_model) / shard
    grads = p_train * b_model / shard
    adam = 2 * p_train * b_opt / shard
    gathered = 2 * model.params_per_layer() * 2
    t = job.train_tokens_per_gpu
    h, hd = model.hidden, model.head_dim
    inter = model.moe_intermediate if model.experts else model.intermediate
    checkpoints = 0 if job.activation_offload else model.layers * t * h * 2
    layer_tmp_per_token = (6 * h + 2 * (model.heads + 2 * model.kv_heads) * hd + 4 * inter) * 2
    recompute = t * layer_tmp_per_token
    logits = t * model.vocab * (2 + 4)
    sdpa_mask, sdpa_bias = _attention_masks(job, t)
    states = 0.0 if job.offload_policy else weights + grads + adam
    activations = checkpoints + recompute + logits + sdpa_mask + sdpa_bias
    train_peak = states + gathered + activations + fixed_asleep

    # --- rollout phase ---
    replicas = max(1, job.n_gpus // (tp * dp))
    kv_b = dtype_bytes(job.kv_cache_dtype, default=dtype_bytes(job.rollout_dtype))
    kv_tok_gpu = model.kv_bytes_per_token(kv_b, tp)
    budget = job.gpu_memory_utilization * gpu
    lora_slots = 0.0
    if job.lora_adapter_mode:
        engine_rank = vllm_lora_rank(job.lora_rank) if job.engine == "vllm" else job.lora_rank
        lora_slots = model.lora_params(engine_rank, job.lora_targets, job.lora_exclude) * 2
    engine_act = ENGINE_ACTIVATION_GIB * GIB
    act_inside = engine_act if job.engine != "sglang" else 0.0
    kv_gpu = max(0.0, budget - serve_weights - act_inside - lora_slots)
    # A replica spans tp*dp GPUs; each DP rank holds its own cache, TP ranks split the heads.
    kv_tokens_replica = int(kv_gpu // kv_tok_gpu) * dp if kv_tok_gpu else 0
    seq_len = job.max_prompt_length + job.max_response_length
    seqs_in_flight = job.train_batch_size * job.rollout_n / replicas
    tokens_in_flight = int(seqs_in_flight * seq_len)
    seqs_fit = min(kv_tokens_replica // seq_len if seq_len else 0, job.max_num_seqs * dp)

    resident_weights = 0.0 if (job.param_offload or job.offload_policy) else weights
    resident_adam = 0.0 if (job.optimizer_offload or job.offload_policy) else adam
    resident = resident_weights + resident_adam
    rollout_peak = budget + (engine_act - act_inside) + graphs + engine_ctx + worker_ctx + resident

    # --- log-prob phases (old log-probs with the actor; reference with its own weights on CPU) ---
    tl = job.logprob_tokens_per_gpu or t
    mask_l, bias_l = _attention_masks(job, tl)
    forward_tmp = tl * layer_tmp_per_token + tl * model.vocab * (2 + 4) + mask_l + bias_l
    actor_logprob = (0.0 if job.offload_policy else weights) + resident_adam + gathered + forward_tmp
    ref_logprob = 0.0
    if job.ref_dtype is not None and not job.lora:
        ref_layer_shard = model.params_per_layer() * dtype_bytes(job.ref_dtype, default=4) / shard
        ref_logprob = resident + gathered + ref_layer_shard + forward_tmp
    logprob_peak = max(actor_logprob, ref_logprob) + fixed_asleep

    # --- weight sync: actor weights on the GPU, engine weights resumed, one bucket in flight ---
    bucket = job.weight_sync_bucket_mb * 2**20
    sync_peak = (0.0 if job.offload_policy else weights) + resident_adam + serve_weights + bucket
    sync_peak += graphs + engine_ctx + worker_ctx

    phases = {
        "training": train_peak,
        "rollout": rollout_peak,
        "log-prob": logprob_peak,
        "weight sync": sync_peak,
    }
    peak_phase = max(phases, key=lambda k: phases[k])
    peak = phases[peak_phase]

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
        "train_sdpa_bias": _gib(sdpa_bias),
        "engine_kept_asleep": _gib(kept_asleep),
        "engine_weights_kept_asleep": _gib(kept_weights),
        "engine_cuda_graphs": _gib(graphs),
        "engine_context": _gib(engine_ctx),
        "worker_context": _gib(worker_ctx),
        "train_peak": _gib(train_peak),
        "rollout_budget": _gib(budget),
        "rollout_weights": _gib(serve_weights),
        "rollout_overhead": ENGINE_ACTIVATION_GIB,
        "rollout_lora_slots": _gib(lora_slots),
        "rollout_kv_cache": _gib(kv_gpu),
        "actor_resident_during_rollout": _gib(resident),
        "rollout_peak": _gib(rollout_peak),
        "actor_logprob_peak": _gib(actor_logprob + fixed_asleep),
        "ref_logprob_peak": _gib(ref_logprob + fixed_asleep) if ref_logprob else 0.0,
        "weight_sync_peak": _gib(sync_peak),
        "peak": _gib(peak),
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
        per_param = (b_model * 2 + 2 * b_opt) if not job.lora else b_model
        errors.append(
            f"actor {'frozen base + adapter' if job.lora else 'weights+grads+Adam'} alone need "
            f"{_gib(weights + grads + adam)} GiB per GPU ({p / 1e9:.2f}B params x {per_param} bytes "
            f"sharded over {shard} GPUs) > {job.gpu_mem_gib} GiB"
            + (
                ": a full fine-tune of this model does not fit this many GPUs. Use LoRA "
                "(actor_rollout_ref.model.lora_rank=32, see jobs/configs/r1distill70b_lora.yaml), more "
                "nodes, or fsdp_config.offload_policy=true (states on CPU; check host RAM)"
                if not job.lora
                else ": use fsdp_config.model_dtype=bf16 or more GPUs"
            )
        )
    elif peak > gpu:
        full_ft = ""
        if not job.lora and weights + grads + adam > 0.5 * gpu:
            full_ft = (
                f" (a full fine-tune: weights+grads+Adam alone are {_gib(weights + grads + adam)} GiB per GPU; "
                "LoRA trains an adapter instead: actor_rollout_ref.model.lora_rank)"
            )
        errors.append(
            f"estimated peak {_gib(peak)} GiB per GPU in the {peak_phase} phase > {job.gpu_mem_gib} GiB "
            f"of HBM ({_phase_terms(peak_phase, per_gpu)}): {_phase_advice(peak_phase, job)}{full_ft}"
        )
    elif peak > WARN_FRACTION * gpu:
        warnings.append(
            f"estimated peak {_gib(peak)} GiB per GPU in the {peak_phase} phase is "
            f"{100 * peak / gpu:.0f}% of {job.gpu_mem_gib} GiB (above {100 * WARN_FRACTION:.0f}%, "
            f"fragmentation can tip it over; {_phase_terms(peak_phase, per_gpu)}): {_phase_advice(peak_phase, job)}"
        )
    if sdpa_mask >= GIB:
        warnings.append(
            f"attn_implementation=sdpa with use_remove_padding: transformers builds a dense {t}x{t} "
            f"block-causal mask per micro-batch ({_gib(sdpa_mask)} GiB, plus {_gib(sdpa_bias)} GiB when "
            "SDPA takes it as a bf16 bias) and SDPA cannot use its flash kernel with it: build flash-attn "
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

    return MemoryEstimate(
        params=p,
        params_billion=round(p / 1e9, 3),
        lora_params=p_lora,
        kv_bytes_per_token=model.kv_bytes_per_token(kv_b, 1),
        kv_bytes_per_token_per_gpu=kv_tok_gpu,
        rollout_replicas=replicas,
        kv_tokens_per_replica=kv_tokens_replica,
        seqs_in_flight_per_replica=round(seqs_in_flight, 2),
        tokens_in_flight_per_replica=tokens_in_flight,
        seqs_fitting_per_replica=int(seqs_fit),
        per_gpu_gib=per_gpu,
        resident_during_rollout_gib=offload_variants,
        peak_gib=_gib(peak),
        peak_phase=peak_phase,
        peak_fraction=round(peak / gpu, 3),
        errors=errors,
        warnings=warnings,
    )


def _phase_terms(phase: str, g: dict[str, float]) -> str:
    if phase == "training":
        acts = round(
            g["train_activation_checkpoints"]
            + g["train_layer_recompute"]
            + g["train_logits"]
            + g["train_sdpa_packed_mask"]
            + g["train_sdpa_bias"],
            2,
        )
        return (
            f"weights {g['train_weights']} + grads {g['train_grads']} + Adam {g['train_adam']} + "
            f"activations {acts} + sleeping engine {g['engine_kept_asleep']} + contexts "
            f"{round(g['engine_context'] + g['worker_context'], 2)} GiB"
        )
    if phase == "rollout":
        return (
            f"engine budget {g['rollout_budget']} + CUDA graphs {g['engine_cuda_graphs']} + actor resident "
            f"{g['actor_resident_during_rollout']} + contexts {round(g['engine_context'] + g['worker_context'], 2)} GiB"
        )
    if phase == "log-prob":
        return f"actor {g['actor_logprob_peak']}, reference {g['ref_logprob_peak']} GiB"
    return f"actor weights {g['train_weights']} + engine weights {g['rollout_weights']} GiB"


def _phase_advice(phase: str, job: JobShape) -> str:
    if phase == "training":
        tips = [
            "lower actor.ppo_max_token_len_per_gpu (it must stay >= max_prompt_length + max_response_length)"
        ]
        if job.remove_padding and job.attn_implementation == "sdpa":
            tips.append("use flash-attn (drops the T x T sdpa mask and bias)")
        if not job.activation_offload:
            tips.append("set actor_rollout_ref.model.enable_activation_offload=true")
        if job.engine == "sglang" and job.lora_adapter_mode:
            tips.append(
                "SGLang keeps its base weights while the actor trains in LoRA adapter mode: use "
                "engine=vllm, a larger rollout TP, or actor_rollout_ref.model.lora.merge=true"
            )
        return "; ".join(tips)
    if phase == "rollout":
        return "lower rollout.gpu_memory_utilization or set actor fsdp_config.param_offload/optimizer_offload=true"
    if phase == "log-prob":
        return "lower rollout.log_prob_max_token_len_per_gpu / ref.log_prob_max_token_len_per_gpu"
    return "set actor fsdp_config.param_offload=true or raise rollout.tensor_model_parallel_size"
