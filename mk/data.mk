# Data preparation (issue 4): dataprep/prepare.py -> verl Parquet under $(DATA_ROOT). See docs/data.md.
# Settings (command line or environment):
#   DATA_ROOT          output root (default: DATA_ROOT of the site file $(SITE_FILE), else outputs/data): gsm8k/, omni_math/ each get
#                      train.parquet, test.parquet, manifest.json
#   GSM8K_TRAIN        local GSM8K train file (JSONL/Parquet...); empty: hub openai/gsm8k
#   GSM8K_TEST         local GSM8K test file; empty: GSM8K_TEST_SIZE (500) random rows of GSM8K_TRAIN,
#                      or the hub's test split when GSM8K_TRAIN is empty too
#   OMNI_MATH          local Omni-MATH file; empty: hub KbsdJames/Omni-MATH (split test)
#   OMNI_MIN_DIFFICULTY  keep Omni-MATH rows with difficulty >= this (default 5)
#   OMNI_TEST_SIZE     Omni-MATH test rows (N or fraction, default 200), seed DATA_SEED (default 0)
#   TOKENIZER, MAX_PROMPT_LENGTH  apply the model's chat template as verl does and drop longer prompts
#   DATA_ARGS          extra arguments for every prepare.py call (e.g. --dedup --skip-bad)
.PHONY: data data-gsm8k data-omni-math data-check bench-data bench

DATA_ROOT ?= $(or $(call site_var,DATA_ROOT),$(ROOT)/outputs/data)
GSM8K_TRAIN ?=
GSM8K_TEST ?=
OMNI_MATH ?=
OMNI_MIN_DIFFICULTY ?= 5
OMNI_TEST_SIZE ?= 200
DATA_SEED ?= 0
TOKENIZER ?=
MAX_PROMPT_LENGTH ?=
DATA_ARGS ?=
BENCH_DATA_ROWS ?= 1000000

_DATA_TOK := $(if $(TOKENIZER),--tokenizer "$(TOKENIZER)") $(if $(MAX_PROMPT_LENGTH),--max-prompt-length $(MAX_PROMPT_LENGTH))
_DATA_CHECK_TOK := $(_DATA_TOK)
# GSM8K's test split: GSM8K_TEST, else (a local train file alone) GSM8K_TEST_SIZE random rows, else the hub's.
GSM8K_TEST_SIZE ?= 500
_GSM8K_TEST_ARGS := $(if $(GSM8K_TEST),--test-input "$(GSM8K_TEST)",$(if $(GSM8K_TRAIN),--test-size $(GSM8K_TEST_SIZE) --seed "$(DATA_SEED)",--test-input openai/gsm8k))

data: data-gsm8k data-omni-math ## GSM8K + Omni-MATH (difficulty >= OMNI_MIN_DIFFICULTY) into DATA_ROOT, local files or hub
	@echo "prepared data under $(DATA_ROOT) (see */manifest.json)"

data-gsm8k: $(DEV_STAMP) ## GSM8K (GSM8K_TRAIN/GSM8K_TEST files, else hub) into DATA_ROOT/gsm8k, then check it
	$(PY) -m dataprep gsm8k --input "$(or $(GSM8K_TRAIN),openai/gsm8k)" \
		$(_GSM8K_TEST_ARGS) \
		--output "$(DATA_ROOT)/gsm8k" $(_DATA_TOK) $(DATA_ARGS)
	$(PY) -m dataprep check "$(DATA_ROOT)/gsm8k/train.parquet" "$(DATA_ROOT)/gsm8k/test.parquet" $(_DATA_CHECK_TOK)

data-omni-math: $(DEV_STAMP) ## Omni-MATH difficulty >= OMNI_MIN_DIFFICULTY (OMNI_MATH file, else hub) into DATA_ROOT/omni_math
	$(PY) -m dataprep omni-math --input "$(or $(OMNI_MATH),KbsdJames/Omni-MATH)" --hub-split test \
		--min-difficulty "$(OMNI_MIN_DIFFICULTY)" --test-size "$(OMNI_TEST_SIZE)" --seed "$(DATA_SEED)" \
		--output "$(DATA_ROOT)/omni_math" $(_DATA_TOK) $(DATA_ARGS)
	$(PY) -m dataprep check "$(DATA_ROOT)/omni_math/train.parquet" "$(DATA_ROOT)/omni_math/test.parquet" $(_DATA_CHECK_TOK)

data-check: $(DEV_STAMP) ## validate every Parquet under DATA_ROOT (schema, empties, duplicates, ground truths)
	@shopt -s nullglob; files=("$(DATA_ROOT)"/*/*.parquet); \
	if (( $${#files[@]} == 0 )); then echo "data-check: no Parquet files under $(DATA_ROOT)" >&2; exit 2; fi; \
	$(PY) -m dataprep check "$${files[@]}" $(_DATA_CHECK_TOK)

bench-data: $(DEV_STAMP) ## benchmark: BENCH_DATA_ROWS (1,000,000) synthetic rows through prepare.py custom: rows/s, peak memory
	$(PY) -m tools.bench.data --rows "$(BENCH_DATA_ROWS)"

bench: bench-data
