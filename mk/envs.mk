# GPU environments for the rollout engines (issue 5): conda spec + pip lock per engine.
# Settings pass through the environment: ENV_PREFIX, WHEELHOUSE, DRY_RUN=1, FLASH_ATTN=1,
# MAX_JOBS, SITE_ENV, INDEX_URL, LOG_DIR. See envs/README.md.
.PHONY: lock lock-check env-sglang env-vllm wheelhouse check-env

ENGINE ?=
export ENV_PREFIX WHEELHOUSE DRY_RUN FLASH_ATTN MAX_JOBS SITE_ENV INDEX_URL LOG_DIR

lock: $(DEV_STAMP) ## re-resolve envs/sglang.lock and envs/vllm.lock (uv, date pinned in envs/resolve.env)
	bash envs/build.sh lock

lock-check: $(DEV_STAMP) ## re-resolve both locks against the live index (same date) and report drift; not part of make test
	bash envs/build.sh lock-check

env-sglang: ## create/update the SGLang env at ENV_PREFIX (DRY_RUN=1 prints the plan; WHEELHOUSE=DIR offline)
	bash envs/build.sh env sglang

env-vllm: ## create/update the vLLM env at ENV_PREFIX (DRY_RUN=1 prints the plan; FLASH_ATTN=1 builds flash-attn)
	bash envs/build.sh env vllm

wheelhouse: ## download every locked file for ENGINE=sglang|vllm into WHEELHOUSE (default wheelhouse/ENGINE)
	@if [[ -z "$(ENGINE)" ]]; then echo "wheelhouse: set ENGINE=sglang or ENGINE=vllm" >&2; exit 2; fi
	bash envs/build.sh wheelhouse "$(ENGINE)"

check-env: ## check the active env against its lock: make check-env ENGINE=sglang|vllm [CHECK_ARGS=--no-gpu]
	@if [[ -z "$(ENGINE)" ]]; then echo "check-env: set ENGINE=sglang or ENGINE=vllm" >&2; exit 2; fi
	python3 envs/check_env.py --engine "$(ENGINE)" $(CHECK_ARGS)
