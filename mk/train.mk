# Real training on CPU (issue 13): the CPU engine env, and exporting checkpoints.
#   make env-cpu                     build/update the CPU engine env (CPU_ENV, default .venv-cpu)
#   make lock-cpu                    re-resolve envs/cpu-constraints.txt
#   make export CKPT=<run ckpt dir> [STEP=N] OUT=<dir>   checkpoint -> Hugging Face folder
.PHONY: env-cpu lock-cpu export

CPU_ENV ?= $(ROOT)/.venv-cpu
CKPT ?=
STEP ?=
OUT ?=
export CPU_ENV

env-cpu: ## build/update the CPU engine env at CPU_ENV (.venv-cpu): torch + vLLM CPU build + verl, for make demo and PLATFORM=cpu
	bash envs/build_cpu.sh env "$(CPU_ENV)"

lock-cpu: $(DEV_STAMP) ## re-resolve envs/cpu-constraints.txt (the CPU engine env's exact versions)
	bash envs/build_cpu.sh lock

export: $(DEV_STAMP) ## checkpoint -> HF model folder: make export CKPT=<run ckpt dir> [STEP=N] OUT=<dir> (verl's model merger)
	@if [[ -z "$(CKPT)" || -z "$(OUT)" ]]; then \
		echo "export: usage: make export CKPT=CKPT_ROOT/<experiment>/<run name> [STEP=N] OUT=<dir>" >&2; exit 2; fi
	$(PY) -m tools.export "$(CKPT)" $(if $(STEP),--step "$(STEP)") --out "$(OUT)"
