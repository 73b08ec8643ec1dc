"""The GPU env locks (envs/*.lock): consistent with each other, with their inputs, and not drifted."""

from __future__ import annotations

import difflib
import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from envs import check_env

ENVS = REPO_ROOT / "envs"
ENGINES = ("sglang", "vllm")


def pins(engine: str) -> dict[str, str]:
    return check_env.parse_lock(ENVS / f"{engine}.lock")


def input_pins(path: Path) -> dict[str, str]:
    """`name==version` lines of a .in file and the files it includes with -r."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r "):
            found.update(input_pins(path.parent / line[3:].strip()))
        elif m := re.match(r"^([A-Za-z0-9._-]+)(\[[^\]]*\])?==(\S+)$", line):
            found[check_env.normalize(m.group(1))] = m.group(3)
    return found


@pytest.mark.parametrize("engine", ENGINES)
def test_lock_honours_every_exact_pin_of_its_inputs(engine):
    wanted = input_pins(ENVS / f"{engine}.in")
    overrides = ENVS / f"{engine}-overrides.txt"
    if overrides.exists():
        wanted.update(input_pins(overrides))
    assert {"verl", "torch", "transformers"} <= wanted.keys()
    locked = pins(engine)
    wrong = {n: (v, locked.get(n)) for n, v in wanted.items() if locked.get(n) != v}
    assert not wrong, f"envs/{engine}.lock differs from its inputs (pin, lock): {wrong}; run make lock"


def test_both_locks_share_trainer_stack():
    sg, vl = pins("sglang"), pins("vllm")
    for name in (
        "verl",
        "torch",
        "torchvision",
        "torchaudio",
        "transformers",
        "ray",
        "tensordict",
        "transferqueue",
    ):
        assert name in sg and name in vl, f"{name} missing from a lock"
        assert sg[name] == vl[name], f"{name}: sglang.lock has {sg[name]}, vllm.lock has {vl[name]}"


@pytest.mark.parametrize("engine", ENGINES)
def test_each_lock_holds_exactly_one_engine(engine):
    locked = pins(engine)
    other = "vllm" if engine == "sglang" else "sglang"
    assert engine in locked
    assert other not in locked, f"envs/{engine}.lock also holds {other}=={locked[other]}"


@pytest.mark.parametrize("engine", ENGINES)
def test_no_flash_attn_4_beside_flash_attn_2(engine):
    locked = pins(engine)
    assert not ("flash-attn" in locked and "flash-attn-4" in locked), (
        f"envs/{engine}.lock holds flash-attn {locked['flash-attn']} and flash-attn-4: both ship flash_attn/cute"
    )


def test_flash_attn_is_opt_in_only_where_it_cannot_clash():
    # FLASH_ATTN=1 adds flash-attn 2.x to the vLLM env; that env must not carry flash-attn-4.
    assert "flash-attn-4" not in pins("vllm")
    assert "flash-attn" not in pins("vllm") and "flash-attn" not in pins("sglang")


@pytest.mark.parametrize("engine", ENGINES)
def test_every_locked_package_has_a_hash(engine):
    text = (ENVS / f"{engine}.lock").read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    unhashed = [b.split()[0] for b in blocks if "==" in b.split("\n")[0] and "--hash=sha256:" not in b]
    assert not unhashed, f"envs/{engine}.lock: entries without hashes: {unhashed[:5]}"


def test_resolution_date_is_recorded():
    values = check_env.read_resolve_env(ENVS / "resolve.env")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", values.get("EXCLUDE_NEWER", "")), values
    assert values.get("PYTHON_VERSION") == "3.12"
    assert "manylinux_2_34" in values.get("PYTHON_PLATFORM", "")


def _pin_lines(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines() if re.match(r"^[A-Za-z0-9].*==", line)]


@pytest.mark.slow
def test_locks_do_not_drift_from_their_inputs(tmp_path):
    """Re-resolve both locks with uv (PyPI, date pinned) and compare byte for byte."""
    env = dict(os.environ, LOCK_OUT_DIR=str(tmp_path), UV_CACHE_DIR=str(REPO_ROOT / ".uv-cache"))
    proc = subprocess.run(
        ["bash", str(REPO_ROOT / "envs" / "build.sh"), "lock", *ENGINES],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, f"make lock failed (is PyPI reachable?):\n{proc.stdout}\n{proc.stderr}"
    for engine in ENGINES:
        committed = (ENVS / f"{engine}.lock").read_text(encoding="utf-8")
        fresh = (tmp_path / f"{engine}.lock").read_text(encoding="utf-8")
        if fresh != committed:
            diff = "\n".join(difflib.unified_diff(_pin_lines(committed), _pin_lines(fresh), lineterm="", n=0))
            pytest.fail(
                f"envs/{engine}.lock drifted from envs/{engine}.in (+overrides, envs/resolve.env); "
                f"run 'make lock' and commit. Pin changes:\n{diff or '(hashes/annotations only)'}"
            )
