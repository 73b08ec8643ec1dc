#!/usr/bin/env bash
# Pinned GPU environments for the SGLang and vLLM rollout backends.
#
#   envs/build.sh lock [sglang|vllm ...]        re-resolve envs/<engine>.lock from envs/<engine>.in
#   envs/build.sh lock-check [sglang|vllm ...]  re-resolve into a temp dir, report drift (exit 1)
#   envs/build.sh inputs-hash sglang|vllm       print the sha256 of the lock's resolution inputs
#   envs/build.sh env sglang|vllm               create or update the env at ENV_PREFIX
#   envs/build.sh wheelhouse sglang|vllm        download every locked file into WHEELHOUSE
#
# Settings (environment variables; the make targets pass theirs through):
#   ENV_PREFIX   where the env lives; default: ENV_PREFIX_SGLANG / ENV_PREFIX_VLLM from the site
#                file (jobs/site.env, or SITE_ENV=PATH), else $HOME/envs/verl-<engine>
#   WHEELHOUSE   env: install from this folder with no network; wheelhouse: download into it
#   DRY_RUN=1    print every step, run none of them
#   FLASH_ATTN=1 also build flash-attn 2.8.3 from source (vLLM env only), MAX_JOBS compile jobs
#   LOCK_OUT_DIR lock: write the locks here instead of envs/ (the drift test uses it)
#   UV_CACHE_DIR uv's cache (default .uv-cache/ in the repo); LOG_DIR (default logs/)
#   INDEX_URL    package index for installs and downloads (default: INDEX_URL in envs/resolve.env)
#   CONDA=none   env: skip the conda part; ENV_PREFIX already holds Python 3.12 (venv, container)
# Resolution settings (date, platform, Python, index) are in envs/resolve.env.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
envs_dir="${root}/envs"
dry_run="${DRY_RUN:-0}"
[[ "${dry_run}" == "0" || "${dry_run}" == "" ]] && dry_run=0 || dry_run=1

die() {
  echo "build_env: error: $*" >&2
  exit 1
}

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"
}

# --- resolution settings -----------------------------------------------------------------
declare -A cfg=()
read_resolve_env() {
  local file="${envs_dir}/resolve.env" line key value n=0
  [[ -f "${file}" ]] || die "${file} is missing; it records the resolution date and platform (see envs/README.md)"
  while IFS= read -r line || [[ -n "${line}" ]]; do
    n=$((n + 1))
    [[ -z "${line// /}" || "${line}" =~ ^[[:space:]]*# ]] && continue
    [[ "${line}" =~ ^([A-Z_]+)=([^[:space:]]+)$ ]] ||
      die "${file}:${n}: expected KEY=VALUE without spaces or quotes, got: ${line}"
    key="${BASH_REMATCH[1]}"
    value="${BASH_REMATCH[2]}"
    cfg["${key}"]="${value}"
  done <"${file}"
  for key in EXCLUDE_NEWER PYTHON_VERSION PYTHON_PLATFORM INDEX_URL; do
    [[ -n "${cfg[${key}]:-}" ]] || die "${file}: key ${key} is missing (see envs/README.md)"
  done
  if [[ "${INDEX_URL:-}" == default ]]; then
    INDEX_URL=""
  fi
  if [[ "${cfg[INDEX_URL]}" == default ]]; then
    cfg[INDEX_URL]="$(default_index_url)" || die "cannot ask pip for its default index; set INDEX_URL=... (a simple-index URL)"
  fi
}

# pip's built-in default index URL (the repository names no registry host itself).
default_index_url() {
  local py
  for py in "${PYTHON:-}" python3 "${root}/.venv/bin/python"; do
    [[ -n "${py}" ]] || continue
    if "${py}" -c 'from pip._internal.models.index import PyPI; print(PyPI.simple_url)' 2>/dev/null; then
      return 0
    fi
  done
  return 1
}

check_engine() {
  case "${1:-}" in
    sglang | vllm) ;;
    "") die "no engine given; use sglang or vllm (make env-sglang / make env-vllm)" ;;
    *) die "unknown engine '${1}'; use sglang or vllm" ;;
  esac
}

# uv for `lock`: $UV, else the dev venv's, else PATH.
find_uv() {
  if [[ -n "${UV:-}" ]]; then
    [[ -x "${UV}" ]] || die "UV=${UV} is not an executable"
    echo "${UV}"
  elif [[ -x "${root}/.venv/bin/uv" ]]; then
    echo "${root}/.venv/bin/uv"
  elif command -v uv >/dev/null 2>&1; then
    command -v uv
  else
    die "uv not found: run 'make dev' (puts uv in .venv) or 'pip install uv', or set UV=/path/to/uv"
  fi
}

