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
