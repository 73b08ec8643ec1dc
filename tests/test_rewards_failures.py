"""A failure the reward absorbs is logged without flooding verl's log.

verl calls ``compute_score`` for every sample; a defect that repeats (a ``data_source`` column of
the wrong type, a bug on one answer form) must not write a traceback per sample. Each kind of
failure is traced the first few times, then counted (``rewards/failures.py``).
"""

from __future__ import annotations

import logging

import pytest

from rewards import compute_score
from rewards.failures import TRACEBACKS, failure_counts


class _BrokenSource(str):
    """A data_source whose ``lower()`` raises: compute_score's own failure path."""

    def lower(self) -> str:  # type: ignore[override]
        raise RuntimeError("broken data_source")


def test_a_repeated_failure_is_traced_a_few_times_then_counted(caplog: pytest.LogCaptureFixture) -> None:
    key = ("compute_score failed; scoring 0", "RuntimeError")
    before = failure_counts().get(key, 0)
    with caplog.at_level(logging.ERROR, logger="rewards"):
        scores = [compute_score(_BrokenSource("openai/gsm8k"), "#### 5", "5")["score"] for _ in range(1000)]
    assert scores == [0.0] * 1000  # every sample still scored
    assert failure_counts()[key] == before + 1000
    records = [r for r in caplog.records if r.getMessage().startswith(key[0])]
    traced = [r for r in records if r.exc_info]
    assert 1 <= len(records) <= TRACEBACKS + 1 + 20, [r.getMessage() for r in records]
    assert len(traced) <= TRACEBACKS
    if before == 0:  # the first failures of this kind in this process carry the traceback
        assert len(traced) == TRACEBACKS and "broken data_source" in caplog.text
    assert any("failures so far" in r.getMessage() for r in records)
