.PHONY: lock-dev
lock-dev: $(DEV_STAMP) ## re-record the dev env's exact versions in envs/dev-constraints.txt
	bash tools/dev/freeze_dev.sh "$(VENV)" envs/dev-constraints.txt
