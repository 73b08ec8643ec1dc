# shellcheck shell=bash
# Long runs, sourced by launch.sh: resume report, the job's end time for verl's pre-expiry save,
# the trainer run in the background (so the shell can take the time-limit signal), and the
# requeue decision. Docs: docs/long_runs.md.
#
# verl 0.9.1 saves before "expiry" in RayPPOTrainer.fit (trainer.use_v1=false): after each
# update, should_save_ckpt_esi() compares MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP with
# (longest step so far + 60 s + trainer.esi_redundant_time), and only when trainer.save_freq > 0.
# We set that timestamp to the job's end minus STOP_GRACE minus a validation allowance (verl
# validates after the check, outside its step timer), on every node before Ray starts.

TRACKER_NAME="latest_checkpointed_iteration.txt"
HISTORY_NAME="launcher_history.tsv"

tracker_step() {
  local tracker="${CKPT_DIR}/${TRACKER_NAME}"
  [[ -f "${tracker}" ]] && tr -d '[:space:]' <"${tracker}" || echo ""
}

# the tracker's content and mtime: changes whenever verl finishes a save (it writes it last)
tracker_stamp() {
  local tracker="${CKPT_DIR}/${TRACKER_NAME}"
  [[ -f "${tracker}" ]] && echo "$(stat -c %Y "${tracker}") $(tr -d '[:space:]' <"${tracker}")" || echo none
}

