#!/usr/bin/env python3
"""Check a GPU environment against its lock before a job spends GPU hours on it.

    envs/check_env.py --engine sglang|vllm [--no-gpu] [--json] [--lock PATH] [--flash-attn]

Compares the installed distributions with envs/<engine>.lock (every mismatch listed), imports
verl / the engine / flashinfer / transfer_queue (and flash_attn when chosen), and checks the
GPUs, the NVIDIA driver against the stack's minimum, torch's CUDA runtime, glibc, the compilers
the engine needs at run time, CUDA_HOME, NCCL and /dev/shm. Prints a table and a verdict;
exits 1 when any check fails (each failure names its fix), 2 on bad arguments.
Values of environment variables other than CUDA_HOME and PATH entries are never printed.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import json
import os
import platform
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OK, WARN, FAIL, SKIP = "ok", "warn", "FAIL", "skip"

# Minimum NVIDIA driver for a CUDA runtime major.minor (CUDA minor-version compatibility:
# any driver of the major's first release runs every minor of that major).
MIN_DRIVER_FOR_CUDA = {"13": (580, 65), "12": (525, 60)}
# Runtime compilers per engine: SGLang JIT-compiles C++20 CUDA kernels (g++ >= 11, nvcc);
# Triton (both engines) compiles its launcher stubs with a C compiler.
ENGINE_IMPORTS = {"sglang": ["sglang", "sgl_kernel", "flashinfer"], "vllm": ["vllm", "flashinfer"]}
COMMON_IMPORTS = ["torch", "verl", "transfer_queue", "ray", "transformers", "rewards"]
MIN_GCC = 11
SHM_FAIL_GIB, SHM_WARN_GIB = 1.0, 16.0
IMPORT_TIMEOUT_S = 300


@dataclass
class Check:
    name: str
    status: str
    found: str
    expected: str = ""
    fix: str = ""


@dataclass
class Report:
    engine: str
    lock: str
    checks: list[Check] = field(default_factory=list)
    lock_mismatches: list[dict[str, str]] = field(default_factory=list)

    def add(self, name: str, status: str, found: str, expected: str = "", fix: str = "") -> None:
        self.checks.append(Check(name, status, found, expected, fix))

    @property
    def verdict(self) -> str:
        statuses = {c.status for c in self.checks}
        return FAIL if FAIL in statuses else (WARN if WARN in statuses else OK)


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_lock(path: Path) -> dict[str, str]:
    """`name==version` pins of a uv/pip-compile lock, keyed by normalized name."""
    pins: dict[str, str] = {}
    pin = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)")
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", "--")):
            continue
        match = pin.match(line)
        if match:
            pins[normalize(match.group(1))] = match.group(3)
        elif not raw.startswith((" ", "\t")):
            raise ValueError(
                f"{path}:{lineno}: not a 'name==version' pin: {line!r}; regenerate it with 'make lock'"
            )
    if not pins:
        raise ValueError(f"{path}: no 'name==version' pins found; regenerate it with 'make lock'")
    return pins


def installed_versions() -> dict[str, str]:
    found: dict[str, str] = {}
    for dist in md.distributions():
        name = dist.metadata["Name"]
        if name:
            found.setdefault(normalize(name), dist.version)
    return found


def read_resolve_env(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                key, value = line.split("=", 1)
                values[key.strip()] = value.strip()
    return values


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def run(cmd: list[str], timeout: float = 30) -> tuple[int, str]:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return 127, str(err)
    return proc.returncode, (proc.stdout + proc.stderr).strip()


def check_lock(report: Report, pins: dict[str, str], installed: dict[str, str]) -> None:
    missing = sorted(n for n in pins if n not in installed)
    wrong = sorted(n for n in pins if n in installed and installed[n] != pins[n])
    for name in wrong:  # different versions first: they are the surprising ones
        report.lock_mismatches.append({"package": name, "locked": pins[name], "installed": installed[name]})
    for name in missing:
        report.lock_mismatches.append({"package": name, "locked": pins[name], "installed": ""})
    n_bad = len(missing) + len(wrong)
    if n_bad == 0:
        report.add("lock", OK, f"all {len(pins)} locked packages at their locked versions", report.lock)
        return
    shown = ", ".join(
        f"{m['package']} {m['installed'] or 'missing'} (lock {m['locked']})"
        for m in report.lock_mismatches[:6]
    )
    more = f" and {n_bad - 6} more (--json lists all)" if n_bad > 6 else ""
    report.add(
        "lock",
        FAIL,
        f"{len(wrong)} differ, {len(missing)} missing: {shown}{more}",
        f"{len(pins)} packages as in {report.lock}",
        f"rebuild the env: make env-{report.engine} (uv pip sync makes it exactly the lock)",
    )


IMPORT_PROBE = r"""
import importlib, json, sys
out = {}
for name in sys.argv[1:]:
    try:
        mod = importlib.import_module(name)
        out[name] = {"ok": True, "version": str(getattr(mod, "__version__", ""))}
    except BaseException as err:  # noqa: BLE001 - report every failure, including SystemExit
        out[name] = {"ok": False, "error": f"{type(err).__name__}: {err}"[:4000]}
