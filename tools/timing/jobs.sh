#!/usr/bin/env bash
# Step-time report for Slurm jobs by id: find each job's logs in LOG_ROOT/<job id>/ and run
# tools/timing/report.py on them (markdown to stdout and OUT_DIR, PNG in OUT_DIR).
#
# Usage: tools/timing/jobs.sh OUT_DIR JOB_ID [JOB_ID ...]
# Environment: LOG_ROOT (else LOG_ROOT from the site file SITE_ENV, default jobs/site.env,
# else .demo/logs), PY (python), STEPS (e.g. 3:), NAMES (a,b), REPORT_ARGS (more options).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [[ $# -lt 2 ]]; then
  echo "usage: make report JOBS=\"<job id> [<job id> ...]\" [STEPS=3:] [NAMES=a,b] [LOG_ROOT=dir]" >&2
  exit 2
fi
out_dir="$1"
shift

log_root="${LOG_ROOT:-}"
source_of_root="LOG_ROOT"
if [[ -z "$log_root" ]]; then
  site="${SITE_ENV:-$root/jobs/site.env}"
  if [[ -f "$site" ]]; then
    # The site file is the shell file the job scripts source; read LOG_ROOT from it in a subshell.
    log_root="$(
      set +eu
      # shellcheck source=/dev/null
      source "$site" >/dev/null 2>&1
      printf '%s' "${LOG_ROOT:-}"
    )"
    source_of_root="LOG_ROOT in $site"
  fi
fi
if [[ -z "$log_root" ]]; then
  log_root="$root/.demo/logs"
  source_of_root="the default (no LOG_ROOT set, no LOG_ROOT in ${SITE_ENV:-$root/jobs/site.env})"
fi

runs=()
for job in "$@"; do
  dir="$log_root/$job"
  if [[ ! -d "$dir" ]]; then
    echo "report: no log folder $dir for job '$job' (LOG_ROOT=$log_root, from $source_of_root)." >&2
    if [[ -d "$log_root" ]]; then
      echo "report: job folders there: $(find "$log_root" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | head -n 40 | tr '\n' ' ')" >&2
    else
      echo "report: $log_root does not exist; set LOG_ROOT=... or LOG_ROOT in the site file." >&2
    fi
    exit 2
  fi
  runs+=("$dir")
done

py="${PY:-python3}"
stem="$out_dir/report_$(IFS=_; echo "$*")"
args=(--out "$stem.md" --plot "$stem.png")
[[ -n "${STEPS:-}" ]] && args+=(--steps "$STEPS")
[[ -n "${NAMES:-}" ]] && args+=(--names "$NAMES")
extra=()
if [[ -n "${REPORT_ARGS:-}" ]]; then
  read -r -a extra <<<"$REPORT_ARGS"
fi
mkdir -p "$out_dir"
PYTHONPATH="${root}${PYTHONPATH:+:${PYTHONPATH}}" "$py" -m tools.timing "${runs[@]}" "${args[@]}" "${extra[@]}"
cat "$stem.md"
echo "report: markdown $stem.md, plot $stem.png" >&2
