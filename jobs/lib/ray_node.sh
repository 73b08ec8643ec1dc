#!/usr/bin/env bash
# One Ray node of a job, run by the launcher through `srun --overlap -w NODE` (one per node):
#   ray_node.sh head   GCS_PORT  HEAD_IP NODE_PORT_BASE WORKER_PORT_LO WORKER_PORT_HI
#   ray_node.sh worker HEAD_ADDR NODE_IP|- NODE_PORT_BASE WORKER_PORT_LO WORKER_PORT_HI  (- : Ray picks)
# Ports (launch.sh, pick_ports): the head's client server and dashboard at GCS_PORT+1, +2; each
# node's own services at NODE_PORT_BASE+0..+5.
# It runs `ray start --block` in a session of its own and, on USR2/TERM/INT/HUP or when Ray exits,
# stops every process of that session: this job's Ray on this node and nothing else (never
# `ray stop`, which would also kill other jobs' Ray on a shared node). A worker first waits until
# the head's GCS port accepts connections (RAY_HEAD_WAIT s), and a `ray start` that fails is
# tried again (RAY_START_ATTEMPTS, default 3, 5 s apart).
# Environment (from the launcher): RAY_NODE_NAME (the Slurm node), RAY_NODE_INDEX (its index in
# the job: names its temp dir), RAY_TMP_ROOT, RAY_NUM_GPUS, RAY_NODE_IFACE (optional NIC whose
# IPv4 the node advertises), RAY_STOP_GRACE, RAY_NUM_CPUS (optional: the CPUs Ray declares;
# default: what this step really has, see step_cpus), JIT_CACHE_ROOT (created on this node).
# Test faults: LAUNCH_FAULT_NEVER_JOIN=NODE makes that node hold without starting Ray;
# LAUNCH_FAULT_HEAD_DELAY=S delays the head's `ray start` by S seconds;
# LAUNCH_FAULT_BAD_FIRST_START=NODE gives that node's first `ray start` an invalid --num-cpus.
# shellcheck disable=SC2317 # stop_session runs from the traps
set -euo pipefail

# Slurm's gres/gpu sets ROCR_VISIBLE_DEVICES next to CUDA_VISIBLE_DEVICES in every step; the
# raylet would pass both to its workers and verl refuses to start with both set
# (verl/single_controller/base/worker.py: "Please don't set ROCR_VISIBLE_DEVICES when
# HIP/CUDA_VISIBLE_DEVICES is set"). Ray assigns each actor its devices itself.
unset ROCR_VISIBLE_DEVICES

role="$1" target="$2" node_ip="$3" p="$4" worker_lo="$5" worker_hi="$6"
node="${RAY_NODE_NAME:?RAY_NODE_NAME is not set}"
grace="${RAY_STOP_GRACE:-10}"
index="${RAY_NODE_INDEX:?RAY_NODE_INDEX is not set}"
# by index, not by name: Ray's socket paths must stay under 107 bytes whatever the node is called
tmp="${RAY_TMP_ROOT:?RAY_TMP_ROOT is not set}/${index}"
mkdir -p "${tmp}"
[[ -n "${JIT_CACHE_ROOT:-}" ]] && mkdir -p "${JIT_CACHE_ROOT}"
# shellcheck source=jobs/lib/nofile.sh
source "$(dirname "${BASH_SOURCE[0]}")/nofile.sh"
echo "ray_node: ${node}: $(raise_nofile)"

# The CPUs this step really has: slurmstepd sets SLURM_CPUS_ON_NODE to the step's own count,
# and the affinity mask (cgroup cpuset / task plugin) may be narrower still. RAY_NUM_CPUS wins.
affinity_cpus() { env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc; }
step_cpus() {
  local step="${SLURM_CPUS_ON_NODE:-}" mask
  mask="$(affinity_cpus)"
  if [[ -n "${RAY_NUM_CPUS:-}" ]]; then
    echo "${RAY_NUM_CPUS} RAY_NUM_CPUS"
  elif [[ "${step}" =~ ^[0-9]+$ ]] && ((step <= mask)); then
    echo "${step} the step's SLURM_CPUS_ON_NODE (affinity mask: ${mask})"
  else
    echo "${mask} the step's affinity mask (SLURM_CPUS_ON_NODE=${step:-unset})"
  fi
}
read -r cpus cpus_why <<<"$(step_cpus)"
if [[ -n "${RAY_NODE_IFACE:-}" ]]; then
  node_ip="$(ip -4 -o addr show dev "${RAY_NODE_IFACE}" | awk '{split($4, a, "/"); print a[1]; exit}')"
  [[ -n "${node_ip}" ]] || { echo "ray_node: ${node}: no IPv4 address on ${RAY_NODE_IFACE}" >&2; exit 2; }
fi

