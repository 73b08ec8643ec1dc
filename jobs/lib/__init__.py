"""Helpers of the launcher: attention choice (attention.py), Ray cluster wait/probe (ray_cluster.py)."""
