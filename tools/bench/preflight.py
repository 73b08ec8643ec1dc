#!/usr/bin/env python3
"""Preflight timing (``make bench-preflight``): wall and CPU seconds of ``tools/preflight/cli.py`` in a
fresh interpreter (verl import included), against a baseline run in the same process: a fresh
interpreter that only imports verl. Prints the ratio and the 20 s target; no pass/fail.

The site is local and throwaway: the tiny model (``tools/testbed/tiny_model.py``), a Phi-4-shaped copy of
it (``tests/fixtures/model_configs/phi4_14b.json``), synthetic Parquet from ``dataprep/prepare.py``.
CPU seconds (user + sys) are what an idle machine's wall time approaches; wall time on a busy
machine is longer.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TARGET_S = 20.0


def _child_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall s, CPU s, exit code) of one fresh-interpreter run."""
    cpu0, t0 = _child_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    return time.perf_counter() - t0, _child_cpu() - cpu0, proc.returncode


def make_site(root: Path) -> Path:
    from tools.testbed.tiny_model import make_tiny_model

    models, data = root / "models", root / "data"
    tiny = make_tiny_model(models / "Qwen2.5-1.5B-Instruct")
    phi = models / "Phi-4-reasoning-plus"
    shutil.copytree(tiny, phi)
    cfg = json.loads((REPO / "tests" / "fixtures" / "model_configs" / "phi4_14b.json").read_text())
    cfg.pop("_comment", None)
    cfg["max_position_embeddings"] = 32768
    (phi / "config.json").write_text(json.dumps(cfg))
    for name in ("gsm8k", "omni_math"):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "dataprep",
                "synthetic",
                "--output",
                str(data / name),
                "--n",
                "200",
            ],
            check=True,
            capture_output=True,
            cwd=REPO,
        )
    site = root / "site.env"
    site.write_text(
        f"export DATA_ROOT={data}\nexport MODEL_ROOT={models}\nexport CKPT_ROOT={root / 'ckpt'}\n"
        # the stand-in models have 8xH100-node shapes: declare such a node's RAM and checkpoint room
        "export NODE_MEM_GB=2000\nexport CKPT_FREE_GB=50000\n"
    )
    return site


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_preflight_") as tmp:
        site = make_site(Path(tmp))
        env = {**os.environ, "SITE_ENV": str(site), "PYTHONPATH": str(REPO)}
        baseline = [sys.executable, "-c", "import verl"]
        jobs = [
            ("phi4_omni_math sglang", ["phi4_omni_math", "--engine", "sglang", "--nodes", "1"]),
            ("gsm8k_qwen vllm", ["gsm8k_qwen", "--engine", "vllm", "--nodes", "1"]),
        ]
        timed(baseline, env)  # warm the page cache once, for both sides
        base = [timed(baseline, env) for _ in range(args.repeats)]
        base_wall = statistics.median(b[0] for b in base)
        print(f"baseline `python -c 'import verl'`: {base_wall:.2f} s wall (median of {args.repeats})")
        for label, extra in jobs:
            runs = [
                timed([sys.executable, "-m", "tools.preflight", *extra], env) for _ in range(args.repeats)
            ]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            codes = sorted({r[2] for r in runs})
            print(
                f"preflight {label}: {wall:.2f} s wall, {cpu:.2f} s CPU (median of {args.repeats}, exit {codes}); "
                f"{wall / base_wall:.2f}x the verl import; target < {TARGET_S:.0f} s: "
                f"{'met' if wall < TARGET_S else 'NOT met'}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
