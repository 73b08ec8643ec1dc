# shellcheck shell=bash
# The Ray-on-Slurm launcher every job script sources (jobs/*.sh set EXPERIMENT and ENGINE, then
# call `launch_job "$@"`). One run:
#   1. site file (SITE_ENV or jobs/site.env) -> required values checked, engine env activated
#   2. allocation -> nodes, GPUs per node, run name, checkpoint dir, resume report
#   3. preflight (tools/preflight/cli.py, when present) -> config composed from verl's installed
#      config files (jobs/lib/compose.py: what `main_ppo --cfg job` prints) -> a run already at
#      trainer.total_training_steps ends here
#   4. Ray: head on the first node, one worker per other node (srun --overlap), ports derived
#      from the job id, wait until every node and GPU is registered, a probe task per node
#   5. trainer in the background (python -m verl.trainer.main_ppo ... or TRAINER_CMD), `wait`ed
#      so that the time-limit signal (USR1) can be handled: save, then requeue
#   6. on exit: stop the trainer and this job's Ray (and nothing else)
# Settings (environment, all optional): DRY_RUN=1, TRAINER_CMD, RUN_NAME, RAY_HEAD_TIMEOUT (300 s
# for the head), RAY_WAIT_TIMEOUT (300 s for the other nodes once the head joined), MAX_REQUEUES
# (20), REQUEUE_ON_FAILURE (1), STOP_GRACE (60 s), PREFLIGHT=0, GPUS_PER_NODE,
# RAY_IFACE (NIC for Ray; default: resolver / first address). Docs: docs/running_on_a_cluster.md, docs/long_runs.md.

LAUNCH_LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LAUNCH_REPO="$(cd "${LAUNCH_LIB}/../.." && pwd)"
# shellcheck source=jobs/lib/long_run.sh
source "${LAUNCH_LIB}/long_run.sh"
# shellcheck source=jobs/lib/nofile.sh
source "${LAUNCH_LIB}/nofile.sh"
# shellcheck source=jobs/lib/cpu_mode.sh
source "${LAUNCH_LIB}/cpu_mode.sh"

log() { printf '[launch %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() {
  printf '[launch %s] error: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2
  exit "${DIE_CODE:-2}"
}

