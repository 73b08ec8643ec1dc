#!/usr/bin/env bash
# `make demo`: the product's main job end to end on this machine, without GPUs or a cluster.
#   local 2-node Slurm (emulated, 8 placeholder GPUs per node) -> demo data -> stand-in model
#   -> preflight -> DRY_RUN=1 sbatch --nodes=2 jobs/phi4_sglang.sh (real Ray, real verl config)
#   -> what would have been trained.
# Everything lands in .demo/ (git-ignored); .demo/site.env is kept for reuse.
# Settings: DEMO_NODES (2), DEMO_ROWS (256), DEMO_JOB (jobs/phi4_sglang.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "${root}"
demo="${root}/.demo"
py="${root}/.venv/bin/python"
nodes="${DEMO_NODES:-2}"
rows="${DEMO_ROWS:-256}"
job="${DEMO_JOB:-jobs/phi4_sglang.sh}"
site="${demo}/site.env"
data_dir="${demo}/data/synthetic"
model_dir="${demo}/models/Phi-4-reasoning-plus"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
die() {
  printf 'demo: error: %s\n' "$*" >&2
  exit 1
}

[[ -x "${py}" ]] || die "no dev env at .venv; run 'make dev' (make demo does it for you)"
[[ -f "${job}" ]] || die "${job} not found"
mkdir -p "${demo}"

step "1/6 local Slurm cluster: ${nodes} emulated nodes with 8 placeholder GPUs each (tools/cluster/local_slurm.sh)"
bash tools/cluster/local_slurm.sh up "${nodes}"
eval "$(bash tools/cluster/local_slurm.sh env)"
sinfo -N -o '%N %T %G %c' | sed 's/^/    /'

step "2/6 site file ${site#"${root}"/} (the local cluster's stand-in for jobs/site.env)"
if [[ -f "${site}" ]]; then
  echo "    reusing it (delete it to start over)"
else
  tmp="$(mktemp "${site}.XXXXXX")"
  cat >"${tmp}" <<EOF
# Written by 'make demo' for the local emulated cluster. Same keys as jobs/site.env.example.
export DATA_ROOT=${demo}/data
export MODEL_ROOT=${demo}/models
export CKPT_ROOT=${demo}/checkpoints
export LOG_ROOT=${demo}/logs
export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
export HF_DATASETS_OFFLINE=1
# What the emulated nodes stand for (preflight checks host RAM and checkpoint space against them):
# 8 x H100 nodes with 2 TB of RAM, and a checkpoint filesystem with 50 TB to spare (this disk
# cannot hold Phi-4 checkpoints; the dry run writes none).
export NODE_MEM_GB=2000
export CKPT_FREE_GB=50000
EOF
  mv "${tmp}" "${site}"
  echo "    wrote it"
fi
export SITE_ENV="${site}"

step "3/6 demo data: ${rows} generated arithmetic word problems stand in for Omni-MATH (python -m dataprep synthetic)"
"${py}" -m dataprep synthetic --output "${data_dir}" --n "${rows}" --seed 0 --prompt-template phi4-reasoning
"${py}" -m dataprep check "${data_dir}/train.parquet" "${data_dir}/test.parquet" | sed 's/^/    /'

step "4/6 stand-in model: Phi-4-reasoning-plus's architecture (config.json, 32k context) + a tiny local tokenizer, no weights"
"${py}" -m tools.testbed.tiny_model "${model_dir}" --shape tests/fixtures/model_configs/phi4_14b.json \
  --set max_position_embeddings=32768

overrides=(
  "data.train_files=${data_dir}/train.parquet"
  "data.val_files=${data_dir}/test.parquet"
)

step "5/6 preflight on the 'login node' (the job runs the same check again before Ray starts)"
"${py}" -m tools.preflight "${job}" --nodes "${nodes}" "${overrides[@]}"

step "6/6 DRY_RUN=1 sbatch --nodes=${nodes} --wait ${job} (real Slurm, real Ray on every node, real verl config)"
mkdir -p "${demo}/slurm"
export DRY_RUN=1 GRPO_REPO="${root}"
set +e
job_id="$(sbatch --parsable --wait --nodes="${nodes}" \
  --output="${demo}/slurm/job-%j.log" "${job}" "${overrides[@]}")"
rc=$?
set -e
job_id="${job_id%%;*}"
job_log="${demo}/slurm/job-${job_id}.log"
if [[ -f "${job_log}" ]]; then
  sed 's/^/    /' "${job_log}"
fi
((rc == 0)) || die "the dry-run job ${job_id} failed (exit ${rc}); its log: ${job_log:-none}"

log_dir="${demo}/logs/${job_id}"
step "what would have been trained"
"${py}" -m tools.demo.summary --config "${log_dir}/config.yaml" --manifest "${data_dir}/manifest.json" \
  --job "${job}"
cat <<EOF

    job log:        ${job_log#"${root}"/}
    composed config ${log_dir#"${root}"/}/config.yaml
    Ray logs:       ${log_dir#"${root}"/}/ray-<node>.log
    The local cluster is still up for a look (squeue, sinfo; eval "\$(tools/cluster/local_slurm.sh env)").
    Stop it and remove .demo/ with: make clean-demo
    On a real cluster: README.md, "Running on your cluster".
EOF
