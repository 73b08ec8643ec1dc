"""The worker compares rewards._symbolic_worker.WARM_UP_PAIRS before it says it is ready, so that
sympy's and math-verify's code for each kind of answer is loaded at start-up, not by the first
calls of a run. A warm-up pair that raised would be skipped there in silence; here it fails."""

from __future__ import annotations

import logging

import pytest

pytest.importorskip("math_verify")

from rewards import _symbolic_worker as worker


def test_every_warm_up_pair_is_a_real_comparison() -> None:
    tools = worker._load()
    logging.disable(logging.WARNING)
    try:
        verdicts = [worker.compare(gold, pred, tools) for gold, pred in worker.WARM_UP_PAIRS]
    finally:
        logging.disable(logging.NOTSET)
    # Both outcomes occur (the "different" ones run sympy's simplify and solve to the end), and the
    # pairs are distinct kinds, not one answer repeated.
    assert True in verdicts and False in verdicts
    assert len({gold for gold, _ in worker.WARM_UP_PAIRS}) == len(worker.WARM_UP_PAIRS)
