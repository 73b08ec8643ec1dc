#!/usr/bin/env bash
# Getting started: Qwen2.5-1.5B-Instruct GRPO on GSM8K, SGLang rollout, one node of 8 GPUs.
#   sbatch jobs/gsm8k_qwen_sglang.sh [hydra overrides]
#   DRY_RUN=1 sbatch jobs/gsm8k_qwen_sglang.sh       everything but training
# Config: jobs/configs/gsm8k_qwen.yaml; cluster settings: jobs/site.env.
#SBATCH --job-name=gsm8k_qwen_sglang
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:8
#SBATCH --cpus-per-task=16
#SBATCH --exclusive
#SBATCH --mem=0
#SBATCH --time=04:00:00
#SBATCH --output=%x-%j.log
#SBATCH --open-mode=append
#SBATCH --requeue
#SBATCH --signal=B:USR1@600
set -euo pipefail
EXPERIMENT=gsm8k_qwen
ENGINE=sglang
# sbatch runs a copy of this file: the launcher is found from the submit dir (the repo root)
# shellcheck source=jobs/lib/launch.sh
source "${GRPO_REPO:-${SLURM_SUBMIT_DIR:-.}}/jobs/lib/launch.sh"
launch_job "$@"
