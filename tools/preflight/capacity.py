"""The capacity checks of preflight: GPU memory per GPU (``memory.py``), host RAM per node and
checkpoint disk (``node.py``), all from the composed job config and the model's ``config.json``.

The node's RAM comes from, in order: ``NODE_MEM_GB`` (environment or site file), Slurm's
``SLURM_MEM_PER_NODE`` inside a job (MiB), the smallest ``RealMemory`` that ``sinfo`` reports
(MiB; the job scripts ask for ``--mem=0``, the whole node). The checkpoint filesystem's free space
is read at ``trainer.default_local_dir`` (its nearest existing parent), or taken from ``CKPT_FREE_GB``
(environment or site file) where a quota, not the filesystem, is the limit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tools.preflight.checks import Context, quiet, sel
from tools.preflight.memory import GB, JobShape, ModelConfigError, ModelShape, estimate
from tools.preflight.node import node_estimate

# Warn when the host-RAM estimate passes this share of the node's memory (the OS, page cache and
# the file system's buffers need the rest).
HOST_WARN_FRACTION = 0.9
MIB = 2**20


def _container(value: Any) -> Any:
    from omegaconf import OmegaConf

    return OmegaConf.to_container(value, resolve=True) if OmegaConf.is_config(value) else value


def _tokens(cfg: Any, section: str, dynamic_key: str, max_key: str, micro_key: str, seq_len: int) -> int:
    if sel(cfg, f"{section}.{dynamic_key}"):
        return int(sel(cfg, f"{section}.{max_key}") or seq_len)
    return int(sel(cfg, f"{section}.{micro_key}") or 1) * seq_len


def lora_rank_of(cfg: Any) -> int:
    """As verl reads it (rollout/sglang_rollout/utils.py:71-74): the larger of ``model.lora_rank``
    (FSDP) and ``model.lora.rank`` (Megatron)."""
    model = "actor_rollout_ref.model"
    return max(int(sel(cfg, f"{model}.lora_rank", 0) or 0), int(sel(cfg, f"{model}.lora.rank", 0) or 0))


def job_shape(cfg: Any, gpu_mem_gib: float) -> JobShape:
    """The estimate's view of a composed verl config."""
    actor, rollout, model = "actor_rollout_ref.actor", "actor_rollout_ref.rollout", "actor_rollout_ref.model"
    prompt = int(sel(cfg, "data.max_prompt_length"))
    response = int(sel(cfg, "data.max_response_length"))
    seq = prompt + response
    tokens = _tokens(
        cfg, actor, "use_dynamic_bsz", "ppo_max_token_len_per_gpu", "ppo_micro_batch_size_per_gpu", seq
    )
    logprob = _tokens(
        cfg,
        rollout,
        "log_prob_use_dynamic_bsz",
        "log_prob_max_token_len_per_gpu",
        "log_prob_micro_batch_size_per_gpu",
        seq,
    )
    ref_tokens = _tokens(
        cfg,
        "actor_rollout_ref.ref",
        "log_prob_use_dynamic_bsz",
        "log_prob_max_token_len_per_gpu",
        "log_prob_micro_batch_size_per_gpu",
        seq,
    )
    engine_kwargs = sel(cfg, f"{rollout}.engine_kwargs") or {}
    kv_dtype = None
    for kw in engine_kwargs.values() if hasattr(engine_kwargs, "values") else []:
        if kw and kw.get("kv_cache_dtype") not in (None, "auto"):
            kv_dtype = str(kw.get("kv_cache_dtype"))
    with quiet():
        from verl.trainer.ppo.utils import need_reference_policy

        use_ref = bool(need_reference_policy(cfg))
    save_contents = [str(c) for c in (_container(sel(cfg, f"{actor}.checkpoint.save_contents")) or [])]
    keep = sel(cfg, "trainer.max_actor_ckpt_to_keep")
    return JobShape(
        n_gpus=int(sel(cfg, "trainer.nnodes")) * int(sel(cfg, "trainer.n_gpus_per_node")),
        gpus_per_node=int(sel(cfg, "trainer.n_gpus_per_node")),
        gpu_mem_gib=gpu_mem_gib,
        fsdp_size=int(sel(cfg, f"{actor}.fsdp_config.fsdp_size", -1) or -1),
        model_dtype=str(sel(cfg, f"{actor}.fsdp_config.model_dtype", "fp32") or "fp32"),
        param_offload=bool(sel(cfg, f"{actor}.fsdp_config.param_offload")),
        optimizer_offload=bool(sel(cfg, f"{actor}.fsdp_config.optimizer_offload")),
        offload_policy=bool(sel(cfg, f"{actor}.fsdp_config.offload_policy")),
        activation_offload=bool(sel(cfg, f"{model}.enable_activation_offload", False)),
        train_tokens_per_gpu=tokens,
        logprob_tokens_per_gpu=max(logprob, ref_tokens if use_ref else 0),
        engine=str(sel(cfg, f"{rollout}.name")),
        rollout_tp=int(sel(cfg, f"{rollout}.tensor_model_parallel_size", 1)),
        rollout_dp=int(sel(cfg, f"{rollout}.data_parallel_size", 1)),
        rollout_dtype=str(sel(cfg, f"{rollout}.dtype", "bfloat16")),
        kv_cache_dtype=kv_dtype,
        gpu_memory_utilization=float(sel(cfg, f"{rollout}.gpu_memory_utilization")),
        enforce_eager=bool(sel(cfg, f"{rollout}.enforce_eager", False)),
        free_cache_engine=bool(sel(cfg, f"{rollout}.free_cache_engine", True)),
        max_num_seqs=int(sel(cfg, f"{rollout}.max_num_seqs", 256) or 256),
        train_batch_size=int(sel(cfg, "data.train_batch_size")),
        rollout_n=int(sel(cfg, f"{rollout}.n", 1)),
        max_prompt_length=prompt,
        max_response_length=response,
        attn_implementation=str(
            sel(cfg, f"{model}.override_config.attn_implementation", None) or "flash_attention_2"
        ),
        remove_padding=bool(sel(cfg, f"{model}.use_remove_padding", False)),
        lora_rank=lora_rank_of(cfg),
        lora_targets=_container(sel(cfg, f"{model}.target_modules", "all-linear")),
        lora_exclude=_container(sel(cfg, f"{model}.exclude_modules", None)),
        lora_merge=bool(sel(cfg, f"{model}.lora.merge", False)),
        ref_dtype=str(sel(cfg, "actor_rollout_ref.ref.fsdp_config.model_dtype", "fp32") or "fp32")
        if use_ref
        else None,
        weight_sync_bucket_mb=int(
            sel(cfg, f"{rollout}.checkpoint_engine.update_weights_bucket_megabytes", 2048) or 2048
        ),
        use_shm=bool(sel(cfg, f"{model}.use_shm", False)),
        save_model="model" in save_contents,
        save_optimizer="optimizer" in save_contents,
        save_hf_model="hf_model" in save_contents,
        save_lora_only=bool(sel(cfg, f"{actor}.checkpoint.save_lora_only", False)),
        max_ckpt_to_keep=int(keep) if keep is not None else None,
    )


