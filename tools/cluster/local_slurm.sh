#!/usr/bin/env bash
# A local, emulated Slurm cluster for tests and `make demo`: one slurmctld, N slurmd
# ("nodes" n1..nN, each advertising Gres=gpu:8 backed by placeholder files) and a private
# munged, all on this host, all state in one private directory, all on non-default ports
# addressed on 127.0.0.1. /etc/slurm and the system munged are never read or touched.
#
#   tools/cluster/local_slurm.sh up [NODES]   start (default 2 nodes; idempotent), wait until all nodes are idle
#   tools/cluster/local_slurm.sh down         stop the daemons this script started (by pid file)
#   tools/cluster/local_slurm.sh status       show daemons and nodes; exit 0 up, 3 not running, 1 partly up
#   tools/cluster/local_slurm.sh env          print `export SLURM_CONF=...` for: eval "$(tools/cluster/local_slurm.sh env)"
#
# Settings (environment): LOCAL_SLURM_DIR (default <repo>/.local_slurm), LOCAL_SLURM_PORT
# (slurmctld port, default 16817; node k listens on PORT+k), LOCAL_SLURM_GPUS (fake GPUs per
# node, default 8), LOCAL_SLURM_CPUS (CPUs advertised per node, default 16), LOCAL_SLURM_MEM_MB
# (memory advertised per node, default 65536), LOCAL_SLURM_TIMEOUT (seconds `up` waits, default 60),
# LOCAL_SLURM_NODE_PREFIX (node names are PREFIX1..PREFIXN, default "n"; a long prefix gives
# cloud-style long node names, e.g. to test what the launcher does with them).
# Details: docs/local_slurm.md.
set -euo pipefail

readonly PROG="local_slurm"
readonly PACKAGES="slurmctld slurmd slurm-client munge"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
# Debian puts the daemons in /usr/sbin, which a normal user's PATH may lack.
export PATH="${PATH}:/usr/sbin:/sbin"

die() {
  echo "${PROG}: error: $*" >&2
  exit 1
}
info() { echo "${PROG}: $*"; }

usage() {
  cat >&2 <<'EOF'
usage: tools/cluster/local_slurm.sh up [NODES] | down | status | env
  up [NODES]  start a local cluster of NODES emulated nodes (default 2, or the running count)
  down        stop the daemons this script started
  status      show daemons and nodes (exit 0 up, 3 not running, 1 partly up)
  env         print the `export SLURM_CONF=...` line: eval "$(tools/cluster/local_slurm.sh env)"
EOF
}

# ---------------------------------------------------------------- settings and paths
is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }

