# Step-time report (issue 9): tools/timing/report.py over jobs' logs in LOG_ROOT/<job id>/.
# LOG_ROOT: from the command line or environment, else from the site file $(SITE_ENV), else .demo/logs.
REPORT_DIR ?= $(ROOT)/outputs/timing

.PHONY: report
report: $(DEV_STAMP) ## step-time breakdown of jobs: make report JOBS="<id> <id>" [STEPS=3:] [NAMES=a,b]
	@PY='$(PY)' LOG_ROOT='$(LOG_ROOT)' SITE_ENV='$(SITE_ENV)' STEPS='$(STEPS)' NAMES='$(NAMES)' \
	  REPORT_ARGS='$(REPORT_ARGS)' bash '$(ROOT)/tools/timing/jobs.sh' '$(REPORT_DIR)' $(JOBS)
