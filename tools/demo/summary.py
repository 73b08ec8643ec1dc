#!/usr/bin/env python3
"""Print what a job trains, from the config verl composed for it, and what really happened.

Reads the resolved ``config.yaml`` the launcher writes to ``LOG_ROOT/<job id>/`` and, when
given, the data manifest, and prints the run in the terms a researcher checks before
spending GPU hours: model, data, GRPO group size, batch arithmetic, lengths, optimiser,
KL, rollout engine and replicas, reward, checkpoints. With ``--metrics LOG_ROOT/<job id>``
(verl's ``metrics*.jsonl``, one file per run of a requeued job) it adds what the real run did:
steps per run, the resume, rewards, first-step and steady seconds per step, the phase split,
the checkpoint, the export and (``--rss``) the job's peak memory.

Usage: ``python -m tools.demo.summary --config LOG_ROOT/<id>/config.yaml [--manifest M] [--job NAME]
[--metrics LOG_ROOT/<id>] [--ckpt RUN_CKPT_DIR] [--job-log LOG] [--export DIR] [--rss FILE] [--wall S]``
"""

from __future__ import annotations

import argparse
import json
import re
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


def _planned_steps(total: object, steps_per_epoch: int | None, epochs: object) -> str:
    """trainer.total_training_steps when set (it wins over the epochs in verl), else epochs x steps."""
    per_epoch = (
        f"{steps_per_epoch} per epoch x {epochs} epoch(s) = {steps_per_epoch * int(str(epochs))}"
        if steps_per_epoch is not None and epochs is not None
        else f"total_epochs={epochs}"
    )
    if total not in (None, "", 0):
        return f"{total} (trainer.total_training_steps; the data gives {per_epoch})"
    return per_epoch


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
        ("steps", _planned_steps(_get(cfg, "trainer.total_training_steps"), steps_per_epoch, epochs)),
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


PHASES = ("gen", "reward", "old_log_prob", "ref", "adv", "update_actor", "update_weights", "save_checkpoint")