try:
    import torch
    out["_torch"] = {
        "cuda": torch.version.cuda or "",
        "cuda_available": bool(torch.cuda.is_available()),
        "device_count": int(torch.cuda.device_count()) if torch.cuda.is_available() else 0,
    }
    try:
        nccl = torch.cuda.nccl.version()
        out["_torch"]["nccl"] = ".".join(map(str, nccl)) if isinstance(nccl, tuple) else str(nccl)
    except Exception as err:  # noqa: BLE001
        out["_torch"]["nccl_error"] = f"{type(err).__name__}: {err}"[:200]
except BaseException as err:  # noqa: BLE001
    out["_torch"] = {"error": f"{type(err).__name__}: {err}"[:300]}
print("@@PROBE@@" + json.dumps(out))
"""


def probe_imports(modules: list[str]) -> dict[str, dict[str, object]]:
    """Import each module in a child interpreter, so a crash or hang cannot take the check down."""
    code, text = run([sys.executable, "-c", IMPORT_PROBE, *modules], timeout=IMPORT_TIMEOUT_S)
    marker = text.rfind("@@PROBE@@")
    if marker < 0:
        tail = text[-300:] if text else f"exit code {code}"
        return {m: {"ok": False, "error": f"the import probe died: {tail}"} for m in [*modules, "_torch"]}
    line = text[marker + len("@@PROBE@@") :].splitlines()[0]
    return json.loads(line)


# Import errors that only mean "this node has no GPU driver" (a login node), not a broken env.
NEEDS_GPU_ERROR = re.compile(r"libcuda\.so|CUDA driver|no CUDA GPUs|NVIDIA driver|cudaGetDeviceCount", re.I)


def check_imports(report: Report, modules: list[str], probe: dict[str, dict[str, object]], gpu: bool) -> None:
    for name in modules:
        res = probe.get(name, {"ok": False, "error": "not probed"})
        error = " ".join(str(res.get("error", "")).split())
        needs_gpu = NEEDS_GPU_ERROR.search(error)
        if res.get("ok"):
            report.add(f"import {name}", OK, str(res.get("version") or "imported"))
        elif not gpu and needs_gpu:
            report.add(
                f"import {name}",
                WARN,
                f"needs the NVIDIA driver, absent here ({needs_gpu.group(0)} not found)",
                "imports",
                f"check on a GPU node: make check-env ENGINE={report.engine}",
            )
        else:
            fix = f"rebuild the env: make env-{report.engine}"
            if name == "rewards":
                fix = "install the project into the env: uv pip install --no-deps -e <repo> (make env-* does it)"
            elif name == "flash_attn":
                fix = f"build it: make env-{report.engine} FLASH_ATTN=1, or use sdpa attention (the default)"
            report.add(f"import {name}", FAIL, error[:300], "imports", fix)


def expected_cuda(pins: dict[str, str]) -> str:
    """CUDA runtime major.minor of the locked torch (from its nvidia-cuda-runtime wheel)."""
    for name in ("nvidia-cuda-runtime", "nvidia-cuda-runtime-cu13", "nvidia-cuda-runtime-cu12"):
        if name in pins:
            return ".".join(pins[name].split(".")[:2])
    return ""


def check_torch_cuda(report: Report, probe: dict[str, dict[str, object]], want: str, gpu: bool) -> str:
    info = probe.get("_torch", {})
    if "error" in info:
        report.add(
            "torch CUDA runtime", FAIL, str(info["error"]), want, f"rebuild the env: make env-{report.engine}"
        )
        return ""
    cuda = str(info.get("cuda") or "")
    if not cuda:
        report.add(
            "torch CUDA runtime",
            FAIL,
            "none (a CPU-only torch build)",
            want or "a CUDA build",
            f"rebuild the env: make env-{report.engine} (the lock holds the CUDA build from PyPI)",
        )
    elif want and cuda != want:
        report.add("torch CUDA runtime", FAIL, cuda, want, f"rebuild the env: make env-{report.engine}")
    else:
        report.add("torch CUDA runtime", OK, cuda, want)
    if gpu:
        count = int(str(info.get("device_count") or 0))
        if info.get("cuda_available") and count > 0:
            report.add("torch sees GPUs", OK, str(count))
        else:
            report.add(
                "torch sees GPUs",
                FAIL,
                "torch.cuda.is_available() is False",
                ">= 1",
                "check CUDA_VISIBLE_DEVICES (empty hides every GPU) and the driver row above",
            )
    return cuda


def check_gpu(report: Report, want_cuda: str) -> bool:
    """GPU count/model and driver minimum; True when nvidia-smi lists at least one GPU."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        report.add(
            "GPU",
            FAIL,
            "no NVIDIA GPU or driver found on this machine (nvidia-smi not on PATH)",
            ">= 1 NVIDIA GPU",
            "run this check on a GPU compute node (srun --gres=gpu:1 ...), or pass --no-gpu for the rest",
        )
        return False
    code, text = run([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"])
    rows = [r.split(",") for r in text.splitlines() if r.count(",") == 1] if code == 0 else []
    if not rows:
        report.add(
            "GPU",
            FAIL,
            f"nvidia-smi failed: {text[-200:]}",
            ">= 1 NVIDIA GPU",
            "check the driver: nvidia-smi",
        )
        return
    models = sorted({r[0].strip() for r in rows})
    report.add("GPU", OK, f"{len(rows)} x {', '.join(models)}")
    driver = rows[0][1].strip()
    major = want_cuda.split(".")[0] if want_cuda else ""
    need = MIN_DRIVER_FOR_CUDA.get(major)
    if need is None:
        report.add(
            "NVIDIA driver", WARN, driver, "unknown minimum", f"no minimum known for CUDA '{want_cuda}'"
        )
    elif version_tuple(driver)[:2] >= need:
        report.add("NVIDIA driver", OK, driver, f">= {need[0]}.{need[1]} (CUDA {want_cuda})")
    else:
        report.add(
            "NVIDIA driver",
            FAIL,
            driver,
            f">= {need[0]}.{need[1]} (CUDA {want_cuda})",
            "ask the admins for driver R580+, or use CUDA forward compatibility "
            "(cuda-compat, datacenter GPUs only); see envs/README.md 'Older drivers'",
        )
    return True


def allow_forward_compat(report: Report) -> None:
    """An old driver that still gives torch its GPUs runs through CUDA forward compatibility."""
    rows = {c.name: c for c in report.checks}
    driver, seen = rows.get("NVIDIA driver"), rows.get("torch sees GPUs")
    if driver and seen and driver.status == FAIL and seen.status == OK:
        driver.status = WARN
        driver.found += " (torch still reaches the GPUs: CUDA forward compatibility?)"
        driver.fix = "works through the cuda-compat libraries (datacenter GPUs); R580+ is the tested setup"


def check_glibc(report: Report, platform_tag: str) -> None:
    match = re.search(r"manylinux_(\d+)_(\d+)", platform_tag)
    need = (int(match.group(1)), int(match.group(2))) if match else (2, 34)
    libc, ver = platform.libc_ver()
    if libc != "glibc" or not ver:
        report.add(
            "glibc", FAIL, f"{libc or 'unknown'} {ver}", f">= {need[0]}.{need[1]}", "use a glibc Linux"
        )
        return
    ok = version_tuple(ver)[:2] >= need
    report.add(
        "glibc",
        OK if ok else FAIL,
        ver,
        f">= {need[0]}.{need[1]} ({platform_tag})",
        "" if ok else "the locked wheels need a newer OS: RHEL/Rocky 9 or Ubuntu 22.04+, or a container",
    )


def tool_version(exe: str, args: list[str], pattern: str) -> str:
    code, text = run([exe, *args])
    match = re.search(pattern, text) if code == 0 else None
    return match.group(1) if match else ""


def check_compilers(report: Report, engine: str, want_cuda: str, nvcc_needed: bool) -> None:
    cxx = "g++" if engine == "sglang" else "gcc"
    exe = shutil.which(cxx)
    conda_fix = (
        f"make env-{engine} installs it from conda-forge (gcc/gxx 13), or module load a gcc >= {MIN_GCC}"
    )
    if exe is None:
        report.add(cxx, FAIL, "not on PATH", f">= {MIN_GCC}", conda_fix)
    else:
        ver = tool_version(exe, ["-dumpfullversion"], r"(\d+(?:\.\d+)*)")
        ok = bool(ver) and version_tuple(ver)[0] >= MIN_GCC
        why = "C++20 JIT kernels" if engine == "sglang" else "Triton"
        report.add(
            cxx, OK if ok else FAIL, f"{ver or '?'} ({exe})", f">= {MIN_GCC} ({why})", "" if ok else conda_fix
        )
    nvcc = shutil.which("nvcc")
    nvcc_ver = tool_version(nvcc, ["--version"], r"release (\d+\.\d+)") if nvcc else ""
    if not nvcc_needed:
        report.add(
            "nvcc", OK if nvcc else SKIP, f"{nvcc_ver} ({nvcc})" if nvcc else "not needed by this engine"
        )
    elif nvcc is None:
        report.add(
            "nvcc", FAIL, "not on PATH", want_cuda, f"make env-{engine} installs cuda-nvcc {want_cuda}"
        )
    elif want_cuda and nvcc_ver != want_cuda:
        report.add(
            "nvcc",
            FAIL,
            f"{nvcc_ver or '?'} ({nvcc})",
            f"{want_cuda} (torch's CUDA)",
            f"put the env's nvcc first on PATH (conda activate the env); make env-{engine} installs {want_cuda}",
        )
    else:
        report.add("nvcc", OK, f"{nvcc_ver} ({nvcc})", want_cuda)
    cuda_home = os.environ.get("CUDA_HOME", "")
    if not nvcc_needed:
        report.add("CUDA_HOME", OK if cuda_home else SKIP, cuda_home or "unset (not needed)")
    elif not cuda_home:
        report.add("CUDA_HOME", FAIL, "unset", "the env prefix", CUDA_HOME_FIX)
    elif not (Path(cuda_home) / "bin" / "nvcc").exists():
        report.add(
            "CUDA_HOME",
            FAIL,
            cuda_home,
            "a folder with bin/nvcc",
            CUDA_HOME_FIX,
        )
    else:
        report.add("CUDA_HOME", OK, cuda_home)


CUDA_HOME_FIX = (
    "conda activate the env (it sets CUDA_HOME); an env built with CONDA=none: export CUDA_HOME=<a CUDA 13.0 "
    "toolkit with bin/nvcc>, e.g. /usr/local/cuda-13.0"
)


def check_nccl(report: Report, probe: dict[str, dict[str, object]], pins: dict[str, str], gpu: bool) -> None:
    info = probe.get("_torch", {})
    locked = next((pins[n] for n in ("nvidia-nccl-cu13", "nvidia-nccl-cu12") if n in pins), "")
    if info.get("nccl"):
        report.add("NCCL", OK, str(info["nccl"]), locked)
        return
    installed = next((v for n, v in installed_versions().items() if n.startswith("nvidia-nccl-cu")), "")
    if installed:
        status = OK if (not locked or installed == locked) else FAIL
        report.add(
            "NCCL",
            status,
            f"{installed} (wheel; torch did not report it)",
            locked,
            "" if status == OK else f"rebuild the env: make env-{report.engine}",
        )
    else:
        report.add(
            "NCCL",
            FAIL if gpu else WARN,
            "no NCCL (torch reports none, no nvidia-nccl wheel)",
            locked,
            f"rebuild the env: make env-{report.engine}",
        )


def check_shm(report: Report) -> None:
    try:
        st = os.statvfs("/dev/shm")
    except OSError as err:
        report.add(
            "/dev/shm",
            FAIL,
            f"unavailable: {err}",
            f">= {SHM_WARN_GIB:g} GiB",
            "ask the admins to mount /dev/shm",
        )
        return
    gib = st.f_blocks * st.f_frsize / 2**30
    fix = "containers: --shm-size=64g (docker) or bind the host /dev/shm; Slurm: ask for a bigger /dev/shm"
    if gib < SHM_FAIL_GIB:
        report.add(
            "/dev/shm", FAIL, f"{gib:.2f} GiB", f">= {SHM_WARN_GIB:g} GiB (NCCL, Ray object store)", fix
        )
    elif gib < SHM_WARN_GIB:
        report.add(
            "/dev/shm", WARN, f"{gib:.1f} GiB", f">= {SHM_WARN_GIB:g} GiB (NCCL, Ray object store)", fix
        )
    else:
        report.add("/dev/shm", OK, f"{gib:.0f} GiB")


def check_reward_kernel(report: Report) -> None:
    """The Phi-4 reward's repetition kernel (rewards/native), loaded and run here as a job loads it."""
    root = Path(__file__).resolve().parents[1]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from rewards import repetition_native

    path = repetition_native.library_path()
    fix = "make native (without it the Phi-4 reward runs its numpy passes: same scores, about 3x the time)"
    if not path.exists():
        report.add("reward kernel", WARN, "not built", str(path.relative_to(root)), fix)
        return
    try:
        repetition_native.open_kernel(path)
    except OSError as err:
        report.add("reward kernel", WARN, f"does not load: {err}", str(path.relative_to(root)), fix)
        return
    report.add("reward kernel", OK, str(path.relative_to(root)))


def check_python(report: Report, want: str) -> None:
    have = f"{sys.version_info.major}.{sys.version_info.minor}"
    ok = not want or have == want
    report.add(
        "python",
        OK if ok else FAIL,
        f"{have} ({sys.executable})",
        want,
        "" if ok else f"run with the env's python: conda activate the env, or make env-{report.engine}",
    )


def build_report(engine: str, lock: Path, gpu: bool, flash_attn: bool) -> Report:
    pins = parse_lock(lock)
    settings = read_resolve_env(lock.parent / "resolve.env")
    report = Report(engine=engine, lock=str(lock))
    check_python(report, settings.get("PYTHON_VERSION", ""))
    check_lock(report, pins, installed_versions())
    modules = [*COMMON_IMPORTS, *ENGINE_IMPORTS[engine]] + (["flash_attn"] if flash_attn else [])
    probe = probe_imports(modules)
    check_imports(report, modules, probe, gpu)
    want_cuda = expected_cuda(pins)
    has_gpu = check_gpu(report, want_cuda) if gpu else False
    check_torch_cuda(report, probe, want_cuda, has_gpu)
    allow_forward_compat(report)
    if not gpu:
        report.add("GPU", SKIP, "skipped (--no-gpu): GPUs, driver and torch.cuda not checked")
    check_nccl(report, probe, pins, gpu)
    check_glibc(report, settings.get("PYTHON_PLATFORM", "manylinux_2_34"))
    check_compilers(report, engine, want_cuda, nvcc_needed=(engine == "sglang" or flash_attn))
    check_shm(report)
    check_reward_kernel(report)
    return report


def render(report: Report) -> str:
    rows = [("check", "status", "found", "expected")]
    rows += [(c.name, c.status, c.found, c.expected) for c in report.checks]
    widths = [min(max(len(r[i]) for r in rows), cap) for i, cap in enumerate((20, 6, 70, 40))]

    def fmt(row: tuple[str, str, str, str]) -> str:
        cells = [(v if len(v) <= w else v[: w - 1] + "~").ljust(w) for v, w in zip(row, widths, strict=True)]
        return "  ".join(cells).rstrip()

    lines = [f"environment check: engine {report.engine}, lock {report.lock}", fmt(rows[0])]
    lines.append("  ".join("-" * w for w in widths))
    lines += [fmt(r) for r in rows[1:]]
    if report.lock_mismatches:
        lines.append("")
        lines.append(f"lock mismatches ({len(report.lock_mismatches)}):")
        lines += [
            f"  {m['package']}: installed {m['installed'] or 'missing'}, lock {m['locked']}"
            for m in report.lock_mismatches
        ]
    failed = [c for c in report.checks if c.status == FAIL]
    warned = [c for c in report.checks if c.status == WARN]
    lines.append("")
    if failed:
        lines.append(f"verdict: NOT READY - {len(failed)} check(s) failed:")
        lines += [f"  - {c.name}: {c.fix}" for c in failed]
    else:
        lines.append("verdict: READY" + (f" ({len(warned)} warning(s))" if warned else ""))
    lines += [f"  ! {c.name}: {c.fix}" for c in warned]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--engine", required=True, choices=sorted(ENGINE_IMPORTS))
    parser.add_argument("--lock", type=Path, help="lock file (default: envs/<engine>.lock)")
    parser.add_argument("--no-gpu", action="store_true", help="skip GPU, driver and torch.cuda checks")
    parser.add_argument("--flash-attn", action="store_true", help="flash-attn 2 was built (FLASH_ATTN=1)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    lock = args.lock or ROOT / "envs" / f"{args.engine}.lock"
    if not lock.is_file():
        print(f"check_env: lock file {lock} not found; pass --lock PATH or run 'make lock'", file=sys.stderr)
        return 2
    try:
        report = build_report(args.engine, lock, gpu=not args.no_gpu, flash_attn=args.flash_attn)
    except ValueError as err:
        print(f"check_env: {err}", file=sys.stderr)
        return 2
    if args.json:
        data = {
            "engine": report.engine,
            "lock": report.lock,
            "verdict": report.verdict,
            "checks": [asdict(c) for c in report.checks],
            "lock_mismatches": report.lock_mismatches,
        }
        print(json.dumps(data, indent=2))
    else:
        print(render(report))
    return 1 if report.verdict == FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
