# Rewards (issues 3, 14): benchmark of rewards/ against math-verify and straightforward baselines.
# BENCH_REWARD_DATA=/folder/of/labelled/*.jsonl adds public sets (see docs/rewards.md).
BENCH_REWARD_ARGS ?=
BENCH_REWARD_DATA ?=

.PHONY: bench-reward bench
bench-reward: $(DEV_STAMP) ## reward agreement/speed vs math-verify per set, 16-thread latency, Phi-4 (PNG in outputs/)
	$(PY) -m tools.bench.reward $(if $(BENCH_REWARD_DATA),--data '$(BENCH_REWARD_DATA)') $(BENCH_REWARD_ARGS)

bench: bench-reward