# uv must resolve against the index in resolve.env only: no user/site uv config, no UV_* index
# variables (pip.conf is never read by uv).
uv_clean_env=(env -u UV_INDEX_URL -u UV_EXTRA_INDEX_URL -u UV_INDEX -u UV_DEFAULT_INDEX
  -u UV_FIND_LINKS -u UV_NO_INDEX -u UV_CONSTRAINT -u UV_OVERRIDE -u UV_BUILD_CONSTRAINT
  -u UV_PRERELEASE -u UV_RESOLUTION -u UV_INDEX_STRATEGY -u UV_EXCLUDE_NEWER -u UV_TORCH_BACKEND
  -u UV_OFFLINE -u UV_PYTHON -u UV_CONFIG_FILE)

# clean_uv UV ARGS...: run uv without any UV_* index/resolution variables from the caller.
clean_uv() { "${uv_clean_env[@]}" "$@"; }

# in_prefix PREFIX CUDA_HOME CMD...: run CMD with PREFIX/bin first on PATH (and CUDA_HOME if given).
in_prefix() {
  local prefix="$1" cuda_home="$2"
  shift 2
  if [[ -n "${cuda_home}" ]]; then
    PATH="${prefix}/bin:${PATH}" CUDA_HOME="${cuda_home}" "$@"
  else
    PATH="${prefix}/bin:${PATH}" "$@"
  fi
}

# lock_inputs ENGINE: the files that feed the resolution of envs/ENGINE.lock, repo-relative, in a
# fixed order: resolve.env, the .in file and every file it includes with -r (depth first), the
# overrides file when it exists.
lock_inputs() {
  local engine="$1"
  echo "envs/resolve.env"
  in_with_includes "envs/${engine}.in"
  [[ -f "${root}/envs/${engine}-overrides.txt" ]] && echo "envs/${engine}-overrides.txt"
  return 0
}

in_with_includes() {
  local rel="$1" line inc
  [[ -f "${root}/${rel}" ]] || die "${rel} is missing (an input of the lock)"
  echo "${rel}"
  while IFS= read -r line || [[ -n "${line}" ]]; do
    line="${line%%#*}"
    if [[ "${line}" =~ ^[[:space:]]*-r[[:space:]]+([^[:space:]]+) ]]; then
      inc="$(dirname "${rel}")/${BASH_REMATCH[1]}"
      in_with_includes "${inc}"
    fi
  done <"${root}/${rel}"
}

# inputs_hash ENGINE: sha256 over "<path> <sha256 of its content>" lines of lock_inputs. The lock
# records it in its header (LOCK_HASH_PREFIX); tests/test_envs_locks.py recomputes it offline.
LOCK_HASH_PREFIX="# inputs-sha256: "
inputs_hash() {
  local engine="$1" rel files
  files="$(lock_inputs "${engine}")"
  while IFS= read -r rel; do
    printf '%s %s\n' "${rel}" "$(file_sha "${root}/${rel}")"
  done <<<"${files}" | sha256sum | cut -d' ' -f1
}

cmd_inputs_hash() {
  check_engine "${1:-}"
  inputs_hash "$1"
}

