"""Read verl training metrics from a console log, a file-logger JSONL, or a folder of them.

Two formats, both written by verl 0.9.1's ``Tracking`` (``verl/utils/tracking.py``):

- console (``trainer.logger`` contains ``console``): ``LocalLogger`` prints
  ``concat_dict_to_str(metrics, step)`` (``verl/utils/logger/aggregate_logger.py``), i.e.
  ``step:N - key:value - key:value``, where each value is ``pprint.pformat(v)`` of a
  ``numbers.Number`` (so NumPy >= 2 scalars appear as ``np.float64(0.12)``). Through Ray the line
  is prefixed by the actor, e.g. ``(TaskRunner pid=1843)`` or ``(TaskRunner pid=1843, ip=10.0.0.2)``,
  possibly wrapped in ANSI colour codes.
- JSONL (``trainer.logger`` contains ``file``): ``FileLogger`` writes one
  ``{"step": N, "data": {...}}`` object per line with ``orjson`` (NaN becomes ``null``) to
  ``$VERL_FILE_LOGGER_PATH``, or else to
  ``${VERL_FILE_LOGGER_ROOT:-.}/<trainer.project_name>/<trainer.experiment_name>.jsonl``.
  It opens the file with mode ``wb``: a restarted job that reuses the path overwrites it.

Damaged input is counted, never fatal: a metrics line that does not parse is skipped and
counted as unparsable; a partial last line (no final newline: the job died mid-write) is
skipped and counted as truncated; a step logged again (a restart that resumed from an earlier
checkpoint) replaces the earlier record ("the later one wins") and is reported.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

CONSOLE_SUFFIXES = (".log", ".out", ".err", ".txt")
JSONL_SUFFIXES = (".jsonl",)
# How deep to look below a RUN folder (LOG_ROOT/<job>/ may hold per-node subfolders).
MAX_DIR_DEPTH = 2
# Keep at most this many examples of damaged lines per run.
MAX_EXAMPLES = 5
# verl marks a record as a training step when it carries this key.
STEP_TIME_KEY = "timing_s/step"

_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# "step:N - " anywhere in the line (after a Ray prefix, a timestamp, or tqdm residue).
_STEP_RE = re.compile(r"(?<![\w/.-])step:(\d+)(?: - |\s*$)")
_RAY_REPEAT_RE = re.compile(r"\s*\[repeated \d+x across cluster\]\s*$")
_NP_SCALAR_RE = re.compile(r"^np\.(?:float|int|uint|longdouble|double|single|half)\w*\((.*)\)$")


class TimingInputError(Exception):
    """A RUN argument cannot be read: the message names the path and what to do."""


class DamagedLine(ValueError):
    """A metrics line that does not parse; the message says which field."""


@dataclass
class ParseStats:
    """What happened while reading one run's files."""

    files: list[str] = field(default_factory=list)
    ignored_files: list[str] = field(default_factory=list)
    lines_read: int = 0
    records: int = 0
    unparsable: int = 0
    truncated: int = 0
    examples: list[str] = field(default_factory=list)
    # step -> how many times a record with timing_s/step was seen for it (only steps seen > 1)
    repeated_steps: dict[int, int] = field(default_factory=dict)

    def note(self, where: str, reason: str) -> None:
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(f"{where}: {reason}")


@dataclass
class RunLog:
    """All metric records of one run, keyed by step (insertion order = order first seen)."""

    source: str
    fmt: str  # "console" or "jsonl"
    steps: dict[int, dict[str, float]]
    stats: ParseStats


def parse_console_value(text: str) -> float | None:
    """One value as ``pprint.pformat`` prints a number; ``None`` for NaN (treated as missing)."""
    raw = text.strip()
    m = _NP_SCALAR_RE.match(raw)
    if m:
        raw = m.group(1).strip()
    if raw in ("True", "np.True_"):
        return 1.0
    if raw in ("False", "np.False_"):
        return 0.0
    try:
        value = float(raw)
    except ValueError:
        raise DamagedLine(f"value {text!r} is not a number") from None
    return None if math.isnan(value) else value