def _human(n: int) -> str:
    return f"{n / 1e9:.2f}B" if n >= 1e8 else f"{n / 1e6:.3g}M"


def check_memory(ctx: Context) -> None:
    """GPU memory per GPU, host RAM per node and checkpoint disk."""
    name = "memory"
    cfg, r = ctx.cfg, ctx.report
    if ctx.hf_config is None:
        for label in (name, "host memory", "checkpoint disk"):
            r.skip(label, "no model config.json to estimate from")
        return
    try:
        shape = ModelShape.from_hf_config(ctx.hf_config)
    except ModelConfigError as exc:
        r.skip(name, str(exc))
        return
    job = job_shape(cfg, ctx.gpu_mem_gib)
    est = estimate(shape, job)
    ctx.report.memory = est.to_dict()
    for e in est.errors:
        r.error(name, e)
    for w in est.warnings:
        r.warn(name, w)
    g = est.per_gpu_gib
    lora = f" + LoRA {_human(est.lora_params)} (rank {job.lora_rank})" if job.lora else ""
    r.ok(
        name,
        f"{_human(est.params)} params{lora}; peak ~{est.peak_gib} GiB/GPU ({100 * est.peak_fraction:.0f}% "
        f"of {job.gpu_mem_gib}) in the {est.peak_phase} phase; train {g['train_peak']}, rollout "
        f"{g['rollout_peak']}; KV {est.kv_tokens_per_replica} tokens/replica (TP={job.rollout_tp}) for "
        f"{est.seqs_in_flight_per_replica:g} seqs in flight",
    )
    node = node_estimate(shape, job)
    ctx.report.memory["node"] = node.to_dict()
    _check_host(ctx, node.host_total_gb, node.host_gb)
    _check_disk(ctx, node.checkpoint_gb, node.checkpoints_on_disk, node.disk_needed_gb)


