#!/usr/bin/env bash
# `make demo`: the product's main job trains for real on this machine, without GPUs or a cluster.
#   local 2-node Slurm (emulated; 1 declared GPU per node) -> demo data -> a tiny model of
#   Phi-4-reasoning-plus's architecture -> preflight -> (the SGLang job's dry run, alongside)
#   sbatch jobs/phi4_vllm.sh on the launcher's CPU mode: verl's real GRPO trainer (FSDP2 actor +
#   reference, vLLM CPU rollouts, the project's Phi-4 reward and reward manager) for a few steps ->
#   the time-limit warning -> verl's pre-expiry save -> requeue -> resume from that checkpoint ->
#   finish -> export to a Hugging Face folder -> step-time report + PNG -> summary.
# Everything lands in .demo/ (git-ignored). Needs the CPU engine env (make env-cpu; make demo
# builds it). Settings: DEMO_NODES (2), DEMO_ROWS (64), DEMO_STEPS (5), DEMO_TIMEOUT (1200 s,
# the bound on the training job), CPU_ENV (.venv-cpu).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "${root}"
demo="${root}/.demo"
py="${root}/.venv/bin/python"
cpu_env="${CPU_ENV:-${root}/.venv-cpu}"
nodes="${DEMO_NODES:-2}"
rows="${DEMO_ROWS:-64}"
steps="${DEMO_STEPS:-5}"
bound="${DEMO_TIMEOUT:-1200}"
site="${demo}/site.env"
data_dir="${demo}/data/omni_math"
model_dir="${demo}/models/Phi-4-reasoning-plus"
started=$(date +%s)

step() { printf '\n\033[1m==> [%3ds] %s\033[0m\n' "$(($(date +%s) - started))" "$*"; }
note() { printf '    %s\n' "$*"; }
die() {
  printf 'demo: error: %s\n' "$*" >&2
  exit 1
}

[[ -x "${py}" ]] || die "no dev env at .venv; run 'make dev' (make demo does it for you)"
[[ -x "${cpu_env}/bin/python" && -f "${cpu_env}/.cpu-env-installed" ]] \
  || die "no CPU engine env at ${cpu_env} (torch + vLLM's CPU build + verl). Fix: make env-cpu (make demo builds it)"
mkdir -p "${demo}"
# A fresh run each time: the local cluster numbers its jobs from 1 again after a restart, and a
# run dir left by an earlier demo under the same job id would be resumed (already finished) by
# the launcher. Data, model and the cluster's state are rebuilt below anyway.
rm -rf "${demo}/checkpoints" "${demo}/logs" "${demo}/slurm" "${demo}/export" "${demo}/report"

step "1/9 local Slurm cluster: ${nodes} emulated nodes (tools/cluster/local_slurm.sh)"
bash tools/cluster/local_slurm.sh up "${nodes}"
eval "$(bash tools/cluster/local_slurm.sh env)"
sinfo -N -o '%N %T %G %c' | sed 's/^/    /'

step "2/9 site file ${site#"${root}"/}: PLATFORM=cpu (the launcher's CPU mode), engine env ${cpu_env#"${root}"/}"
tmp="$(mktemp "${site}.XXXXXX")"
cat >"${tmp}" <<EOF_SITE
# Written by 'make demo' for the local emulated cluster. Same keys as jobs/site.env.example.
# PLATFORM=cpu: verl's real trainer on the host CPU (jobs/lib/cpu_mode.sh).
export PLATFORM=cpu
export ENV_PREFIX_VLLM=${cpu_env}
export ENV_PREFIX_SGLANG=${root}/.venv
export DATA_ROOT=${demo}/data
export MODEL_ROOT=${demo}/models
export CKPT_ROOT=${demo}/checkpoints
export LOG_ROOT=${demo}/logs
export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
export HF_DATASETS_OFFLINE=1
# What the emulated nodes stand for in preflight's host-RAM and checkpoint-space checks.
export NODE_MEM_GB=2000
export CKPT_FREE_GB=50000
EOF_SITE
mv "${tmp}" "${site}"
export SITE_ENV="${site}"

step "3/9 demo data: ${rows} generated arithmetic word problems stand in for Omni-MATH (Phi-4-reasoning prompt)"
"${py}" -m dataprep synthetic --output "${data_dir}" --n "${rows}" --seed 0 --prompt-template phi4-reasoning
"${py}" -m dataprep check "${data_dir}/train.parquet" "${data_dir}/test.parquet" | sed 's/^/    /'

step "4/9 model: Phi-4-reasoning-plus's architecture (Phi3ForCausalLM) at toy size, random seeded weights, the project's tokenizer"
"${py}" -m tools.testbed.tiny_model "${model_dir}" --family phi3 --with-weights 2>/dev/null

# A few real GRPO steps small enough for 2 CPU cores: 4 prompts x 2 responses of <= 32 tokens.
# esi_redundant_time=7200 (> the job's 15 min): every step is "near" the job's end, so verl saves after each one
# (its pre-expiry save); the demo sends the time-limit warning once two steps are saved.
overrides=(
  "data.train_batch_size=4" "data.max_response_length=32"
  "actor_rollout_ref.rollout.n=2" "actor_rollout_ref.actor.ppo_mini_batch_size=4"
  "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=4096"
  "actor_rollout_ref.rollout.tensor_model_parallel_size=1" "actor_rollout_ref.rollout.max_num_batched_tokens=2048"
  "trainer.total_training_steps=${steps}" "trainer.save_freq=${steps}" "trainer.test_freq=-1"
  "trainer.esi_redundant_time=7200"
)

