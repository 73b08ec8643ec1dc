#!/usr/bin/env python3
"""Check a GRPO job before it waits in the queue.

    python -m tools.preflight JOB_SCRIPT_OR_EXPERIMENT [--engine sglang|vllm] [--nodes N] [--json]
                              [--gpu-mem-gib G] [--plot PNG] [overrides ...]

Composes the experiment exactly as the launcher does (``jobs/configs/<experiment>.yaml``,
``engine=<name>``, the overrides) against the installed verl, then checks: unknown and legacy
keys, verl's own config validation, the allocation, rollout parallelism, batch-size divisibility,
GRPO/KL settings, lengths against the model's context, the model dir, the train/val Parquet files
(``dataprep/check.py``), the reward (loaded through verl and run on a real train row), the
checkpoint dir, engine and LoRA rules, a per-GPU memory estimate by phase (``memory.py``), and
host RAM per node and checkpoint disk (``node.py``; checks in ``capacity.py``).

Paths in the configs come from the site file (``jobs/site.env``, or ``SITE_ENV=PATH``), which is
sourced the way the launcher sources it. Exit status: 0 when there is no error (warnings allowed),
1 when there is, 2 on bad usage. ``--json`` prints
``{"ok", "errors", "warnings", "memory", "checks", ...}`` instead of the table.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CONFIG_DIR = REPO_ROOT / "jobs" / "configs"
EXPECTED_VERL = "0.9.1"

_ASSIGN = r"^\s*(?:export\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?{name}=(?P<v>\S+)\s*(?:#.*)?$"


def read_script_var(text: str, name: str) -> str | None:
    """The literal value of ``NAME=value`` (or ``NAME=${NAME:-value}``) in a job script."""
    for line in text.splitlines():
        m = re.match(_ASSIGN.format(name=name), line)
        if not m:
            continue
        value = m.group("v").strip("\"'")
        d = re.fullmatch(r"\$\{" + name + r":?-([^}]*)\}", value)
        if d:
            value = d.group(1).strip("\"'")
        if value and "$" not in value:
            return value
    return None


def read_sbatch_nodes(text: str) -> int | None:
    for line in text.splitlines():
        m = re.match(r"^#SBATCH\s+(?:--nodes[= ]|-N\s*)(\d+)", line)
        if m:
            return int(m.group(1))
    return None


def resolve_target(target: str, config_dir: Path) -> tuple[str, str | None, int | None, str]:
    """(experiment, engine from the script or None, #SBATCH nodes or None, description)."""
    p = Path(target)
    if p.suffix == ".sh" or (p.is_file() and p.suffix != ".yaml"):
        if not p.is_file():
            raise SystemExit(f"preflight: job script {target} does not exist")
        text = p.read_text(encoding="utf-8")
        experiment = read_script_var(text, "EXPERIMENT")
        if not experiment:
            raise SystemExit(f"preflight: {target} has no literal EXPERIMENT=<name> line")
        return experiment, read_script_var(text, "ENGINE"), read_sbatch_nodes(text), f"{target}"
    if p.suffix == ".yaml":
        return p.stem, None, None, target
    return target, None, None, f"{config_dir}/{target}.yaml"


def site_env_file(config_dir: Path) -> Path | None:
    explicit = os.environ.get("SITE_ENV")
    if explicit:
        return Path(explicit)
    default = config_dir.parent / "site.env"
    return default if default.is_file() else None


def load_site_env(path: Path) -> dict[str, str]:
    """Source the site file in bash (as the launcher does) and return the variables it sets or changes."""
    if not path.is_file():
        raise SystemExit(f"preflight: site file {path} (SITE_ENV) does not exist; copy jobs/site.env.example")
    proc = subprocess.run(
        ["bash", "-c", 'set -a; source "$1" >&2; env -0', "preflight-site-env", str(path)],
        capture_output=True,
        check=False,
        timeout=60,
    )
    if proc.returncode != 0:
        err = proc.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["(no message)"]
        raise SystemExit(f"preflight: sourcing {path} failed (exit {proc.returncode}): {err[0]}")
    changed: dict[str, str] = {}
    for item in proc.stdout.split(b"\0"):
        if b"=" not in item:
            continue
        k, _, v = item.decode(errors="replace").partition("=")
        if k in ("_", "SHLVL", "PWD", "OLDPWD"):
            continue
        if os.environ.get(k) != v:
            changed[k] = v
    return changed


def _readable_resolve_error(exc: BaseException, site: Path | None) -> str:
    text = str(exc).splitlines()[0]
    m = re.search(r"Environment variable '([^']+)' not found", str(exc))
    if m:
        where = (
            f"{site} does not set it" if site else "no site file (jobs/site.env or SITE_ENV=PATH) was found"
        )
        return (
            f"the config reads ${{oc.env:{m.group(1)}}} but {m.group(1)} is not set: {where}. "
            "Copy jobs/site.env.example to jobs/site.env and fill it in"
        )
    full = re.search(r"full_key: (\S+)", str(exc))
    if "Missing mandatory value" in str(exc):
        key = full.group(1) if full else text.rpartition(":")[2].strip()
        return (
            f"{key} has no value ('???' in verl's defaults): set it in the experiment, overlay or overrides"
        )
    return f"cannot resolve {full.group(1) if full else 'the config'}: {text}"


def build_overrides(
    engine: str | None, nodes: int | None, overrides: list[str]
) -> tuple[list[str], list[str]]:
    """The launcher's override list: ``engine=<name>`` first, then (when ``--nodes`` is given and the
    overrides do not set it) ``trainer.nnodes`` as the launcher adds it, then the overrides verbatim."""
    out: list[str] = []
    notes: list[str] = []
    if engine:
        out.append(f"engine={engine}")
    keys = {o.split("=", 1)[0].lstrip("+~") for o in overrides if "=" in o}
    if nodes is not None and "trainer.nnodes" not in keys:
        out.append(f"trainer.nnodes={nodes}")
        notes.append(f"trainer.nnodes={nodes} added as the launcher does")
    return out + list(overrides), notes


def run_preflight(args: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    from tools.preflight import checks as pcheck

    report = pcheck.Report()
    config_dir = Path(args.config_dir).resolve()
    experiment, script_engine, script_nodes, described = resolve_target(args.target, config_dir)
    engine = args.engine or script_engine
    nodes = args.nodes
    if nodes is None:
        alloc = pcheck.slurm_allocation(dict(os.environ))
        nodes = alloc[0] if alloc else script_nodes
    info: dict[str, Any] = {"experiment": experiment, "engine": engine, "target": described}

    site = site_env_file(config_dir)
    changed: dict[str, str] = {}
    if site is not None:
        changed = load_site_env(site)
        report.ok("site env", f"{site}: {len(changed)} variable(s) set")
    else:
        report.skip("site env", "no jobs/site.env and SITE_ENV unset; using the current environment")
    with _environ(changed):
        return _run_checks(args, report, info, config_dir, experiment, engine, nodes, site)


@contextlib.contextmanager
def _environ(changes: dict[str, str]) -> Iterator[None]:
    """Apply the site file's variables for the duration of the checks (then restore)."""
    saved = {k: os.environ.get(k) for k in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _run_checks(
    args: argparse.Namespace,
    report: Any,
    info: dict[str, Any],
    config_dir: Path,
    experiment: str,
    engine: str | None,
    nodes: int | None,
    site: Path | None,
) -> tuple[dict[str, Any], Any]:
    from tools.preflight import capacity as pcap
    from tools.preflight import checks as pcheck
    from tools.preflight import config as pconf
    from tools.preflight import files as pfiles

    with pcheck.quiet():
        import verl
    version = getattr(verl, "__version__", "unknown")
    info["verl_version"] = version
    if version != EXPECTED_VERL:
        report.warn("verl", f"installed verl is {version}; this project's configs target {EXPECTED_VERL}")
    else:
        report.ok("verl", version)

    overrides, notes = build_overrides(engine, nodes, list(args.overrides))
    info["overrides"] = overrides
    check_attention(report, info, overrides)
    try:
        with pcheck.quiet():
            cfg = pconf.compose_job(config_dir, experiment, overrides)
            base = pconf.base_config(pconf.group_choices(overrides))
    except pconf.ComposeError as exc:
        report.error("compose", str(exc))
        return info, report
    report.ok(
        "compose", f"{experiment}.yaml engine={engine or '(default)'}" + (f"; {notes[0]}" if notes else "")
    )

    for problem in pconf.unknown_keys(cfg, base):
        report.error("unknown keys", problem.message)
    report.ok("unknown keys", "every key exists in verl's ppo_trainer")
    with pcheck.quiet():
        legacy = pconf.legacy_keys(cfg)
    for problem in legacy:
        (report.error if problem.level == "error" else report.warn)("legacy keys", problem.message)
    report.ok("legacy keys", f"none of verl's {len(pconf.placeholder_keys())} legacy placeholders is set")

    from omegaconf import OmegaConf

    try:
        resolved = OmegaConf.create(OmegaConf.to_container(cfg, resolve=True))
        OmegaConf.set_struct(resolved, True)
    except Exception as exc:
        report.error("resolve", _readable_resolve_error(exc, site))
        return info, report
    report.ok("resolve", "all interpolations resolve")

    ctx = pcheck.Context(
        cfg=resolved, engine=engine, report=report, nodes=nodes, gpu_mem_gib=args.gpu_mem_gib
    )
    for check in (
        pcheck.check_verl_rules,
        pcheck.check_algorithm,
        pcheck.check_topology,
        pcheck.check_batches,
        pcheck.check_engine,
        pfiles.check_model,
        pfiles.check_lengths,
        pfiles.check_data,
        pfiles.check_reward,
        pfiles.check_checkpoint_dir,
        pcap.check_memory,
    ):
        try:
            check(ctx)
        except Exception as exc:  # a check that crashes must not hide the others
            label = check.__name__.removeprefix("check_").replace("_", " ")
            report.error(label, f"could not run this check ({type(exc).__name__}: {exc})")
    return info, report


ATTN_KEY = "model.override_config.attn_implementation="


def check_attention(report: Any, info: dict[str, Any], overrides: list[str]) -> None:
    """The attention implementation the launcher passes (jobs/lib/attention.py: ATTN_IMPLEMENTATION
    or an override, verified; else what transformers will really use here), loaded in this env."""
    from jobs.lib import attention

    requested = next((o.split("=", 1)[1] for o in reversed(overrides) if ATTN_KEY in o), None)
    try:
        choice = attention.choose(requested)
    except attention.AttentionError as exc:
        info["attention"] = {"implementation": None, "reason": str(exc)}
        report.error("attention", str(exc))
        return
    info["attention"] = {"implementation": choice.implementation, "reason": choice.reason}
    try:
        loaded = attention.verify(choice.implementation)
    except attention.AttentionError as exc:
        report.error("attention", f"{choice.implementation} ({choice.reason}), but {exc}")
        return
    report.ok("attention", f"{choice.implementation} ({choice.reason}); {loaded}")


_MARK = {"ok": "ok", "warn": "WARN", "error": "ERROR", "skip": "skip"}


def memory_lines(mem: dict[str, Any]) -> list[str]:
    """The estimate's breakdown under the check table: per GPU by phase, then per node."""
    g = mem["per_gpu_gib"]
    acts = sum(
        g.get(k, 0.0)
        for k in (
            "train_activation_checkpoints",
            "train_layer_recompute",
            "train_logits",
            "train_sdpa_packed_mask",
            "train_sdpa_bias",
        )
    )
    ctxs = round(g.get("engine_context", 0.0) + g.get("worker_context", 0.0), 2)
    lines = [
        f"  memory/GPU (GiB): peak {mem.get('peak_gib')} ({100 * mem.get('peak_fraction', 0):.0f}% of "
        f"{g['gpu_total']}) in the {mem.get('peak_phase')} phase",
        f"    training  {g['train_peak']} = weights {g['train_weights']} + grads {g['train_grads']} + Adam "
        f"{g['train_adam']} + gathered layers {g['train_gathered_layers']} + activations ~{round(acts, 2)} "
        f"+ sleeping engine {g.get('engine_kept_asleep', 0.0)} + contexts {ctxs}",
        f"    rollout   {g['rollout_peak']} = engine budget {g['rollout_budget']} (weights "
        f"{g['rollout_weights']} + KV {g['rollout_kv_cache']}) + CUDA graphs {g.get('engine_cuda_graphs', 0.0)}"
        f" + actor resident {g['actor_resident_during_rollout']} + contexts {ctxs}",
        f"    log-prob  {g.get('actor_logprob_peak', 0.0)} (actor), {g.get('ref_logprob_peak', 0.0)} (reference);"
        f" weight sync {g.get('weight_sync_peak', 0.0)}",
    ]
    node = mem.get("node")
    if node:
        have = node.get("host_available_gb")
        lines.append(
            f"  host RAM/node (GB): ~{node['host_total_gb']}"
            + (f" of {have}" if have else "")
            + " = "
            + " + ".join(f"{k.replace('_', ' ')} {v}" for k, v in node["host_gb"].items())
        )
        free = node.get("disk_free_gb")
        lines.append(
            f"  checkpoint disk (GB): {node['checkpoint_gb']} per checkpoint, {node['disk_needed_gb']} needed"
            + (f", {free} free" if free is not None else "")
        )
    return lines


def render_table(info: dict[str, Any], report: Any, seconds: float) -> str:
    lines = [
        f"preflight: {info.get('experiment')} (engine={info.get('engine') or 'default'}, "
        f"verl {info.get('verl_version', '?')}) from {info.get('target')}"
    ]
    width = max((len(c.name) for c in report.checks), default=10)
    for c in report.checks:
        detail = " ".join(c.detail.split())
        detail = detail if len(detail) <= 160 else detail[:157] + "..."
        lines.append(f"  {_MARK[c.status]:<5} {c.name:<{width}}  {detail}")
    mem = report.memory
    if mem:
        lines += memory_lines(mem)
    if report.errors:
        lines.append("errors:")
        lines += [f"  - {' '.join(e.split())}" for e in report.errors]
    if report.warnings:
        lines.append("warnings:")
        lines += [f"  - {' '.join(w.split())}" for w in report.warnings]
    verdict = "PASS" if report.passed else "FAIL"
    lines.append(
        f"verdict: {verdict} ({len(report.errors)} error(s), {len(report.warnings)} warning(s), {seconds:.1f} s)"
    )
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="preflight.py",
        description="Check a verl GRPO job (config, data, model, reward, memory) before submitting it.",
    )
    parser.add_argument("target", help="job script (jobs/*.sh) or experiment name (jobs/configs/<name>.yaml)")
    parser.add_argument("overrides", nargs="*", help="Hydra overrides, as given to the job (key=value)")
    parser.add_argument("--engine", choices=["sglang", "vllm"], help="rollout engine overlay (engine=<name>)")
    parser.add_argument(
        "--nodes", type=int, help="nodes of the allocation (default: Slurm's, or #SBATCH --nodes)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object instead of the table")
    parser.add_argument("--plot", metavar="PNG", help="draw the per-GPU memory estimate by phase to this PNG")
    parser.add_argument(
        "--gpu-mem-gib",
        type=float,
        default=float(os.environ.get("PREFLIGHT_GPU_MEM_GIB", "0") or 0) or None,
        help="memory of one GPU in GiB (default 79.6, an H100 80GB; env PREFLIGHT_GPU_MEM_GIB)",
    )
    parser.add_argument("--config-dir", default=str(DEFAULT_CONFIG_DIR), help="experiment config dir")
    args = parser.parse_intermixed_args(argv)
    if args.nodes is not None and args.nodes < 1:
        parser.error("--nodes must be >= 1")
    if args.gpu_mem_gib is None:
        from tools.preflight.memory import DEFAULT_GPU_MEM_GIB

        args.gpu_mem_gib = DEFAULT_GPU_MEM_GIB
    return args


def main(argv: list[str] | None = None) -> int:
    start = time.monotonic()
    args = parse_args(argv)
    try:
        info, report = run_preflight(args)
    except SystemExit as exc:
        if isinstance(exc.code, str):
            if args.json:
                print(json.dumps({"ok": False, "errors": [exc.code], "warnings": [], "memory": {}}))
            else:
                print(exc.code, file=sys.stderr)
            return 1
        raise
    if args.plot and report.memory.get("per_gpu_gib"):
        from tools.preflight import plot

        title = (
            f"{info.get('experiment')} (engine={info.get('engine') or 'default'}): memory per GPU by phase"
        )
        plot.draw(report.memory, Path(args.plot), title)
    seconds = time.monotonic() - start
    if args.json:
        out = {
            "ok": report.passed,
            "errors": report.errors,
            "warnings": report.warnings,
            "memory": report.memory,
            "checks": [{"name": c.name, "status": c.status, "detail": c.detail} for c in report.checks],
            **info,
            "seconds": round(seconds, 2),
        }
        print(json.dumps(out, indent=2, default=str))
    else:
        print(render_table(info, report, seconds))
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
