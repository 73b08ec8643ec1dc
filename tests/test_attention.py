"""jobs/lib/attention.py: the attention implementation is chosen as transformers will choose it, an
explicit request is verified, and preflight reports and loads it (issue 12 item 1).

The flash_attn layouts below are real installed layouts on PYTHONPATH (a package folder and, where
a wheel would have one, its .dist-info with METADATA and RECORD), read by the real importlib.metadata
and the real transformers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from test_preflight_jobs import Site, make_site

ATTENTION = REPO_ROOT / "jobs" / "lib" / "attention.py"


def install_layout(root: Path, kind: str) -> Path:
    """A site folder holding one flash_attn layout: what the wheels of each distribution install."""
    site = root / kind
    if kind == "namespace-only":  # flash_attn/cute/ and no distribution (the reproduction)
        (site / "flash_attn" / "cute").mkdir(parents=True)
        (site / "flash_attn" / "cute" / "__init__.py").write_text("")
        return site
    dist, version, files = {
        "flash-attn-4": ("flash_attn_4", "4.0.0b15", ["flash_attn/cute/__init__.py"]),
        "flash-attn-2.8.3": ("flash_attn", "2.8.3", ["flash_attn/__init__.py", "flash_attn/bert_padding.py"]),
        "flash-attn-2.3.0": ("flash_attn", "2.3.0", ["flash_attn/__init__.py", "flash_attn/bert_padding.py"]),
    }[kind]
    for rel in files:
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text("flash_attn_func = flash_attn_varlen_func = None\n")
    info = site / f"{dist}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {dist.replace('_', '-')}\nVersion: {version}\n"
    )
    (info / "RECORD").write_text("".join(f"{rel},,\n" for rel in files) + f"{info.name}/METADATA,,\n")
    return site


def run_py(code: str, pythonpath: Path | None, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "ATTN_IMPLEMENTATION"}
    environ["PYTHONPATH"] = os.pathsep.join(str(p) for p in (pythonpath, REPO_ROOT) if p)
    environ.update(env)
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


# transformers' own answer without the CUDA device check (there is no GPU here): the distribution
# check of FLASH_ATTENTION_COMPATIBILITY_MATRIX[2] and the version rule of is_flash_attn_2_available
TRANSFORMERS_FA2 = """
from packaging import version
from transformers.modeling_flash_attention_utils import FLASH_ATTENTION_COMPATIBILITY_MATRIX as M
from transformers.utils.import_utils import _is_package_available
try:
    ok = M[2]["pkg_availability_check"]()
except KeyError:  # transformers 5.9 indexes the mapping: a folder with no distribution raises
    ok = False
ok = ok and version.parse(_is_package_available("flash_attn", return_version=True)[1]) >= version.parse("2.3.3")
from jobs.lib import attention
print(json.dumps([ok, attention.choose().implementation, attention.choose().reason]))
""".replace("from packaging", "import json\nfrom packaging", 1)


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        (None, "sdpa"),
        ("namespace-only", "sdpa"),
        ("flash-attn-4", "sdpa"),
        ("flash-attn-2.3.0", "sdpa"),
        ("flash-attn-2.8.3", "flash_attention_2"),
    ],
)
def test_choice_matches_what_transformers_finds(tmp_path, layout, expected):
    site = install_layout(tmp_path, layout) if layout else None
    transformers_fa2, implementation, reason = json.loads(run_py(TRANSFORMERS_FA2, site))
    assert implementation == expected, reason
    assert (implementation == "flash_attention_2") == transformers_fa2, reason


def test_reasons_say_why_flash_attn_is_not_used(tmp_path):
    for layout, words in {
        "namespace-only": "belongs to no installed distribution",
        "flash-attn-4": "comes only from flash-attn-4 4.0.0b15",
        "flash-attn-2.3.0": "older than 2.3.3",
    }.items():
        out = run_py(
            "from jobs.lib import attention; print(attention.choose().reason)",
            install_layout(tmp_path, layout),
        )
        assert words in out, (layout, out)


def cli(*args: str, pythonpath: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "ATTN_IMPLEMENTATION"}
    environ["PYTHONPATH"] = str(pythonpath) if pythonpath else ""
    environ.update(env)
    return subprocess.run(
        [sys.executable, str(ATTENTION), *args], capture_output=True, text=True, env=environ, timeout=300
    )


def test_cli_verifies_and_prints_what_the_launcher_logs(tmp_path):
    ok = cli("--verify", pythonpath=install_layout(tmp_path, "namespace-only"))
    assert ok.returncode == 0, ok.stderr
    impl, reason = ok.stdout.strip().split("\t")
    assert impl == "sdpa" and "torch" in reason and "provides it" in reason


def test_explicit_request_wins_when_it_loads():
    out = cli("--verify", "--json", ATTN_IMPLEMENTATION="eager")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert (got["implementation"], got["ok"]) == ("eager", True) and "requested" in got["reason"]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("flash_attention_2", "transformers requires the flash-attn distribution"),
        ("flash-attention-2", "is not an implementation"),
        ("kernels-community/flash-attn2", "hub kernel"),
    ],
)
def test_explicit_request_that_cannot_load_fails_with_the_reason(tmp_path, value, words):
    out = cli("--verify", pythonpath=install_layout(tmp_path, "namespace-only"), ATTN_IMPLEMENTATION=value)
    assert out.returncode == 1
    assert words in out.stderr and "ATTN_IMPLEMENTATION" in out.stderr, out.stderr


def test_requested_flash_attention_2_whose_import_fails_is_caught(tmp_path):
    site = install_layout(tmp_path, "flash-attn-2.8.3")
    (site / "flash_attn" / "bert_padding.py").write_text(
        "raise ImportError('libcudart.so.13: cannot open')\n"
    )
    out = cli("--verify", pythonpath=site, ATTN_IMPLEMENTATION="flash_attention_2")
    assert out.returncode == 1 and "libcudart.so.13" in out.stderr, out.stderr


# ---------------------------------------------------------------- preflight, run in the job's env
@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path, shared_fixtures: Path) -> Site:
    return make_site(tmp_path_factory.mktemp("attention_site"), tiny_model_dir, shared_fixtures)


def preflight_json(site: Site, pythonpath: Path, *args: str, **env: str) -> tuple[int, dict]:
    environ = {"PATH": "/usr/bin:/bin", "SITE_ENV": str(site.site_env), "HOME": str(site.root)}
    environ["PYTHONPATH"] = f"{pythonpath}{os.pathsep}{REPO_ROOT}"
    environ.update(env)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.preflight",
            "gsm8k_qwen",
            "--engine",
            "sglang",
            *args,
        ],
        capture_output=True,
        text=True,
        env=environ,
        cwd=site.root,
        timeout=300,
    )
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.slow
def test_preflight_reports_sdpa_with_a_namespace_only_flash_attn(site, tmp_path):
    code, out = preflight_json(site, install_layout(tmp_path, "namespace-only"), "--json")
    assert code == 0, out["errors"]
    assert out["attention"]["implementation"] == "sdpa"
    assert "no installed distribution" in out["attention"]["reason"]
    assert {c["name"]: c["status"] for c in out["checks"]}["attention"] == "ok"


@pytest.mark.slow
def test_preflight_fails_when_the_requested_backend_cannot_load(site, tmp_path):
    code, out = preflight_json(
        site, install_layout(tmp_path, "flash-attn-4"), "--json", ATTN_IMPLEMENTATION="flash_attention_2"
    )
    assert code == 1
    assert out["attention"]["implementation"] is None
    assert any(e.startswith("[attention]") and "flash-attn-4" in e for e in out["errors"]), out["errors"]
