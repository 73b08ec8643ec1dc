# Rewards (issue 3): benchmark of rewards/ against straightforward baselines, same process.
BENCH_REWARD_ARGS ?=

.PHONY: bench-reward bench
bench-reward: $(DEV_STAMP) ## reward speed/agreement vs baselines (ratios, PNG in outputs/); BENCH_REWARD_ARGS=--samples 40
	$(PY) -m tools.bench.reward $(BENCH_REWARD_ARGS)

bench: bench-reward