step "5/9 preflight on the 'login node' (the job runs the same check again before Ray starts)"
"${py}" -m tools.preflight jobs/phi4_vllm.sh --nodes "${nodes}" trainer.n_gpus_per_node=1 "${overrides[@]}"

mkdir -p "${demo}/slurm"
export GRPO_REPO="${root}"
step "6/9 training for real: sbatch --nodes=${nodes} --gres=gpu:1 jobs/phi4_vllm.sh (GRPO, ${steps} steps; bound ${bound} s)"
# the job skips its own copy of step 5's preflight (PREFLIGHT=0: ~30 s of imports on 2 cores) and
# the per-node import of vLLM in Ray's placement probe (PROBE_ENGINE=: all emulated nodes are this
# host, and the trainer imports vLLM there a minute later); on a cluster both run by default
job_id="$(PREFLIGHT=0 PROBE_ENGINE="" sbatch --parsable --nodes="${nodes}" --gres=gpu:1 --exclusive=user --cpus-per-task=12 --time=15 --signal=B:USR1@20 \
  --output="${demo}/slurm/job-%j.log" jobs/phi4_vllm.sh "${overrides[@]}")"
job_id="${job_id%%;*}"
job_log="${demo}/slurm/job-${job_id}.log"
run_dir="${demo}/checkpoints/phi4_omni_math/phi4_vllm-${job_id}"
log_dir="${demo}/logs/${job_id}"
echo "${job_id}" >"${demo}/last_job"
note "job ${job_id}; log ${job_log#"${root}"/}"

step "7/9 meanwhile, the SGLang job as a dry run (SGLang has no CPU build): DRY_RUN=1 sbatch --wait jobs/phi4_sglang.sh"
# no SGLang in the CPU demo: the per-node engine import check is skipped (PROBE_ENGINE=)
DRY_RUN=1 PROBE_ENGINE="" sbatch --parsable --wait --nodes="${nodes}" --gres=gpu:1 --exclusive=user --cpus-per-task=4 \
  --output="${demo}/slurm/dry-%j.log" jobs/phi4_sglang.sh "${overrides[@]}" >"${demo}/slurm/dry.id" 2>&1 &
dry_pid=$!

note "following job ${job_id} (the time-limit warning goes out once global_step_2 is saved):"
"${py}" -m tools.demo.watch --job "${job_id}" --log "${job_log}" --ckpt "${run_dir}" --signal-at-step 2 \
  --timeout "${bound}" --rss-out "${demo}/slurm/peak_rss-${job_id}" \
  || die "the training job ${job_id} did not finish (above); its log: ${job_log}"
dry_rc=0
wait "${dry_pid}" || dry_rc=$?
dry_id="$(head -n1 "${demo}/slurm/dry.id")"
dry_id="${dry_id%%;*}"
note "SGLang dry run (job ${dry_id}):"
grep -E 'config composed|all .* nodes joined|dry run' "${demo}/slurm/dry-${dry_id}.log" | sed 's/^/    /' || true
((dry_rc == 0)) || die "the SGLang dry run ${dry_id} failed (exit ${dry_rc}); its log: ${demo}/slurm/dry-${dry_id}.log"

step "8/9 export the final checkpoint with verl's model merger -> .demo/export; step-time report -> .demo/report"
# with the trainer's torch (verl's DTensor shards do not load across torch versions)
if ! "${cpu_env}/bin/python" -m tools.export "${run_dir}" --out "${demo}/export" >"${demo}/slurm/export.log" 2>&1; then
  tail -n 30 "${demo}/slurm/export.log" >&2
  die "the export to ${demo}/export failed (above; ${demo}/slurm/export.log)"
fi
grep -E '^export:' "${demo}/slurm/export.log" | sed 's/^/    /'
rm -rf "${demo}/report" && mkdir -p "${demo}/report"
"${py}" -m tools.timing "${log_dir}" --names "job ${job_id}" --out "${demo}/report/step_time.md" \
  --plot "${demo}/report/step_time.png"
sed 's/^/    /' "${demo}/report/step_time.md"

step "9/9 what happened"
"${py}" -m tools.demo.summary --config "${log_dir}/config.yaml" --manifest "${data_dir}/manifest.json" \
  --job jobs/phi4_vllm.sh --metrics "${log_dir}" --ckpt "${run_dir}" --job-log "${job_log}" \
  --export "${demo}/export" --rss "${demo}/slurm/peak_rss-${job_id}" --wall "$(($(date +%s) - started))"
cat <<EOF

    job log:        ${job_log#"${root}"/}
    metrics:        ${log_dir#"${root}"/}/metrics*.jsonl
    checkpoints:    ${run_dir#"${root}"/}
    HF export:      .demo/export  (AutoModelForCausalLM.from_pretrained(".demo/export"))
    report:         .demo/report
    The local cluster is still up for a look (squeue, sinfo; eval "\$(tools/cluster/local_slurm.sh env)").
    Stop it and remove .demo/ with: make clean-demo
    On a real cluster: README.md, "Running on your cluster".
EOF
