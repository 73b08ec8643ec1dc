# Rewards (issues 3, 14): the repetition kernel, and the benchmark of rewards/ against math-verify
# and straightforward baselines.
# BENCH_REWARD_DATA=/folder/of/labelled/*.jsonl adds public sets (see docs/rewards.md).
BENCH_REWARD_ARGS ?=
BENCH_REWARD_DATA ?=

.PHONY: bench-reward bench native
native: ## build the Phi-4 repetition penalty's C kernel (rewards/native/; without it the numpy passes run, ~3x slower)
	python3 -m rewards.repetition_native

# Every env a reward runs in gets the kernel (one library serves them all: it is called with ctypes),
# and the tests run it (sysdeps installs a compiler where one is missing).
dev env-cpu env-sglang env-vllm pytest: native

bench-reward: $(DEV_STAMP) ## reward agreement/speed vs math-verify per set, 16-thread latency, Phi-4 (PNG in outputs/)
	$(PY) -m tools.bench.reward $(if $(BENCH_REWARD_DATA),--data '$(BENCH_REWARD_DATA)') $(BENCH_REWARD_ARGS)

bench: bench-reward
