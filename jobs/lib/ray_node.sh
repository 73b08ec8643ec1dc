#!/usr/bin/env bash
# One Ray node of a job, run by the launcher through `srun --overlap -w NODE` (one per node):
#   ray_node.sh head   GCS_PORT  HEAD_IP NODE_PORT_BASE WORKER_PORT_LO WORKER_PORT_HI
#   ray_node.sh worker HEAD_ADDR -       NODE_PORT_BASE WORKER_PORT_LO WORKER_PORT_HI
# It runs `ray start --block` in a session of its own and, on USR2/TERM/INT/HUP or when Ray exits,
# stops every process of that session: this job's Ray on this node and nothing else (never
# `ray stop`, which would also kill other jobs' Ray on a shared node).
# Environment (from the launcher): RAY_NODE_NAME (the Slurm node), RAY_TMP_ROOT, RAY_NUM_GPUS,
# RAY_NUM_CPUS, RAY_NODE_IFACE (optional NIC whose IPv4 the node advertises), RAY_STOP_GRACE.
# LAUNCH_FAULT_NEVER_JOIN=NODE makes that node hold without starting Ray (tests of the
# launcher's "node never joins" path).
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
tmp="${RAY_TMP_ROOT:?RAY_TMP_ROOT is not set}/${node}"
mkdir -p "${tmp}"
if [[ -n "${RAY_NODE_IFACE:-}" ]]; then
  node_ip="$(ip -4 -o addr show dev "${RAY_NODE_IFACE}" | awk '{split($4, a, "/"); print a[1]; exit}')"
  [[ -n "${node_ip}" ]] || { echo "ray_node: ${node}: no IPv4 address on ${RAY_NODE_IFACE}" >&2; exit 2; }
fi

args=(
  --num-cpus="${RAY_NUM_CPUS}"
  --num-gpus="${RAY_NUM_GPUS}"
  --resources="{\"slurm_node:${node}\": 1}"
  --temp-dir="${tmp}"
  --node-manager-port=$((p + 1))
  --object-manager-port=$((p + 2))
  --runtime-env-agent-port=$((p + 3))
  --dashboard-agent-grpc-port=$((p + 4))
  --dashboard-agent-listen-port=$((p + 5))
  --metrics-export-port=$((p + 6))
  --min-worker-port="${worker_lo}"
  --max-worker-port="${worker_hi}"
  --disable-usage-stats
  --block
)
case "${role}" in
  head)
    # head-only services on their own ports: GCS (base+0), client server, dashboard
    args+=(--head --port="${target}" --node-ip-address="${node_ip}" --ray-client-server-port=$((p + 7)) --dashboard-port=$((p + 8))
      --include-dashboard=false)
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
echo "ray_node: ${node}: ray start (${role}) ip=${node_ip} ports ${p}-$((p + 8)) workers ${worker_lo}-${worker_hi}" \
  "gpus=${RAY_NUM_GPUS} cpus=${RAY_NUM_CPUS} temp=${tmp}"
setsid ray start "${args[@]}" &
ray_pid=$!
session="${ray_pid}"
rc=0
wait "${ray_pid}" || rc=$?
echo "ray_node: ${node}: ray start exited (${rc})"
exit "${rc}"
