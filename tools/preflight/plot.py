"""Per-GPU memory by phase as stacked bars (PNG via matplotlib's Agg backend), from preflight's
``memory`` JSON: ``python -m tools.preflight JOB --plot memory.png``.

One bar per phase (training, rollout, log-prob, weight sync), stacked by the estimate's terms, with
the GPU's size and preflight's warning line (88 %) drawn across.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from tools.preflight.memory import WARN_FRACTION


def phase_stacks(mem: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Phase -> term -> GiB, the terms summing to the phase's peak (as ``memory.py`` adds them)."""
    g = mem["per_gpu_gib"]
    ctx = g["engine_context"] + g["worker_context"]
    train = {
        "actor weights": g["train_weights"],
        "grads + Adam": g["train_grads"] + g["train_adam"],
        "gathered layers": g["train_gathered_layers"],
        "activations": g["train_activation_checkpoints"] + g["train_layer_recompute"] + g["train_logits"],
        "sdpa mask + bias": g["train_sdpa_packed_mask"] + g["train_sdpa_bias"],
        "sleeping engine": g["engine_kept_asleep"],
        "CUDA/NCCL contexts": ctx,
    }
    rollout = {
        "engine weights": g["rollout_weights"],
        "KV cache": g["rollout_kv_cache"],
        "engine activations + LoRA": g["rollout_overhead"] + g["rollout_lora_slots"],
        "CUDA graphs": g["engine_cuda_graphs"],
        "actor resident": g["actor_resident_during_rollout"],
        "CUDA/NCCL contexts": ctx,
    }
    logprob = max(g["actor_logprob_peak"], g["ref_logprob_peak"])
    fixed = g["engine_kept_asleep"] + ctx
    return {
        "training": train,
        "rollout": rollout,
        "log-prob": {
            "forward": logprob - fixed,
            "sleeping engine": g["engine_kept_asleep"],
            "CUDA/NCCL contexts": ctx,
        },
        "weight sync": {
            "actor + engine weights, bucket": g["weight_sync_peak"] - g["engine_cuda_graphs"] - ctx,
            "CUDA graphs": g["engine_cuda_graphs"],
            "CUDA/NCCL contexts": ctx,
        },
    }


def draw(mem: dict[str, Any], path: Path, title: str) -> Path:
    """Write the PNG atomically (temp file in the same dir, then rename)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stacks = phase_stacks(mem)
    gpu = mem["per_gpu_gib"]["gpu_total"]
    terms = list(dict.fromkeys(t for s in stacks.values() for t in s))
    cmap = matplotlib.colormaps["tab20"]
    colors = {t: cmap(i % 20) for i, t in enumerate(terms)}
    fig, ax = plt.subplots(figsize=(9, 5))
    for x, parts in enumerate(stacks.values()):
        bottom = 0.0
        for term, gib in parts.items():
            if gib <= 0:
                continue
            ax.bar(x, gib, bottom=bottom, color=colors[term], label=term, width=0.6)
            bottom += gib
        ax.text(x, bottom + 0.8, f"{bottom:.1f}", ha="center", fontsize=9)
    ax.axhline(gpu, color="black", linewidth=1)
    ax.axhline(WARN_FRACTION * gpu, color="red", linestyle="--", linewidth=1)
    ax.text(len(stacks) - 0.5, gpu, f" GPU {gpu} GiB", va="bottom", ha="right", fontsize=8)
    ax.text(
        len(stacks) - 0.5,
        WARN_FRACTION * gpu,
        f" {100 * WARN_FRACTION:.0f}%",
        va="bottom",
        ha="right",
        fontsize=8,
        color="red",
    )
    ax.set_xticks(range(len(stacks)), list(stacks))
    ax.set_ylabel("GiB per GPU")
    ax.set_title(title, fontsize=10)
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    ax.legend(unique.values(), unique.keys(), fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".png", dir=path.parent)
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=120)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
