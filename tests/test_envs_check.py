"""envs/check_env.py run for real in the CPU dev env: it must name the dev env's real mismatches."""

from __future__ import annotations

import importlib.metadata as md
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from envs import check_env

SCRIPT = REPO_ROOT / "envs" / "check_env.py"


def run_check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600, check=False
    )


@pytest.fixture(scope="module")
def vllm_json() -> tuple[int, dict]:
    proc = run_check("--engine", "vllm", "--no-gpu", "--json")
    return proc.returncode, json.loads(proc.stdout)


def by_name(report: dict) -> dict[str, dict]:
    return {c["name"]: c for c in report["checks"]}


@pytest.mark.slow  # runs the real check: imports torch, verl, ray (~5-10 s)
def test_dev_env_is_not_a_gpu_env(vllm_json):
    code, report = vllm_json
    assert code == 1 and report["verdict"] == "FAIL"
    mismatches = {m["package"]: m for m in report["lock_mismatches"]}
    # the dev env's CPU torch is not the locked CUDA torch
    assert mismatches["torch"]["installed"] == md.version("torch")
    assert mismatches["torch"]["locked"] == "2.11.0"
    assert mismatches["vllm"]["installed"] == "" and mismatches["vllm"]["locked"] == "0.24.0"
    checks = by_name(report)
    assert checks["import vllm"]["status"] == "FAIL" and "vllm" in checks["import vllm"]["found"]
    assert checks["import verl"]["status"] == "ok" and checks["import verl"]["found"] == md.version("verl")
    assert (
        checks["torch CUDA runtime"]["status"] == "FAIL"
        and checks["torch CUDA runtime"]["expected"] == "13.0"
    )
    assert checks["GPU"]["status"] == "skip"
    for failed in (c for c in report["checks"] if c["status"] == "FAIL"):
        assert failed["fix"], f"{failed['name']} fails without saying what to do"


@pytest.mark.slow  # runs the real check: imports torch, verl, ray (~5-10 s)
def test_every_lock_mismatch_is_listed(vllm_json):
    _, report = vllm_json
    pins = check_env.parse_lock(REPO_ROOT / "envs" / "vllm.lock")
    installed = check_env.installed_versions()
    expected = {n for n, v in pins.items() if installed.get(n) != v}
    assert {m["package"] for m in report["lock_mismatches"]} == expected


@pytest.mark.slow  # runs the real check: imports torch, verl, ray (~5-10 s)
def test_table_and_verdict_without_secrets():
    env_secrets = {"HF_TOKEN": "hf_secret_value_123", "WANDB_API_KEY": "wandb_secret_value_456"}
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--engine", "sglang", "--no-gpu"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **env_secrets},
    )
    assert proc.returncode == 1
    out = proc.stdout
    assert out.splitlines()[1].split()[:4] == ["check", "status", "found", "expected"]
    assert "torch: installed " + md.version("torch") + ", lock 2.11.0" in out
    assert "verdict: NOT READY" in out and "import sglang: rebuild the env: make env-sglang" in out
    assert "CUDA_HOME" in out and "g++" in out and "/dev/shm" in out and "glibc" in out
    assert "secret_value" not in proc.stdout + proc.stderr


def test_matching_lock_passes_the_lock_check():
    """A lock that pins exactly what is installed gives no mismatch (the comparison is not one-sided)."""
    installed = check_env.installed_versions()
    pins = {n: installed[n] for n in ("torch", "verl", "ray", "transformers", "hydra-core")}
    report = check_env.Report(engine="vllm", lock="test.lock")
    check_env.check_lock(report, pins, installed)
    assert report.lock_mismatches == [] and report.checks[-1].status == "ok"
    check_env.check_lock(report, {**pins, "torch": "2.11.0", "vllm": "0.24.0"}, installed)
    assert {m["package"] for m in report.lock_mismatches} == {"torch", "vllm"}
    assert report.checks[-1].status == "FAIL" and report.verdict == "FAIL"


def test_no_gpu_machine_is_reported_plainly():
    if shutil.which("nvidia-smi"):
        pytest.skip("this machine has nvidia-smi")
    report = check_env.Report(engine="vllm", lock="x")
    assert check_env.check_gpu(report, "13.0") is False
    gpu = report.checks[-1]
    assert gpu.status == "FAIL" and "no NVIDIA GPU" in gpu.found and "--no-gpu" in gpu.fix


def test_bad_lock_is_named(tmp_path):
    bad = tmp_path / "bad.lock"
    bad.write_text("torch>=2\n")
    proc = run_check("--engine", "vllm", "--lock", str(bad))
    assert proc.returncode == 2 and f"{bad}:1" in proc.stderr and "make lock" in proc.stderr
    proc = run_check("--engine", "vllm", "--lock", str(tmp_path / "missing.lock"))
    assert proc.returncode == 2 and "not found" in proc.stderr


