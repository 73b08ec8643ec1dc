"""Benchmarks behind ``make bench``: each prints ratios against a baseline run in the same process.

``python -m tools.bench.reward``, ``python -m tools.bench.data``, ``python -m tools.bench.preflight``.
"""