# ------------------------------------------------------------------ 1. site file and env
load_site() {
  SITE_FILE="${SITE_ENV:-${LAUNCH_REPO}/jobs/site.env}"
  [[ -f "${SITE_FILE}" ]] || die "site file ${SITE_FILE} not found. Fix: cp jobs/site.env.example jobs/site.env" \
    "and fill it in (or point SITE_ENV=PATH at another one)"
  # module loads and conda hooks are not written for `set -u`
  set +u
  # shellcheck source=/dev/null
  source "${SITE_FILE}"
  set -u
  local engine_prefix_var="ENV_PREFIX_${ENGINE^^}"
  local required=(DATA_ROOT MODEL_ROOT CKPT_ROOT LOG_ROOT) missing=() name
  ((DRY_RUN)) || required+=("${engine_prefix_var}")
  for name in "${required[@]}"; do
    if [[ -z "${!name:-}" ]]; then
      missing+=("${name}")
    elif [[ "${!name}" != /* ]]; then
      die "${name}='${!name}' in ${SITE_FILE} must be an absolute path (on storage every node sees)"
    fi
  done
  ((${#missing[@]} == 0)) || die "${SITE_FILE} does not set ${missing[*]}." \
    "Fix: add \`export NAME=/abs/path\` lines for them (see jobs/site.env.example)"
}

activate_env() {
  local var="ENV_PREFIX_${ENGINE^^}"
  ENV_PREFIX="${!var:-}"
  # the per-node probe imports the engine from the job's env (PROBE_ENGINE= skips it: trainer stand-ins)
  PROBE_ENGINE="${PROBE_ENGINE-${ENGINE}}"
  if ((DRY_RUN)) && [[ ! -x "${ENV_PREFIX}/bin/python" ]]; then
    # no engine env (yet): the dev env stands in; configs and Ray need no GPU, the engine is not checked
    log "dry run: ${var}='${ENV_PREFIX}' holds no env; using the dev env ${LAUNCH_REPO}/.venv" \
      "(the engine stack is not checked: build it with \`make env-${ENGINE}\`)"
    ENV_PREFIX="${LAUNCH_REPO}/.venv"
    PROBE_ENGINE=""
  fi
  [[ -x "${ENV_PREFIX}/bin/python" ]] || die "no python in the ${ENGINE} env ${ENV_PREFIX}." \
    "Fix: build it with \`make env-${ENGINE}\` (or DRY_RUN=1 needs \`make dev\`)"
  if [[ -d "${ENV_PREFIX}/conda-meta" && -n "${CONDA_ROOT:-}" && -f "${CONDA_ROOT}/etc/profile.d/conda.sh" ]]; then
    set +u
    # shellcheck source=/dev/null
    source "${CONDA_ROOT}/etc/profile.d/conda.sh"
    conda activate "${ENV_PREFIX}"
    set -u
  else
    export PATH="${ENV_PREFIX}/bin:${PATH}"
    export VIRTUAL_ENV="${ENV_PREFIX}"
  fi
  PYTHON="${ENV_PREFIX}/bin/python"
  set_cuda_home
}

# FlashInfer's (and torch.utils.cpp_extension's) JIT takes CUDA_HOME before PATH: a CUDA_HOME left
# by a site `module load` (or none) must not win over the toolkit the env brings. CUDA_HOME is
# the env itself when it has nvcc (conda: cuda-nvcc), else the toolkit of the first nvcc on PATH
# (venv + `module load cuda/13.0` in the site file).
set_cuda_home() {
  local nvcc=""
  if [[ -x "${ENV_PREFIX}/bin/nvcc" ]]; then
    nvcc="${ENV_PREFIX}/bin/nvcc"
  else
    nvcc="$(command -v nvcc 2>/dev/null || true)"
  fi
  if [[ -n "${nvcc}" ]]; then
    CUDA_HOME="$(cd "$(dirname "$(readlink -f "${nvcc}")")/.." && pwd)"
    export CUDA_HOME
    CUDA_HOME_WHY="the toolkit of ${nvcc}"
  elif ((DRY_RUN)); then
    CUDA_HOME_WHY="no nvcc (dry run: nothing is compiled)"
  else
    CUDA_HOME_WHY="no nvcc in ${ENV_PREFIX}/bin or on PATH: JIT kernels (FlashInfer, SGLang) cannot build."
    CUDA_HOME_WHY+=" Fix: build the env with \`make env-${ENGINE}\` (conda brings cuda-nvcc) or load CUDA 13.0 in the site file"
  fi
}

# ------------------------------------------------------------------ 2. allocation
read_allocation() {
  [[ -n "${SLURM_JOB_ID:-}" ]] || die "not inside a Slurm job. Fix: sbatch jobs/<job>.sh (or run it in salloc)"
  JOB_ID="${SLURM_JOB_ID}"
  mapfile -t NODES < <(scontrol show hostnames "${SLURM_JOB_NODELIST}")
  NNODES="${#NODES[@]}"
  ((NNODES > 0)) || die "SLURM_JOB_NODELIST='${SLURM_JOB_NODELIST:-}' names no nodes"
  local gpus="${GPUS_PER_NODE:-${SLURM_GPUS_ON_NODE:-}}"
  if [[ -z "${gpus}" ]]; then
    # gres/gpu=8 (or gres/gpu:h100=8) in the job's TRES, divided over its nodes
    local tres
    tres="$(scontrol show job "${JOB_ID}" | grep -oE 'gres/gpu(:[^=]+)?=[0-9]+' | head -n1 | cut -d= -f2 || true)"
    [[ -n "${tres}" ]] && gpus=$((tres / NNODES))
  fi
  if ! [[ "${gpus}" =~ ^[0-9]+$ ]] || ((gpus == 0)); then
    die "the allocation has no GPUs (SLURM_GPUS_ON_NODE unset)." \
      "Fix: keep '#SBATCH --gres=gpu:8' in the job script, or set GPUS_PER_NODE"
  fi
  GPUS="${gpus}"
  read_node_cpus
  RUN_NAME="${RUN_NAME:-${SLURM_JOB_NAME:-${EXPERIMENT}}-${JOB_ID}}"
  [[ "${RUN_NAME}" =~ ^[A-Za-z0-9._-]+$ ]] || die "RUN_NAME='${RUN_NAME}' may only hold letters, digits and . _ -"
  JOB_LOG_DIR="${LOG_ROOT}/${JOB_ID}"
  export CKPT_DIR="${CKPT_ROOT}/${EXPERIMENT}/${RUN_NAME}"
  local arg
  for arg in "${USER_OVERRIDES[@]}"; do
    # the user's own checkpoint dir wins (Hydra: last override), so resume/requeue look there
    [[ "${arg}" == trainer.default_local_dir=* ]] && CKPT_DIR="${arg#*=}"
  done
  [[ "${CKPT_DIR}" == /* ]] || die "trainer.default_local_dir=${CKPT_DIR} must be an absolute path on shared storage"
  mkdir -p "${JOB_LOG_DIR}" "${CKPT_DIR}"
  log "job ${JOB_ID} (${SLURM_JOB_NAME:-?}) restart ${SLURM_RESTART_COUNT:-0}: ${NNODES} node(s) ${NODES[*]}," \
    "${GPUS} GPU(s) per node, CPUs per node ${NODE_CPUS[*]}; experiment ${EXPERIMENT}, engine ${ENGINE}"
  log "run ${RUN_NAME}; checkpoints ${CKPT_DIR}; logs ${JOB_LOG_DIR}"
}

# CPUs the job holds on each node, in node order, from SLURM_JOB_CPUS_PER_NODE ("72(x2),36"
# = 72, 72, 36); nothing (status 1) when the value cannot be read.
expand_cpus_per_node() {
  local part parts=() k counts=()
  IFS=, read -ra parts <<<"$1"
  ((${#parts[@]})) || return 1
  for part in "${parts[@]}"; do
    if [[ "${part}" =~ ^([0-9]+)\(x([0-9]+)\)$ ]]; then
      for ((k = 0; k < BASH_REMATCH[2]; k++)); do counts+=("${BASH_REMATCH[1]}"); done
    elif [[ "${part}" =~ ^[0-9]+$ ]]; then
      counts+=("${part}")
    else
      return 1
    fi
  done
  printf '%s\n' "${counts[@]}"
}

# NODE_CPUS[i]: the CPUs of node i that the srun running its Ray asks for (--cpus-per-task).
# Slurm >= 23.11 hands `#SBATCH --cpus-per-task` (SLURM_CPUS_PER_TASK) on to every srun, which
# then implies --exact: without an explicit count each Ray step would get only that many CPUs.
read_node_cpus() {
  NODE_CPUS=()
  local spec="${SLURM_JOB_CPUS_PER_NODE:-}"
  if [[ -n "${spec}" ]]; then
    mapfile -t NODE_CPUS < <(expand_cpus_per_node "${spec}" || true)
  fi
  if ((${#NODE_CPUS[@]} != NNODES)); then
    log "warning: SLURM_JOB_CPUS_PER_NODE='${spec}' does not give one count per node;" \
      "using ${SLURM_CPUS_ON_NODE:-1} (this node's) for every node"
    local i
    NODE_CPUS=()
    for ((i = 0; i < NNODES; i++)); do NODE_CPUS+=("${SLURM_CPUS_ON_NODE:-1}"); done
  fi
}

# The --cpus-per-task of the srun that runs node $1's Ray (a hook: CPU-only runs may override).
ray_step_cpus() { echo "${NODE_CPUS[$1]}"; }

# ------------------------------------------------------------------ runtime environment
export_runtime_env() {
  # Everything here is exported before Ray starts, so every raylet (and the workers it forks)
  # inherits it on every node: srun passes the batch environment on.
  unset ROCR_VISIBLE_DEVICES # set by some ROCm-aware Slurm setups; makes Ray/verl on CUDA fail
  export PYTHONPATH="${LAUNCH_REPO}${PYTHONPATH:+:${PYTHONPATH}}"
  export HF_HUB_OFFLINE="${HF_HUB_OFFLINE:-1}" TRANSFORMERS_OFFLINE="${TRANSFORMERS_OFFLINE:-1}"
  export HF_DATASETS_OFFLINE="${HF_DATASETS_OFFLINE:-1}" TOKENIZERS_PARALLELISM="${TOKENIZERS_PARALLELISM:-false}"
  if [[ -n "${NCCL_SOCKET_IFNAME:-}" && -z "${GLOO_SOCKET_IFNAME:-}" ]]; then
    export GLOO_SOCKET_IFNAME="${NCCL_SOCKET_IFNAME}"
  fi
  export RAY_DEDUP_LOGS=0 RAY_USAGE_STATS_ENABLED=0
  # verl's JSONL file logger (trainer.logger contains "file"); the file is opened with "wb", so
  # every requeued run of the same job writes its own file
  local restart="${SLURM_RESTART_COUNT:-0}"
  if ((restart == 0)); then
    export VERL_FILE_LOGGER_PATH="${JOB_LOG_DIR}/metrics.jsonl"
  else
    export VERL_FILE_LOGGER_PATH="${JOB_LOG_DIR}/metrics.restart${restart}.jsonl"
  fi
  export_jit_caches
  cpu_mode_env # cpu_mode.sh: verl's cpu platform for every process (PLATFORM=cpu only)
  log "env CUDA_HOME=${CUDA_HOME:-unset} (${CUDA_HOME_WHY})"
  local shown=(PYTHONPATH HF_HUB_OFFLINE TRANSFORMERS_OFFLINE HF_DATASETS_OFFLINE WANDB_MODE WANDB_RUN_ID WANDB_RESUME
    NCCL_SOCKET_IFNAME GLOO_SOCKET_IFNAME VERL_FILE_LOGGER_PATH MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP CKPT_DIR
    JIT_CACHE_ROOT) name
  # values only of the names above: never a token or key
  for name in "${shown[@]}"; do
    [[ -n "${!name:-}" ]] && log "env ${name}=${!name}"
  done
  return 0
}

# JIT caches (FlashInfer, Triton, torch extensions/inductor, vLLM, CUDA's PTX cache) on
# node-local disk: a shared home is slow and several nodes compiling into it race each other.
# Site setting JIT_CACHE_ROOT; each node creates it (ray_node.sh).
export_jit_caches() {
  JIT_CACHE_ROOT="${JIT_CACHE_ROOT:-${TMPDIR:-/tmp}/${USER:-$(id -un)}/grpo-jit}"
  export JIT_CACHE_ROOT
  export FLASHINFER_WORKSPACE_BASE="${JIT_CACHE_ROOT}/flashinfer" TRITON_CACHE_DIR="${JIT_CACHE_ROOT}/triton"
  export TORCH_EXTENSIONS_DIR="${JIT_CACHE_ROOT}/torch_extensions" TORCHINDUCTOR_CACHE_DIR="${JIT_CACHE_ROOT}/inductor"
  export VLLM_CACHE_ROOT="${JIT_CACHE_ROOT}/vllm" CUDA_CACHE_PATH="${JIT_CACHE_ROOT}/nv_compute"
  mkdir -p "${JIT_CACHE_ROOT}"
}

# ------------------------------------------------------------------ W&B
# True when the netrc file (NETRC, else ~/.netrc: where `wandb login` writes) has an entry for
# W&B's API host. Only the host is read; the key is never read into the shell.
wandb_netrc_has_key() {
  local file="${NETRC:-${HOME:-}/.netrc}" host="${WANDB_BASE_URL:-https://api.wandb.ai}"
  host="${host#*://}"
  host="${host%%/*}"
  host="${host%%:*}"
  [[ -r "${file}" ]] || return 1
  awk -v h="${host}" '{ for (i = 1; i < NF; i++) if ($i == "machine" && $(i + 1) == h) f = 1 } END { exit !f }' "${file}"
}

# A stable W&B run id from the run name and its checkpoint dir: every requeue (same job id,
# same run name) and every resubmission with RUN_NAME=... continues the same W&B run.
wandb_run_id() {
  local name="${RUN_NAME//[^A-Za-z0-9_-]/-}" hash
  hash="$(sha1sum <<<"${CKPT_DIR}" | cut -c1-8)"
  echo "${name:0:48}-${hash}"
}

wandb_setup() {
  local why="" netrc="${NETRC:-~/.netrc}"
  if [[ "${WANDB_MODE:-}" == disabled ]]; then
    why=""
  elif [[ -n "${WANDB_API_KEY:-}" ]]; then
    why="WANDB_API_KEY is set"
  elif [[ "${WANDB_MODE:-}" == offline ]]; then
    why="WANDB_MODE=offline"
  elif wandb_netrc_has_key; then
    why="${netrc} has an entry for W&B's API host"
  fi
  export WANDB_RUN_ID="${WANDB_RUN_ID:-$(wandb_run_id)}" WANDB_RESUME="${WANDB_RESUME:-allow}"
  if [[ -n "${why}" ]]; then
    LAUNCH_OVERRIDES+=("trainer.logger=[console,file,wandb]")
    log "W&B: on (${why}); run id ${WANDB_RUN_ID}, WANDB_RESUME=${WANDB_RESUME}: a requeued run continues" \
      "the same W&B run (W&B drops the steps a resumed run repeats, see docs/long_runs.md)"
  elif [[ "${WANDB_MODE:-}" == disabled ]]; then
    log "W&B: off (WANDB_MODE=disabled)"
  else
    log "warning: W&B is off: no WANDB_API_KEY, no W&B entry in ${netrc}, WANDB_MODE is not offline;" \
      "metrics go to the console and ${JOB_LOG_DIR}/metrics*.jsonl only. Fix: run \`wandb login\` on the" \
      "login node (writes ~/.netrc), or export WANDB_MODE=offline (or disabled) in the site file"
  fi
}

# ------------------------------------------------------------------ overrides
build_overrides() {
  LAUNCH_OVERRIDES=(
    "trainer.nnodes=${NNODES}"
    "trainer.n_gpus_per_node=${GPUS}"
    "trainer.experiment_name=${RUN_NAME}"
    "trainer.default_local_dir=${CKPT_DIR}"
  )
  wandb_setup
  # attention: decided in the job's env the way transformers will (jobs/lib/attention.py), and loaded
  # once here; ATTN_IMPLEMENTATION or a command-line override is a request that is verified too
  local attn_args=() attn_out arg
  for arg in "${USER_OVERRIDES[@]}"; do
    [[ "${arg}" == *model.override_config.attn_implementation=* ]] && attn_args=(--requested "${arg#*=}")
  done
  attn_out="$("${PYTHON}" "${LAUNCH_LIB}/attention.py" --verify "${attn_args[@]}")" \
    || DIE_CODE=5 die "attention: the implementation cannot be used in ${ENV_PREFIX} (above)"
  ATTN_IMPL="${attn_out%%$'\t'*}"
  log "attention: ${ATTN_IMPL} (${attn_out#*$'\t'})"
  LAUNCH_OVERRIDES+=("actor_rollout_ref.model.override_config.attn_implementation=${ATTN_IMPL}")
  cpu_mode_overrides # cpu_mode.sh: the CPU-only overrides (PLATFORM=cpu only)
  # Hydra's own output dir goes with the job's logs, not into the repository
  TRAINER_ARGS=(-m verl.trainer.main_ppo "--config-path=${LAUNCH_REPO}/jobs/configs" "--config-name=${EXPERIMENT}"
    "engine=${ENGINE}" "${LAUNCH_OVERRIDES[@]}" "hydra.run.dir=${JOB_LOG_DIR}/hydra" "${USER_OVERRIDES[@]}")
}

run_preflight() {
  if [[ "${PREFLIGHT:-1}" == 0 ]]; then
    log "preflight: skipped (PREFLIGHT=0)"
    return 0
  fi
  log "preflight: checking the job before starting Ray"
  PYTHONPATH="${LAUNCH_REPO}${PYTHONPATH:+:${PYTHONPATH}}" "${PYTHON}" -m tools.preflight "${EXPERIMENT}" --engine "${ENGINE}" --nodes "${NNODES}" \
    "${LAUNCH_OVERRIDES[@]}" "${USER_OVERRIDES[@]}" || DIE_CODE=5 die "preflight failed (above); nothing was started"
}

compose_config() {
  # The exact config the trainer will get, composed by Hydra from verl's installed config files as
  # `main_ppo --cfg job --resolve` does (jobs/lib/compose.py: the same output, without ~13 s of
  # verl imports before Ray starts), on record.
  local out="${JOB_LOG_DIR}/config.yaml" tmp
  tmp="$(mktemp "${out}.XXXXXX")"
  # TRAINER_ARGS without its leading `-m verl.trainer.main_ppo`
  if ! "${PYTHON}" "${LAUNCH_LIB}/compose.py" "${TRAINER_ARGS[@]:2}" >"${tmp}" 2>"${tmp}.err"; then
    cat "${tmp}.err" >&2
    rm -f "${tmp}" "${tmp}.err"
    DIE_CODE=5 die "verl could not compose the config (above); check the overrides and the site paths"
  fi
  rm -f "${tmp}.err"
  mv -f "${tmp}" "${out}"
  log "config composed from verl's config files: ${out} (rollout.name=$(grep -m1 -E '^    name: ' "${out}" | awk '{print $2}'))"
}

# ------------------------------------------------------------------ 4. Ray
slurm_node_ipv4() {
  # The node's Slurm NodeAddr when that is an IPv4 address (the address slurmctld itself reaches
  # it at; 127.0.0.1 on the emulated local cluster), else nothing.
  local node_addr
  node_addr="$(scontrol show node "$1" 2>/dev/null | grep -oE 'NodeAddr=[^ ]+' | head -n1 | cut -d= -f2 || true)"
  [[ "${node_addr}" =~ ^[0-9]+(\.[0-9]+){3}$ ]] && echo "${node_addr}"
  return 0
}

head_ip() {
  # IPv4 of the head node (the batch script runs on it): RAY_IFACE's address, else the node's
  # Slurm NodeAddr when that is an IPv4 address (the address slurmctld itself reaches it at;
  # 127.0.0.1 on the emulated local cluster), else the resolver's answer for the node name,
  # else the first address of this host.
  local ip="" iface="${RAY_IFACE:-}"
  if [[ -n "${iface}" ]]; then
    ip="$(ip -4 -o addr show dev "${iface}" 2>/dev/null | awk '{split($4, a, "/"); print a[1]; exit}')"
    [[ -n "${ip}" ]] || die "RAY_IFACE='${iface}' has no IPv4 address on ${NODES[0]}." \
      "Fix: set the NIC name in ${SITE_FILE} (ip -4 addr on a compute node lists them)"
  fi
  [[ -n "${ip}" ]] || ip="$(slurm_node_ipv4 "${NODES[0]}")"
  if [[ -z "${ip}" ]]; then
    ip="$(getent ahostsv4 "${NODES[0]}" 2>/dev/null | awk '$1 !~ /^127\./ {print $1; exit}')"
  fi
  if [[ -z "${ip}" ]]; then
    ip="$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -m1 -E '^[0-9]+(\.[0-9]+){3}$' || true)"
  fi
  [[ -n "${ip}" ]] || die "cannot find an IPv4 address for the head node ${NODES[0]}. Fix: set RAY_IFACE in the site file"
  echo "${ip}"
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Ray's ports: every listening port below Linux's ephemeral range (32768-60999, where the
# kernel picks the source port of every outgoing connection: NCCL, HTTP, Ray's own clients)
# and above the well-known, Slurm (6817-6820) and local test cluster ports. 12 slots of 1,000
# ports in 20000-31999; the job id picks the slot, a slot whose GCS port is taken moves on.
# In a slot (base):
#   base+0 GCS   base+1 Ray client server   base+2 dashboard          (head only)
#   base+10+10k .. +15: node manager, object manager, runtime-env agent, dashboard agent gRPC,
#                       dashboard agent HTTP, metrics export; k = 0 on every node, except on
#                       nodes that share one host (the emulated cluster): k = node index
#   base+200 .. base+999: worker ports (shared out among nodes on one host)
RAY_PORT_LO=20000
RAY_PORT_SLOT=1000
RAY_PORT_SLOTS=12
RAY_WORKER_PORT_OFFSET=200
pick_ports() {
  local slot i
  slot=$((JOB_ID % RAY_PORT_SLOTS))
  for ((i = 0; i < RAY_PORT_SLOTS; i++)); do
    PORT_BASE=$((RAY_PORT_LO + ((slot + i) % RAY_PORT_SLOTS) * RAY_PORT_SLOT))
    port_in_use "${PORT_BASE}" || return 0
  done
  die "no free Ray port slot on ${NODES[0]} (${RAY_PORT_LO}-$((RAY_PORT_LO + RAY_PORT_SLOTS * RAY_PORT_SLOT - 1)) all busy)"
}

# Ray's temp dir: per job and short, with per-node dirs named by index, never by node name:
# Ray refuses socket paths over 107 bytes (<temp>/session_<date>_<pid>/sockets/plasma_store),
# which long node names (AWS ParallelCluster, slurm-gcp) would exceed.
RAY_SOCKET_SUFFIX_MAX=64 # "/session_2026-01-01_00-00-00_000000_<pid>/sockets/plasma_store"
ray_temp_root() {
  # unique to this job, even across clusters that share a host and reuse job ids
  RAY_TMP_ROOT="/tmp/ray_${JOB_ID}_$(cksum <<<"${JOB_LOG_DIR}" | cut -c1-6)"
  local longest=$((${#RAY_TMP_ROOT} + 1 + ${#NNODES} + RAY_SOCKET_SUFFIX_MAX))
  ((longest <= 107)) || die "Ray's socket paths under ${RAY_TMP_ROOT} would be ${longest} bytes (limit 107)"
  export RAY_TMP_ROOT
}

start_ray() {
  HEAD_IP="$(head_ip)"
  pick_ports
  RAY_ADDRESS="${HEAD_IP}:${PORT_BASE}"
  export RAY_ADDRESS
  # nodes that share one host (the emulated cluster) need distinct ports
  local addrs shared=0
  addrs="$(scontrol show node "${SLURM_JOB_NODELIST}" 2>/dev/null | grep -oE 'NodeAddr=[^ ]+' | sort | uniq -d)"
  [[ -n "${addrs}" ]] && shared=1
  local worker_ports=$((RAY_PORT_SLOT - RAY_WORKER_PORT_OFFSET))
  ((shared)) && worker_ports=$((worker_ports / NNODES))
  ((shared && NNODES > 19)) && die "${NNODES} nodes on one host: at most 19 fit in a Ray port slot"
  ray_temp_root
  export RAY_NUM_GPUS="${GPUS}" RAY_NODE_IFACE="${RAY_IFACE:-}" RAY_HEAD_WAIT="${RAY_HEAD_TIMEOUT:-300}"
  # Token auth with a fresh token per job, for every node, the driver and the trainer: without it
  # anyone who reaches the ports can run code in the job, and Ray >= 2.5x turns token auth on
  # for the head alone whenever ~/.ray/auth_token exists, locking the workers out. Never logged.
  if [[ -z "${RAY_AUTH_MODE:-}" ]]; then
    export RAY_AUTH_MODE=token
    RAY_AUTH_TOKEN="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
    export RAY_AUTH_TOKEN
  fi
  log "ray: head ${NODES[0]} at ${RAY_ADDRESS}; ports ${PORT_BASE}-$((PORT_BASE + RAY_PORT_SLOT - 1)); temp ${RAY_TMP_ROOT}"
  RAY_SRUN_PIDS=()
  local i k node lo cpus pid_args=() srun_cmd shown
  for ((i = 0; i < NNODES; i++)); do
    node="${NODES[i]}"
    k=$((shared ? i : 0))
    lo=$((PORT_BASE + RAY_WORKER_PORT_OFFSET + k * worker_ports))
    cpus="$(ray_step_cpus "${i}")"
    local role_args=(head "${PORT_BASE}" "${HEAD_IP}")
    # a worker advertises its Slurm NodeAddr when that is IPv4 (RAY_IFACE, when set, wins in
    # ray_node.sh); else Ray picks the address that routes to the head. Without this, workers on
    # the emulated cluster advertised the host's eth0 address while the head was on 127.0.0.1.
    ((i > 0)) && role_args=(worker "${RAY_ADDRESS}" "$(slurm_node_ipv4 "${node}" | grep . || echo -)")
    # the node's CPU count explicitly: on Slurm >= 23.11 the step would otherwise inherit
    # SLURM_CPUS_PER_TASK (--exact implied) and Ray's processes would share that many CPUs
    srun_cmd=(srun --overlap --nodes=1 --ntasks=1 "--cpus-per-task=${cpus}" -w "${node}" --kill-on-bad-exit=0
      "--output=${JOB_LOG_DIR}/ray-${node}.log" --open-mode=append
      bash "${LAUNCH_LIB}/ray_node.sh" "${role_args[@]}" $((PORT_BASE + 10 + 10 * k)) "${lo}" $((lo + worker_ports - 1)))
    shown="$(printf '%q ' "${srun_cmd[@]}")"
    log "ray: node ${i} ${node}: ${shown% }"
    RAY_NODE_NAME="${node}" RAY_NODE_INDEX="${i}" "${srun_cmd[@]}" &
    RAY_SRUN_PIDS+=("$!")
    pid_args+=(--pid "${node}=$!")
  done
  local nodes_csv
  nodes_csv="$(
    IFS=,
    echo "${NODES[*]}"
  )"
  "${PYTHON}" "${LAUNCH_LIB}/ray_cluster.py" wait --address "${RAY_ADDRESS}" --nodes "${nodes_csv}" \
    --gpus-per-node "${GPUS}" --head-timeout "${RAY_HEAD_TIMEOUT:-300}" --timeout "${RAY_WAIT_TIMEOUT:-300}" \
    --log-dir "${JOB_LOG_DIR}" "${pid_args[@]}" \
    --engine "${PROBE_ENGINE}" --attention "${ATTN_IMPL}" \
    || DIE_CODE=3 die "the Ray cluster did not come up (above); per-node logs: ${JOB_LOG_DIR}/ray-<node>.log"
}

stop_ray() {
  ((${#RAY_SRUN_PIDS[@]})) || return 0
  local pid i alive
  # srun forwards USR2 to its task (ray_node.sh stops its Ray and exits 0); TERM or HUP would
  # make srun abort the step and kill it before Ray is stopped
  for pid in "${RAY_SRUN_PIDS[@]}"; do kill -USR2 "${pid}" 2>/dev/null || true; done
  for ((i = 0; i < 150; i++)); do
    alive=0
    for pid in "${RAY_SRUN_PIDS[@]}"; do kill -0 "${pid}" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.2
  done
  if ((alive)); then
    # srun ends the step on a second signal; slurmd then kills what is left of it
    for pid in "${RAY_SRUN_PIDS[@]}"; do kill -KILL "${pid}" 2>/dev/null || true; done
  fi
  RAY_SRUN_PIDS=()
  # backstop where Slurm tracks processes by parent (proctrack/linuxproc, pgid): anything left
  # on this node that runs from this job's own Ray temp dir
  local left
  left="$(pgrep -f -- "${RAY_TMP_ROOT}/" || true)"
  if [[ -n "${left}" ]]; then
    # shellcheck disable=SC2086 # one pid per word
    kill -KILL ${left} 2>/dev/null || true
    log "ray: killed $(wc -w <<<"${left}") leftover process(es) of this job's Ray"
  fi
  rm -rf "${RAY_TMP_ROOT}"
  log "ray: stopped on all nodes"
}

# ------------------------------------------------------------------ 6. exit
on_exit() {
  local rc=$?
  trap - EXIT
  stop_trainer
  stop_ray
  log "job exits with ${rc}"
  exit "${rc}"
}

# ------------------------------------------------------------------ main
launch_job() {
  : "${EXPERIMENT:?the job script must set EXPERIMENT}" "${ENGINE:?the job script must set ENGINE}"
  USER_OVERRIDES=("$@")
  DRY_RUN="${DRY_RUN:-0}"
  [[ "${DRY_RUN}" == 0 || -z "${DRY_RUN}" ]] && DRY_RUN=0 || DRY_RUN=1
  RAY_SRUN_PIDS=()
  TRAINER_PID=""
  trap on_exit EXIT
  trap 'on_time_limit_signal' USR1
  trap 'log "terminated (scancel, the time limit, or a requeue by Slurm)"; exit 143' TERM
  cd "${LAUNCH_REPO}" || exit 2
  load_site
  cpu_mode_check # cpu_mode.sh
  activate_env
  read_allocation
  log "$(raise_nofile)" # for the trainer (Ray's driver); each node's Ray raises its own
  report_resume # long_run.sh: resumes from global_step_N / fresh / error
  build_overrides
  run_preflight
  export_runtime_env
  compose_config
  cpu_mode_check_config "${JOB_LOG_DIR}/config.yaml" # cpu_mode.sh
  if run_already_complete; then # long_run.sh
    return 0
  fi
  export_expiry # long_run.sh: the job's end time for verl's pre-expiry save (reads the config)
  start_ray
  local cmd=("${PYTHON}" "${TRAINER_ARGS[@]}")
  local shown
  shown="$(printf '%q ' "${cmd[@]}")"
  log "trainer command: ${shown% }"
  if [[ -n "${TRAINER_CMD:-}" ]]; then
    log "TRAINER_CMD replaces it: ${TRAINER_CMD}"
    cmd=(bash -c "${TRAINER_CMD}" trainer "${TRAINER_ARGS[@]}")
  elif ((DRY_RUN)); then
    log "dry run: everything but training done"
    return 0
  fi
  run_trainer "${cmd[@]}" # long_run.sh: background + wait + USR1 -> save -> requeue
}