def parse_console_line(line: str) -> tuple[int, dict[str, float]] | None:
    """``(step, metrics)`` for a verl metrics line, ``None`` for any other line.

    Raises ``DamagedLine`` when the line starts like a metrics line but a field is broken.
    """
    if "step:" not in line:
        return None
    clean = _ANSI_RE.sub("", line).rstrip("\r\n")
    if "\r" in clean:  # tqdm redraws share the line; the metrics are in the last segment
        segments = [s for s in clean.split("\r") if "step:" in s]
        if not segments:
            return None
        clean = segments[-1]
    m = _STEP_RE.search(clean)
    if m is None:
        return None
    step = int(m.group(1))
    rest = _RAY_REPEAT_RE.sub("", clean[m.end() :]).strip()
    metrics: dict[str, float] = {}
    if not rest:
        return step, metrics
    for part in rest.split(" - "):
        key, sep, value = part.rpartition(":")
        key = key.strip()
        if not sep or not key:
            raise DamagedLine(f"field {part[:60]!r} is not key:value")
        try:
            parsed = parse_console_value(value)
        except DamagedLine as exc:
            raise DamagedLine(f"key {key!r}: {exc}") from None
        if parsed is not None:
            metrics[key] = parsed
    return step, metrics


def parse_jsonl_record(text: str) -> tuple[int, dict[str, float]]:
    """``(step, numeric metrics)`` of one FileLogger line; raises ``DamagedLine``."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DamagedLine(f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("data"), dict):
        raise DamagedLine('not a verl file-logger record {"step": N, "data": {...}}')
    step = obj.get("step")
    if isinstance(step, bool) or not isinstance(step, int):
        raise DamagedLine(f'"step" is {step!r}, expected an integer')
    metrics: dict[str, float] = {}
    for key, value in obj["data"].items():
        if isinstance(value, bool):
            metrics[str(key)] = float(value)
        elif isinstance(value, int | float) and not math.isnan(value):
            metrics[str(key)] = float(value)
        # null (NaN), strings, lists: not a scalar metric, skipped
    return step, metrics


def _iter_lines(path: Path, stats: ParseStats) -> Iterator[tuple[int, str, bool]]:
    """``(line number, text, is_last_without_newline)``; undecodable bytes are replaced."""
    with open(path, encoding="utf-8", errors="replace", newline="\n") as fh:
        prev: str | None = None
        lineno = 0
        for line in fh:
            if prev is not None:
                lineno += 1
                stats.lines_read += 1
                yield lineno, prev, False
            prev = line
        if prev is not None:
            lineno += 1
            stats.lines_read += 1
            yield lineno, prev, not prev.endswith("\n")


def _add_record(
    steps: dict[int, dict[str, float]], step: int, metrics: dict[str, float], stats: ParseStats
) -> None:
    old = steps.get(step)
    if old is not None and old == metrics:
        return  # the same line printed twice (e.g. the same output captured in two files)
    if old is not None and STEP_TIME_KEY in old and STEP_TIME_KEY in metrics:
        # The step ran again (restart/resume): the later record replaces the earlier one.
        stats.repeated_steps[step] = stats.repeated_steps.get(step, 1) + 1
        del steps[step]
        steps[step] = dict(metrics)
    elif old is not None:
        old.update(metrics)  # e.g. validation metrics logged separately for the same step
    else:
        steps[step] = dict(metrics)
    stats.records += 1


def _count_damaged(stats: ParseStats, where: str, partial: bool, why: str) -> None:
    """Count a line that cannot be used: a partial last line is 'truncated', else 'unparsable'."""
    if partial:
        stats.truncated += 1
        stats.note(where, "partial last line (no newline), skipped")
    else:
        stats.unparsable += 1
        stats.note(where, why)


def read_console(path: Path, steps: dict[int, dict[str, float]], stats: ParseStats) -> int:
    """Add the metrics lines of one console log; returns how many were read."""
    found = 0
    for lineno, text, partial in _iter_lines(path, stats):
        try:
            parsed = parse_console_line(text)
        except DamagedLine as exc:
            _count_damaged(stats, f"{path}:{lineno}", partial, str(exc))
            continue
        if parsed is None:
            continue
        if partial:  # a metrics line cut off mid-write: its values cannot be trusted
            _count_damaged(stats, f"{path}:{lineno}", partial, "")
            continue
        found += 1
        _add_record(steps, parsed[0], parsed[1], stats)
    return found


def read_jsonl(path: Path, steps: dict[int, dict[str, float]], stats: ParseStats) -> int:
    """Add the records of one FileLogger JSONL; returns how many were read."""
    found = 0
    for lineno, text, partial in _iter_lines(path, stats):
        if not text.strip():
            continue
        try:
            step, metrics = parse_jsonl_record(text)
        except DamagedLine as exc:
            _count_damaged(stats, f"{path}:{lineno}", partial, str(exc))
            continue
        found += 1
        _add_record(steps, step, metrics, stats)
    return found


def _candidate_files(folder: Path) -> tuple[list[Path], list[Path]]:
    """JSONL and console-log candidates under ``folder`` (not hidden, at most MAX_DIR_DEPTH deep)."""
    jsonl: list[Path] = []
    console: list[Path] = []
    for root, dirs, files in os.walk(folder):
        depth = len(Path(root).relative_to(folder).parts)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and depth < MAX_DIR_DEPTH)
        for name in files:
            if name.startswith("."):
                continue
            p = Path(root) / name
            if name.endswith(JSONL_SUFFIXES):
                jsonl.append(p)
            elif name.endswith(CONSOLE_SUFFIXES):
                console.append(p)

    def order(p: Path) -> tuple[float, str]:  # oldest first: a later attempt's steps win
        return (p.stat().st_mtime, str(p))

    return sorted(jsonl, key=order), sorted(console, key=order)


def _looks_like_jsonl(path: Path) -> bool:
    """True when the first non-empty line is a file-logger record (a console log may start with
    verl's pprint of the config, which also begins with ``{``)."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.strip():
                try:
                    parse_jsonl_record(line)
                except DamagedLine:
                    return False
                return True
    return False


def load_run(path: Path) -> RunLog:
    """Read one RUN argument: a console log, a FileLogger JSONL, or a folder holding them.

    In a folder, the JSONL files are used when any holds records (exact values), else the
    console logs; files are read oldest first so a restarted attempt's steps win.
    """
    if not path.exists():
        raise TimingInputError(
            f"{path}: no such file or directory (pass a verl console log, a JSONL, or a folder)"
        )
    stats = ParseStats()
    steps: dict[int, dict[str, float]] = {}
    if path.is_file():
        is_jsonl = path.name.endswith(JSONL_SUFFIXES) or _looks_like_jsonl(path)
        reader = read_jsonl if is_jsonl else read_console
        stats.files.append(str(path))
        found = reader(path, steps, stats)
        if not found:
            what = (
                'file-logger records {"step": N, "data": {...}}'
                if is_jsonl
                else "metrics lines 'step:N - key:value - ...'"
            )
            raise TimingInputError(
                f"{path}: no verl {what} found ({stats.lines_read} lines read, "
                f"{stats.unparsable} unparsable, {stats.truncated} truncated); is this the training log "
                "of a run with trainer.logger=[console,file]?"
            )
        return RunLog(str(path), "jsonl" if is_jsonl else "console", steps, stats)
    if not path.is_dir():
        raise TimingInputError(f"{path}: not a regular file or folder")
    jsonl_files, console_files = _candidate_files(path)
    for fmt, files, reader in (("jsonl", jsonl_files, read_jsonl), ("console", console_files, read_console)):
        used: list[str] = []
        for f in files:
            if reader(f, steps, stats):
                used.append(str(f))
        if steps:
            stats.files = used
            if fmt == "jsonl":
                stats.ignored_files = [str(f) for f in console_files]
            return RunLog(str(path), fmt, steps, stats)
        # nothing usable in this format: start clean for the next one
        stats = ParseStats()
    raise TimingInputError(
        f"{path}: no verl logs found in this folder (looked {MAX_DIR_DEPTH} levels deep for file-logger "
        f"*.jsonl with records and console logs {'/'.join('*' + s for s in CONSOLE_SUFFIXES)} with "
        "'step:N - key:value' lines; found "
        f"{len(jsonl_files)} .jsonl and {len(console_files)} log files). Point RUN at the job's log "
        "folder, LOG_ROOT/<job id>/."
    )
