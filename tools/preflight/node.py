"""Host RAM per node and checkpoint disk for a GRPO job (verl 0.9.1), from the same model and job
shapes as the GPU estimate (``tools/preflight/memory.py``; its docstring says where each offload
comes from).

Host RAM per node: what the offloads and the engine put there, per node =
sum over its GPUs of each GPU's share:
    actor weights P*b_model*g/S (param_offload or offload_policy; the frozen base with LoRA)
    Adam 2*P_train*b_opt*g/S (optimizer_offload or offload_policy), grads P_train*b_model*g/S (offload_policy)
    reference P*b_ref*g/S_ref (always offloaded, see above)
    engine weight backup g*P*2/TP (SGLang when it releases weights; vLLM level-1 sleep)
    activation checkpoints L*T*H*2*g with enable_activation_offload
    /dev/shm copy of the model (P*2) with ``model.use_shm``
    HOST_PROCESS_GIB per process (2 per GPU: FSDP worker and engine worker)
  Phi-4 (P = 14.66e9) on one node, SGLang TP=2, fp32 actor and ref: 58.6 GB params + 117.3 GB Adam +
  58.6 GB ref + 117.3 GB engine backup = 351.9 GB before the processes; a bf16 ref saves 29.3 GB.

Checkpoint disk: verl's FSDP checkpoint holds each rank's model shard (P*b_model, or only the adapter
with ``checkpoint.save_lora_only``) + optimizer shard (2*P_train*b_opt) + ``hf_model`` (P*2) when saved.
Phi-4, fp32: 14.66e9*(4 + 8) = 176 GB per checkpoint. The disk must hold ``max_actor_ckpt_to_keep``
of them plus the one being written.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tools.preflight.memory import GB, GIB, JobShape, ModelShape, dtype_bytes

# Host RAM of one Python worker process (torch, CUDA libraries, Ray worker) before any offload.
HOST_PROCESS_GIB = 4.0


@dataclass
class NodeEstimate:
    """Host RAM per node and checkpoint disk (see the module docstring)."""

    host_gb: dict[str, float]
    host_total_gb: float
    checkpoint_gb: float
    checkpoints_on_disk: int
    disk_needed_gb: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def node_estimate(model: ModelShape, job: JobShape) -> NodeEstimate:
    """Host RAM one node needs and the disk the checkpoints need, in GB (1e9 bytes, as RAM and disks
    are sold and as Slurm's RealMemory/df count them in MB/kB)."""
    p = model.params()
    p_lora = model.lora_params(job.lora_rank, job.lora_targets, job.lora_exclude)
    p_train = p_lora if job.lora else p
    b_model = dtype_bytes(job.model_dtype, default=4)
    b_opt = 4 if b_model == 4 else b_model
    shard = job.fsdp_size if job.fsdp_size and job.fsdp_size > 0 else job.n_gpus
    g = min(job.gpus_per_node, job.n_gpus)
    # each GPU holds 1/shard of the model: a node holds g/shard copies (0.5 on 2 nodes, 2 with fsdp_size=4)
    node_share = g / max(1, shard)
    tp = max(1, job.rollout_tp)
    host: dict[str, float] = {}
    if job.param_offload or job.offload_policy:
        host["actor_weights"] = (p + p_lora) * b_model * node_share
    if job.optimizer_offload or job.offload_policy:
        host["actor_adam"] = 2 * p_train * b_opt * node_share
    if job.offload_policy:
        host["actor_grads"] = p_train * b_model * node_share
    if job.ref_dtype is not None and not job.lora:
        host["reference"] = p * dtype_bytes(job.ref_dtype, default=4) * node_share
    backup = (job.engine == "sglang" and not job.lora_adapter_mode) or (
        job.engine == "vllm" and job.lora_adapter_mode
    )
    if backup and job.free_cache_engine:
        host["engine_weight_backup"] = g * p * dtype_bytes(job.rollout_dtype) / tp
    if job.activation_offload:
        host["activation_checkpoints"] = g * model.layers * job.train_tokens_per_gpu * model.hidden * 2
    if job.use_shm:
        host["model_in_dev_shm"] = p * 2
    host["processes"] = 2 * g * HOST_PROCESS_GIB * GIB
    host_gb = {k: round(v / GB, 1) for k, v in host.items()}

    model_bytes = p_lora * b_model if (job.lora and job.save_lora_only) else (p + p_lora) * b_model
    ckpt = (model_bytes if job.save_model else 0) + (2 * p_train * b_opt if job.save_optimizer else 0)
    if job.save_hf_model:
        ckpt += p * 2
    kept = job.max_ckpt_to_keep if job.max_ckpt_to_keep and job.max_ckpt_to_keep > 0 else 0
    on_disk = kept + 1 if kept else 0  # 0: verl keeps every checkpoint
    return NodeEstimate(
        host_gb=host_gb,
        host_total_gb=round(sum(host.values()) / GB, 1),
        checkpoint_gb=round(ckpt / GB, 1),
        checkpoints_on_disk=on_disk,
        disk_needed_gb=round(ckpt * max(on_disk, 1) / GB, 1),
    )