# lock_check [ENGINE...]: resolve again (live index, same date) into a temp dir and compare.
cmd_lock_check() {
  local engines=("$@") engine tmp_dir pin_diff drift=0
  [[ ${#engines[@]} -gt 0 ]] || engines=(sglang vllm)
  tmp_dir="$(mktemp -d)"
  LOCK_CHECK_DIR="${tmp_dir}"
  trap 'rm -rf "${LOCK_CHECK_DIR}"' EXIT
  LOCK_OUT_DIR="${tmp_dir}" cmd_lock "${engines[@]}"
  for engine in "${engines[@]}"; do
    if diff -q <(grep -v "^${LOCK_HASH_PREFIX}" "${envs_dir}/${engine}.lock") \
      <(grep -v "^${LOCK_HASH_PREFIX}" "${tmp_dir}/${engine}.lock") >/dev/null; then
      echo "lock-check: envs/${engine}.lock: no drift (a fresh resolution gives the same file)"
    else
      drift=1
      echo "lock-check: envs/${engine}.lock DRIFTED: a fresh resolution of the same inputs differs. Pins (- lock, + fresh):"
      pin_diff="$(diff <(grep -E '^[A-Za-z0-9].*==' "${envs_dir}/${engine}.lock" | cut -d' ' -f1) \
        <(grep -E '^[A-Za-z0-9].*==' "${tmp_dir}/${engine}.lock" | cut -d' ' -f1) || true)"
      pin_diff="$(grep -E '^[<>]' <<<"${pin_diff}" | sed -e 's/^</  -/' -e 's/^>/  +/' || true)"
      echo "${pin_diff:-  (hashes or annotations only)}"
    fi
  done
  if ((drift)); then
    echo "lock-check: to take the fresh resolution: make lock, review 'git diff envs/*.lock', commit" >&2
    return 1
  fi
}

cmd_lock() {
  local engines=("$@") engine uv out_dir cache in_file overrides out tmp args
  [[ ${#engines[@]} -gt 0 ]] || engines=(sglang vllm)
  for engine in "${engines[@]}"; do check_engine "${engine}"; done
  read_resolve_env
  uv="$(find_uv)"
  out_dir="${LOCK_OUT_DIR:-${envs_dir}}"
  cache="${UV_CACHE_DIR:-${root}/.uv-cache}"
  mkdir -p "${out_dir}"
  for engine in "${engines[@]}"; do
    in_file="envs/${engine}.in"
    overrides="envs/${engine}-overrides.txt"
    out="${out_dir}/${engine}.lock"
    tmp="$(mktemp "${out_dir}/.${engine}.lock.XXXXXX")"
    args=(--no-config pip compile "${in_file}"
      --python-platform "${cfg[PYTHON_PLATFORM]}" --python-version "${cfg[PYTHON_VERSION]}"
      --exclude-newer "${cfg[EXCLUDE_NEWER]}" --default-index "${cfg[INDEX_URL]}"
      --generate-hashes --no-python-downloads --cache-dir "${cache}"
      --custom-compile-command "make lock" --quiet --output-file "${tmp}")
    [[ -f "${root}/${overrides}" ]] && args+=(--overrides "${overrides}")
    echo "build_env: resolving ${in_file} for ${cfg[PYTHON_PLATFORM]} / Python ${cfg[PYTHON_VERSION]}, files up to ${cfg[EXCLUDE_NEWER]}"
    # Relative paths from the repo root keep the '# via -r envs/common.in' annotations stable.
    if ! (cd "${root}" && clean_uv "${uv}" "${args[@]}"); then
      rm -f "${tmp}"
      die "resolving ${in_file} failed (uv's message above). Check the pins in envs/common.in, ${in_file} and ${overrides}; a pin newer than EXCLUDE_NEWER in envs/resolve.env is invisible to uv"
    fi
    # A fresh resolution every time: uv keeps the pins of an existing --output-file, so the
    # output is always a new empty temp file. The header records the inputs' hash (offline check).
    { printf '%s%s\n' "${LOCK_HASH_PREFIX}" "$(inputs_hash "${engine}")"; cat "${tmp}"; } >"${tmp}.h"
    mv -f "${tmp}.h" "${tmp}"
    chmod 644 "${tmp}"
    mv -f "${tmp}" "${out}"
    echo "build_env: wrote ${out} ($(grep -c '^[A-Za-z0-9].*==' "${out}") packages)"
  done
}

# --- site file and prefix ------------------------------------------------------------------
load_site() {
  local site="${SITE_ENV:-${root}/jobs/site.env}"
  if [[ -n "${SITE_ENV:-}" && ! -f "${SITE_ENV}" ]]; then
    die "SITE_ENV=${SITE_ENV} does not exist; copy jobs/site.env.example there and edit it"
  fi
  if [[ -f "${site}" ]]; then
    echo "build_env: site file ${site}"
    # The site file is the cluster's own shell snippet (module loads, paths); it is sourced.
    set +u
    # shellcheck disable=SC1090
    source "${site}"
    set -u
  fi
}

default_prefix() {
  local engine="$1" var
  var="ENV_PREFIX_$(tr '[:lower:]' '[:upper:]' <<<"${engine}")"
  if [[ -n "${ENV_PREFIX:-}" ]]; then
    echo "${ENV_PREFIX}"
  elif [[ -n "${!var:-}" ]]; then
    echo "${!var}"
  else
    echo "${HOME}/envs/verl-${engine}"
  fi
}

# --- steps ---------------------------------------------------------------------------------
step_no=0
current_step=""
current_fix=""
log_file=""

on_error() {
  local rc=$?
  if [[ -n "${current_step}" ]]; then
    echo "build_env: step ${step_no} (${current_step}) failed with exit code ${rc}." >&2
    [[ -n "${current_fix}" ]] && echo "build_env: what to do: ${current_fix}" >&2
    [[ -n "${log_file}" ]] && echo "build_env: full log: ${log_file}" >&2
  fi
  exit "${rc}"
}

# step TITLE FIX CMD... : print the step and its command; run it unless DRY_RUN.
step() {
  local title="$1" fix="$2"
  shift 2
  step_no=$((step_no + 1))
  current_step="${title}"
  current_fix="${fix}"
  echo
  echo "[${step_no}] ${title}"
  printf '    $'
  printf ' %q' "$@"
  echo
  if [[ "${dry_run}" == 0 ]]; then
    "$@"
  fi
  current_step=""
}

note() { echo "    # $*"; }

find_conda() {
  local tool
  if [[ -n "${CONDA_EXE:-}" && -x "${CONDA_EXE}" ]]; then
    echo "${CONDA_EXE}"
    return 0
  fi
  if [[ -n "${CONDA_ROOT:-}" ]]; then  # the site file's conda installation (jobs/site.env.example)
    for tool in mamba conda; do
      if [[ -x "${CONDA_ROOT}/bin/${tool}" ]]; then
        echo "${CONDA_ROOT}/bin/${tool}"
        return 0
      fi
    done
  fi
  for tool in mamba micromamba conda; do
    if command -v "${tool}" >/dev/null 2>&1; then
      command -v "${tool}"
      return 0
    fi
  done
  return 1
}

no_conda_message() {
  cat <<'EOF'
no conda found: none of mamba, micromamba or conda is on PATH, in CONDA_ROOT/bin or CONDA_EXE.
  On a cluster with environment modules: add the line that provides it to the site file
  (jobs/site.env), e.g. `module load miniforge3` (names vary: `module avail conda`), or run it
  in this shell before make.
  Without modules: install Miniforge (https://conda-forge.org/download/) into your home:
    bash Miniforge3-Linux-x86_64.sh -b -p "$HOME/miniforge3"
  and set CONDA_ROOT="$HOME/miniforge3" in the site file (or put its bin/ on PATH).
EOF
}

# conda command lines differ between conda / mamba 1.x (`env create|update`) and micromamba /
# mamba >= 2 (`create|install -f`).
conda_flavour() {
  local exe="$1" name
  name="$(basename "${exe}")"
  if [[ "${name}" == micromamba ]]; then
    echo micro
  elif [[ "${name}" == mamba ]] && "${exe}" --version 2>/dev/null | grep -qE '^(mamba )?[2-9]\.'; then
    echo micro
  else
    echo conda
  fi
}

file_sha() { sha256sum "$1" | cut -d' ' -f1; }

glibc_ok() {
  local have need="$1"
  have="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
  [[ -n "${have}" ]] || die "cannot read the glibc version (getconf GNU_LIBC_VERSION); the locked wheels need glibc >= ${need}"
  if [[ "$(printf '%s\n%s\n' "${need}" "${have}" | sort -V | head -n1)" != "${need}" ]]; then
    die "this machine has glibc ${have}; the locked wheels are manylinux_${need/./_} and need glibc >= ${need}. Build the env on a node with a newer OS (RHEL/Rocky 9, Ubuntu 22.04+) or in a container (see envs/README.md)"
  fi
  echo "    # glibc ${have} >= ${need}: ok"
}

write_activation() {
  local prefix="$1"
  mkdir -p "${prefix}/etc/conda/activate.d" "${prefix}/etc/conda/deactivate.d"
  local tmp
  tmp="$(mktemp "${prefix}/etc/conda/activate.d/.grpo-slurm.XXXXXX")"
  cat >"${tmp}" <<'EOF'
# written by grpo-slurm envs/build.sh: JIT kernel builds find nvcc and the CUDA headers here
export GRPO_SLURM_OLD_CUDA_HOME="${CUDA_HOME:-}"
export CUDA_HOME="${CONDA_PREFIX}"
EOF
  mv -f "${tmp}" "${prefix}/etc/conda/activate.d/grpo-slurm.sh"
  tmp="$(mktemp "${prefix}/etc/conda/deactivate.d/.grpo-slurm.XXXXXX")"
  cat >"${tmp}" <<'EOF'
# written by grpo-slurm envs/build.sh
if [ -n "${GRPO_SLURM_OLD_CUDA_HOME:-}" ]; then export CUDA_HOME="${GRPO_SLURM_OLD_CUDA_HOME}"; else unset CUDA_HOME; fi
unset GRPO_SLURM_OLD_CUDA_HOME
EOF
  mv -f "${tmp}" "${prefix}/etc/conda/deactivate.d/grpo-slurm.sh"
}

# Install uv itself into the env from the lock (pinned and hash-checked).
bootstrap_uv() {
  local python="$1" lock="$2" index="$3" wheelhouse="$4" req
  req="$(mktemp)"
  awk '/^uv==/{p=1} p{print} p && !/\\$/{exit}' "${lock}" >"${req}"
  [[ -s "${req}" ]] || die "${lock} has no 'uv==' entry; add uv to envs/common.in and run make lock"
  local pip_args=(-m pip install --disable-pip-version-check --no-deps --require-hashes -r "${req}")
  if [[ -n "${wheelhouse}" ]]; then
    pip_args+=(--no-index --find-links "${wheelhouse}")
  else
    pip_args+=(--index-url "${index}")
  fi
  env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL -u PIP_NO_INDEX PIP_CONFIG_FILE=/dev/null \
    "${python}" "${pip_args[@]}"
  rm -f "${req}"
}

python_ok() {
  local python="$1" want="$2" have
  [[ -x "${python}" ]] || die "${python} does not exist; create the env first (CONDA=none expects one)"
  have="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  [[ "${have}" == "${want}" ]] || die "${python} is Python ${have}; the locks are for ${want}"
  echo "    # ${python}: Python ${have}: ok"
}

record_stamp() {
  local file="$1" value="$2" tmp
  tmp="$(mktemp "${file}.XXXXXX")"
  echo "${value}" >"${tmp}"
  mv -f "${tmp}" "${file}"
}

cmd_env() {
  local engine="${1:-}"
  check_engine "${engine}"
  read_resolve_env
  local yml="${envs_dir}/${engine}.yml" lock="${envs_dir}/${engine}.lock"
  [[ -f "${yml}" ]] || die "${yml} is missing"
  [[ -f "${lock}" ]] || die "${lock} is missing; run 'make lock'"
  local flash_attn="${FLASH_ATTN:-0}"
  [[ "${flash_attn}" == 0 || -z "${flash_attn}" ]] && flash_attn=0 || flash_attn=1
  if [[ "${flash_attn}" == 1 && "${engine}" == sglang ]]; then
    die "FLASH_ATTN=1 is not offered for the SGLang env: sglang 0.5.12 pulls flash-attn-4, and flash-attn 2.x beside it overwrites flash_attn/cute (both ship it). The SGLang jobs use sdpa attention; build the vLLM env if you need flash-attn 2"
  fi

  if [[ "${dry_run}" == 0 ]]; then
    local log_dir="${LOG_DIR:-${root}/logs}"
    mkdir -p "${log_dir}"
    log_file="${log_dir}/env-${engine}-$(date -u +%Y%m%dT%H%M%SZ).log"
    exec > >(tee -a "${log_file}") 2>&1
    echo "build_env: logging to ${log_file}"
  else
    echo "build_env: DRY_RUN=1: printing the plan; nothing is run or written"
    echo "build_env: (clean_uv = uv without the caller's UV_* index settings; in_prefix P C = PATH=P/bin:\$PATH CUDA_HOME=C)"
  fi
  trap on_error ERR

  load_site
  local prefix wheelhouse="${WHEELHOUSE:-}" index="${INDEX_URL:-${cfg[INDEX_URL]}}"
  prefix="$(default_prefix "${engine}")"
  [[ "${prefix}" == /* ]] || prefix="${PWD}/${prefix}"
  if [[ -n "${wheelhouse}" ]]; then
    [[ "${wheelhouse}" == /* ]] || wheelhouse="${PWD}/${wheelhouse}"
    if [[ "${dry_run}" == 0 && ! -d "${wheelhouse}" ]]; then
      die "WHEELHOUSE=${wheelhouse} is not a folder; fill it on a node with internet: make wheelhouse ENGINE=${engine} WHEELHOUSE=${wheelhouse}"
    fi
  fi
  local python="${prefix}/bin/python" uv_bin="${prefix}/bin/uv"
  echo "build_env: engine ${engine}, prefix ${prefix}"
  echo "build_env: conda spec ${yml#"${root}"/}, pip lock ${lock#"${root}"/}"
  if [[ -n "${wheelhouse}" ]]; then
    echo "build_env: offline install from ${wheelhouse}"
  else
    echo "build_env: packages from ${index}"
  fi

  local conda="" flavour="conda" use_conda=1
  [[ "${CONDA:-}" == none ]] && use_conda=0
  if [[ "${use_conda}" == 0 ]]; then
    echo "build_env: CONDA=none: no conda part; ${prefix} must already hold Python ${cfg[PYTHON_VERSION]} (a venv or a container's Python), and the node must provide the compilers (and nvcc for SGLang)"
  elif conda="$(find_conda)"; then
    flavour="$(conda_flavour "${conda}")"
    echo "build_env: conda tool ${conda} (${flavour} command style)"
  elif [[ "${dry_run}" == 1 ]]; then
    conda="conda"
    echo "build_env: WARNING: $(no_conda_message | head -n1)"
    echo "build_env: a real run stops here; the plan below shows 'conda' in its place:"
    no_conda_message | tail -n +2
  else
    die "$(no_conda_message)"
  fi

  step "check glibc (the locked wheels are ${cfg[PYTHON_PLATFORM]})" \
    "build on a node with glibc >= 2.34 (see envs/README.md)" \
    glibc_ok "$(sed -E 's/.*manylinux_([0-9]+)_([0-9]+).*/\1.\2/' <<<"${cfg[PYTHON_PLATFORM]}")"

  if [[ "${use_conda}" == 0 ]]; then
    step "check the existing Python ${cfg[PYTHON_VERSION]} in ${prefix} (CONDA=none)" \
      "create it first, e.g. python${cfg[PYTHON_VERSION]} -m venv ${prefix}, or drop CONDA=none" \
      python_ok "${python}" "${cfg[PYTHON_VERSION]}"
  else
    # conda part: only when the spec changed (stamp = sha256 of the spec and the FLASH_ATTN choice)
    local stamp="${prefix}/.grpo-slurm-conda.sha256" want offline=()
    want="$(file_sha "${yml}") flash_attn=${flash_attn}"
    [[ -n "${wheelhouse}" ]] && offline=(--offline)
    local conda_fix="read the conda message above; a solver conflict means envs/${engine}.yml changed: remove ${prefix} and run again. Offline (WHEELHOUSE) runs need the conda packages in the package cache: run 'make env-${engine}' once on a node with internet"
    if [[ -f "${prefix}/conda-meta/history" && -f "${stamp}" && "$(cat "${stamp}")" == "${want}" && "${dry_run}" == 0 ]]; then
      echo
      echo "[-] conda part of ${prefix} is up to date (${yml#"${root}"/} unchanged); skipped"
    elif [[ -f "${prefix}/conda-meta/history" ]]; then
      if [[ "${flavour}" == micro ]]; then
        step "update the conda part (${yml#"${root}"/})" "${conda_fix}" \
          "${conda}" install -y "${offline[@]}" -p "${prefix}" -f "${yml}"
      else
        step "update the conda part (${yml#"${root}"/})" "${conda_fix}" \
          "${conda}" env update "${offline[@]}" -p "${prefix}" -f "${yml}" --prune
      fi
    else
      if [[ -e "${prefix}" && "${dry_run}" == 0 && -n "$(ls -A "${prefix}")" ]]; then
        die "${prefix} exists, is not empty and is not a conda env; pick another ENV_PREFIX or remove it"
      fi
      if [[ "${flavour}" == micro ]]; then
        step "create the conda env (${yml#"${root}"/})" "${conda_fix}" \
          "${conda}" create -y "${offline[@]}" -p "${prefix}" -f "${yml}"
      else
        step "create the conda env (${yml#"${root}"/})" "${conda_fix}" \
          "${conda}" env create "${offline[@]}" -p "${prefix}" -f "${yml}"
      fi
    fi
    local fa_conda=()
    if [[ "${flash_attn}" == 1 ]]; then
      fa_conda=(cuda-version=13.0 cuda-nvcc=13.0 cuda-cudart-dev=13.0)
      step "add nvcc 13.0 for the flash-attn build" "${conda_fix}" \
        "${conda}" install -y "${offline[@]}" -p "${prefix}" -c conda-forge "${fa_conda[@]}"
    fi
    if [[ "${dry_run}" == 0 ]]; then record_stamp "${stamp}" "${want}"; fi

    if [[ "${engine}" == sglang || "${flash_attn}" == 1 ]]; then
      step "set CUDA_HOME=<prefix> on 'conda activate' (nvcc and CUDA headers for JIT builds)" \
        "check that ${prefix}/etc/conda is writable" write_activation "${prefix}"
    fi
  fi

  step "install the locked uv into the env" \
    "the 'uv==' line of ${lock#"${root}"/} could not be installed; check the index or WHEELHOUSE" \
    bootstrap_uv "${python}" "${lock}" "${index}" "${wheelhouse}"

  local sync_args=(pip sync --python "${python}" --require-hashes --no-config)
  if [[ -n "${wheelhouse}" ]]; then
    sync_args+=(--offline --no-index --find-links "${wheelhouse}")
  else
    sync_args+=(--index-url "${index}")
  fi
  step "make the env's Python packages exactly ${lock#"${root}"/} (uv pip sync)" \
    "a hash mismatch means the lock or wheelhouse is stale: 'make wheelhouse ENGINE=${engine}' again; 'no wheel for platform' means glibc < 2.34 or a non-x86_64 node" \
    clean_uv "${uv_bin}" "${sync_args[@]}" "${lock}"

  if [[ "${flash_attn}" == 1 ]]; then
    local fa_args=(pip install --python "${python}" --no-config --no-build-isolation --no-deps --require-hashes)
    if [[ -n "${wheelhouse}" ]]; then
      fa_args+=(--offline --no-index --find-links "${wheelhouse}")
    else
      fa_args+=(--index-url "${index}")
    fi
    export MAX_JOBS="${MAX_JOBS:-4}"
    note "compiles CUDA code for ~30-60 min with MAX_JOBS=${MAX_JOBS} parallel jobs (each needs ~4-8 GB RAM)"
    step "build flash-attn 2.8.3 from source (FLASH_ATTN=1)" \
      "needs nvcc 13.0 (conda step above), g++ and RAM; lower MAX_JOBS if the compiler was killed" \
      in_prefix "${prefix}" "${prefix}" clean_uv "${uv_bin}" "${fa_args[@]}" -r "${envs_dir}/flash-attn.txt"
  fi

  step "install this project (editable) so 'rewards' imports on every node" \
    "the project's build backend (setuptools) comes from the lock; run 'make lock' if it is missing" \
    clean_uv "${uv_bin}" pip install --python "${python}" --no-config --no-deps \
    --no-build-isolation --offline -e "${root}"

  step "build the Phi-4 reward's repetition kernel (rewards/native, make native)" \
    "needs a C compiler (cc/gcc, or CC=...); without one the reward runs its numpy passes (same scores, ~3x slower)" \
    "${python}" -m rewards.repetition_native

  local check_args=(--engine "${engine}" --lock "${lock}") env_cuda_home=""
  if [[ "${use_conda}" == 0 ]]; then
    env_cuda_home="${CUDA_HOME:-}"
  elif [[ "${engine}" == sglang || "${flash_attn}" == 1 ]]; then
    env_cuda_home="${prefix}"
  fi
  [[ "${flash_attn}" == 1 ]] && check_args+=(--flash-attn)
  if ! command -v nvidia-smi >/dev/null 2>&1; then
    check_args+=(--no-gpu)
    note "no nvidia-smi here (a login node?): GPU checks skipped; run 'make check-env ENGINE=${engine}' on a GPU node"
  fi
  step "check the env (envs/check_env.py)" \
    "each failed row above names its fix" \
    in_prefix "${prefix}" "${env_cuda_home}" "${python}" "${root}/envs/check_env.py" "${check_args[@]}"

  echo
  if [[ "${dry_run}" == 1 ]]; then
    echo "build_env: plan complete (${step_no} steps); run without DRY_RUN=1 to do it"
  else
    if [[ "${use_conda}" == 1 ]]; then
      echo "build_env: ${engine} env ready at ${prefix}; use it with: conda activate ${prefix}"
    else
      echo "build_env: ${engine} env ready at ${prefix}; use it with: source ${prefix}/bin/activate"
    fi
  fi
}

# fetch_sdist PYTHON INDEX REQFILE DIR: download the one 'name==version --hash=sha256:...' sdist.
fetch_sdist() {
  "$1" - "$2" "$3" "$4" <<'PY'
import hashlib, json, os, re, sys, tempfile, urllib.request

index, req, dest = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
text = open(req, encoding="utf-8").read()
m = re.search(r"^([A-Za-z0-9_.-]+)==(\S+)\s*\\?\s*--hash=sha256:([0-9a-f]{64})", text, re.M)
if not m:
    sys.exit(f"{req}: expected 'name==version \\ --hash=sha256:HEX'")
name, version, sha = m.groups()
norm = re.sub(r"[-_.]+", "-", name).lower()
request = urllib.request.Request(f"{index}/{norm}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
files = json.load(urllib.request.urlopen(request, timeout=60))["files"]
want = f"{name.replace('-', '_')}-{version}.tar.gz"
hits = [f for f in files if f["filename"] == want]
if not hits:
    sys.exit(f"{index}/{norm}/ has no {want}")
out = os.path.join(dest, want)
fd, tmp = tempfile.mkstemp(dir=dest, prefix=".sdist.")
with os.fdopen(fd, "wb") as fh, urllib.request.urlopen(hits[0]["url"], timeout=600) as r:
    while chunk := r.read(1 << 20):
        fh.write(chunk)
digest = hashlib.sha256(open(tmp, "rb").read()).hexdigest()
if digest != sha:
    os.unlink(tmp)
    sys.exit(f"{want}: sha256 {digest} != {sha} in {req}")
os.replace(tmp, out)
print(f"    saved {out}")
PY
}

cmd_wheelhouse() {
  local engine="${1:-}"
  check_engine "${engine}"
  read_resolve_env
  local lock="${LOCK:-${envs_dir}/${engine}.lock}" dir="${WHEELHOUSE:-${root}/wheelhouse/${engine}}"
  local index="${INDEX_URL:-${cfg[INDEX_URL]}}" python="${PYTHON:-python3}"
  [[ -f "${lock}" ]] || die "${lock} is missing; run 'make lock'"
  command -v "${python}" >/dev/null 2>&1 || die "'${python}' not found; set PYTHON=/path/to/python3 (any Python >= 3.9 with pip)"
  local pyver="${cfg[PYTHON_VERSION]}" glibc_minor platforms=() m
  glibc_minor="$(sed -E 's/.*manylinux_2_([0-9]+).*/\1/' <<<"${cfg[PYTHON_PLATFORM]}")"
  # pip does not expand a PEP 600 tag to the older ones it is compatible with: list them all.
  for ((m = glibc_minor; m >= 5; m--)); do platforms+=(--platform "manylinux_2_${m}_x86_64"); done
  platforms+=(--platform manylinux2014_x86_64 --platform manylinux2010_x86_64 --platform manylinux1_x86_64)
  # --no-deps: the lock is already the full closure; it also lets pip fetch the few sdists.
  local args=(-m pip download --disable-pip-version-check --no-deps --require-hashes --prefer-binary
    "${platforms[@]}" --python-version "${pyver}" --implementation cp
    --abi "cp${pyver/./}" --index-url "${index}" --dest "${dir}" -r "${lock}")
  [[ "${dry_run}" == 1 ]] && echo "build_env: DRY_RUN=1: printing the plan; nothing is downloaded"
  trap on_error ERR
  step "create ${dir}" "check that the folder is writable" mkdir -p "${dir}"
  step "download every file in ${lock#"${root}"/} for ${cfg[PYTHON_PLATFORM]} / cp${pyver/./}" \
    "run this on a node that reaches ${index}; a hash mismatch means the lock is stale (make lock)" \
    env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL -u PIP_NO_INDEX PIP_CONFIG_FILE=/dev/null \
    "${python}" "${args[@]}"
  if [[ "${FLASH_ATTN:-0}" == 1 ]]; then
    # pip cannot download this sdist without torch (its setup.py imports torch): fetch the
    # file named in the simple index and check the hash from envs/flash-attn.txt.
    step "download the flash-attn 2.8.3 sdist" \
      "run this on a node that reaches ${index}" \
      fetch_sdist "${python}" "${index}" "${envs_dir}/flash-attn.txt" "${dir}"
  fi
  echo
  echo "build_env: then, on the compute node: make env-${engine} WHEELHOUSE=${dir}"
}

main() {
  local cmd="${1:-}"
  [[ $# -gt 0 ]] && shift
  case "${cmd}" in
    lock) cmd_lock "$@" ;;
    lock-check) cmd_lock_check "$@" ;;
    inputs-hash) cmd_inputs_hash "$@" ;;
    env) cmd_env "$@" ;;
    wheelhouse) cmd_wheelhouse "$@" ;;
    -h | --help | help) usage ;;
    *)
      usage >&2
      die "unknown command '${cmd}'; use lock, lock-check, inputs-hash, env or wheelhouse"
      ;;
  esac
}

main "$@"
