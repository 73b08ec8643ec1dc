#!/usr/bin/env python3
"""Where does GRPO step time go? Break verl's ``timing_s/*`` down per run and compare runs.

Usage::

    python -m tools.timing RUN [RUN ...] [--names A,B] [--steps 3:] \\
        [--out report.md] [--plot timing.png] [--json]

RUN is a verl console log (``step:N - key:value - ...`` lines, Ray-prefixed or not), a verl
file-logger JSONL (``trainer.logger=[console,file]``), or a folder holding them (e.g.
``LOG_ROOT/<job id>/``). For each run: mean/median seconds per phase over the chosen steps,
their share of ``timing_s/step``, timers nested inside others (shown, never added twice), the
unaccounted remainder, per-token timings, throughput and response lengths. With two or more
runs: a side-by-side table against the first run, with deltas and speed-ups. ``--plot`` draws
stacked bars per run. Damaged lines are counted and reported, never fatal. See
docs/timing_report.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools.timing.parse import STEP_TIME_KEY, RunLog, TimingInputError, load_run
from tools.timing.phases import (
    LAYOUTS,
    NESTED,
    PER_TOKEN_PREFIX,
    StepBreakdown,
    breakdown,
    normalize_metrics,
    ordered_phases,
    timing_of,
)

# Non-timing metrics shown per run: (key, label, how to aggregate over steps, format).
PERF_KEYS: tuple[tuple[str, str, str, str], ...] = (
    ("perf/throughput", "throughput (tokens/s/GPU)", "mean", "{:.3f}"),
    ("perf/total_num_tokens", "tokens per step", "mean", "{:,.0f}"),
    ("response_length/mean", "response length mean (tokens)", "mean", "{:.1f}"),
    ("response_length/max", "response length max (tokens)", "max", "{:.0f}"),
    ("response_length/clip_ratio", "response clip ratio", "mean", "{:.4f}"),
    ("prompt_length/mean", "prompt length mean (tokens)", "mean", "{:.1f}"),
)
MAX_NOTES = 8


@dataclass(frozen=True)
class StepRange:
    """Inclusive step range from ``A:B``, ``A:``, ``:B`` or ``N``."""

    lo: int | None = None
    hi: int | None = None

    @classmethod
    def parse(cls, spec: str | None) -> StepRange:
        if spec is None or spec.strip() in ("", ":"):
            return cls()
        text = spec.strip()
        try:
            if ":" not in text:
                n = int(text)
                return cls(n, n)
            a, b = text.split(":", 1)
            lo = int(a) if a.strip() else None
            hi = int(b) if b.strip() else None
        except ValueError:
            raise TimingInputError(
                f"--steps {spec!r}: expected A:B, A:, :B or N with integer step numbers (inclusive), e.g. --steps 3:"
            ) from None
        if lo is not None and hi is not None and lo > hi:
            raise TimingInputError(f"--steps {spec!r}: first step {lo} is after last step {hi}")
        return cls(lo, hi)

    def __contains__(self, step: object) -> bool:
        if not isinstance(step, int):
            return False
        return (self.lo is None or step >= self.lo) and (self.hi is None or step <= self.hi)

    def __str__(self) -> str:
        if self.lo is None and self.hi is None:
            return "all"
        return f"{'' if self.lo is None else self.lo}:{'' if self.hi is None else self.hi}"


@dataclass
class Stat:
    """Mean/median over the chosen steps; ``present`` counts the steps that logged the key."""

    mean: float
    median: float
    present: int
    n: int

    @classmethod
    def of(cls, values: list[float], present: int, n: int) -> Stat:
        return cls(statistics.fmean(values), statistics.median(values), present, n)


@dataclass
class RunSummary:
    name: str
    source: str
    fmt: str
    files: list[str]
    ignored_files: list[str]
    steps_used: list[int]
    steps_available: list[int]
    step: Stat
    phases: dict[str, Stat]  # top-level, inside step, summed
    nested: dict[str, dict[str, Stat]]  # parent -> child (and "rest") -> stat, not summed again
    nested_stats: dict[str, dict[str, Stat]]  # per-sample statistics, not additive
    remainder: Stat
    outside: dict[str, Stat]
    unclassified: dict[str, Stat]
    per_token_ms: dict[str, Stat]
    perf: dict[str, float]
    layouts: dict[str, int]
    lines_read: int
    unparsable: int
    truncated: int
    repeated_steps: dict[int, int]
    parse_examples: list[str]
    notes: list[str] = field(default_factory=list)


def _zero_filled(bds: list[StepBreakdown], get: dict[int, dict[str, float]], name: str) -> Stat:
    """Stat of ``name`` over all chosen steps, 0 where a step did not run it."""
    values = [get[bd.step].get(name, 0.0) for bd in bds]
    present = sum(1 for bd in bds if name in get[bd.step])
    return Stat.of(values, present, len(bds))


def _present_only(values: list[float], n: int) -> Stat:
    return Stat.of(values, len(values), n)


def summarize(name: str, log: RunLog, steps: StepRange) -> RunSummary:
    """Aggregate one run over the chosen steps."""
    records = {s: normalize_metrics(m) for s, m in log.steps.items()}
    available = sorted(s for s, m in records.items() if STEP_TIME_KEY in m)
    if not available:
        raise TimingInputError(
            f"run {name!r} ({log.source}): no record carries {STEP_TIME_KEY} "
            f"({len(records)} records, steps {sorted(records)[:5]}...); only training steps are timed"
        )
    chosen = [s for s in available if s in steps]
    if not chosen:
        raise TimingInputError(
            f"run {name!r} ({log.source}): no timed step in --steps {steps}; "
            f"its timed steps are {available[0]}..{available[-1]} ({len(available)} steps)"
        )
    bds = [bd for s in chosen if (bd := breakdown(s, timing_of(records[s]))) is not None]
    n = len(bds)
    top = {bd.step: bd.top for bd in bds}
    outside = {bd.step: bd.outside for bd in bds}
    phases = {p: _zero_filled(bds, top, p) for p in ordered_phases({k for bd in bds for k in bd.top})}
    outside_stats = {
        p: _zero_filled(bds, outside, p) for p in ordered_phases({k for bd in bds for k in bd.outside})
    }

    nested: dict[str, dict[str, Stat]] = {}
    for parent in [*NESTED, *sorted({p for bd in bds for p in bd.nested} - set(NESTED))]:
        children = sorted({c for bd in bds for c in bd.nested.get(parent, {})}, key=_nested_order(parent))
        if not children:
            continue
        per_step = {bd.step: bd.nested.get(parent, {}) for bd in bds}
        nested[parent] = {c: _zero_filled(bds, per_step, c) for c in children}
        rest = [
            bd.top[parent] - sum(bd.nested[parent].values())
            for bd in bds
            if parent in bd.top and parent in bd.nested
        ]
        if rest:
            nested[parent]["rest"] = _present_only(rest, n)

    nested_stats: dict[str, dict[str, Stat]] = {}
    for parent in sorted({p for bd in bds for p in bd.nested_stats}):
        logged = [bd.nested_stats.get(parent, {}) for bd in bds]
        keys = sorted({k for stats in logged for k in stats})
        nested_stats[parent] = {k: _present_only([st[k] for st in logged if k in st], n) for k in keys}

    unclassified: dict[str, Stat] = {}
    for key in sorted({k for bd in bds for k in bd.unclassified}):
        unclassified[key] = _present_only([bd.unclassified[key] for bd in bds if key in bd.unclassified], n)

    per_token: dict[str, Stat] = {}
    for key in sorted({k for s in chosen for k in records[s] if k.startswith(PER_TOKEN_PREFIX)}):
        vals = [records[s][key] for s in chosen if key in records[s]]
        per_token[key[len(PER_TOKEN_PREFIX) :]] = _present_only(vals, n)
    per_token = {k: per_token[k] for k in ordered_phases(set(per_token))}

    perf: dict[str, float] = {}
    for key, _label, how, _fmt in PERF_KEYS:
        vals = [records[s][key] for s in chosen if key in records[s]]
        if vals:
            perf[key] = max(vals) if how == "max" else statistics.fmean(vals)

    notes = [note for bd in bds for note in bd.notes]
    st = log.stats
    return RunSummary(
        name=name,
        source=log.source,
        fmt=log.fmt,
        files=st.files,
        ignored_files=st.ignored_files,
        steps_used=[bd.step for bd in bds],
        steps_available=available,
        step=Stat.of([bd.total for bd in bds], n, n),
        phases=phases,
        nested=nested,
        nested_stats=nested_stats,
        remainder=Stat.of([bd.remainder for bd in bds], n, n),
        outside=outside_stats,
        unclassified=unclassified,
        per_token_ms=per_token,
        perf=perf,
        layouts=dict(Counter(bd.layout for bd in bds)),
        lines_read=st.lines_read,
        unparsable=st.unparsable,
        truncated=st.truncated,
        repeated_steps={s: c for s, c in sorted(st.repeated_steps.items())},
        parse_examples=st.examples,
        notes=notes,
    )


def _nested_order(parent: str) -> Callable[[str], tuple[int, str]]:
    known = NESTED.get(parent, ())

    def key(child: str) -> tuple[int, str]:
        return (known.index(child) if child in known else len(known), child)

    return key


# ----------------------------------------------------------------------------------- compare


@dataclass
class CompareRow:
    phase: str
    seconds: list[float | None]  # per run, None where the run did not log it
    delta: list[float | None]  # run - reference, per run (reference: None)
    speedup: list[float | None]  # reference / run, per run (reference: None)


def _row_values(summaries: list[RunSummary]) -> list[tuple[str, list[float | None]]]:
    rows: list[tuple[str, list[float | None]]] = [("step", [s.step.mean for s in summaries])]
    top = ordered_phases({p for s in summaries for p in s.phases})
    for p in top:
        rows.append((p, [s.phases[p].mean if p in s.phases else None for s in summaries]))
        for parent in NESTED:
            if parent != p:
                continue
            children = sorted(
                {c for s in summaries for c in s.nested.get(p, {}) if c != "rest"}, key=_nested_order(p)
            )
            for c in children:
                rows.append(
                    (
                        f"{p}/{c}",
                        [s.nested[p][c].mean if c in s.nested.get(p, {}) else None for s in summaries],
                    )
                )
    rows.append(("unaccounted", [s.remainder.mean for s in summaries]))
    for p in ordered_phases({p for s in summaries for p in s.outside}):
        rows.append(
            (f"outside step: {p}", [s.outside[p].mean if p in s.outside else None for s in summaries])
        )
    return rows


def compare(summaries: list[RunSummary]) -> list[CompareRow]:
    """Every phase side by side; deltas and speed-ups against the first run."""
    out: list[CompareRow] = []
    for phase, secs in _row_values(summaries):
        ref = secs[0]
        delta: list[float | None] = [None]
        speed: list[float | None] = [None]
        for v in secs[1:]:
            delta.append(None if v is None or ref is None else v - ref)
            timed = phase != "unaccounted"  # a ratio of two small remainders means nothing
            speed.append(
                ref / v if timed and v is not None and ref is not None and v > 0 and ref > 0 else None
            )
        out.append(CompareRow(phase, secs, delta, speed))
    return out


def speedup_sentences(summaries: list[RunSummary], rows: list[CompareRow]) -> list[str]:
    """Plain statements "X is N× faster than Y" for the step and gen, per run vs the reference."""
    by_phase = {r.phase: r for r in rows}
    ref = summaries[0]
    lines: list[str] = []
    for i, run in enumerate(summaries[1:], start=1):
        for phase, label in (("step", "per step (timing_s/step)"), ("gen", "in generation (timing_s/gen)")):
            row = by_phase.get(phase)
            if row is None or row.seconds[0] is None or row.seconds[i] is None or not row.speedup[i]:
                continue
            a, b = row.seconds[0], row.seconds[i]
            fast, slow, ratio = (run.name, ref.name, a / b) if b < a else (ref.name, run.name, b / a)
            lines.append(
                f"{fast} is {ratio:.2f}× faster than {slow} {label}: {min(a, b):.3f} s vs {max(a, b):.3f} s"
            )
        step_row = by_phase["step"]
        step_delta = step_row.delta[i]
        if step_delta:
            contrib = [
                (r.phase, r.delta[i])
                for r in rows
                if r.phase not in ("step",)
                and "/" not in r.phase
                and not r.phase.startswith("outside")
                and r.delta[i]
            ]
            if contrib:
                phase, d = max(contrib, key=lambda x: abs(x[1] or 0.0))
                assert d is not None
                lines.append(
                    f"{phase} accounts for {100 * d / step_delta:.1f}% of the step-time difference "
                    f"({d:+.3f} s of {step_delta:+.3f} s, {run.name} − {ref.name})"
                )
    return lines


# ---------------------------------------------------------------------------------- render


def _s(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def _pct(x: float, total: float) -> str:
    return f"{100 * x / total:.1f}%" if total else "—"


def _stat_row(label: str, st: Stat, total: float, share: str | None = None) -> str:
    share_txt = share if share is not None else _pct(st.mean, total)
    return f"| {label} | {st.mean:.3f} | {st.median:.3f} | {share_txt} | {st.present}/{st.n} |"


def _steps_text(steps: list[int]) -> str:
    if not steps:
        return "none"
    contiguous = steps == list(range(steps[0], steps[-1] + 1))
    span = (
        f"{steps[0]}–{steps[-1]}"
        if contiguous
        else ", ".join(map(str, steps[:12])) + (" …" if len(steps) > 12 else "")
    )
    return f"{span} ({len(steps)} step{'s' if len(steps) != 1 else ''})"


def render_run(s: RunSummary) -> list[str]:
    total = s.step.mean
    out = [f"## {s.name}", ""]
    out.append(
        f"- source: `{s.source}` ({s.fmt}{'; files: ' + ', '.join(f'`{f}`' for f in s.files) if s.files != [s.source] else ''})"
    )
    if s.ignored_files:
        out.append(
            f"- console logs not used (the JSONL has exact values): {', '.join(f'`{f}`' for f in s.ignored_files)}"
        )
    out.append(
        f"- steps used: {_steps_text(s.steps_used)}; timed steps in the log: {_steps_text(s.steps_available)}"
    )
    layouts = {lay.name: lay.description for lay in LAYOUTS}
    out.append(
        "- verl layout: " + "; ".join(f"{k} ({layouts.get(k, k)}): {v} step(s)" for k, v in s.layouts.items())
    )
    out += ["", "| phase | mean s | median s | share of step | steps |", "|---|---:|---:|---:|---:|"]
    out.append(_stat_row("**step** (`timing_s/step`)", s.step, total))
    for p, st in s.phases.items():
        out.append(_stat_row(p, st, total))
        for c, cst in s.nested.get(p, {}).items():
            label = (
                f"&nbsp;&nbsp;↳ rest of {p} (not in nested timers)"
                if c == "rest"
                else f"&nbsp;&nbsp;↳ {c} (inside {p})"
            )
            out.append(_stat_row(label, cst, total, f"({_pct(cst.mean, total)})"))
    out.append(_stat_row("**unaccounted** (step − Σ phases)", s.remainder, total))
    for p, st in s.outside.items():
        out.append(_stat_row(f"*outside step:* {p}", st, total, "not in step"))
    out.append("")
    out.append(
        "Rows marked ↳ are timed inside their parent and are not added again; phase shares plus "
        "the unaccounted remainder make 100%. A phase that ran in only some steps counts 0 in the others."
    )
    for parent, stats in s.nested_stats.items():
        out += [
            "",
            f"Per-sample statistics logged under `timing_s/` inside {parent} (not additive, not summed):",
            "",
        ]
        out += ["| key | mean | median | steps |", "|---|---:|---:|---:|"]
        out += [f"| {k} | {st.mean:.3f} | {st.median:.3f} | {st.present}/{st.n} |" for k, st in stats.items()]
    if s.unclassified:
        out += [
            "",
            "Unclassified `timing_s/` keys (unknown nesting: shown, not summed; their time is within the remainder if they ran inside step):",
            "",
        ]
        out += ["| key | mean s | median s | steps |", "|---|---:|---:|---:|"]
        out += [
            f"| {k} | {st.mean:.3f} | {st.median:.3f} | {st.present}/{st.n} |"
            for k, st in s.unclassified.items()
        ]
    if s.per_token_ms:
        out += [
            "",
            "| per-token timing (`timing_per_token_ms/`) | mean ms | median ms | steps |",
            "|---|---:|---:|---:|",
        ]
        out += [
            f"| {k} | {st.mean:.4g} | {st.median:.4g} | {st.present}/{st.n} |"
            for k, st in s.per_token_ms.items()
        ]
    out += ["", "| metric | value |", "|---|---:|"]
    for key, label, how, fmt in PERF_KEYS:
        v = s.perf.get(key)
        agg = "max over steps" if how == "max" else "mean over steps"
        out.append(f"| {label} (`{key}`, {agg}) | {'—' if v is None else fmt.format(v)} |")
    out += ["", _parse_line(s)]
    if s.notes:
        out += [f"- {n}" for n in s.notes[:MAX_NOTES]]
        if len(s.notes) > MAX_NOTES:
            out.append(f"- … and {len(s.notes) - MAX_NOTES} more")
    out.append("")
    return out


def _parse_line(s: RunSummary) -> str:
    parts = [
        f"Parsing: {s.lines_read} lines read",
        f"{s.unparsable} unparsable",
        f"{s.truncated} truncated (partial last line)",
    ]
    if s.repeated_steps:
        reps = ", ".join(f"{k} ({v}×)" for k, v in list(s.repeated_steps.items())[:10])
        parts.append(f"steps logged more than once (restart; the later record wins): {reps}")
    text = "; ".join(parts) + "."
    if s.parse_examples:
        text += " Examples: " + "; ".join(f"`{e}`" for e in s.parse_examples)
    return text


def render_compare(summaries: list[RunSummary], rows: list[CompareRow]) -> list[str]:
    names = [s.name for s in summaries]
    ref = names[0]
    head = ["phase", *[f"{n} s" for n in names]]
    for n in names[1:]:
        head += [f"Δ {n}−{ref} s", f"speed-up {ref}/{n}"]
    out = [f"## Comparison (reference: {ref})", ""]
    out.append("| " + " | ".join(head) + " |")
    out.append("|---|" + "---:|" * (len(head) - 1))
    for r in rows:
        label = (
            f"&nbsp;&nbsp;↳ {r.phase.split('/', 1)[1]} (inside {r.phase.split('/', 1)[0]})"
            if "/" in r.phase
            else r.phase
        )
        if r.phase == "step":
            label = "**step**"
        cells = [label, *[_s(v) for v in r.seconds]]
        for i in range(1, len(names)):
            d = r.delta[i]
            sp = r.speedup[i]
            cells += ["—" if d is None else f"{d:+.3f}", "—" if sp is None else f"{sp:.2f}×"]
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "Speed-up = reference seconds / run seconds (> 1: the run is faster).", ""]
    tp = [s.perf.get("perf/throughput") for s in summaries]
    if all(v is not None for v in tp) and tp[0]:
        out.append(
            "Throughput (tokens/s/GPU): "
            + ", ".join(f"{s.name} {v:.3f}" for s, v in zip(summaries, tp, strict=True))
            + ""
        )
        out.append("")
    out += [f"- {line}" for line in speedup_sentences(summaries, rows)]
    out.append("")
    return out


def render_markdown(summaries: list[RunSummary], steps: StepRange) -> str:
    out = ["# GRPO step-time report", ""]
    out.append(
        f"Runs: {', '.join(s.name for s in summaries)}; steps: {steps}. Seconds are per training step."
    )
    out.append("")
    if len(summaries) > 1:
        out += render_compare(summaries, compare(summaries))
    for s in summaries:
        out += render_run(s)
    return "\n".join(out).rstrip() + "\n"


def render_json(summaries: list[RunSummary], steps: StepRange) -> str:
    doc: dict[str, object] = {"steps": str(steps), "runs": [asdict(s) for s in summaries]}
    if len(summaries) > 1:
        rows = compare(summaries)
        doc["comparison"] = {
            "reference": summaries[0].name,
            "runs": [s.name for s in summaries],
            "rows": [asdict(r) for r in rows],
            "summary": speedup_sentences(summaries, rows),
        }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------------------------- CLI


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temp file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def default_names(paths: list[Path]) -> list[str]:
    names: list[str] = []
    for p in paths:
        base = p.resolve().name if p.is_dir() else p.name.split(".")[0] or p.name
        name, k = base, 2
        while name in names:
            name, k = f"{base}-{k}", k + 1
        names.append(name)
    return names


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="timing_report.py",
        description="Break verl GRPO step time down by phase, per run, and compare runs.",
    )
    ap.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="verl console log, file-logger JSONL, or a folder (LOG_ROOT/<job id>/)",
    )
    ap.add_argument("--names", help="comma-separated run names, one per RUN (default: file or folder names)")
    ap.add_argument(
        "--steps",
        help="inclusive step range A:B, A:, :B or N (default: all timed steps); e.g. 3: skips warm-up",
    )
    ap.add_argument(
        "--out", type=Path, help="write the report here (markdown, or JSON with --json) instead of stdout"
    )
    ap.add_argument("--plot", type=Path, help="write a PNG of stacked per-phase bars per run")
    ap.add_argument("--json", action="store_true", help="emit JSON instead of markdown")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        paths = [Path(r) for r in args.runs]
        steps = StepRange.parse(args.steps)
        if args.names:
            names = [n.strip() for n in args.names.split(",")]
            if len(names) != len(paths) or any(not n for n in names):
                raise TimingInputError(
                    f"--names {args.names!r}: give {len(paths)} non-empty comma-separated names, one per RUN"
                )
        else:
            names = default_names(paths)
        if args.plot is not None and args.plot.suffix.lower() != ".png":
            raise TimingInputError(f"--plot {args.plot}: the plot is a PNG; name the file *.png")
        summaries: list[RunSummary] = []
        for name, path in zip(names, paths, strict=True):
            log = load_run(path)
            st = log.stats
            print(
                f"timing_report: {name}: read {path} ({log.fmt}, {len(st.files)} file(s), {st.lines_read} lines): "
                f"{len(log.steps)} steps, {st.unparsable} unparsable, {st.truncated} truncated, "
                f"{len(st.repeated_steps)} repeated",
                file=sys.stderr,
            )
            summaries.append(summarize(name, log, steps))
    except TimingInputError as exc:
        print(f"timing_report: error: {exc}", file=sys.stderr)
        return 2
    text = render_json(summaries, steps) if args.json else render_markdown(summaries, steps)
    if args.out is not None:
        write_atomic(args.out, text)
        print(f"timing_report: wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.plot is not None:
        from tools.timing.plot import plot_runs

        plot_runs(summaries, args.plot)
        print(f"timing_report: wrote {args.plot}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
