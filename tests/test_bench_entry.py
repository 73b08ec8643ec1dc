"""The benchmarks behind `make bench` still run end to end (tiny sizes; no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO_ROOT


@pytest.mark.slow
def test_bench_data_runs_and_checks_its_outputs(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.bench.data",
            "--rows",
            "5000",
            "--small",
            "2000",
            "--workdir",
            str(tmp_path),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "rows/s" in proc.stdout and "baseline" in proc.stdout


def test_the_reward_bench_also_calls_math_verify_with_bare_answers_in_math_mode():
    """The second baseline reads a bare LaTeX answer as math-verify's README writes it, in $...$:
    plain, math-verify finds no answer in ``\\frac{x}{2}`` and credits nothing."""
    pytest.importorskip("math_verify")
    from tools.bench.reward import in_math_mode, mv_baseline, mv_math_mode_baseline

    assert in_math_mode("\\frac{x}{2}") == "$\\frac{x}{2}$"
    assert in_math_mode("so \\boxed{2}") == "so \\boxed{2}"
    assert in_math_mode("$x$ and $y$") == "$x$ and $y$"
    assert mv_baseline()("\\frac{x}{2}", "0.5x") is False
    assert mv_math_mode_baseline()("\\frac{x}{2}", "0.5x") is True
    assert mv_math_mode_baseline()("\\frac{x}{2}", "2") is False
