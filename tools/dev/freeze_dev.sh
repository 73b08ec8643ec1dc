#!/usr/bin/env bash
# Record the exact versions of the dev env as a pip constraints file (the dev "lock").
# Usage: tools/dev/freeze_dev.sh VENV_DIR OUT_FILE
set -euo pipefail
venv="$1"
out="$2"
tmp="$(mktemp "${out}.XXXXXX")"
trap 'rm -f "${tmp}"' EXIT
{
  echo "# Exact versions of the CPU development env (.venv), written by 'make lock-dev'."
  echo "# Used as constraints by tools/dev/dev_env.sh. torch is the local CPU build of 2.13.0."
  "${venv}/bin/python" -m pip --disable-pip-version-check freeze --exclude-editable \
    | grep -v -E '^(grpo-slurm|-e )' \
    | sed -E 's/^(torch==[0-9.]+)\+cpu$/\1/'
} >"${tmp}"
mv "${tmp}" "${out}"
trap - EXIT
echo "freeze_dev: wrote ${out} ($(grep -c '==' "${out}") pins)"
