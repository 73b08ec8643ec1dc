"""Preflight: check a GRPO job in seconds on the login node, before it waits in the queue.

Entry: ``python -m tools.preflight JOB_SCRIPT_OR_EXPERIMENT [--json] [overrides ...]`` (``cli.py``).
``config`` composes the job with the installed verl and finds unknown/legacy keys, ``checks``
holds the report and the allocation/batch/engine rules, ``files`` checks model, data, reward and
checkpoint paths, ``memory`` estimates GPU memory per rank.
"""
