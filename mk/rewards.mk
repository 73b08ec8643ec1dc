# Rewards (issues 3, 14): the repetition kernel, and the benchmark of rewards/ against math-verify
# and straightforward baselines.
# BENCH_REWARD_DATA=/folder/of/labelled/*.jsonl adds public sets (see docs/rewards.md).
BENCH_REWARD_ARGS ?=
BENCH_REWARD_DATA ?=

.PHONY: bench-reward bench native native-if-possible
# A Python >= 3.8 to drive the compiler: the dev env's when there is one.
NATIVE_PY = $(firstword $(wildcard $(VENV)/bin/python) python3)

native: ## build the Phi-4 repetition penalty's C kernel (rewards/native/); fails without a C compiler
	$(NATIVE_PY) -m rewards.repetition_native --strict

# The dev env, the CPU engine env and the tests build it when they can and go on (saying why) when
# they cannot: the reward then runs its numpy passes. envs/build.sh builds it for the GPU envs.
native-if-possible:
	@$(NATIVE_PY) -m rewards.repetition_native || echo "native: not built; the Phi-4 reward will use its numpy passes" >&2

dev env-cpu pytest: native-if-possible

bench-reward: $(DEV_STAMP) ## reward agreement/speed vs math-verify per set, 16-thread latency, Phi-4 (PNG in outputs/)
	$(PY) -m tools.bench.reward $(if $(BENCH_REWARD_DATA),--data '$(BENCH_REWARD_DATA)') $(BENCH_REWARD_ARGS)

bench: bench-reward
