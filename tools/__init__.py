"""Operator tools, one package per capability (run each with ``python -m tools.<name>``).

- ``tools.preflight``  check a job before it queues (``python -m tools.preflight jobs/phi4_sglang.sh``)
- ``tools.timing``     where step time goes (``python -m tools.timing LOG_DIR ...``)
- ``tools.cluster``    the local emulated Slurm cluster used by tests and ``make demo``
- ``tools.demo``       ``make demo``: the main job end to end on the local cluster
- ``tools.bench``      benchmarks behind ``make bench`` (ratios against in-process baselines)
- ``tools.testbed``    stand-ins for tests and the demo: tiny model, fake trainer
- ``tools.dev``        the development environment, system packages, shellcheck

The GPU environments' build and check live beside their specs in ``envs/``; data preparation is
``dataprep``; rewards are ``rewards``.
"""
