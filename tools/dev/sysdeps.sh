#!/usr/bin/env bash
# Make sure the Debian packages the tests need are present: Slurm (controller, node daemon,
# client), munge, shellcheck and a C compiler (the reward's repetition kernel, `make native`).
# As root, install what is missing; otherwise say what to install.
set -euo pipefail

declare -A cmd_to_pkg=(
  [slurmctld]=slurmctld
  [slurmd]=slurmd
  [sbatch]=slurm-client
  [munged]=munge
  [shellcheck]=shellcheck
  [cc]=gcc
)
missing=()
for cmd in "${!cmd_to_pkg[@]}"; do
  if ! command -v "${cmd}" >/dev/null 2>&1 && [[ ! -x "/usr/sbin/${cmd}" ]]; then
    missing+=("${cmd_to_pkg[${cmd}]}")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [[ "$(id -u)" -ne 0 ]]; then
  echo "sysdeps: missing Debian packages: ${missing[*]}" >&2
  echo "sysdeps: install them as root: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "sysdeps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "sysdeps: installed ${missing[*]}"
