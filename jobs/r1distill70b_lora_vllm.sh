#!/usr/bin/env bash
# DeepSeek-R1-Distill-Llama-70B LoRA GRPO on Omni-MATH, vLLM rollout, one node of 8 GPUs.
#   sbatch jobs/r1distill70b_lora_vllm.sh [hydra overrides]     e.g. trainer.total_epochs=2
#   python -m tools.preflight jobs/r1distill70b_lora_vllm.sh      memory per GPU / node, before queueing
#   DRY_RUN=1 sbatch jobs/r1distill70b_lora_vllm.sh             everything but training
# Config: jobs/configs/r1distill70b_lora.yaml (why each setting); cluster settings: jobs/site.env.
#SBATCH --job-name=r1distill70b_lora_vllm
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:8
#SBATCH --cpus-per-task=16
#SBATCH --exclusive
#SBATCH --mem=0
#SBATCH --time=24:00:00
#SBATCH --output=%x-%j.log
#SBATCH --open-mode=append
#SBATCH --requeue
#SBATCH --signal=B:USR1@1800
set -euo pipefail
EXPERIMENT=r1distill70b_lora
ENGINE=vllm
# sbatch runs a copy of this file: the launcher is found from the submit dir (the repo root)
# shellcheck source=jobs/lib/launch.sh
source "${GRPO_REPO:-${SLURM_SUBMIT_DIR:-.}}/jobs/lib/launch.sh"
launch_job "$@"
