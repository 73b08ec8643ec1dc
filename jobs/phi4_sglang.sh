#!/usr/bin/env bash
# Phi-4-reasoning-plus GRPO on Omni-MATH (difficulty >= 5), SGLang rollout, 8 GPUs per node.
#   sbatch jobs/phi4_sglang.sh [hydra overrides]     e.g. trainer.total_epochs=1
#   sbatch --nodes=2 jobs/phi4_sglang.sh             multi-node
#   DRY_RUN=1 sbatch jobs/phi4_sglang.sh             everything but training
# Config: jobs/configs/phi4_omni_math.yaml; cluster settings: jobs/site.env.
#SBATCH --job-name=phi4_sglang
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:8
#SBATCH --cpus-per-task=16
#SBATCH --exclusive
#SBATCH --mem=0
#SBATCH --time=20:00:00
#SBATCH --output=%x-%j.log
#SBATCH --open-mode=append
#SBATCH --requeue
#SBATCH --signal=B:USR1@1800
set -euo pipefail
EXPERIMENT=phi4_omni_math
ENGINE=sglang
# sbatch runs a copy of this file: the launcher is found from the submit dir (the repo root)
# shellcheck source=jobs/lib/launch.sh
source "${GRPO_REPO:-${SLURM_SUBMIT_DIR:-.}}/jobs/lib/launch.sh"
launch_job "$@"
