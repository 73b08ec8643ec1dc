"""The real engine stacks (envs/sglang.lock, envs/vllm.lock) on this CPU machine (issue 12 item 11).

Each lock is installed as `make env-<engine> CONDA=none` installs it (envs/build.sh: a Python 3.12
venv, the locked uv, `uv pip sync` with hashes, the project editable, envs/check_env.py) into a venv
cached under ~/.cache/grpo-slurm/engine-envs (ENGINE_STACK_CACHE), keyed by the lock and the build
script; downloads come from uv's cache (~/.cache/uv). Then, in each env: check_env --no-gpu passes;
verl's rollout server modules for the engine import (SGLang's cannot without the NVIDIA driver:
asserted precisely); the launcher's attention choice is made there and the tiny model is built
and run through verl's HF model loading with it; preflight passes there.

Marker `engine_stack`: `make test` runs it (CI too); `make test-quick` leaves it out.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from test_jobs_slurm import SHARED, submit, wait_all
from test_preflight_jobs import CLUSTER_FS_FREE_GB, NODE_MEM_GB, Site, make_site

pytestmark = [pytest.mark.engine_stack, pytest.mark.slow, pytest.mark.timeout(3600)]

ENGINES = ("sglang", "vllm")
ENGINE_VERSION = {"sglang": "0.5.12", "vllm": "0.24.0"}
BUILD_TIMEOUT = 3600


def find_python312() -> str:
    for candidate in (
        os.environ.get("ENGINE_STACK_PYTHON", ""),
        str(Path.home() / ".pyenv" / "versions" / "3.12.1" / "bin" / "python3"),
        shutil.which("python3.12") or "",
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    pytest.fail("no Python 3.12 for the engine envs: set ENGINE_STACK_PYTHON=/path/to/python3.12")


def cuda_home() -> str:
    """A CUDA 13.0 toolkit (SGLang's JIT needs nvcc and CUDA_HOME; CONDA=none takes the node's)."""
    for candidate in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda-13.0", "/usr/local/cuda"):
        if candidate and (Path(candidate) / "bin" / "nvcc").exists():
            return candidate
    return ""


def cache_root() -> Path:
    root = os.environ.get("ENGINE_STACK_CACHE") or str(Path.home() / ".cache" / "grpo-slurm" / "engine-envs")
    return Path(root)


def env_key(engine: str) -> str:
    digest = hashlib.sha256()
    for path in (REPO_ROOT / "envs" / f"{engine}.lock", REPO_ROOT / "envs" / "build.sh"):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def run_env(
    prefix: Path, args: list[str], timeout: float = 900, **env: str
) -> subprocess.CompletedProcess[str]:
    """A command with the engine env first on PATH, the repo on PYTHONPATH, offline as jobs are."""
    environ = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "ATTN_IMPLEMENTATION")}
    environ.update(
        PATH=f"{prefix / 'bin'}{os.pathsep}{environ.get('PATH', '/usr/bin:/bin')}",
        PYTHONPATH=str(REPO_ROOT),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
    )
    if cuda_home():
        environ["CUDA_HOME"] = cuda_home()
    environ.update(env)
    return subprocess.run(args, capture_output=True, text=True, env=environ, timeout=timeout, cwd=REPO_ROOT)


@pytest.fixture(scope="session", params=ENGINES)
def engine_env(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """(engine, prefix): the env built from the lock by envs/build.sh with CONDA=none, cached."""
    engine = request.param
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    prefix = root / f"{engine}-{env_key(engine)}"
    stamp = prefix / ".grpo-slurm-built"
    with open(root / f".{engine}.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)  # one build at a time per engine (parallel test runs)
        if not stamp.is_file():
            for old in root.glob(f"{engine}-*"):  # envs of older locks
                shutil.rmtree(old, ignore_errors=True)
            subprocess.run([find_python312(), "-m", "venv", str(prefix)], check=True, timeout=300)
            log_dir = tmp_path_factory.mktemp(f"build-{engine}")
            proc = run_env(
                prefix,
                ["bash", str(REPO_ROOT / "envs" / "build.sh"), "env", engine],
                timeout=BUILD_TIMEOUT,
                CONDA="none",
                ENV_PREFIX=str(prefix),
                LOG_DIR=str(log_dir),
                PATH=os.environ.get("PATH", "/usr/bin:/bin"),
            )
            if proc.returncode != 0:
                shutil.rmtree(prefix, ignore_errors=True)
                pytest.fail(f"make env-{engine} CONDA=none failed:\n{(proc.stdout + proc.stderr)[-6000:]}")
            tmp = stamp.with_suffix(".tmp")
            tmp.write_text(env_key(engine) + "\n")
            tmp.rename(stamp)
    return engine, prefix


def env_python(prefix: Path) -> str:
    return str(prefix / "bin" / "python")


def test_check_env_passes_without_gpu(engine_env):
    engine, prefix = engine_env
    proc = run_env(
        prefix,
        [
            env_python(prefix),
            "envs/check_env.py",
            "--engine",
            engine,
            "--lock",
            f"envs/{engine}.lock",
            "--no-gpu",
        ],
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "verdict: READY" in proc.stdout, proc.stdout
    assert "all" in proc.stdout and "locked packages at their locked versions" in proc.stdout


ROLLOUT_IMPORT = """
import json
from verl.workers.rollout.replica import get_rollout_replica_class
from verl.workers.rollout.base import get_rollout_class
out = {}
for what, get in (("replica", lambda: get_rollout_replica_class(ENGINE)), ("adapter", lambda: get_rollout_class(ENGINE, "async"))):
    try:
        cls = get()
        out[what] = f"{cls.__module__}.{cls.__name__}"
    except Exception as exc:
        out[what] = f"ERROR {type(exc).__name__}: {exc}"
