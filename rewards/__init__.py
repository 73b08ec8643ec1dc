"""Reward functions for verl (filled in by the rewards work)."""
