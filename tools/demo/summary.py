#!/usr/bin/env python3
"""Print what a (dry-run) job would have trained, from the config verl composed for it.

Reads the resolved ``config.yaml`` the launcher writes to ``LOG_ROOT/<job id>/`` and, when
given, the data manifest, and prints the run in the terms a researcher checks before
spending GPU hours: model, data, GRPO group size, batch arithmetic, lengths, optimiser,
KL, rollout engine and replicas, reward, checkpoints.

Usage: ``python tools/demo/summary.py --config LOG_ROOT/<id>/config.yaml [--manifest M] [--job NAME]``
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml


def _get(cfg: dict[str, Any], dotted: str, default: object = None) -> Any:
    node: Any = cfg
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return default
        node = node[part]
    return node


def summarize(cfg: dict[str, Any], manifest: dict[str, Any] | None, job: str | None) -> list[tuple[str, str]]:
    """Rows of (what, value) describing the run the config defines."""
    nnodes = int(_get(cfg, "trainer.nnodes", 1))
    gpus = int(_get(cfg, "trainer.n_gpus_per_node", 8))
    n = int(_get(cfg, "actor_rollout_ref.rollout.n", 1))
    tbs = int(_get(cfg, "data.train_batch_size", 0))
    mini = int(_get(cfg, "actor_rollout_ref.actor.ppo_mini_batch_size", 0))
    tp = int(_get(cfg, "actor_rollout_ref.rollout.tensor_model_parallel_size", 1))
    epochs = _get(cfg, "trainer.total_epochs")
    train_rows = (manifest or {}).get("splits", {}).get("train")
    steps_per_epoch = train_rows // tbs if train_rows and tbs else None
    offload = (
        _get(cfg, "actor_rollout_ref.actor.fsdp_config.param_offload"),
        _get(cfg, "actor_rollout_ref.actor.fsdp_config.optimizer_offload"),
    )
    rows: list[tuple[str, str]] = []
    if job:
        rows.append(("job", job))
    rows += [
        ("model", str(_get(cfg, "actor_rollout_ref.model.path"))),
        ("algorithm", f"{_get(cfg, 'algorithm.adv_estimator')} (group of n={n} responses per prompt)"),
        ("cluster", f"{nnodes} node(s) x {gpus} GPUs = {nnodes * gpus} GPUs"),
        ("train data", str(_get(cfg, "data.train_files"))),
        ("val data", str(_get(cfg, "data.val_files"))),
    ]
    if train_rows is not None:
        rows.append(
            (
                "train rows",
                f"{train_rows} ({manifest.get('source')}, data_source {manifest.get('data_source')})",
            )
        )
    rows += [
        (
            "per step",
            f"{tbs} prompts x n={n} = {tbs * n} sequences; actor update in mini-batches of {mini} prompts",
        ),
        (
            "steps",
            f"{steps_per_epoch} per epoch x {epochs} epoch(s) = {steps_per_epoch * int(epochs)}"
            if steps_per_epoch is not None and epochs is not None
            else f"total_epochs={epochs}",
        ),
        (
            "lengths",
            f"prompt <= {_get(cfg, 'data.max_prompt_length')}, response <= {_get(cfg, 'data.max_response_length')} tokens",
        ),
        (
            "actor",
            f"{_get(cfg, 'actor_rollout_ref.actor.strategy')}, lr {_get(cfg, 'actor_rollout_ref.actor.optim.lr')}"
            f" ({_get(cfg, 'actor_rollout_ref.actor.optim.lr_warmup_steps')} warm-up steps),"
            f" param/optimizer offload {offload[0]}/{offload[1]},"
            f" dynamic bsz {_get(cfg, 'actor_rollout_ref.actor.use_dynamic_bsz')}"
            f" ({_get(cfg, 'actor_rollout_ref.actor.ppo_max_token_len_per_gpu')} tokens/GPU)",
        ),
        (
            "KL",
            f"loss {_get(cfg, 'actor_rollout_ref.actor.use_kl_loss')}"
            f" ({_get(cfg, 'actor_rollout_ref.actor.kl_loss_type')},"
            f" coef {_get(cfg, 'actor_rollout_ref.actor.kl_loss_coef')}),"
            f" in reward {_get(cfg, 'algorithm.use_kl_in_reward')}",
        ),
        (
            "rollout",
            f"{_get(cfg, 'actor_rollout_ref.rollout.name')}, TP {tp} -> {max(1, nnodes * gpus // max(tp, 1))} replicas,"
            f" gpu_memory_utilization {_get(cfg, 'actor_rollout_ref.rollout.gpu_memory_utilization')}",
        ),
        (
            "reward",
            f"{_get(cfg, 'reward.custom_reward_function.path')}:{_get(cfg, 'reward.custom_reward_function.name')}"
            f" via {_get(cfg, 'reward.reward_manager.name')}",
        ),
        (
            "checkpoints",
            f"{_get(cfg, 'trainer.default_local_dir')} every {_get(cfg, 'trainer.save_freq')} steps,"
            f" resume_mode={_get(cfg, 'trainer.resume_mode')}",
        ),
        ("logger", str(_get(cfg, "trainer.logger"))),
    ]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="the resolved config.yaml the launcher wrote")
    parser.add_argument("--manifest", help="dataprep/prepare.py's manifest.json of the train data")
    parser.add_argument("--job", help="job script name to show")
    args = parser.parse_args(argv)
    cfg_path = Path(args.config)
    if not cfg_path.is_file():
        print(f"demo_summary: {cfg_path} not found (did the job reach the compose step?)", file=sys.stderr)
        return 1
    cfg = yaml.safe_load(cfg_path.read_text())
    if not isinstance(cfg, dict):
        print(f"demo_summary: {cfg_path} is not a YAML mapping", file=sys.stderr)
        return 1
    manifest = json.loads(Path(args.manifest).read_text()) if args.manifest else None
    rows = summarize(cfg, manifest, args.job)
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"    {key.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
