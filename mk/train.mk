# Real training on CPU (issue 13): the CPU engine env, and exporting checkpoints.
#   make env-cpu                     build/update the CPU engine env (CPU_ENV, default .venv-cpu)
#   make lock-cpu                    re-resolve envs/cpu-constraints.txt
#   make export CKPT=<run ckpt dir> [STEP=N] [BASE=<model dir>] OUT=<dir>   checkpoint -> Hugging Face folder
.PHONY: env-cpu lock-cpu export

CPU_ENV ?= $(ROOT)/.venv-cpu
CKPT ?=
STEP ?=
OUT ?=
export CPU_ENV
# verl's checkpoints hold torch DTensors: they load with the torch that wrote them (the engine
# envs' 2.11.0; the dev env's 2.13.0 cannot unpickle 2.11's device mesh). EXPORT_ENV picks the env;
# default: the site file's vLLM env, else its SGLang env, else the CPU engine env.
EXPORT_ENV ?= $(firstword $(foreach e,$(call site_var,ENV_PREFIX_VLLM) $(call site_var,ENV_PREFIX_SGLANG) $(CPU_ENV),$(if $(wildcard $(e)/bin/python),$(e))))

env-cpu: ## build/update the CPU engine env at CPU_ENV (.venv-cpu): torch + vLLM CPU build + verl, for make demo and PLATFORM=cpu
	bash envs/build_cpu.sh env "$(CPU_ENV)"

lock-cpu: $(DEV_STAMP) ## re-resolve envs/cpu-constraints.txt (the CPU engine env's exact versions)
	bash envs/build_cpu.sh lock

export: ## checkpoint -> HF model folder: make export CKPT=<run ckpt dir> [STEP=N] [BASE=<model dir>] OUT=<dir> (verl's model merger; a LoRA adapter is merged, BASE for save_lora_only runs)
	@if [[ -z "$(CKPT)" || -z "$(OUT)" ]]; then \
		echo "export: usage: make export CKPT=CKPT_ROOT/<experiment>/<run name> [STEP=N] [BASE=<model dir>] OUT=<dir>" >&2; exit 2; fi
	@if [[ -z "$(EXPORT_ENV)" ]]; then \
		echo "export: no engine env with python found (site ENV_PREFIX_VLLM/ENV_PREFIX_SGLANG, $(CPU_ENV)): build one (make env-cpu) or set EXPORT_ENV=<env prefix>" >&2; exit 2; fi
	"$(EXPORT_ENV)/bin/python" -m tools.export "$(CKPT)" $(if $(STEP),--step "$(STEP)") $(if $(BASE),--base "$(BASE)") --out "$(OUT)"