def read_runs(metrics_dir: Path) -> list[tuple[str, dict[int, dict[str, float]]]]:
    """verl's file-logger records per run: metrics.jsonl, then metrics.restartN.jsonl in order."""

    def order(path: Path) -> int:
        match = re.search(r"restart(\d+)", path.name)
        return int(match.group(1)) if match else 0

    runs = []
    for path in sorted(metrics_dir.glob("metrics*.jsonl"), key=order):
        steps: dict[int, dict[str, float]] = {}
        for line in path.read_text(errors="replace").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and isinstance(record.get("step"), int):
                steps[record["step"]] = record.get("data", {})
        runs.append((path.name, steps))
    return runs


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def what_happened(
    runs: list[tuple[str, dict[int, dict[str, float]]]],
    job_log: Path | None,
    ckpt: Path | None,
    export: Path | None,
    rss_file: Path | None,
    wall: float | None,
) -> list[tuple[str, str]]:
    """Rows describing the real run from its metrics, log, checkpoint and export."""
    rows: list[tuple[str, str]] = []
    all_steps = sorted({s for _, steps in runs for s in steps})
    logged = f"{len(all_steps)} ({', '.join(map(str, all_steps)) or 'none'}) in {len(runs)} run(s)"
    text = job_log.read_text(errors="replace") if job_log is not None and job_log.exists() else ""
    stops = [int(n) for n in re.findall(r"trainer: timelimit \(rc \d+\); global_step \d+ -> (\d+)", text)]
    unlogged = sorted(set(range(1, all_steps[-1] + 1)) - set(all_steps)) if all_steps else []
    if unlogged:
        # verl logs a step's metrics after its checkpoint: a stop at the time limit can fall between
        why = [
            f"step {s} trained and checkpointed, stopped before verl logged it"
            if s in stops
            else f"step {s}: no log"
            for s in unlogged
        ]
        logged += f"; {'; '.join(why)}"
    rows.append(("steps logged", logged))
    first_times: list[float] = []
    steady: list[dict[str, float]] = []
    for i, (name, steps) in enumerate(runs, 1):
        if not steps:
            rows.append((f"run {i}", f"{name}: no steps"))
            continue
        ordered = sorted(steps)
        first = steps[ordered[0]].get("timing_s/step")
        if first is not None:
            first_times.append(first)
        steady += [steps[s] for s in ordered[1:]]
        rows.append((f"run {i}", f"{name}: steps {ordered[0]}..{ordered[-1]}, first step {first or 0:.1f} s"))
    if text:
        resumes = re.findall(r"resume: run \S+ resumes from (global_step_\d+)", text)
        rows.append(("resume", f"from {', '.join(resumes)} (job log)" if resumes else "none (one run)"))
        saved = re.findall(r"time limit: .*checkpoint (global_step_\d+) (?:was )?saved", text)
        requeues = len(re.findall(r"requeue: scontrol requeue", text))
        stopped = ", ".join(f"global_step_{n}" for n in stops) or "nothing"
        rows.append(
            (
                "time limit",
                f"warning with {', '.join(saved) or 'nothing'} saved; trainer stopped with {stopped} on disk;"
                f" {requeues} requeue(s)",
            )
        )
    scores = [
        (s, d["critic/score/mean"])
        for _, steps in runs
        for s, d in sorted(steps.items())
        if "critic/score/mean" in d
    ]
    if scores:
        rows.append(("reward (mean)", ", ".join(f"step {s}: {v:+.3f}" for s, v in scores)))
    step_s = [d["timing_s/step"] for d in steady if "timing_s/step" in d]
    if step_s:
        rows.append(
            (
                "seconds/step",
                f"{_mean(step_s):.2f} s mean over {len(step_s)} steady step(s) (first steps: "
                + ", ".join(f"{t:.1f}" for t in first_times)
                + " s, warm-up)",
            )
        )
        phases = []
        for phase in PHASES:
            mean = _mean([d[f"timing_s/{phase}"] for d in steady if f"timing_s/{phase}" in d])
            if mean is not None:
                phases.append(f"{phase} {mean:.2f}")
        rows.append(("phases (s)", ", ".join(phases)))
    if rss_file is not None and rss_file.exists():
        rows.append(
            (
                "peak RSS",
                f"{int(rss_file.read_text().strip()) / 2**30:.1f} GiB (sum over the job's processes)",
            )
        )
    if ckpt is not None:
        tracker = ckpt / "latest_checkpointed_iteration.txt"
        kept = sorted(p.name for p in ckpt.glob("global_step_*"))
        latest = tracker.read_text().strip() if tracker.exists() else "none"
        rows.append(("checkpoint", f"{ckpt} (latest global_step_{latest}; kept {', '.join(kept) or 'none'})"))
    if export is not None and (export / "config.json").exists():
        arch = json.loads((export / "config.json").read_text()).get("architectures", ["?"])[0]
        rows.append(("HF export", f"{export} ({arch}, safetensors + tokenizer; verl's model merger)"))
    if wall is not None:
        rows.append(("demo wall time", f"{wall:.0f} s"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="the resolved config.yaml the launcher wrote")
    parser.add_argument("--manifest", help="dataprep/prepare.py's manifest.json of the train data")
    parser.add_argument("--job", help="job script name to show")
    parser.add_argument("--metrics", type=Path, help="LOG_ROOT/<job id>: the real run's metrics*.jsonl")
    parser.add_argument("--ckpt", type=Path, help="the run's checkpoint dir")
    parser.add_argument("--job-log", type=Path, help="the Slurm job log (resume, time limit, requeue)")
    parser.add_argument("--export", type=Path, help="the exported Hugging Face folder")
    parser.add_argument("--rss", type=Path, help="file holding the job's peak RSS in bytes")
    parser.add_argument("--wall", type=float, help="the demo's wall time so far, seconds")
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
    if args.metrics is not None:
        runs = read_runs(args.metrics)
        if not runs:
            print(f"demo_summary: no metrics*.jsonl in {args.metrics}", file=sys.stderr)
            return 1
        rows += [("", "")] + what_happened(runs, args.job_log, args.ckpt, args.export, args.rss, args.wall)
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"    {key.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