def test_glibc_and_driver_minimums_are_parsed():
    report = check_env.Report(engine="vllm", lock="x")
    check_env.check_glibc(report, "x86_64-manylinux_2_99")
    assert report.checks[-1].status == "FAIL" and report.checks[-1].expected.startswith(">= 2.99")
    assert check_env.expected_cuda({"nvidia-cuda-runtime": "13.0.96"}) == "13.0"
    assert check_env.expected_cuda({"nvidia-cuda-runtime-cu12": "12.8.90"}) == "12.8"
    assert check_env.version_tuple("570.133.20")[:2] < check_env.MIN_DRIVER_FOR_CUDA["13"]
    assert check_env.version_tuple("580.95.05")[:2] >= check_env.MIN_DRIVER_FOR_CUDA["13"]


@pytest.mark.slow  # runs the real check: imports torch, verl, ray (~5-10 s)
def test_json_is_the_only_stdout(vllm_json):
    _, report = vllm_json
    assert set(report) == {"engine", "lock", "verdict", "checks", "lock_mismatches"}
    assert Path(report["lock"]).name == "vllm.lock"


def test_old_driver_that_still_reaches_gpus_is_a_warning():
    report = check_env.Report(engine="vllm", lock="x")
    report.add("NVIDIA driver", "FAIL", "570.133.20", ">= 580.65 (CUDA 13.0)", "upgrade")
    report.add("torch sees GPUs", "ok", "8")
    check_env.allow_forward_compat(report)
    assert report.checks[0].status == "warn" and "forward compatibility" in report.checks[0].found
    report = check_env.Report(engine="vllm", lock="x")
    report.add("NVIDIA driver", "FAIL", "570.133.20", ">= 580.65 (CUDA 13.0)", "upgrade")
    report.add("torch sees GPUs", "FAIL", "torch.cuda.is_available() is False")
    check_env.allow_forward_compat(report)
    assert report.checks[0].status == "FAIL" and report.verdict == "FAIL"


def test_kernel_import_without_driver_is_a_warning_only_with_no_gpu():
    # the error sgl_kernel 0.4.2.post2 raises on a node without the NVIDIA driver
    err = "ImportError: [sgl_kernel] CRITICAL: Could not load any common_ops library!\n- ImportError: libcuda.so.1: cannot open"
    probe = {
        "sgl_kernel": {"ok": False, "error": err},
        "verl": {"ok": False, "error": "ModuleNotFoundError: verl"},
    }
    report = check_env.Report(engine="sglang", lock="x")
    check_env.check_imports(report, ["sgl_kernel", "verl"], probe, gpu=False)
    assert [c.status for c in report.checks] == ["warn", "FAIL"]
    report = check_env.Report(engine="sglang", lock="x")
    check_env.check_imports(report, ["sgl_kernel"], probe, gpu=True)
    assert report.checks[0].status == "FAIL" and "\n" not in report.checks[0].found


def test_reward_kernel_is_loaded_or_named_with_its_fix(tmp_path, monkeypatch):
    from rewards import repetition_native

    report = check_env.Report(engine="vllm", lock="envs/vllm.lock")
    repetition_native.build()
    check_env.check_reward_kernel(report)
    row = report.checks[-1]
    assert (row.name, row.status) == ("reward kernel", check_env.OK)
    assert row.found.startswith("rewards/native/build/repetition-")

    monkeypatch.setattr(repetition_native, "BUILD_DIR", tmp_path / "rewards" / "native" / "build")
    monkeypatch.setattr(check_env, "__file__", str(tmp_path / "envs" / "check_env.py"))
    check_env.check_reward_kernel(report)
    row = report.checks[-1]
    assert row.status == check_env.WARN and row.found == "not built" and "make native" in row.fix
    broken = repetition_native.library_path()
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not a shared library")
    check_env.check_reward_kernel(report)
    row = report.checks[-1]
    assert row.status == check_env.WARN and row.found.startswith("does not load")
    cc = repetition_native.find_compiler()
    assert cc is not None
    (tmp_path / "other.c").write_text("int other(void) { return 1; }\n")
    subprocess.run([cc, *repetition_native.CFLAGS, "-o", str(broken), str(tmp_path / "other.c")], check=True)
    check_env.check_reward_kernel(report)  # loads, but has not the kernel's functions
    row = report.checks[-1]
    assert row.status == check_env.WARN and "is not the repetition kernel" in row.found
