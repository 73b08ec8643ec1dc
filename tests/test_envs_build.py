"""`make env-* / wheelhouse` plans (envs/build.sh): dry runs, the no-conda error, prefixes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT

SCRIPT = REPO_ROOT / "envs" / "build.sh"
BARE_PATH = "/usr/bin:/bin"


def run_make(target: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v for k, v in os.environ.items() if not k.startswith(("CONDA", "MAMBA", "ENV_PREFIX", "SITE_ENV"))
    }
    base.update(
        HOME=str(tmp_path / "home"), LOG_DIR=str(tmp_path / "logs"), SITE_ENV=str(tmp_path / "none.env")
    )
    (tmp_path / "none.env").write_text("# empty site file\n")
    base.update(env)
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(REPO_ROOT), target],
        capture_output=True,
        text=True,
        env=base,
        timeout=120,
        check=False,
    )


def steps(out: str) -> list[str]:
    return re.findall(r"^\[\d+\] (.*)$", out, re.M)


@pytest.mark.parametrize("engine", ["sglang", "vllm"])
def test_dry_run_prints_the_whole_plan_and_touches_nothing(engine, tmp_path):
    proc = run_make(f"env-{engine}", tmp_path, DRY_RUN="1")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    prefix = tmp_path / "home" / "envs" / f"verl-{engine}"
    assert f"prefix {prefix}" in out
    plan = "\n".join(steps(out))
    for needle in ("glibc", "conda env", "locked uv", "uv pip sync", "editable", "check_env"):
        assert needle in plan, f"step '{needle}' missing from the plan:\n{plan}"
    assert f"envs/{engine}.yml" in out and f"envs/{engine}.lock" in out
    assert re.search(rf"pip sync .*--require-hashes.* {re.escape(str(REPO_ROOT))}/envs/{engine}\.lock", out)
    assert f"check_env.py --engine {engine}" in out
    assert ("CUDA_HOME" in plan) == (engine == "sglang")
    assert not prefix.exists() and not (tmp_path / "logs").exists()


def test_no_conda_on_path_says_what_to_load(tmp_path):
    if any(shutil.which(t, path=BARE_PATH) for t in ("conda", "mamba", "micromamba")):
        pytest.skip(f"a conda tool is installed in {BARE_PATH}")
    prefix = tmp_path / "env"
    proc = run_make("env-vllm", tmp_path, PATH=BARE_PATH, ENV_PREFIX=str(prefix))
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr  # a real run logs both streams through tee
    assert "no conda found" in out
    assert "module load" in out and "Miniforge" in out
    assert list((tmp_path / "logs").glob("env-vllm-*.log")), "a real run keeps a log"
    assert not prefix.exists()
    # the dry run still prints the plan and warns
    dry = run_make("env-vllm", tmp_path, PATH=BARE_PATH, DRY_RUN="1")
    assert dry.returncode == 0 and "no conda found" in dry.stdout and "uv pip sync" in dry.stdout


def test_prefix_comes_from_the_site_file_unless_given(tmp_path):
    site = tmp_path / "site.env"
    site.write_text(f'ENV_PREFIX_VLLM="{tmp_path}/site-vllm"\nENV_PREFIX_SGLANG="{tmp_path}/site-sglang"\n')
    proc = run_make("env-vllm", tmp_path, DRY_RUN="1", SITE_ENV=str(site))
    assert f"prefix {tmp_path}/site-vllm" in proc.stdout, proc.stdout
    proc = run_make(
        "env-sglang", tmp_path, DRY_RUN="1", SITE_ENV=str(site), ENV_PREFIX=str(tmp_path / "mine")
    )
    assert f"prefix {tmp_path}/mine" in proc.stdout
    missing = run_make("env-sglang", tmp_path, DRY_RUN="1", SITE_ENV=str(tmp_path / "nope.env"))
    assert missing.returncode != 0 and "nope.env does not exist" in missing.stderr


def test_no_site_file_at_all_falls_back_to_home(tmp_path):
    """Without SITE_ENV and without jobs/site.env the default prefix is used, not an error."""
    if (REPO_ROOT / "jobs" / "site.env").exists():
        pytest.skip("this checkout has a jobs/site.env")
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("CONDA", "MAMBA", "ENV_PREFIX", "SITE_ENV"))
    }
    env.update(HOME=str(tmp_path / "home"), LOG_DIR=str(tmp_path / "logs"), DRY_RUN="1")
    proc = subprocess.run(
        ["make", "--no-print-directory", "-C", str(REPO_ROOT), "env-vllm"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"prefix {tmp_path}/home/envs/verl-vllm" in proc.stdout


def test_wheelhouse_install_is_offline(tmp_path):
    wh = tmp_path / "wh"
    proc = run_make("env-vllm", tmp_path, DRY_RUN="1", WHEELHOUSE=str(wh))
    assert proc.returncode == 0, proc.stderr
    sync = next(line for line in proc.stdout.splitlines() if "$" in line and "pip sync" in line)
    assert "--offline" in sync and "--no-index" in sync and f"--find-links {wh}" in sync
    assert re.search(r"conda env create --offline|create -y --offline", proc.stdout)


def test_flash_attn_is_refused_for_sglang_and_planned_for_vllm(tmp_path):
    proc = run_make("env-sglang", tmp_path, DRY_RUN="1", FLASH_ATTN="1")
    assert proc.returncode != 0 and "flash-attn-4" in proc.stderr
    proc = run_make("env-vllm", tmp_path, DRY_RUN="1", FLASH_ATTN="1", MAX_JOBS="3")
    assert proc.returncode == 0, proc.stderr
    plan = "\n".join(steps(proc.stdout))
    assert "nvcc 13.0" in plan and "flash-attn 2.8.3" in plan
    assert "--no-build-isolation" in proc.stdout and "MAX_JOBS=3" in proc.stdout
    assert "--flash-attn" in proc.stdout


def test_unknown_engine_and_missing_engine_are_named(tmp_path):
    proc = subprocess.run(["bash", str(SCRIPT), "env", "tgi"], capture_output=True, text=True, check=False)
    assert proc.returncode != 0 and "unknown engine 'tgi'" in proc.stderr
    proc = run_make("wheelhouse", tmp_path)
    assert proc.returncode != 0 and "ENGINE=sglang" in proc.stderr


@pytest.mark.slow
def test_wheelhouse_downloads_locked_files_and_checks_hashes(tmp_path):
    """Real downloads from PyPI of two locked entries: a wheel and an sdist."""
    lock_text = (REPO_ROOT / "envs" / "sglang.lock").read_text(encoding="utf-8")
    entries = [
        b for b in re.split(r"\n(?=[A-Za-z0-9])", lock_text) if b.startswith(("six==", "pylatexenc=="))
    ]
    assert len(entries) == 2
    small = tmp_path / "small.lock"
    small.write_text("\n".join(entries) + "\n")
    wh = tmp_path / "wh"
    proc = run_make("wheelhouse", tmp_path, ENGINE="sglang", LOCK=str(small), WHEELHOUSE=str(wh))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    names = sorted(p.name for p in wh.iterdir())
    assert any(n.startswith("six-") and n.endswith(".whl") for n in names), names
    assert any(n.startswith("pylatexenc-") for n in names), names
    # a tampered hash is refused
    small.write_text(re.sub(r"sha256:[0-9a-f]{64}", "sha256:" + "0" * 64, small.read_text()))
    bad = run_make("wheelhouse", tmp_path, ENGINE="sglang", LOCK=str(small), WHEELHOUSE=str(tmp_path / "wh2"))
    assert bad.returncode != 0 and "hash" in (bad.stdout + bad.stderr).lower()


def test_conda_none_uses_an_existing_python(tmp_path):
    proc = run_make("env-sglang", tmp_path, DRY_RUN="1", CONDA="none", ENV_PREFIX=str(tmp_path / "venv"))
    assert proc.returncode == 0, proc.stderr
    plan = "\n".join(steps(proc.stdout))
    assert "check the existing Python 3.12" in plan
    assert not [t for t in steps(proc.stdout) if "conda env" in t or "conda part" in t or "activate" in t]
    assert "uv pip sync" in plan and "check_env" in plan
    real = run_make("env-sglang", tmp_path, CONDA="none", ENV_PREFIX=str(tmp_path / "venv"))
    assert real.returncode != 0 and "does not exist; create the env first" in real.stdout + real.stderr
