# Preflight (issue 7): check a job against the installed verl before it waits in the queue.
# See docs/preflight.md. Settings (command line or environment):
#   JOB    job script or experiment name (default jobs/phi4_sglang.sh)
#   ARGS   extra preflight arguments: --engine vllm --nodes 2 --json key=value ...
#   SITE_ENV  site file to read (default jobs/site.env)
.PHONY: preflight

JOB ?= jobs/phi4_sglang.sh
ARGS ?=

preflight: $(DEV_STAMP) ## check a job before submitting it: make preflight JOB=jobs/gsm8k_qwen_vllm.sh ARGS='--nodes 2'
	$(PY) -m tools.preflight "$(JOB)" $(ARGS)

bench-preflight: $(DEV_STAMP) ## benchmark: preflight wall/CPU seconds in a fresh interpreter vs a bare `import verl`
	$(PY) -m tools.bench.preflight

bench: bench-preflight
