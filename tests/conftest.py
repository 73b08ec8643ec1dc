"""Session-wide fixtures shared by every test area."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from slurm_fixture import local_slurm  # noqa: F401

REPO_ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """Child processes (``python -m dataprep``, ``python -m tools.preflight``, Slurm jobs) import
    the project's packages from the repo root, as the Makefile and the launcher arrange."""
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if str(REPO_ROOT) not in parts:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), *parts])


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_fixtures() -> Path:
    """The real GSM8K / Omni-MATH sample rows in ``../shared/fixtures`` (see its README)."""
    candidates = [
        Path(os.environ["SHARED_FIXTURES"]) if os.environ.get("SHARED_FIXTURES") else None,
        REPO_ROOT.parent / "shared" / "fixtures",
        REPO_ROOT / "shared" / "fixtures",
    ]
    for c in candidates:
        if c is not None and (c / "gsm8k_train_sample.jsonl").is_file():
            return c
    pytest.fail(
        "shared fixtures not found: expected ../shared/fixtures beside the clone "
        "(or set SHARED_FIXTURES=/path/to/fixtures)"
    )


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny local HF model dir: Qwen2-style config.json + fast tokenizer (no weights)."""
    from tools.testbed import tiny_model

    return tiny_model.make_tiny_model(tmp_path_factory.mktemp("tiny_model") / "model")
