# shellcheck shell=bash
# raise_nofile: the soft open-files limit up to the hard one, for Ray's processes (a raylet, its
# workers and the driver hold a socket per peer and per object) - Ray's large-cluster guide asks
# for 65536 or more. Sourced by launch.sh (the driver's shell) and ray_node.sh (each node's Ray).
NOFILE_WANTED=65536
raise_nofile() {
  local hard soft
  hard="$(ulimit -Hn)"
  if [[ "${hard}" == unlimited ]]; then
    # Linux caps RLIMIT_NOFILE at fs.nr_open even when the hard limit reads "unlimited"
    hard="$(cat /proc/sys/fs/nr_open 2>/dev/null || echo 1048576)"
  fi
  ulimit -Sn "${hard}" 2>/dev/null || true
  soft="$(ulimit -Sn)"
  if [[ "${soft}" != unlimited ]] && ((soft < NOFILE_WANTED)); then
    echo "open files: ${soft} (the hard limit); Ray may run out of file descriptors on big runs." \
      "Fix: ask the admins for a nofile hard limit >= ${NOFILE_WANTED} on the compute nodes"
  else
    echo "open files: ${soft}"
  fi
}
