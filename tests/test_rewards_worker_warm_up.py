"""The worker compares rewards._symbolic_worker.WARM_UP_PAIRS after it says it is ready, once no
request has come for IDLE_AFTER_S, so that sympy's and math-verify's code for each kind of answer
is loaded early without a caller waiting for it. A warm-up pair that raised would be skipped
there in silence; here it fails. After its first request, also while idle, it parses
rewards.idle_warm_up.WARM_UP_TEXTS."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_rewards_worker_parsing import random_latex

from rewards import _symbolic_worker as worker
from rewards.idle_warm_up import WARM_UP_TEXTS
from rewards.line_pipe import LineReader

pytest.importorskip("math_verify")


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


def _dfa_states() -> int:
    from latex2sympy2_extended.gen.antlr4_9_3.PSParser import PSParser

    return sum(len(dfa.states) for dfa in PSParser.decisionsToDFA)


def test_idle_warm_up_texts_teach_the_parser_their_shapes() -> None:
    """Each idle warm-up text parses to an answer, and once they are parsed an answer of the same
    shape needs no new parser decisions (rewards.idle_warm_up)."""
    tools = worker._load()
    logging.disable(logging.WARNING)
    try:
        assert len(set(WARM_UP_TEXTS)) == len(WARM_UP_TEXTS)
        assert all(worker._parse_uncached(text, tools) for text in WARM_UP_TEXTS)
        fresh = "$\\begin{pmatrix} 5 & 1 & 0 \\\\ 2 & 7 & 1 \\\\ 0 & -4 & 9 \\end{pmatrix}$"
        before = _dfa_states()
        worker._parse_uncached("$9 kg, 5$", tools)  # shapes of the warm-up texts, other values
        worker._parse_uncached("$H_{k} = H_{k-1} + H_{k-2}$", tools)
        worker._parse_uncached(fresh, tools)
        assert _dfa_states() == before
        for text in random_latex(seed=2026, count=20):  # new shapes (so the count above can tell)
            worker.warm_up_parse(f"${text}$", tools)
        assert _dfa_states() > before
    finally:
        logging.disable(logging.NOTSET)


def test_a_worker_answers_while_it_warms_up() -> None:
    """Requests sent right after "ready" (idle warm-up still going) and later are all answered,
    and the worker exits when its input closes."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rewards._symbolic_worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert proc.stdin is not None and proc.stdout is not None
    replies = LineReader(proc.stdout.fileno())
    try:
        assert json.loads(replies.line(120.0) or b"{}") == {"ready": True}
        answers = []
        for gold, pred, pause in [
            ("$x^2$", "$x \\cdot x$", 0.0),
            ("1", "2", 0.0),
            ("$\\frac12$", "$0.5$", 0.5),
        ]:
            time.sleep(pause)
            proc.stdin.write(json.dumps({"gold": gold, "pred": pred}).encode() + b"\n")
            proc.stdin.flush()
            answers.append(json.loads(replies.line(30.0) or b"{}"))
        assert answers == [{"eq": True}, {"eq": False}, {"eq": True}]
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        proc.wait()


_COUNTED_WARM_UP = """
import sys, time
from rewards import _symbolic_worker as w
done = []
real = w.compare
pause = float(sys.argv[1])
w.IDLE_AFTER_S = 1.0  # a lull this test's back-to-back requests never leave, even on a loaded machine
def compare(gold, pred, tools):
    if (gold, pred) in w.WARM_UP_PAIRS:
        time.sleep(pause)
        done.append(gold)
        print(f"warm {len(done)}", file=sys.stderr, flush=True)
    return real(gold, pred, tools)
w.compare = compare
sys.exit(w.main())
"""


def _warm_up_run(pause_s: float, idle_s: float) -> tuple[list[dict[str, object]], int]:
    """A worker whose warm-up pairs each take ``pause_s`` more; three requests, one after the
    other from "ready" on, ``idle_s`` of nothing, then end of input: (the replies, how many
    pairs it compared)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _COUNTED_WARM_UP, str(pause_s)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    replies = LineReader(proc.stdout.fileno())
    try:
        assert json.loads(replies.line(120.0) or b"{}") == {"ready": True}
        answers = []
        for gold, pred in [("$x^2$", "$x \\cdot x$"), ("1", "2"), ("$\\frac12$", "$0.5$")]:
            proc.stdin.write(json.dumps({"gold": gold, "pred": pred}).encode() + b"\n")
            proc.stdin.flush()
            answers.append(json.loads(replies.line(60.0) or b"{}"))
        time.sleep(idle_s)
        proc.stdin.close()  # end of input: the worker exits after the item it is doing
        assert proc.wait(timeout=60) == 0
        warmed = [line for line in proc.stderr.read().decode().splitlines() if line.startswith("warm ")]
        return answers, len(warmed)
    finally:
        proc.kill()
        proc.wait()


def test_requests_do_not_wait_for_the_warm_up_pairs() -> None:
    """With every warm-up pair made 0.4 s slow (5.2 s for all), requests sent one after another
    from "ready" on are answered without a pair between them (pairs wait for IDLE_AFTER_S, here
    1 s, without a request); idle, the worker then compares all of them."""
    expected = [{"eq": True}, {"eq": False}, {"eq": True}]
    answers, warmed = _warm_up_run(pause_s=0.4, idle_s=0.0)
    assert answers == expected
    assert warmed == 0
    answers, warmed = _warm_up_run(pause_s=0.0, idle_s=6.0)
    assert answers == expected
    assert warmed == len(worker.WARM_UP_PAIRS)