args=(
  --num-cpus="${cpus}"
  --num-gpus="${RAY_NUM_GPUS}"
  --resources="{\"slurm_node:${node}\": 1}"
  --temp-dir="${tmp}"
  --node-manager-port="${p}"
  --object-manager-port=$((p + 1))
  --runtime-env-agent-port=$((p + 2))
  --dashboard-agent-grpc-port=$((p + 3))
  --dashboard-agent-listen-port=$((p + 4))
  --metrics-export-port=$((p + 5))
  --min-worker-port="${worker_lo}"
  --max-worker-port="${worker_hi}"
  --disable-usage-stats
  --block
)
case "${role}" in
  head)
    # head-only services on their own ports: GCS (base+0), client server, dashboard
    args+=(--head --port="${target}" --node-ip-address="${node_ip}" --ray-client-server-port=$((target + 1))
      --dashboard-port=$((target + 2)) --include-dashboard=false)
    ;;
  worker)
    args+=(--address="${target}")
    # without RAY_NODE_IFACE Ray picks the address that routes to the head
    [[ "${node_ip}" != "-" ]] && args+=(--node-ip-address="${node_ip}")
    ;;
  *)
    echo "ray_node: unknown role '${role}' (head or worker)" >&2
    exit 2
    ;;
esac

# `ray start` runs in a session of its own (setsid): that session id names exactly this job's
# Ray processes on this node, daemons included.
session=""
stopping=0
session_pids() { pgrep -s "${session}" || true; }
stop_session() {
  ((stopping)) && return 0
  stopping=1
  [[ -n "${session}" ]] || return 0
  local pids i
  pids="$(session_pids)"
  [[ -z "${pids}" ]] && return 0
  # shellcheck disable=SC2086 # one pid per word
  kill -TERM ${pids} 2>/dev/null || true
  for ((i = 0; i < grace * 5; i++)); do
    pids="$(session_pids)"
    [[ -z "${pids}" ]] && break
    sleep 0.2
  done
  if [[ -n "${pids}" ]]; then
    # raylet and gcs_server may ignore TERM while busy
    # shellcheck disable=SC2086
    kill -KILL ${pids} 2>/dev/null || true
  fi
  echo "ray_node: ${node}: stopped this job's Ray processes"
}
trap 'stop_session; exit 0' TERM INT HUP USR2
trap stop_session EXIT

if [[ "${LAUNCH_FAULT_NEVER_JOIN:-}" == "${node}" ]]; then
  echo "ray_node: ${node}: LAUNCH_FAULT_NEVER_JOIN: holding without starting Ray"
  sleep infinity &
  wait $!
fi
# A worker waits for the head's GCS instead of racing it (the head may still be loading).
wait_for_head() {
  local host="${target%:*}" port="${target##*:}" waited=0 limit="${RAY_HEAD_WAIT:-300}"
  echo "ray_node: ${node}: waiting for the head's GCS at ${target}"
  until (exec 3<>"/dev/tcp/${host}/${port}") 2>/dev/null; do
    if ((waited >= limit)); then
      echo "ray_node: ${node}: no Ray head at ${target} after ${limit} s" >&2
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  echo "ray_node: ${node}: the head's GCS at ${target} accepts connections (waited ${waited} s)"
}

if [[ "${role}" == head && -n "${LAUNCH_FAULT_HEAD_DELAY:-}" ]]; then
  echo "ray_node: ${node}: LAUNCH_FAULT_HEAD_DELAY: starting the head in ${LAUNCH_FAULT_HEAD_DELAY} s"
  sleep "${LAUNCH_FAULT_HEAD_DELAY}"
fi
attempts="${RAY_START_ATTEMPTS:-3}"
rc=0
for ((attempt = 1; attempt <= attempts; attempt++)); do
  if [[ "${role}" == worker ]]; then
    wait_for_head || exit 3
  fi
  run_args=("${args[@]}")
  if ((attempt == 1)) && [[ "${LAUNCH_FAULT_BAD_FIRST_START:-}" == "${node}" ]]; then
    echo "ray_node: ${node}: LAUNCH_FAULT_BAD_FIRST_START: this attempt gets --num-cpus=-1"
    run_args=("${args[@]/#--num-cpus=*/--num-cpus=-1}")
  fi
  echo "ray_node: ${node}: ray start (${role}, attempt ${attempt}/${attempts}) ip=${node_ip} ports ${p}-$((p + 5))" \
    "workers ${worker_lo}-${worker_hi} gpus=${RAY_NUM_GPUS} cpus=${cpus} (${cpus_why}) temp=${tmp}"
  setsid ray start "${run_args[@]}" &
  ray_pid=$!
  session="${ray_pid}"
  rc=0
  wait "${ray_pid}" || rc=$?
  echo "ray_node: ${node}: ray start exited (${rc})"
  ((rc != 0 && !stopping)) || break
  stop_session
  stopping=0
  session=""
  ((attempt < attempts)) && sleep 5
done
exit "${rc}"
