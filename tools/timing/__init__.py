"""Step-time report: where each GRPO step's time goes, per run and side by side.

Entry: ``python -m tools.timing LOG [LOG ...] [--steps 3:] [--plot out.png] [--json]`` (``report.py``).
``parse`` reads verl console logs and file-logger JSONL, ``phases`` knows verl's timers and their
nesting, ``plot`` draws the PNG; ``jobs.sh`` is ``make report`` (logs by Slurm job id).
"""
