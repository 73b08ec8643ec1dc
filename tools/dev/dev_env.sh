#!/usr/bin/env bash
# Create or update the CPU development environment (.venv) used by tests and tools.
# Usage: tools/dev/dev_env.sh [VENV_DIR]   (PYTHON=... picks the base interpreter, >= 3.11)
# Exact versions come from envs/dev-constraints.txt; `make lock-dev` regenerates that file.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${1:-${root}/.venv}"
python="${PYTHON:-python3}"
constraints="${root}/envs/dev-constraints.txt"
stamp="${venv}/.dev-installed"

if ! command -v "${python}" >/dev/null 2>&1; then
  echo "dev_env: '${python}' not found; install Python >= 3.11 or set PYTHON=/path/to/python3.11" >&2
  exit 1
fi
if ! "${python}" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "dev_env: ${python} is $("${python}" -V 2>&1); Python >= 3.11 is required (set PYTHON=...)" >&2
  exit 1
fi

if [[ ! -x "${venv}/bin/python" ]]; then
  echo "dev_env: creating ${venv} with $("${python}" -V 2>&1)"
  "${python}" -m venv "${venv}"
fi

pip=("${venv}/bin/python" -m pip --disable-pip-version-check)
echo "dev_env: installing the CPU stack (torch 2.13.0 CPU, verl 0.9.1 without extras) from ${constraints#"${root}"/}"
# torch first and alone: the CPU build must be in place before anything asks for torch,
# otherwise a resolver may pull the CUDA build from the registry.
"${pip[@]}" install -q -c "${constraints}" "torch==2.13.0"
"${pip[@]}" install -q -c "${constraints}" -e "${root}[dev]"
"${pip[@]}" check >/dev/null || {
  echo "dev_env: 'pip check' reports broken requirements:" >&2
  "${pip[@]}" check >&2 || true
}
"${venv}/bin/python" - <<'PY'
import importlib.metadata as md
import torch, verl  # noqa: F401  (fail here, not in the tests, if the stack is broken)
print(f"dev_env: ok — torch {md.version('torch')}, verl {md.version('verl')}, ray {md.version('ray')}")
PY
touch "${stamp}"