print("@@" + json.dumps(out))
"""


def _marked_json(stdout: str) -> dict:
    line = next(ln for ln in stdout.splitlines() if ln.startswith("@@"))
    return json.loads(line[2:])


def test_verl_rollout_server_modules_import(engine_env):
    """verl resolves the engine the way the trainer does (replica registry, ServerAdapter)."""
    engine, prefix = engine_env
    proc = run_env(prefix, [env_python(prefix), "-c", f"ENGINE = {engine!r}\n" + ROLLOUT_IMPORT])
    assert proc.returncode == 0, proc.stderr[-4000:]
    got = _marked_json(proc.stdout)
    if engine == "vllm":
        assert got == {
            "replica": "verl.workers.rollout.vllm_rollout.vllm_async_server.vLLMReplica",
            "adapter": "verl.workers.rollout.vllm_rollout.vllm_rollout.ServerAdapter",
        }
        return
    # SGLang: sglang.srt.entrypoints.engine -> ... -> mem_cache/memory_pool_host imports sgl_kernel,
    # whose common_ops.abi3.so links libcuda.so.1, the NVIDIA driver's library: it exists only
    # where a driver is installed. Nothing else may fail: that would also fail on a GPU node.
    for what in ("replica", "adapter"):
        assert got[what].startswith("ERROR ImportError"), got
        assert "libcuda.so.1: cannot open shared object file" in got[what], got


def test_sglang_kernel_needs_nothing_but_the_driver(engine_env):
    """Every library sgl_kernel's extension links resolves in the env, except libcuda.so.1."""
    engine, prefix = engine_env
    if engine != "sglang":
        pytest.skip("sgl_kernel is SGLang's")
    site = subprocess.run(
        [env_python(prefix), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    site_path = Path(site)
    lib_dirs = [site_path / "torch" / "lib", *sorted(site_path.glob("nvidia/**/lib"))]
    ld_path = os.pathsep.join(str(d) for d in lib_dirs if d.is_dir())
    extensions = sorted(site_path.glob("sgl_kernel/sm*/common_ops*.so"))
    assert extensions, f"no sgl_kernel/sm*/common_ops*.so under {site}"
    for ext in extensions:
        ldd = subprocess.run(
            ["ldd", str(ext)], capture_output=True, text=True, env={"LD_LIBRARY_PATH": ld_path}
        )
        missing = sorted({ln.split()[0] for ln in ldd.stdout.splitlines() if "not found" in ln})
        assert missing == ["libcuda.so.1"], f"{ext}: unresolved {missing}"


ATTENTION_AND_MODEL = """
import json, sys, torch
from jobs.lib import attention
from verl.workers.config import HFModelConfig
from verl.utils.model import get_hf_auto_model_class

choice = attention.choose()
loaded = attention.verify(choice.implementation)

def build(impl):
    cfg = HFModelConfig(path=MODEL, override_config={"attn_implementation": impl})
    model = get_hf_auto_model_class(hf_config=cfg.hf_config).from_config(cfg.hf_config, torch_dtype=torch.float32)
    ids = torch.tensor([[1, 2, 3, 4, 5]])
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits
    return model.config._attn_implementation, list(logits.shape)

out = {"implementation": choice.implementation, "reason": choice.reason, "loaded": loaded}
out["built"] = build(choice.implementation)
try:  # what the old launcher asked for in this env
    out["flash_attention_2"] = "BUILT " + str(build("flash_attention_2"))
except Exception as exc:
    out["flash_attention_2"] = f"{type(exc).__name__}: {exc}"
print("@@" + json.dumps(out))
"""


def test_attention_choice_builds_the_tiny_model_through_verl(engine_env, tiny_model_dir):
    engine, prefix = engine_env
    code = f"MODEL = {str(tiny_model_dir)!r}\n" + ATTENTION_AND_MODEL
    proc = run_env(prefix, [env_python(prefix), "-c", code])
    assert proc.returncode == 0, proc.stderr[-4000:]
    got = _marked_json(proc.stdout)
    # no flash-attn 2 in either lock: sdpa; the SGLang env's flash_attn is flash-attn-4's cute/ only
    assert got["implementation"] == "sdpa", got
    assert got["built"][0] == "sdpa" and got["built"][1][:2] == [1, 5], got
    if engine == "sglang":
        assert "comes only from flash-attn-4" in got["reason"], got
    # flash_attention_2 cannot be built in either env (offline, no flash-attn 2): why the choice matters
    assert not got["flash_attention_2"].startswith("BUILT"), got


def test_launcher_cli_logs_the_choice(engine_env):
    engine, prefix = engine_env
    proc = run_env(prefix, [env_python(prefix), "jobs/lib/attention.py", "--verify"])
    assert proc.returncode == 0, proc.stderr
    impl, reason = proc.stdout.strip().split("\t")
    assert impl == "sdpa" and "torch 2.11.0" in reason, reason
    forced = run_env(
        prefix,
        [env_python(prefix), "jobs/lib/attention.py", "--verify"],
        ATTN_IMPLEMENTATION="flash_attention_2",
    )
    assert forced.returncode == 1 and "cannot be used here" in forced.stderr, forced.stderr


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path, shared_fixtures: Path) -> Site:
    return make_site(tmp_path_factory.mktemp("engine_site"), tiny_model_dir, shared_fixtures)


@pytest.mark.parametrize("experiment", ["gsm8k_qwen", "phi4_omni_math"])
def test_preflight_passes_in_the_engine_env(engine_env, site, experiment):
    engine, prefix = engine_env
    proc = run_env(
        prefix,
        [
            env_python(prefix),
            "-m",
            "tools.preflight",
            experiment,
            "--engine",
            engine,
            "--nodes",
            "1",
            "--json",
        ],
        SITE_ENV=str(site.site_env),
        # a cluster's checkpoint filesystem and node RAM, as test_preflight_jobs gives them
        CKPT_FREE_GB=CLUSTER_FS_FREE_GB,
        NODE_MEM_GB=NODE_MEM_GB,
    )
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["ok"], out["errors"]
    assert out["verl_version"] == "0.9.1"
    assert out["attention"]["implementation"] == "sdpa", out["attention"]


# ---------------------------------------------------------------- the dry run in the engine env
@pytest.mark.slurm
def test_dry_run_uses_the_engine_env_and_probes_its_stack(engine_env, local_slurm, site, tmp_path):
    """DRY_RUN=1 with ENV_PREFIX_<ENGINE> set: the job runs in the locked stack (issue 12 item 6);
    the launcher logs the attention choice, preflight passes there, the per-node probe imports the
    engine and loads the attention backend and prints their versions."""
    engine, prefix = engine_env
    site_env = tmp_path / "site.env"
    site_env.write_text(
        site.site_env.read_text()
        + f"export LOG_ROOT={tmp_path / 'logs'}\nexport ENV_PREFIX_{engine.upper()}={prefix}\n"
    )
    job = submit(
        local_slurm, f"gsm8k_qwen_{engine}", site_env, "--gres=gpu:1", *SHARED, DRY_RUN="1", PREFLIGHT="1"
    )
    wait_all(local_slurm, [job], timeout=900)
    text = job.text()
    assert job.state == "COMPLETED" and job.exit_code == "0:0", text[-5000:]
    assert "holds no env" not in text, text[-3000:]
    assert re.search(r"attention: sdpa \(.*torch 2\.11\.0\+cu130 provides it\)", text), text[-3000:]
    assert "verdict: PASS" in text
    assert re.search(
        rf"probe n\d: torch 2\.11\.0, transformers 5\.9\.0, verl 0\.9\.1, ray 2\.55\.1, "
        rf"{engine} {re.escape(ENGINE_VERSION[engine])}, attention sdpa \(torch 2\.11\.0\+cu130 provides it\)",
        text,
    ), text[-3000:]
    # this job's own Ray temp dir (job ids repeat across the local clusters of a shared machine)
    temp = re.search(r"ray: head .*; temp (\S+)", text).group(1)
    left = subprocess.run(["pgrep", "-af", f"{temp}/"], capture_output=True, text=True).stdout.strip()
    assert not left, left
