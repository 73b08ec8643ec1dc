"""The worker asks math-verify again, with one plain symbol per name and a free ``i`` as the
imaginary unit, when its first answer is "different" (rewards._symbolic_worker.with_shared_symbols).

latex2sympy makes every symbol of an answer that mentions ``i`` non-real and the other answer's
real, so the two sides compare different ``n``; and it reads a free ``i`` as a variable. Each
credited pair below is refused by math-verify alone (checked in the first test)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
import sympy

pytest.importorskip("math_verify")

from rewards import _symbolic_worker as worker

CREDITED = [
    ("$2\\cos\\theta$", "$e^{i\\theta} + e^{-i\\theta}$"),  # Euler's formula, a symbol in the exponent
    ("$2i\\sin\\theta$", "$e^{i\\theta} - e^{-i\\theta}$"),
    ("$\\cos x + i \\sin x$", "$e^{ix}$"),
    ("1", "$e^{ix} \\cdot (\\cos x - i \\sin x)$"),
    ("$-1$", "$e^{i\\pi}$"),
    ("$i$", "$e^{i\\pi/2}$"),
    ("$2\\left(\\cos\\frac{5}{6}\\pi + i\\sin\\frac{5}{6}\\pi\\right)$", "$2 e^{\\frac{5 i \\pi}{6}}$"),
    ("$\\sum_{i=1}^{n} i$", "$\\frac{n(n+1)}{2}$"),  # a bound i made the sum's n non-real
    ("$-1$", "$i^2$"),
]
REFUSED = [
    ("$1$", "$e^{i\\pi}$"),
    ("$i$", "$e^{i\\pi/3}$"),
    ("$2\\cos\\theta$", "$e^{i\\theta} - e^{-i\\theta}$"),
    ("$\\sum_{i=1}^{n} i$", "$\\frac{n(n-1)}{2}$"),
    ("$3+4i$", "$3-4i$"),
    ("$x + i$", "$x - i$"),
]


@pytest.fixture(scope="module")
def tools() -> Iterator[Any]:
    logging.disable(logging.WARNING)
    try:
        yield worker._load()
    finally:
        logging.disable(logging.NOTSET)


@pytest.mark.parametrize(("gold", "pred"), CREDITED)
def test_math_verify_alone_refuses_these(gold: str, pred: str, tools: Any) -> None:
    gold_parsed, pred_parsed = worker._parse(gold, tools), worker._parse(pred, tools)
    assert gold_parsed and pred_parsed
    assert not tools[2](gold_parsed, pred_parsed, timeout_seconds=None)


@pytest.mark.parametrize(("gold", "pred"), CREDITED)
def test_credited_with_shared_symbols(gold: str, pred: str, tools: Any) -> None:
    assert worker.compare(gold, pred, tools)
    assert worker.compare(pred, gold, tools)


@pytest.mark.parametrize(("gold", "pred"), REFUSED)
def test_still_refused(gold: str, pred: str, tools: Any) -> None:
    assert not worker.compare(gold, pred, tools)
    assert not worker.compare(pred, gold, tools)


def test_nothing_to_share_gives_none(tools: Any) -> None:
    # no i, and each name one symbol: the first answer stands, no second call
    assert worker.with_shared_symbols(worker._parse("$x+1$", tools), worker._parse("$x+2$", tools)) is None
    shared = worker.with_shared_symbols(worker._parse("$e^{i x}$", tools), worker._parse("$x$", tools))
    assert shared is not None
    gold, pred = shared
    assert gold[0].has(sympy.I)
    assert {s.name for s in gold[0].free_symbols} == {"x"} == {s.name for s in pred[0].free_symbols}
    assert gold[0].free_symbols == pred[0].free_symbols  # one symbol x on both sides