load_settings() {
  local dir="${LOCAL_SLURM_DIR:-${ROOT}/.local_slurm}"
  [[ -n "${dir}" ]] || die "LOCAL_SLURM_DIR is empty; unset it or give a directory"
  DIR="$(realpath -m -- "${dir}")"
  [[ "${DIR}" != *[[:space:]]* ]] || die "LOCAL_SLURM_DIR='${DIR}' contains whitespace, which slurm.conf cannot express; choose another directory"
  [[ "${DIR}" != / ]] || die "LOCAL_SLURM_DIR=/ is not allowed; choose a directory of its own"
  PORT="${LOCAL_SLURM_PORT:-16817}"
  GPUS="${LOCAL_SLURM_GPUS:-8}"
  CPUS="${LOCAL_SLURM_CPUS:-16}"
  MEM_MB="${LOCAL_SLURM_MEM_MB:-65536}"
  TIMEOUT="${LOCAL_SLURM_TIMEOUT:-60}"
  NODE_PREFIX="${LOCAL_SLURM_NODE_PREFIX:-n}"
  [[ "${NODE_PREFIX}" =~ ^[A-Za-z]([A-Za-z0-9-]*[A-Za-z-])?$ && ${#NODE_PREFIX} -le 60 ]] ||
    die "LOCAL_SLURM_NODE_PREFIX='${NODE_PREFIX}' must be 1-60 letters, digits and '-', start with a letter and not end with a digit"
  local name
  for name in PORT GPUS CPUS MEM_MB TIMEOUT; do
    is_uint "${!name}" || die "LOCAL_SLURM_${name}='${!name}' is not a whole number"
  done
  ((PORT >= 1024 && PORT <= 65000)) || die "LOCAL_SLURM_PORT=${PORT} must be between 1024 and 65000"
  ((GPUS >= 1 && GPUS <= 64)) || die "LOCAL_SLURM_GPUS=${GPUS} must be between 1 and 64"
  ((CPUS >= 1 && CPUS <= 1024)) || die "LOCAL_SLURM_CPUS=${CPUS} must be between 1 and 1024"
  ((MEM_MB >= 100)) || die "LOCAL_SLURM_MEM_MB=${MEM_MB} must be at least 100"
  ((TIMEOUT >= 1)) || die "LOCAL_SLURM_TIMEOUT=${TIMEOUT} must be at least 1"
  CONF_DIR="${DIR}/etc"
  CONF="${CONF_DIR}/slurm.conf"
  RUN_DIR="${DIR}/run"       # pid files and the munge socket (must be world-searchable)
  MUNGE_DIR="${DIR}/munge"   # key, seed, log (private)
  LOG_DIR="${DIR}/log"
  STATE_DIR="${DIR}/state"
  SPOOL_DIR="${DIR}/spool"
  # slurmstepd's sockets are <SlurmdSpoolDir>/<node>_<job>.<step> (Unix socket paths: under 108
  # bytes). SlurmdSpoolDir is SPOOL/<node> (one per slurmd) unless the node names are long
  # (cloud-style): then one short spool dir of this cluster's own (removed by `down`), shared
  # by its slurmds, as on a real cluster where each node has /var/spool/slurmd.
  SPOOL_NODE_DIR="${SPOOL_DIR}/%n"
  local name_len=$((${#NODE_PREFIX} + 2))
  if ((${#SPOOL_DIR} + 2 * name_len + 21 > 100)); then
    SPOOL_DIR="/tmp/lss${PORT}"
    SPOOL_NODE_DIR="${SPOOL_DIR}"
  fi
  GPU_DIR="${DIR}/gpus"
  SOCKET="${RUN_DIR}/munged.sock"
  NODES_FILE="${DIR}/nodes"
  # Only our config steers the Slurm commands here, even inside a real allocation.
  local var
  for var in $(compgen -e); do
    case "${var}" in
      SLURM_* | SBATCH_* | SALLOC_* | SRUN_* | SQUEUE_* | SINFO_* | SCONTROL_* | SCANCEL_*) unset "${var}" ;;
    esac
  done
  export SLURM_CONF="${CONF}"
}

# Nodes of the configured cluster (from the last `up`), 0 if none.
configured_nodes() {
  local n=""
  [[ -f "${NODES_FILE}" ]] && n="$(<"${NODES_FILE}")"
  if is_uint "${n}"; then echo "${n}"; else echo 0; fi
}

# ---------------------------------------------------------------- prerequisites
declare -A CMD_PKG=(
  [slurmctld]=slurmctld [slurmd]=slurmd [sinfo]=slurm-client [scontrol]=slurm-client
  [squeue]=slurm-client [scancel]=slurm-client [sbatch]=slurm-client [srun]=slurm-client
  [munged]=munge [munge]=munge
)

check_prereqs() {
  local cmd path missing=()
  for cmd in "${!CMD_PKG[@]}"; do
    # `command -v` also reports non-executable files; only an executable counts.
    path="$(command -v "${cmd}" 2>/dev/null)" && [[ -x "${path}" ]] || missing+=("${CMD_PKG[${cmd}]}")
  done
  if ((${#missing[@]})); then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    echo "${PROG}: error: missing Debian packages: ${missing[*]}" >&2
    echo "${PROG}: install them as root: apt-get install -y ${PACKAGES}" >&2
    echo "${PROG}: (or run \`make sysdeps\` as root)" >&2
    exit 1
  fi
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "${PROG}: error: the local cluster must be started as root (slurmd launches job steps" >&2
    echo "${PROG}:        as the submitting user and slurmctld runs as SlurmUser=root); you are $(id -un)." >&2
    echo "${PROG}: it needs the Debian packages ${PACKAGES}: as root, apt-get install -y ${PACKAGES}" >&2
    echo "${PROG}: then run: sudo tools/cluster/local_slurm.sh up" >&2
    exit 1
  fi
}

# ---------------------------------------------------------------- processes
# Print the pid recorded in FILE if that process is alive and its name is NAME.
live_pid() {
  local file="$1" name="$2" pid comm stat
  [[ -f "${file}" ]] || return 1
  pid="$(tr -dc '0-9' <"${file}")"
  [[ -n "${pid}" ]] || return 1
  [[ -r "/proc/${pid}/comm" ]] || return 1
  comm="$(<"/proc/${pid}/comm")" || return 1
  [[ "${comm}" == "${name}" ]] || return 1
  read -r stat 2>/dev/null <"/proc/${pid}/stat" || return 1
  stat="${stat##*) }" # "pid (comm) STATE ...": a zombie (Z) is not running
  [[ "${stat:0:1}" != Z ]] || return 1
  echo "${pid}"
}

node_name() { echo "${NODE_PREFIX}$1"; }
slurmd_pidfile() { echo "${RUN_DIR}/slurmd.$1.pid"; }

# TERM the given pids, wait up to 15 s for all of them to exit, then KILL the rest.
terminate() {
  local pid i alive
  (($#)) || return 0
  for pid in "$@"; do kill -TERM "${pid}" 2>/dev/null || true; done
  for ((i = 0; i < 150; i++)); do
    alive=0
    for pid in "$@"; do [[ -d "/proc/${pid}" ]] && alive=1; done
    ((alive)) || return 0
    sleep 0.1
  done
  for pid in "$@"; do
    if [[ -d "/proc/${pid}" ]]; then
      echo "${PROG}: pid ${pid} ignored TERM for 15 s; killing it" >&2
      kill -KILL "${pid}" 2>/dev/null || true
    fi
  done
}

# Stop the daemons named by "PIDFILE:NAME" arguments together and remove their pid files.
stop_pidfiles() {
  local spec pid pids=() labels=()
  for spec in "$@"; do
    if pid="$(live_pid "${spec%:*}" "${spec##*:}")"; then
      pids+=("${pid}")
      labels+=("${spec##*:} (pid ${pid})")
    fi
  done
  terminate "${pids[@]}"
  ((${#labels[@]} == 0)) || info "stopped ${labels[*]}"
  for spec in "$@"; do rm -f -- "${spec%:*}"; done
}

# slurmstepd processes of this cluster (they hold files under DIR open or run in its spool).
our_stepds() {
  local p comm link target
  for p in /proc/[0-9]*; do
    read -r comm 2>/dev/null <"${p}/comm" || continue
    [[ "${comm}" == "slurmstepd" ]] || continue
    for link in "${p}"/fd/* "${p}/cwd"; do
      target="$(readlink "${link}" 2>/dev/null || true)"
      if [[ "${target}" == "${DIR}/"* || "${target}" == "${SPOOL_DIR}/"* ]]; then
        echo "${p#/proc/}"
        break
      fi
    done
  done
}

# Daemons of this cluster whose pid file is gone (e.g. a crash between fork and pid file):
# slurmctld/slurmd started by this script carry SLURM_CONF=<our conf> in their environment,
# our munged has our socket on its command line.
our_orphans() {
  local p comm pid
  for p in /proc/[0-9]*; do
    pid="${p#/proc/}"
    read -r comm 2>/dev/null <"${p}/comm" || continue
    case "${comm}" in
      slurmd | slurmctld)
        tr '\0' '\n' 2>/dev/null <"${p}/environ" | grep -qxF "SLURM_CONF=${CONF}" && echo "${pid}"
        ;;
      munged)
        tr '\0' '\n' 2>/dev/null <"${p}/cmdline" | grep -qxF -- "--socket=${SOCKET}" && echo "${pid}"
        ;;
    esac
  done
  return 0
}

# Stop daemons of this cluster that have no (valid) pid file.
stop_orphans() {
  local pid f tracked=" " orphans=()
  for f in "${RUN_DIR}"/*.pid; do
    [[ -e "${f}" ]] || continue
    pid="$(live_pid "${f}" slurmd || live_pid "${f}" slurmctld || live_pid "${f}" munged)" && tracked+="${pid} "
  done
  for pid in $(our_orphans); do
    [[ "${tracked}" == *" ${pid} "* ]] || orphans+=("${pid}")
  done
  ((${#orphans[@]})) || return 0
  terminate "${orphans[@]}"
  info "stopped daemons of this cluster that had lost their pid file (pids ${orphans[*]})"
}

# ---------------------------------------------------------------- ports
# Is TCP port $1 bound in LISTEN state on any address (IPv4 or IPv6)?
port_listening() {
  local hex
  hex="$(printf '%04X' "$1")"
  awk -v p="${hex}" 'FNR > 1 { n = split($2, a, ":"); if (a[n] == p && $4 == "0A") f = 1 } END { exit !f }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

check_port_free() {
  local port="$1" what="$2" holder=""
  if port_listening "${port}"; then
    if command -v ss >/dev/null 2>&1; then
      holder="$(ss -Htlnp "sport = :${port}" 2>/dev/null | grep -o 'users:(([^)]*))' | head -n 1 || true)"
    fi
    die "port ${port} (${what}) is already in use${holder:+ by ${holder}}; stop that program or choose other ports with LOCAL_SLURM_PORT=<free port> (slurmctld uses it, node k uses it+k)"
  fi
}

# ---------------------------------------------------------------- configuration
write_file() { # atomically write stdin to $1
  local tmp
  tmp="$(mktemp "$1.XXXXXX")"
  cat >"${tmp}"
  chmod 644 "${tmp}"
  mv -f -- "${tmp}" "$1"
}

render_slurm_conf() {
  local nodes="$1" host nodeports
  host="$(hostname -s)"
  if ((nodes == 1)); then nodeports="$((PORT + 1))"; else nodeports="[$((PORT + 1))-$((PORT + nodes))]"; fi
  cat <<EOF
# Generated by tools/cluster/local_slurm.sh; do not edit (it is rewritten by \`up\`).
ClusterName=localslurm
SlurmctldHost=${host}(127.0.0.1)
SlurmctldPort=${PORT}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=${SOCKET},cred_expire=10
CredType=cred/munge
StateSaveLocation=${STATE_DIR}
SlurmdSpoolDir=${SPOOL_NODE_DIR}
SlurmctldPidFile=${RUN_DIR}/slurmctld.pid
SlurmdPidFile=${RUN_DIR}/slurmd.%n.pid
SlurmctldLogFile=${LOG_DIR}/slurmctld.log
SlurmdLogFile=${LOG_DIR}/slurmd.%n.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=${CONF_DIR}/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=${LOG_DIR}/jobcomp.txt
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
SlurmdParameters=config_overrides
ReturnToService=2
SlurmdTimeout=30
SlurmctldTimeout=30
MessageTimeout=10
InactiveLimit=0
KillWait=5
OverTimeLimit=0
MinJobAge=300
Waittime=0
JobRequeue=1
NodeName=${NODE_PREFIX}[1-${nodes}] NodeHostname=${host} NodeAddr=127.0.0.1 Port=${nodeports} CPUs=${CPUS} Boards=1 SocketsPerBoard=1 CoresPerSocket=${CPUS} ThreadsPerCore=1 RealMemory=${MEM_MB} Gres=gpu:${GPUS} State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
}

render_gres_conf() {
  local nodes="$1"
  cat <<EOF
# Generated by tools/cluster/local_slurm.sh: ${GPUS} placeholder "GPUs" per node (symlinks to /dev/null).
AutoDetect=off
NodeName=${NODE_PREFIX}[1-${nodes}] Name=gpu File=${GPU_DIR}/nvidia[0-$((GPUS - 1))]
EOF
}

# Write configs for NODES nodes; return 0 if they changed (or were new), 1 if identical.
write_configs() {
  local nodes="$1" changed=1 name new
  mkdir -p -- "${CONF_DIR}" "${GPU_DIR}"
  for name in slurm.conf gres.conf; do
    if [[ "${name}" == slurm.conf ]]; then new="$(render_slurm_conf "${nodes}")"; else new="$(render_gres_conf "${nodes}")"; fi
    if [[ ! -f "${CONF_DIR}/${name}" ]] || [[ "$(<"${CONF_DIR}/${name}")" != "${new}" ]]; then
      printf '%s\n' "${new}" | write_file "${CONF_DIR}/${name}"
      changed=0
    fi
  done
  [[ -f "${CONF_DIR}/plugstack.conf" ]] || : | write_file "${CONF_DIR}/plugstack.conf"
  local i
  # Slurm wants a character device behind each GPU "File": a symlink to /dev/null is one
  # that nothing can misuse, and its name's number becomes the index in CUDA_VISIBLE_DEVICES.
  for ((i = 0; i < GPUS; i++)); do
    [[ "$(readlink "${GPU_DIR}/nvidia${i}" 2>/dev/null)" == /dev/null ]] || ln -sfn /dev/null "${GPU_DIR}/nvidia${i}"
  done
  echo "${nodes}" | write_file "${NODES_FILE}"
  return "${changed}"
}

# 0 when `up` with these settings would rewrite the running cluster's configuration
configs_differ() {
  [[ -f "${CONF_DIR}/slurm.conf" && -f "${CONF_DIR}/gres.conf" ]] || return 0
  [[ "$(<"${CONF_DIR}/slurm.conf")" != "$(render_slurm_conf "$1")" ]] && return 0
  [[ "$(<"${CONF_DIR}/gres.conf")" != "$(render_gres_conf "$1")" ]]
}

# A restart for new settings would kill the cluster's jobs (a demo, another shell's tests): refuse
# while any is queued or running, asking the running cluster with its current configuration.
refuse_restart_with_jobs() {
  local jobs
  jobs="$(SLURM_CONF="${CONF_DIR}/slurm.conf" timeout 10 squeue -h -o '%A' 2>/dev/null | tr '\n' ' ' || true)"
  [[ -z "${jobs// /}" ]] && return 0
  die "the cluster in ${DIR} runs with other settings and has jobs (${jobs% }); 'up' with" \
    "${1} nodes, port ${PORT}, ${GPUS} GPUs/node would restart it and kill them. Fix: wait for them," \
    "or 'tools/cluster/local_slurm.sh down' first, or give this cluster a directory of its own" \
    "(LOCAL_SLURM_DIR=<dir> LOCAL_SLURM_PORT=<port>)"
}

# ---------------------------------------------------------------- daemons
any_running() {
  live_pid "${RUN_DIR}/munged.pid" munged >/dev/null && return 0
  live_pid "${RUN_DIR}/slurmctld.pid" slurmctld >/dev/null && return 0
  local f
  for f in "${RUN_DIR}"/slurmd.*.pid; do
    [[ -e "${f}" ]] || continue
    live_pid "${f}" slurmd >/dev/null && return 0
  done
  return 1
}

# Wait until pid FILE names a live NAME process (daemons write it after forking).
wait_pidfile() {
  local file="$1" name="$2" i
  for ((i = 0; i < 100; i++)); do
    live_pid "${file}" "${name}" >/dev/null && return 0
    sleep 0.1
  done
  return 1
}

start_munged() {
  live_pid "${RUN_DIR}/munged.pid" munged >/dev/null && return 0
  ((${#SOCKET} <= 100)) || die "munge socket path ${SOCKET} is ${#SOCKET} characters; Unix sockets allow about 100: use a shorter LOCAL_SLURM_DIR"
  mkdir -p -- "${RUN_DIR}" "${MUNGE_DIR}"
  chmod 755 "${RUN_DIR}"
  # munged wants every directory above its socket searchable by all users (so anyone can
  # submit jobs). A checkout under a private home (e.g. /root) is not: then run munged with
  # --force, and only root (or the owner) can use the cluster.
  local d="${RUN_DIR}" force=()
  while [[ "${d}" != / ]]; do
    d="$(dirname -- "${d}")"
    if [[ "$(stat -c %A -- "${d}")" != ?????????[xt] ]]; then
      info "note: ${d} is not searchable by other users (mode $(stat -c %a -- "${d}")), so only its owner can use this cluster; starting munged with --force (chmod o+x '${d}' lets everyone in)"
      force=(--force)
      break
    fi
  done
  chmod 700 "${MUNGE_DIR}"
  if [[ ! -s "${MUNGE_DIR}/munge.key" ]]; then
    (umask 077 && head -c 1024 /dev/urandom >"${MUNGE_DIR}/munge.key.tmp" && mv -f "${MUNGE_DIR}/munge.key.tmp" "${MUNGE_DIR}/munge.key")
  fi
  rm -f -- "${SOCKET}" "${SOCKET}.lock"
  munged "${force[@]}" --socket="${SOCKET}" --key-file="${MUNGE_DIR}/munge.key" --pid-file="${RUN_DIR}/munged.pid" \
    --log-file="${MUNGE_DIR}/munged.log" --seed-file="${MUNGE_DIR}/munged.seed" ||
    fail_up "munged did not start"
  wait_pidfile "${RUN_DIR}/munged.pid" munged || fail_up "munged did not write ${RUN_DIR}/munged.pid"
  info "started munged (socket ${SOCKET})"
}

start_slurmctld() {
  live_pid "${RUN_DIR}/slurmctld.pid" slurmctld >/dev/null && return 0
  # A fresh controller starts from empty state: no jobs survive a restart of the local cluster.
  rm -rf -- "${STATE_DIR}"
  mkdir -p -- "${STATE_DIR}"
  chmod 700 "${STATE_DIR}"
  slurmctld -i || fail_up "slurmctld did not start"
  wait_pidfile "${RUN_DIR}/slurmctld.pid" slurmctld || fail_up "slurmctld did not write its pid file"
  info "started slurmctld (127.0.0.1:${PORT})"
}

start_slurmd() {
  local k="$1" name
  name="$(node_name "${k}")"
  live_pid "$(slurmd_pidfile "${name}")" slurmd >/dev/null && return 0
  local spool="${SPOOL_NODE_DIR//%n/${name}}"
  [[ "${spool}" == "${SPOOL_DIR}" ]] || rm -rf -- "${spool:?}"
  mkdir -p -- "${spool}"
  slurmd -N "${name}" || fail_up "slurmd for node ${name} did not start"
  wait_pidfile "$(slurmd_pidfile "${name}")" slurmd || fail_up "slurmd for node ${name} did not write its pid file"
  info "started slurmd for node ${name} (127.0.0.1:$((PORT + k)))"
}

show_log_tails() {
  local f
  for f in "${LOG_DIR}/slurmctld.log" "${LOG_DIR}"/slurmd.*.log "${MUNGE_DIR}/munged.log"; do
    [[ -f "${f}" ]] || continue
    echo "----- last 20 lines of ${f}" >&2
    tail -n 20 -- "${f}" >&2 || true
  done
}

fail_up() {
  echo "${PROG}: error: $*" >&2
  show_log_tails
  echo "${PROG}: stopping what was started; logs stay in ${LOG_DIR}" >&2
  do_down >&2 || true
  exit 1
}

# Node states as "name state" lines, or nothing if the controller does not answer.
node_states() {
  timeout 10 sinfo -h -N -o '%N %T' 2>/dev/null | sort -u || true
}

wait_nodes_ready() {
  local nodes="$1" deadline states ready
  deadline=$((SECONDS + TIMEOUT))
  while :; do
    states="$(node_states)"
    ready="$(awk '$2 ~ /^(idle|mixed|allocated|completing)$/' <<<"${states}" | wc -l)"
    ((ready == nodes)) && return 0
    if ((SECONDS >= deadline)); then
      fail_up "after ${TIMEOUT} s, ${ready} of ${nodes} nodes are ready; node states: $(tr '\n' ' ' <<<"${states:-<no answer from slurmctld>}")"
    fi
    sleep 0.5
  done
}

# ---------------------------------------------------------------- commands
# One `up`/`down` at a time per cluster directory (tests and people may race): re-run this
# script under flock(1), which holds the lock until the script exits.
run_locked() {
  local fd
  if [[ "${LOCAL_SLURM_LOCKED:-}" == "${DIR}" ]]; then
    # flock(1) keeps the lock; drop our inherited copy of its fd so daemons cannot hold it.
    for fd in "/proc/$$/fd"/*; do
      [[ "$(readlink "${fd}" 2>/dev/null)" == "${DIR}/.lock" ]] || continue
      fd="${fd##*/}"
      exec {fd}>&-
    done
    return 0
  fi
  mkdir -p -- "${DIR}"
  local rc=0
  LOCAL_SLURM_LOCKED="${DIR}" flock -w 300 -E 75 "${DIR}/.lock" bash "${BASH_SOURCE[0]}" "$@" || rc=$?
  ((rc != 75)) || die "another tools/cluster/local_slurm.sh up/down has held ${DIR}/.lock for 300 s"
  exit "${rc}"
}

do_up() {
  local nodes="${1:-}" running_nodes k
  running_nodes="$(configured_nodes)"
  if [[ -z "${nodes}" ]]; then
    if any_running && ((running_nodes > 0)); then nodes="${running_nodes}"; else nodes=2; fi
  fi
  if ! is_uint "${nodes}" || ((nodes < 1 || nodes > 64)); then
    die "NODES='${nodes}' must be a whole number from 1 to 64"
  fi
  mkdir -p -- "${DIR}" "${LOG_DIR}"
  local was_running=1
  any_running && was_running=0
  if ((was_running == 0)) && configs_differ "${nodes}"; then
    refuse_restart_with_jobs "${nodes}"
  fi
  if write_configs "${nodes}"; then
    if ((was_running == 0)); then
      info "configuration changed (now ${nodes} nodes, port ${PORT}, ${GPUS} GPUs/node): restarting the cluster; running jobs are lost"
      do_down
      was_running=1
    fi
  fi
  stop_orphans
  # Check every port we are about to bind before starting anything.
  live_pid "${RUN_DIR}/slurmctld.pid" slurmctld >/dev/null || check_port_free "${PORT}" "slurmctld"
  for ((k = 1; k <= nodes; k++)); do
    live_pid "$(slurmd_pidfile "$(node_name "${k}")")" slurmd >/dev/null ||
      check_port_free "$((PORT + k))" "slurmd of node $(node_name "${k}")"
  done
  if ((was_running == 1)) && [[ -d "${LOG_DIR}" ]]; then
    # Fresh start: keep the previous run's logs aside so error tails show this run only.
    mkdir -p -- "${LOG_DIR}/previous"
    find "${LOG_DIR}" -maxdepth 1 -type f -name '*.log' -exec mv -f -t "${LOG_DIR}/previous" {} +
  fi
  start_munged
  start_slurmctld
  for ((k = 1; k <= nodes; k++)); do start_slurmd "${k}"; done
  wait_nodes_ready "${nodes}"
  info "up: ${nodes} nodes ready (${NODE_PREFIX}1..${NODE_PREFIX}${nodes}, ${GPUS} GPUs and ${CPUS} CPUs each); SLURM_CONF=${CONF}"
  info "use it with: eval \"\$(tools/cluster/local_slurm.sh env)\""
}

do_down() {
  local f jobs pid i stepds
  if live_pid "${RUN_DIR}/slurmctld.pid" slurmctld >/dev/null; then
    jobs="$(timeout 10 squeue -h -o '%A' 2>/dev/null || true)"
    if [[ -n "${jobs}" ]]; then
      # shellcheck disable=SC2086 # one job id per word
      timeout 10 scancel ${jobs} 2>/dev/null || true
      for ((i = 0; i < 100; i++)); do
        [[ -z "$(timeout 10 squeue -h -o '%A' -t running,completing 2>/dev/null || true)" ]] && break
        sleep 0.1
      done
      info "cancelled jobs: $(tr '\n' ' ' <<<"${jobs}")"
    fi
  fi
  local specs=("${RUN_DIR}/slurmctld.pid:slurmctld")
  for f in "${RUN_DIR}"/slurmd.*.pid; do
    [[ -e "${f}" ]] && specs+=("${f}:slurmd")
  done
  stop_pidfiles "${specs[@]}"
  stop_pidfiles "${RUN_DIR}/munged.pid:munged"
  stop_orphans
  stepds="$(our_stepds)"
  if [[ -n "${stepds}" ]]; then
    for pid in ${stepds}; do kill -KILL "${pid}" 2>/dev/null || true; done
    info "killed leftover slurmstepd processes: $(tr '\n' ' ' <<<"${stepds}")"
  fi
  rm -f -- "${SOCKET}" "${SOCKET}.lock"
  [[ "${SPOOL_DIR}" == "${DIR}/spool" ]] || rm -rf -- "${SPOOL_DIR:?}"
  info "down (${DIR})"
}

do_status() {
  local up=0 total=0 pid f name nodes k
  nodes="$(configured_nodes)"
  echo "dir:        ${DIR}"
  echo "SLURM_CONF: ${CONF}"
  report() { # label pidfile name
    total=$((total + 1))
    if pid="$(live_pid "$2" "$3")"; then
      up=$((up + 1))
      printf '%-28s running (pid %s)\n' "$1" "${pid}"
    else
      printf '%-28s not running\n' "$1"
    fi
  }
  report "munged" "${RUN_DIR}/munged.pid" munged
  report "slurmctld (port ${PORT})" "${RUN_DIR}/slurmctld.pid" slurmctld
  for ((k = 1; k <= nodes; k++)); do
    name="$(node_name "${k}")"
    report "slurmd ${name} (port $((PORT + k)))" "$(slurmd_pidfile "${name}")" slurmd
  done
  for f in "${RUN_DIR}"/slurmd.*.pid; do # daemons beyond the configured count
    [[ -e "${f}" ]] || continue
    name="${f##*/slurmd.}"
    name="${name%.pid}"
    if [[ "${name}" != "${NODE_PREFIX}"* || ! "${name#"${NODE_PREFIX}"}" =~ ^([0-9]+)$ ]] || ((BASH_REMATCH[1] <= nodes)); then continue; fi
    report "slurmd ${name} (stale)" "${f}" slurmd
  done
  if live_pid "${RUN_DIR}/slurmctld.pid" slurmctld >/dev/null; then
    timeout 10 sinfo -N -o '%N %P %T %c %G' || true
  fi
  if ((up == 0)); then
    echo "state:      not running"
    return 3
  elif ((up == total && nodes > 0)); then
    echo "state:      up"
    return 0
  fi
  echo "state:      partly running (${up} of ${total} daemons); \`tools/cluster/local_slurm.sh up\` restarts the missing ones"
  return 1
}

do_env() {
  printf 'export SLURM_CONF=%q\n' "${CONF}"
  if ! live_pid "${RUN_DIR}/slurmctld.pid" slurmctld >/dev/null; then
    echo "${PROG}: note: the local cluster is not running; start it with: tools/cluster/local_slurm.sh up" >&2
  fi
}

main() {
  local cmd="${1:-}"
  [[ $# -gt 0 ]] && shift
  case "${cmd}" in
    up)
      (($# <= 1)) || {
        usage
        exit 2
      }
      load_settings
      check_prereqs
      run_locked up "$@"
      do_up "${1:-}"
      ;;
    down | status | env)
      (($# == 0)) || {
        usage
        exit 2
      }
      load_settings
      if [[ "${cmd}" == down ]]; then
        [[ -d "${DIR}" ]] || {
          info "nothing to stop (${DIR} does not exist)"
          return 0
        }
        run_locked down
      fi
      "do_${cmd}"
      ;;
    -h | --help | help)
      usage
      ;;
    *)
      usage
      exit 2
      ;;
  esac
}

main "$@"
