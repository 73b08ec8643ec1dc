#!/usr/bin/env bash
# Run shellcheck over every shell script the repo tracks or is about to track (*.sh, .ci/run,
# and any file whose first line is a bash/sh shebang).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "${root}"
scripts=()
while IFS= read -r -d '' f; do
  [[ -f "${f}" ]] || continue
  case "${f}" in
    *.sh | .ci/run) scripts+=("${f}") ;;
    *.py | *.md | *.yaml | *.yml | *.json | *.txt | *.toml) ;;
    *) if head -n 1 "${f}" 2>/dev/null | grep -qE '^#!.*\b(ba)?sh\b'; then scripts+=("${f}"); fi ;;
  esac
done < <(git ls-files -z --cached --others --exclude-standard)
if ((${#scripts[@]} == 0)); then
  echo "shellcheck: no shell scripts found" >&2
  exit 1
fi
shellcheck -x -P SCRIPTDIR "${scripts[@]}"
echo "shellcheck: ${#scripts[@]} scripts clean"
