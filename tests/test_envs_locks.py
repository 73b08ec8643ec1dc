"""The GPU env locks (envs/*.lock): consistent with each other, with their inputs, and not drifted."""

from __future__ import annotations

import re
import shutil
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


HASH_PREFIX = "# inputs-sha256: "


def inputs_hash(root: Path, engine: str) -> str:
    proc = subprocess.run(
        ["bash", str(root / "envs" / "build.sh"), "inputs-hash", engine],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def recorded_hash(lock: Path) -> str:
    first = lock.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(HASH_PREFIX), f"{lock}: first line should record the inputs' hash; run make lock"
    return first[len(HASH_PREFIX) :].strip()


@pytest.mark.parametrize("engine", ENGINES)
def test_lock_was_resolved_from_the_current_inputs(engine):
    """Offline and deterministic: the hash the lock recorded equals the hash of today's inputs.
    (The live re-resolution is `make lock-check`; it depends on the index and is not a test.)"""
    assert recorded_hash(ENVS / f"{engine}.lock") == inputs_hash(REPO_ROOT, engine), (
        f"envs/{engine}.lock was resolved from other inputs than envs/{engine}.in, the files it includes, "
        f"envs/{engine}-overrides.txt and envs/resolve.env as they are now: run 'make lock' and commit the lock"
    )


@pytest.mark.parametrize(
    ("engine", "edited"),
    [
        ("vllm", "envs/vllm.in"),
        ("vllm", "envs/common.in"),
        ("vllm", "envs/resolve.env"),
        ("sglang", "envs/sglang-overrides.txt"),
        ("sglang", "envs/common.in"),
    ],
)
def test_editing_any_resolution_input_invalidates_the_lock(tmp_path, engine, edited):
    """A copy of the repo's envs/ and build script: one changed byte in an input changes the hash."""
    shutil.copytree(ENVS, tmp_path / "envs", ignore=shutil.ignore_patterns("__pycache__"))
    before = inputs_hash(tmp_path, engine)
    assert before == recorded_hash(ENVS / f"{engine}.lock")
    with (tmp_path / edited).open("a", encoding="utf-8") as fh:
        fh.write("# edited\n")
    assert inputs_hash(tmp_path, engine) != before
    # an input of the other engine only does not touch this one
    other = "sglang" if engine == "vllm" else "vllm"
    if edited == f"envs/{engine}.in":
        assert inputs_hash(tmp_path, other) == recorded_hash(ENVS / f"{other}.lock")
