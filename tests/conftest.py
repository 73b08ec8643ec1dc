"""Session-wide fixtures shared by every test area."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from slurm_fixture import local_slurm  # noqa: F401

REPO_ROOT = Path(__file__).resolve().parents[1]


def load_script_module(relpath: str, name: str | None = None) -> ModuleType:
    """Import a module from the script folders (``data/``, ``tools/``) by file path."""
    path = REPO_ROOT / relpath
    mod_name = name or f"_script_{path.stem}"
    if mod_name in sys.modules:
        return sys.modules[mod_name]
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    spec.loader.exec_module(module)
    return module


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
    tiny_model = load_script_module("tools/tiny_model.py", "tiny_model")
    return tiny_model.make_tiny_model(tmp_path_factory.mktemp("tiny_model") / "model")
