# GRPO on Slurm with verl 0.9.1 — developer and user entry points.
# `make help` lists the targets. Sub-areas add their targets in mk/*.mk.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules

ROOT := $(abspath $(dir $(firstword $(MAKEFILE_LIST))))
VENV := $(ROOT)/.venv
PY := $(VENV)/bin/python
DEV_STAMP := $(VENV)/.dev-installed
export PYTHONPATH := $(ROOT)$(if $(PYTHONPATH),:$(PYTHONPATH))
# The cluster's site file: SITE_ENV, else jobs/site.env (jobs/site.env.example documents it).
# SITE_ENV itself stays unset unless the user sets it: a missing default file is not an error.
SITE_FILE = $(or $(SITE_ENV),$(ROOT)/jobs/site.env)
# $(call site_var,NAME): NAME's value after sourcing the site file (empty without the file).
site_var = $(shell [ -f "$(SITE_FILE)" ] && bash -c 'set +eu; source "$$1" >/dev/null 2>&1; printf "%s" "$${!2:-}"' _ "$(SITE_FILE)" $(1))

.PHONY: help dev sysdeps lint shellcheck pytest test test-quick demo clean-demo bench

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | sort | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

dev: $(DEV_STAMP) ## create/update the CPU development env in .venv (idempotent)

$(DEV_STAMP): pyproject.toml envs/dev-constraints.txt tools/dev/dev_env.sh
	bash tools/dev/dev_env.sh "$(VENV)"

sysdeps: ## install the Debian packages the tests need (as root), or say which are missing
	bash tools/dev/sysdeps.sh

lint: $(DEV_STAMP) ## ruff
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

shellcheck: sysdeps ## shellcheck every shell script in the repo
	bash tools/dev/shellcheck_all.sh

pytest: $(DEV_STAMP) sysdeps ## the test suite (the local Slurm cluster starts inside it; builds the CPU engine env first)
	$(MAKE) --no-print-directory env-cpu
	$(PY) -m pytest $(PYTEST_ARGS)

test: ## the whole check: dev env, system packages, ruff, shellcheck, pytest
	$(MAKE) --no-print-directory dev
	$(MAKE) --no-print-directory sysdeps
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory shellcheck
	$(MAKE) --no-print-directory pytest

test-quick: ## make test without the engine-stack tier (local work; CI runs make test)
	$(MAKE) --no-print-directory test PYTEST_ARGS="-m 'not engine_stack' $(PYTEST_ARGS)"

demo: $(DEV_STAMP) sysdeps ## the main job trains for real (GRPO on CPU) on a local 2-node cluster: requeue, resume, export, report
	$(MAKE) --no-print-directory env-cpu
	bash tools/demo/demo.sh

bench: ## every benchmark (rewards, data, preflight), printed as ratios against in-process baselines

clean-demo: ## stop the local cluster and remove .demo/
	bash tools/cluster/local_slurm.sh down || true
	rm -rf .demo

-include $(sort $(wildcard mk/*.mk))
