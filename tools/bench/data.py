#!/usr/bin/env python3
"""Benchmark ``dataprep/prepare.py custom``: rows/s and peak memory on generated GSM8K-format rows.

    python tools/bench/data.py [--rows 1000000] [--small 100000] [--workdir DIR] [--keep]

Writes ROWS synthetic problems as JSONL (not timed), then times, each in its own process:

- baseline: ``json.loads`` of every line and nothing else (the floor of any line-by-line tool);
- prepare.py custom on SMALL rows and on ROWS rows (same flags), to show peak memory does not
  grow with the input (streaming);
- the same with ``--dedup`` (keeps one 64-bit key per row: memory grows by design).

Prints rows/s, the ratio to the baseline, and each process's peak RSS, with the core count.
Not a test (``make bench-data``); about a minute on 2 cores for the default 1,000,000 rows.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_BASELINE = """
import json, sys
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)
        n += 1
print(n)
"""


def make_input(path: Path, rows: int) -> None:
    from dataprep import synthetic as prep_synthetic

    with open(path, "w", encoding="utf-8") as f:
        for rec in prep_synthetic.iter_problems(rows, seed=1):
            f.write(json.dumps(rec) + "\n")


def run_measured(cmd: list[str]) -> tuple[float, int, str]:
    """(wall seconds, peak RSS bytes, stderr tail) of one child process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}\n{err[-2000:]}")
    return wall, usage.ru_maxrss * 1024, err.strip().splitlines()[-1] if err.strip() else ""


def plot(results: list[tuple[str, float, float]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [r[0] for r in results]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.5))
    ax1.barh(labels, [r[1] for r in results], color="tab:blue")
    ax1.set_xlabel("rows/s")
    ax1.invert_yaxis()
    ax2.barh(labels, [r[2] for r in results], color="tab:orange")
    ax2.set_xlabel("peak RSS (MiB)")
    ax2.invert_yaxis()
    ax2.set_yticks([])
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--small", type=int, default=100_000, help="a smaller run to compare peak memory")
    ap.add_argument("--workdir", type=Path, help="scratch folder (default: a temp folder, removed)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    ap.add_argument(
        "--plot", type=Path, default=REPO / "outputs" / "bench_data.png", help="PNG of the results"
    )
    args = ap.parse_args(argv)

    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench_data_"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.perf_counter()
        big = work / "big.jsonl"
        make_input(big, args.rows)
        small = work / "small.jsonl"
        with open(big, "rb") as src, open(small, "wb") as dst:
            for i, line in enumerate(src):
                if i >= args.small:
                    break
                dst.write(line)
        size_mb = big.stat().st_size / 1e6
        print(
            f"bench-data: {args.rows:,} rows ({size_mb:.0f} MB JSONL, generated in {time.perf_counter() - t0:.1f}s); "
            f"{os.cpu_count()} cores; Python {platform.python_version()}"
        )
        py = sys.executable
        custom = [
            "custom", "--question-field", "question", "--answer-field", "answer", "--answer-extract", "gsm8k",
            "--data-source", "bench", "--test-size", "1000", "--prompt-template", "gsm8k",
        ]  # fmt: skip
        base_s, base_rss, _ = run_measured([py, "-c", _BASELINE, str(big)])
        base_rate = args.rows / base_s
        results: list[tuple[str, float, float]] = [("json.loads baseline", base_rate, base_rss / 2**20)]
        print(
            f"  {'baseline json.loads per line':<34} {base_rate:>11,.0f} rows/s  peak RSS {base_rss / 2**20:7.0f} MiB"
        )
        runs = [
            (f"prepare custom, {args.small:,} rows", small, args.small, []),
            (f"prepare custom, {args.rows:,} rows", big, args.rows, []),
            (f"prepare custom --dedup, {args.rows:,}", big, args.rows, ["--dedup"]),
        ]
        for label, inp, n, extra in runs:
            out = work / "out"
            wall, rss, _tail = run_measured(
                [py, "-m", "dataprep", *custom, "--input", str(inp), "--output", str(out), *extra]
            )
            rate = n / wall
            results.append((label.replace("prepare custom", "custom"), rate, rss / 2**20))
            print(
                f"  {label:<34} {rate:>11,.0f} rows/s  peak RSS {rss / 2**20:7.0f} MiB  "
                f"({wall:.1f}s, {rate / base_rate:.2f}x baseline rate)"
            )
            manifest = json.loads((out / "manifest.json").read_text())
            if (
                manifest["splits"]["train"] + manifest["splits"]["test"]
                != manifest["counts"]["after_length_filter"]
            ):
                raise SystemExit("bench-data: row counts do not add up")
        plot(results, args.plot, f"prepare.py custom, {os.cpu_count()} cores")
        print(f"  plot: {args.plot}")
        return 0
    finally:
        if not args.keep and args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
