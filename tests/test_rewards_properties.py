"""Property tests: over random and adversarial strings every compute_score returns a valid dict
within its wall-clock bound and stays in its documented range."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rewards import compute_score as math_score
from rewards.bounded import get_pool
from rewards.equivalence import DEFAULT_TIMEOUT_S
from rewards.gsm8k import compute_score as gsm8k_score
from rewards.phi4 import compute_score as phi4_score

TIMEOUT_S = 0.5
SLACK_S = 5.0  # process kill + respawn bookkeeping on a loaded 2-core machine

FRAGMENTS = [
    "\\boxed{",
    "\\fbox ",
    "}",
    "{",
    "^{",
    "^",
    "_",
    "\\frac{",
    "\\sqrt{",
    "\\sqrt[3]{",
    "\\pi",
    "e",
    "x",
    "y",
    "9",
    "99",
    "1.5",
    "-",
    "+",
    "*",
    "/",
    "=",
    "\\le",
    ",",
    "(",
    ")",
    "[",
    "]",
    "\\{",
    "\\}",
    "\\infty",
    "\\text{",
    "\\%",
    "$",
    "\\(",
    "\\)",
    "<think>",
    "</think>",
    "####",
    " the answer is ",
    "\\begin{pmatrix}",
    "&",
    "\\\\",
    "\\end{pmatrix}",
    "!",
    "\\sin",
    "\\log",
    "\u2212",
    " ",
    "\n",
    "\x00",
]
adversarial = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)
anything = st.one_of(
    st.text(max_size=300), adversarial, st.binary(max_size=100).map(lambda b: b.decode("latin-1"))
)
golds = st.one_of(
    st.sampled_from(["42", "\\frac{1}{2}", "x^2+1", "\\{1,2\\}", "(0,1]", "B", "\\sqrt{2}"]), adversarial
)

PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@pytest.fixture(scope="module", autouse=True)
def _warm_pool() -> None:
    get_pool().warm_up()  # worker start-up is not part of a call's bound


@PROPERTY_SETTINGS
@given(solution=anything, gold=golds)
def test_math_score_bounded_and_valid(solution: str, gold: str) -> None:
    start = time.monotonic()
    got = math_score("KbsdJames/Omni-MATH", solution, gold, timeout_s=TIMEOUT_S)
    assert time.monotonic() - start < TIMEOUT_S + SLACK_S
    assert got["score"] in (0.0, 1.0) and got["acc"] in (0, 1) and isinstance(got["pred"], str)


@PROPERTY_SETTINGS
@given(solution=anything, gold=golds, length=st.integers(0, 40_000), truncated=st.booleans())
def test_phi4_score_bounded_and_in_range(solution: str, gold: str, length: int, truncated: bool) -> None:
    start = time.monotonic()
    got = phi4_score(
        "omni", solution, gold, {"response_length": length, "truncated": truncated}, timeout_s=TIMEOUT_S
    )
    assert time.monotonic() - start < TIMEOUT_S + SLACK_S
    assert -9 / 13 - 1e-12 <= got["score"] <= 8 / 13 + 1e-12
    assert -1.0 <= got["rep_score"] <= 0.0
    assert got["acc"] in (0, 1) and isinstance(got["pred"], str)


@PROPERTY_SETTINGS
@given(
    solution=anything, gold=st.one_of(st.from_regex(r"-?[0-9]{1,7}", fullmatch=True), st.text(max_size=20))
)
def test_gsm8k_score_valid(solution: str, gold: str) -> None:
    got = gsm8k_score("openai/gsm8k", solution, gold, method="flexible")
    assert got["score"] in (0.0, 1.0) and got["acc"] in (0, 1) and isinstance(got["pred"], str)


BIG_INPUTS = [
    "<think>" + "\\frac{" * 100_000 + "</think> \\boxed{" + "9^" * 100_000 + "9}",
    "\\boxed{{" * 150_000,
    "\\boxed{\\boxed{" * 70_000 + "1" + "}}" * 70_000,
    "#### " + "9" * 1_000_000,
    "the answer is " + "1," * 500_000,
    "$" * 1_000_000,
]


@pytest.mark.parametrize("big", BIG_INPUTS, ids=range(len(BIG_INPUTS)))
def test_megabyte_inputs_are_handled(big: str) -> None:
    for fn in (math_score, phi4_score, gsm8k_score):
        start = time.monotonic()
        got = fn("omni", big, "42")
        assert time.monotonic() - start < DEFAULT_TIMEOUT_S + SLACK_S
        assert got["acc"] == 0
