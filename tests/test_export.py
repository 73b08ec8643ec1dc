"""`make export` / `python -m tools.export`: bad checkpoints fail clearly and write nothing.

The real exports (verl's model merger on a real run's checkpoint, loaded by transformers) are
tests/test_train_cpu.py::test_export_loads_in_transformers_and_generates and, for a LoRA run's
merged adapter, tests/test_train_cpu_lora.py; these cover the checks in front of them, on
directories shaped like verl's layout.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tools.export.__main__ import main
from tools.export.checkpoint import CheckpointError, find_checkpoint


def fake_step(
    run: Path, step: int, world: int = 2, ranks: tuple[int, ...] = (0, 1), config: bool = True
) -> None:
    actor = run / f"global_step_{step}" / "actor"
    (actor / "huggingface").mkdir(parents=True)
    (actor / "huggingface" / "config.json").write_text("{}")
    if config:
        (actor / "fsdp_config.json").write_text(json.dumps({"FSDP_version": 2, "world_size": world}))
    for rank in ranks:
        (actor / f"model_world_size_{world}_rank_{rank}.pt").write_bytes(b"")


def test_latest_complete_step_is_found(tmp_path: Path) -> None:
    fake_step(tmp_path, 2)
    fake_step(tmp_path, 4)
    (tmp_path / "latest_checkpointed_iteration.txt").write_text("4\n")
    ckpt = find_checkpoint(tmp_path)
    assert (ckpt.step, ckpt.world_size) == (4, 2)
    assert find_checkpoint(tmp_path, 2).step == 2


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda r: fake_step(r, 2), "latest_checkpointed_iteration.txt not found"),
        (
            lambda r: (fake_step(r, 2), (r / "latest_checkpointed_iteration.txt").write_text("3")),
            "global_step_3 does not exist",
        ),
        (
            lambda r: (fake_step(r, 2), (r / "latest_checkpointed_iteration.txt").write_text("two")),
            "not a step number",
        ),
        (
            lambda r: (
                fake_step(r, 2, config=False),
                (r / "latest_checkpointed_iteration.txt").write_text("2"),
            ),
            "is incomplete",
        ),
        (
            lambda r: (
                fake_step(r, 2, ranks=(0,)),
                (r / "latest_checkpointed_iteration.txt").write_text("2"),
            ),
            "rank(s) [1] of 2",
        ),
    ],
    ids=["no-tracker", "no-step-dir", "bad-tracker", "no-fsdp-config", "missing-shard"],
)
def test_bad_checkpoints_name_the_problem(tmp_path: Path, setup, message: str) -> None:
    run = tmp_path / "run"
    run.mkdir()
    setup(run)
    with pytest.raises(CheckpointError, match=re.escape(message)):
        find_checkpoint(run)


def test_cli_error_exits_2_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hf"
    assert main([str(tmp_path / "missing"), "--out", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_refuses_to_replace_a_folder_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_step(tmp_path / "run", 1)
    (tmp_path / "run" / "latest_checkpointed_iteration.txt").write_text("1")
    out = tmp_path / "precious"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert main([str(tmp_path / "run"), "--out", str(out)]) == 2
    assert "was not written by an export" in capsys.readouterr().err
    assert (out / "keep.txt").read_text() == "mine"


def lora_base(root: Path, hidden: int = 128, weights: bool = True) -> Path:
    root.mkdir(parents=True)
    (root / "config.json").write_text(json.dumps({"model_type": "phi3", "hidden_size": hidden}))
    if weights:
        (root / "model.safetensors").write_bytes(b"x")
    return root


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda t: t / "nowhere", "no config.json there"),
        (lambda t: lora_base(t / "b", weights=False), "no weights"),
        (lambda t: lora_base(t / "b", hidden=256), "hidden_size: base 256, run 128"),
    ],
    ids=["no-config", "no-weights", "other-shape"],
)
def test_lora_export_refuses_a_base_that_is_not_the_runs_model(tmp_path: Path, make, message: str) -> None:
    from tools.export.lora import check_base

    hf = lora_base(tmp_path / "hf", weights=False)  # the checkpoint's huggingface/ dir
    with pytest.raises(CheckpointError, match=re.escape(message)):
        check_base(make(tmp_path), hf)
    check_base(lora_base(tmp_path / "same"), hf)  # the run's own model passes