def node_memory_gb(env: dict[str, str]) -> tuple[float, str] | None:
    """(GB of RAM one node offers, where that number came from), or None when nothing says."""
    explicit = env.get("NODE_MEM_GB")
    if explicit:
        try:
            return float(explicit), "NODE_MEM_GB"
        except ValueError:
            raise ValueError(
                f"NODE_MEM_GB={explicit!r} is not a number of GB (e.g. NODE_MEM_GB=2000)"
            ) from None
    per_node = env.get("SLURM_MEM_PER_NODE")
    if env.get("SLURM_JOB_ID") and per_node and per_node.isdigit() and int(per_node) > 0:
        return int(per_node) * MIB / GB, f"SLURM_MEM_PER_NODE of job {env['SLURM_JOB_ID']}"
    if shutil.which("sinfo"):
        try:
            proc = subprocess.run(
                ["sinfo", "-h", "-N", "-o", "%m"],
                capture_output=True,
                text=True,
                timeout=15,
                check=False,
                env=env,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        values = [int(v) for v in proc.stdout.split() if v.isdigit() and int(v) > 0]
        if proc.returncode == 0 and values:
            return min(values) * MIB / GB, "the smallest RealMemory in sinfo"
    return None


def _check_host(ctx: Context, need_gb: float, parts: dict[str, float]) -> None:
    name = "host memory"
    r = ctx.report
    detail = " + ".join(f"{k.replace('_', ' ')} {v}" for k, v in parts.items())
    try:
        have = node_memory_gb(ctx.env)
    except ValueError as exc:
        r.error(name, str(exc))
        return
    ctx.report.memory["node"]["host_available_gb"] = round(have[0], 1) if have else None
    if have is None:
        r.skip(
            name,
            f"needs ~{need_gb} GB per node ({detail}); set NODE_MEM_GB in the site file to check it",
        )
        return
    have_gb, source = have
    if need_gb > have_gb:
        r.error(
            name,
            f"~{need_gb} GB of host RAM per node ({detail}) > {have_gb:.0f} GB ({source}): the node "
            "swaps or the OOM killer ends the job. Set actor_rollout_ref.ref.fsdp_config.model_dtype=bf16, "
            "turn model.enable_activation_offload off, lower rollout TP's backup (vLLM full fine-tune keeps "
            "none) or use more nodes",
        )
    elif need_gb > HOST_WARN_FRACTION * have_gb:
        r.warn(
            name,
            f"~{need_gb} GB of host RAM per node ({detail}) is {100 * need_gb / have_gb:.0f}% of "
            f"{have_gb:.0f} GB ({source}); the page cache and file system need the rest",
        )
    r.ok(name, f"~{need_gb} GB per node of {have_gb:.0f} GB ({source}): {detail}")


def _check_disk(ctx: Context, ckpt_gb: float, count: int, need_gb: float) -> None:
    name = "checkpoint disk"
    r = ctx.report
    d = str(sel(ctx.cfg, "trainer.default_local_dir"))
    if not os.path.isabs(d):
        r.skip(name, f"{d} is relative (see the checkpoint dir check)")
        return
    existing = Path(d)
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    quota = ctx.env.get("CKPT_FREE_GB")
    if quota:
        try:
            free_gb, where = float(quota), f"CKPT_FREE_GB for {existing}"
        except ValueError:
            r.error(name, f"CKPT_FREE_GB={quota!r} is not a number of GB (e.g. CKPT_FREE_GB=5000)")
            return
    else:
        free_gb, where = shutil.disk_usage(existing).free / GB, str(existing)
    ctx.report.memory["node"]["disk_free_gb"] = round(free_gb, 1)
    kept = f"{count - 1} kept + 1 being written" if count else "verl keeps every checkpoint (count: 1)"
    if need_gb > free_gb:
        r.error(
            name,
            f"checkpoints need {need_gb} GB ({ckpt_gb} GB each x {kept}) but {where} has "
            f"{free_gb:.0f} GB free: the first save that does not fit fails the run. Free space, point "
            "CKPT_ROOT elsewhere, lower trainer.max_actor_ckpt_to_keep"
            + (" or set actor.checkpoint.save_lora_only=true" if lora_rank_of(ctx.cfg) else ""),
        )
    elif not count:
        r.warn(
            name,
            f"trainer.max_actor_ckpt_to_keep is unset: verl keeps every checkpoint ({ckpt_gb} GB each, "
            f"{free_gb:.0f} GB free in {where})",
        )
    r.ok(name, f"{ckpt_gb} GB per checkpoint x {kept} = {need_gb} GB; {free_gb:.0f} GB free in {where}")
