"""Phi-4-reasoning length-aware reward (rewards/phi4.py)."""

from __future__ import annotations

import logging
import math
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rewards import phi4
from rewards.phi4 import compute_score, format_ok, length_aware_accuracy, repetition_penalty

W_ACC, W_REP = 8 / 13, 1 / 13
GOOD = "<think>Let me add 40 and 2 carefully.</think> The answer is \\boxed{42}."
WRONG = "<think>Let me add 40 and 3 carefully.</think> The answer is \\boxed{43}."


def info(length: int, truncated: bool = False) -> dict[str, object]:
    return {"response_length": length, "truncated": truncated}


@pytest.mark.parametrize(
    ("correct", "length", "expected"),
    [
        (True, 0, 1.0),
        (True, 3702, 1.0),
        (True, 25600, 1.0),
        (True, (25600 + 31744) // 2, 0.75),
        (True, 31744, 0.5),
        (True, 40000, 0.5),
        (False, 0, -1.0),
        (False, 3702 / 2, -0.75),
        (False, 3702, -0.5),
        (False, 25600, -0.5),
        (False, 31744, -0.5),
    ],
)
def test_length_curve_knots(correct: bool, length: float, expected: float) -> None:
    assert length_aware_accuracy(correct, int(length)) == pytest.approx(expected, abs=2e-4)


def test_curve_is_monotone_between_knots() -> None:
    correct = [length_aware_accuracy(True, n) for n in range(25600, 31745, 512)]
    wrong = [length_aware_accuracy(False, n) for n in range(0, 3703, 200)]
    assert correct == sorted(correct, reverse=True)
    assert wrong == sorted(wrong)


@pytest.mark.parametrize(
    ("text", "length", "acc_score", "acc"),
    [
        (GOOD, 100, 1.0, 1),
        (GOOD, 31744, 0.5, 1),
        (WRONG, 0, -1.0, 0),
        (WRONG, 3702, -0.5, 0),
    ],
)
def test_scores_at_knots(text: str, length: int, acc_score: float, acc: int) -> None:
    got = compute_score("omni", text, "42", info(length))
    assert got["acc"] == acc
    assert got["acc_score"] == pytest.approx(acc_score)
    assert got["rep_score"] == 0.0
    assert got["score"] == pytest.approx(W_ACC * acc_score)
    assert got["response_length"] == length


def test_truncated_is_checked_before_format() -> None:
    for text in (GOOD, "<think> no closing tag and \\boxed{42}", "no tags at all"):
        got = compute_score("omni", text, "42", info(31744, truncated=True))
        assert got["acc_score"] == -0.5
        assert got["truncated"] == 1
        assert got["acc"] == 0


@pytest.mark.parametrize(
    "text",
    [
        "The answer is \\boxed{42}.",
        "<think>reasoning without a close \\boxed{42}",
        "reasoning</think> \\boxed{42}",
        "</think><think> backwards </think>",
        "<think>a</think><think>b</think> \\boxed{42}",
        "<think><think>a</think> \\boxed{42}",
        "<think>a</think></think> \\boxed{42}",
    ],
)
def test_format_violations(text: str) -> None:
    assert not format_ok(text)
    got = compute_score("omni", text, "42", info(100))
    assert got["acc_score"] == -1.0
    assert got["format_ok"] == 0
    assert got["score"] == pytest.approx(W_ACC * -1.0 + W_REP * got["rep_score"])


def test_answer_is_graded_after_the_last_think_close() -> None:
    text = "<think>maybe \\boxed{42}</think> Final answer: \\boxed{41}"
    assert compute_score("omni", text, "42", info(50))["acc"] == 0
    assert compute_score("omni", text, "41", info(50))["pred"] == "41"


def _reference_repetition(text: str) -> float:
    words = re.findall(r"\w+", text.lower())
    if len(words) < 5:
        return 0.0
    grams = Counter(zip(words, words[1:], words[2:], words[3:], words[4:], strict=False))
    top = max(grams.values())
    frequent = sum(1 for c in grams.values() if c > 5) / (len(words) - 4)
    top_term = top / (len(words) / 5) if top >= 5 else 0.0
    return -min(1.0, max(frequent, top_term))


LOOPING = (
    "<think>We need the sum of the roots. "
    + "Wait, let me double check the computation once more. " * 12
    + "So the sum is 7.</think> The answer is \\boxed{7}."
)
HEALTHY = (
    "<think>Vieta's formulas give the sum of the roots of x^2 - 7x + 10 as 7, and indeed the roots "
    "are 2 and 5, whose sum is 7. The product 10 also matches.</think> The answer is \\boxed{7}."
)
SOME_REPEATS = (
    "<think>" + " ".join(f"step {i}: check the value of x again." for i in range(8)) + "</think> \\boxed{7}"
)


@pytest.mark.parametrize(
    "text", [LOOPING, HEALTHY, SOME_REPEATS, "é è ê ë ü " * 8, "Übung macht den Meister " * 7]
)
def test_repetition_matches_reference(text: str) -> None:
    assert repetition_penalty(text) == pytest.approx(_reference_repetition(text), abs=1e-12)


def test_repetition_examples() -> None:
    assert repetition_penalty(HEALTHY) == 0.0
    assert repetition_penalty("one two three four") == 0.0
    assert repetition_penalty("") == 0.0
    looping = repetition_penalty(LOOPING)
    assert -1.0 <= looping < -0.1
    got = compute_score("omni", LOOPING, "7", info(200))
    assert got["acc"] == 1
    assert got["score"] == pytest.approx(W_ACC * 1.0 + W_REP * looping)


def test_reward_kwargs_override_constants() -> None:
    got = compute_score("omni", GOOD, "42", info(150), l_pos_control=100, l_max=200, w_acc=1.0, w_rep=0.0)
    assert got["score"] == pytest.approx(0.75)
    got = compute_score("omni", WRONG, "42", info(0), r_incorrect_min=-2.0)
    assert got["acc_score"] == pytest.approx(-2.0)


def test_missing_length_falls_back_to_estimate_and_logs_once(caplog: pytest.LogCaptureFixture) -> None:
    phi4._warned["estimate"] = False
    with caplog.at_level(logging.WARNING, logger="rewards.phi4"):
        first = compute_score("omni", GOOD, "42")
        compute_score("omni", GOOD, "42", {"index": 3})
    assert first["response_length"] == math.ceil(len(GOOD) / 3.5)
    assert first["truncated"] == 0
    assert first["acc"] == 1
    assert sum("response_length" in r.getMessage() for r in caplog.records) == 1
    long_text = "<think>" + "x" * 200_000 + "</think> \\boxed{42}"
    assert compute_score("omni", long_text, "42")["acc_score"] == -0.5  # estimate reaches l_max


@pytest.mark.parametrize("junk", [None, 7, b"\x00\x01", "", "\x00\xff" * 5000, "<think>" * 10_000])
def test_junk_never_raises(junk: object) -> None:
    got = compute_score("omni", junk, "42", info(10))
    assert {"score", "acc", "pred"} <= got.keys()
    assert got["acc"] == 0
    assert -9 / 13 <= got["score"] <= 8 / 13


def test_same_keys_for_every_outcome() -> None:
    outcomes = [
        compute_score("omni", GOOD, "42", info(10)),
        compute_score("omni", WRONG, "42", info(10)),
        compute_score("omni", "junk", "42", info(10)),
        compute_score("omni", GOOD, "42", info(10, truncated=True)),
    ]
    assert len({tuple(sorted(o)) for o in outcomes}) == 1  # verl stacks extra keys across a batch


_WORDS = st.sampled_from(
    ["wait", "let", "me", "check", "x", "=", "2", "\\frac{1}{2}", "so", "the", "ÜBER", "_a1", ","]
)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(words=st.lists(_WORDS, max_size=200), seps=st.sampled_from([" ", "  ", "\n", ". "]))
def test_repetition_property_matches_reference(words: list[str], seps: str) -> None:
    text = seps.join(words)
    assert repetition_penalty(text) == pytest.approx(_reference_repetition(text), abs=1e-12)


def _reference_format_ok(text: str) -> bool:
    if text.count("<think>") != 1 or text.count("</think>") != 1:
        return False
    return text.index("<think>") < text.index("</think>")


_TAG_PIECES = st.sampled_from(["<think>", "</think>", "think>", "<", "/", "re", "a", " ", "<thin", "k>"])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(pieces=st.lists(_TAG_PIECES, max_size=12))
def test_format_ok_matches_the_two_count_definition(pieces: list[str]) -> None:
    """format_ok scans once (find/rfind + one count of ``think>``): same verdict as counting each tag."""
    text = "".join(pieces)
    assert format_ok(text) == _reference_format_ok(text)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("<think>a</think> b", True),
        ("<think>rethink> a</think> b", True),  # a third think> that is no tag
        ("<think>a<think></think>", False),
        ("<think></think>", True),
        ("</think><think>", False),
        ("<think>a</think></think>", False),
    ],
)
def test_format_ok_table(text: str, ok: bool) -> None:
    assert format_ok(text) == ok