report_resume() {
  local tracker="${CKPT_DIR}/${TRACKER_NAME}" step steps=()
  START_STAMP="$(tracker_stamp)" # a new checkpoint since this start is progress (after_run)
  mapfile -t steps < <(find "${CKPT_DIR}" -mindepth 1 -maxdepth 1 -type d -name 'global_step_*' -printf '%f\n' \
    | sed -n 's/^global_step_\([0-9][0-9]*\)$/\1/p' | sort -n)
  if [[ -f "${tracker}" ]]; then
    step="$(tracker_step)"
    [[ "${step}" =~ ^[0-9]+$ ]] || die "${tracker} holds '${step}', not a step number." \
      "Fix: write the step of the newest complete checkpoint into it, e.g. echo ${steps[-1]:-N} > ${tracker}"
    [[ -d "${CKPT_DIR}/global_step_${step}" ]] || die "${tracker} says step ${step} but" \
      "${CKPT_DIR}/global_step_${step} does not exist (verl would silently train from scratch)." \
      "Fix: echo <N> > ${tracker} with N one of: ${steps[*]:-none}"
    RESUME_STEP="${step}"
    log "resume: run ${RUN_NAME} resumes from global_step_${step} (${tracker}); checkpoints on disk: ${steps[*]}"
  elif ((${#steps[@]})); then
    die "${CKPT_DIR} holds checkpoints (global_step_${steps[*]}) but no ${TRACKER_NAME}:" \
      "verl would silently train from scratch. Fix: echo ${steps[-1]} > ${tracker} to resume from" \
      "global_step_${steps[-1]} (use an older step if that one is incomplete), or move ${CKPT_DIR} away to start fresh"
  else
    RESUME_STEP=0
    log "resume: no checkpoint in ${CKPT_DIR}: run ${RUN_NAME} starts fresh"
  fi
}

# A run resumed at or past trainer.total_training_steps has nothing left to train: verl would load
# the checkpoint and exit at once, and the launcher would count that as a run without progress.
# Say so and end the job before Ray starts (returns 0: complete; 1: steps remain or unknown).
run_already_complete() {
  local words=() total
  read -ra words <<<"$(run_metrics config "${JOB_LOG_DIR}/config.yaml" 2>/dev/null || true)"
  total="$(word_value total_training_steps "${words[@]}")"
  ((${total:-0} > 0 && RESUME_STEP >= total)) || return 1
  log "resume: run ${RUN_NAME} is complete: global_step_${RESUME_STEP} >= trainer.total_training_steps=${total};" \
    "nothing to train. To train further, raise trainer.total_training_steps; to start over, use a new RUN_NAME"
}

run_metrics() { "${PYTHON}" "${LAUNCH_LIB}/run_metrics.py" "$@"; }

# key=value words (from run_metrics.py) -> the value of key $1
word_value() {
  local key="$1" word
  shift
  for word in "$@"; do
    if [[ "${word}" == "${key}="* ]]; then echo "${word#*=}"; fi
  done
  return 0
}

# VALIDATION_ALLOWANCE: seconds to keep free for a validation that may run after verl's
# pre-expiry check. VALIDATION_S if set; else, with trainer.test_freq > 0, the longest validation
# this job has logged (earlier runs' metrics*.jsonl, +10 %) or VALIDATION_DEFAULT_S (600) before
# the first one; else 0. VALIDATION_WHY says which.
validation_allowance() {
  local words=() test_freq measured
  if [[ -n "${VALIDATION_S:-}" ]]; then
    VALIDATION_ALLOWANCE="${VALIDATION_S}" VALIDATION_WHY="VALIDATION_S"
    return 0
  fi
  read -ra words <<<"$(run_metrics config "${JOB_LOG_DIR}/config.yaml" 2>/dev/null || true)"
  test_freq="$(word_value test_freq "${words[@]}")"
  if [[ -n "${test_freq}" ]] && ((test_freq <= 0)); then
    VALIDATION_ALLOWANCE=0 VALIDATION_WHY="trainer.test_freq <= 0: no validation during training"
    return 0
  fi
  read -ra words <<<"$(run_metrics steps "${JOB_LOG_DIR}"/metrics*.jsonl 2>/dev/null || true)"
  measured="$(word_value max_testing_s "${words[@]}")"
  measured="${measured%.*}"
  if ((${measured:-0} > 0)); then
    VALIDATION_ALLOWANCE=$((measured + measured / 10 + 1))
    VALIDATION_WHY="the longest validation this job logged, +10 %"
  else
    VALIDATION_ALLOWANCE="${VALIDATION_DEFAULT_S:-600}"
    VALIDATION_WHY="trainer.test_freq=${test_freq:-?}, none measured yet: VALIDATION_DEFAULT_S"
  fi
}

export_expiry() {
  END_EPOCH=""
  local end
  # squeue prints times in SLURM_TIME_FORMAT when the user sets it ("relative" gives "Tomorr
  # 08:00", which `date -d` misreads); standard is ISO 8601
  end="$(SLURM_TIME_FORMAT=standard squeue -h -j "${JOB_ID}" -o %e 2>/dev/null | head -n1 || true)"
  if [[ -z "${end}" || "${end}" == N/A || "${end}" == Unknown || "${end}" == NONE ]]; then
    log "time limit: none known (squeue EndTime '${end}'); no pre-expiry save"
    unset MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP
    return 0
  fi
  END_EPOCH="$(date -d "${end}" +%s)" || die "cannot read the job's end time '${end}' from squeue"
  local grace="${STOP_GRACE:-60}"
  validation_allowance
  export MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP=$((END_EPOCH - grace - VALIDATION_ALLOWANCE))
  log "time limit: the job ends $(date -u -d "@${END_EPOCH}" '+%F %T') UTC; verl saves when less than" \
    "(longest step + 60 s + trainer.esi_redundant_time) remain before" \
    "$(date -u -d "@${MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP}" +%T) (STOP_GRACE=${grace} s kept to stop" \
    "and requeue, ${VALIDATION_ALLOWANCE} s for a validation after the check: ${VALIDATION_WHY})"
  log "env MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP=${MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP}"
}

# ------------------------------------------------------------------ trainer
TIME_LIMIT_SIGNALED=0
on_time_limit_signal() {
  if ((TIME_LIMIT_SIGNALED == 0)); then
    TIME_LIMIT_SIGNALED=1
    if ((DRY_RUN)) && [[ -z "${TRAINER_CMD:-}" ]]; then
      log "time limit: USR1 received (the job is near its --time); dry run: nothing to save"
    else
      log "time limit: USR1 received (the job is near its --time)"
    fi
  fi
}

stop_trainer() {
  [[ -n "${TRAINER_PID:-}" ]] || return 0
  local i
  if kill -0 "${TRAINER_PID}" 2>/dev/null; then
    # the trainer runs in a session of its own: signal it and everything it started
    kill -TERM -- "-${TRAINER_PID}" 2>/dev/null || kill -TERM "${TRAINER_PID}" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
      kill -0 "${TRAINER_PID}" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL -- "-${TRAINER_PID}" 2>/dev/null || true
    log "trainer: stopped"
  fi
  wait "${TRAINER_PID}" 2>/dev/null || true
  TRAINER_PID=""
}

# When verl's pre-expiry window (expiry - longest step - 60 s - esi_redundant_time) opened before
# USR1 came and verl has saved in it, that checkpoint is the one to keep: waiting for another
# would hold the GPUs for a step that may not end before the limit.
presaved_before_signal() {
  local expiry="${MLP_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP:-}" words=() longest redundant opened mtime
  [[ -n "${expiry}" && "$(tracker_stamp)" != "${START_STAMP:-none}" ]] || return 1
  read -ra words <<<"$(run_metrics steps "${VERL_FILE_LOGGER_PATH:-/nonexistent}" 2>/dev/null || true)"
  longest="$(word_value max_step_s "${words[@]}")"
  longest="${longest:-0}"
  read -ra words <<<"$(run_metrics config "${JOB_LOG_DIR}/config.yaml" 2>/dev/null || true)"
  redundant="$(word_value esi_redundant_time "${words[@]}")"
  redundant="${redundant:-0}"
  opened=$((expiry - ${longest%.*} - 60 - ${redundant%.*}))
  mtime="$(stat -c %Y "${CKPT_DIR}/${TRACKER_NAME}")"
  ((mtime >= opened)) || return 1
  log "time limit: verl's pre-expiry window opened at $(date -u -d "@${opened}" +%T) UTC, before the signal," \
    "and checkpoint global_step_$(tracker_step) was saved in it: not waiting for another"
}

# After USR1: let the trainer finish the checkpoint verl starts near the expiry timestamp.
wait_for_presave() {
  local before deadline now
  presaved_before_signal && return 0
  before="$(tracker_stamp)"
  deadline=$(($(date +%s) + ${SAVE_WAIT:-600}))
  [[ -n "${END_EPOCH}" ]] && deadline=$((END_EPOCH - ${STOP_GRACE:-60}))
  log "time limit: waiting for the trainer's pre-expiry checkpoint until $(date -u -d "@${deadline}" +%T) UTC"
  while kill -0 "${TRAINER_PID}" 2>/dev/null; do
    if [[ "$(tracker_stamp)" != "${before}" ]]; then
      log "time limit: checkpoint global_step_$(tracker_step) saved"
      return 0
    fi
    now="$(date +%s)"
    if ((now >= deadline)); then
      log "time limit: no new checkpoint by the deadline; the newest is global_step_$(tracker_step)"
      return 0
    fi
    sleep 1
  done
}

run_trainer() {
  if ((TIME_LIMIT_SIGNALED)); then
    # USR1 came while Ray was starting: too late to train; requeue (twice in a row stops)
    log "time limit: the signal came before the trainer started"
    after_run timelimit 0
    return
  fi
  log "trainer: starting"
  setsid "$@" &
  TRAINER_PID=$!
  local rc=0
  while true; do
    rc=0
    wait "${TRAINER_PID}" || rc=$?
    if kill -0 "${TRAINER_PID}" 2>/dev/null; then
      # `wait` was interrupted by a trapped signal; the trainer still runs
      if ((TIME_LIMIT_SIGNALED)); then
        wait_for_presave
        if kill -0 "${TRAINER_PID}" 2>/dev/null; then
          stop_trainer
          after_run timelimit 0
          return $?
        fi
        rc=0
        wait "${TRAINER_PID}" 2>/dev/null || rc=$?
        break
      fi
      continue
    fi
    break
  done
  TRAINER_PID=""
  if ((rc == 0)); then
    after_run completed 0
  else
    after_run failed "${rc}"
  fi
}

# ------------------------------------------------------------------ requeue decision
history_line() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"${CKPT_DIR}/${HISTORY_NAME}"; }

# Progress since this run started: a checkpoint written (the tracker changed) or a training
# step logged in this run's metrics file (verl's file logger, VERL_FILE_LOGGER_PATH).
made_progress() {
  local words=()
  [[ "$(tracker_stamp)" != "${START_STAMP:-none}" ]] && return 0
  read -ra words <<<"$(run_metrics steps "${VERL_FILE_LOGGER_PATH:-/nonexistent}" 2>/dev/null || true)"
  local steps
  steps="$(word_value steps "${words[@]}")"
  ((${steps:-0} > 0))
}

after_run() {
  local outcome="$1" rc="$2" step restart="${SLURM_RESTART_COUNT:-0}" signature last=""
  step="$(tracker_step)"
  step="${step:-0}"
  case "${outcome}" in
    completed) signature="ok" ;;
    timelimit) ((step > RESUME_STEP)) && signature="ok" || signature="timelimit-without-progress@${step}" ;;
    failed) signature="failed-rc${rc}@${step}" ;;
  esac
  [[ -f "${CKPT_DIR}/${HISTORY_NAME}" ]] && last="$(tail -n1 "${CKPT_DIR}/${HISTORY_NAME}" | cut -f7)"
  history_line "$(date -u +%FT%TZ)" "${JOB_ID}" "${restart}" "${outcome}" "${RESUME_STEP}->${step}" "rc=${rc}" "${signature}"
  if [[ "${outcome}" == completed ]]; then
    log "trainer: finished (run complete at global_step_${step}); no requeue"
    return 0
  fi
  log "trainer: ${outcome} (rc ${rc}); global_step ${RESUME_STEP} -> ${step}"
  if ((DRY_RUN)); then
    log "dry run: no requeue"
    return $((rc ? rc : 1))
  fi
  if [[ "${signature}" != ok && "${signature}" == "${last}" ]]; then
    log "requeue: stopped: this run ended the same way as the previous one (${signature})." \
      "Fix the cause (job log, ${JOB_LOG_DIR}) and resubmit with RUN_NAME=${RUN_NAME} to resume"
    return 6
  fi
  if [[ "${outcome}" == failed && "${REQUEUE_ON_FAILURE:-1}" != 1 ]]; then
    return "${rc}"
  fi
  if [[ "${outcome}" == failed ]] && ! made_progress; then
    log "requeue: not requeued: the trainer failed before it made progress (no new checkpoint, no training" \
      "step logged since this run started at global_step_${RESUME_STEP}); a requeue would repeat the crash after" \
      "another queue wait and model load. Fix the cause (job log, ${JOB_LOG_DIR}) and resubmit with" \
      "RUN_NAME=${RUN_NAME} to resume"
    return "${rc}"
  fi
  if ((restart >= ${MAX_REQUEUES:-20})); then
    log "requeue: stopped: the job was requeued ${restart} times (MAX_REQUEUES=${MAX_REQUEUES:-20})." \
      "Resume by hand: RUN_NAME=${RUN_NAME} sbatch jobs/<job>.sh"
    return 4
  fi
  stop_ray
  log "requeue: scontrol requeue ${JOB_ID} (restart $((restart + 1)) of at most ${MAX_REQUEUES:-20});" \
    "the next run resumes from global_step_${step}"
  scontrol requeue "${JOB_ID}" || {
    log "requeue: scontrol requeue failed (does the partition allow it? see docs/long_runs.md for --dependency=singleton)"
    return 7
  }
  return 0
}
