"""GSM8K reward (rewards/gsm8k.py) and the data_source dispatch (rewards/__init__.py)."""

from __future__ import annotations

import pytest

from rewards import compute_score as dispatch_score
from rewards.gsm8k import compute_score

CASES = [
    # (solution, ground truth, method, expected acc)
    ("She sold 72 clips.\n#### 72", "72", "strict", 1),
    ("#### 1,000", "1000", "strict", 1),
    ("#### 1000.00", "1,000", "strict", 1),
    ("#### $18", "18", "strict", 1),
    ("#### -3", "-3", "strict", 1),
    ("so \\boxed{72}", "72", "strict", 1),
    ("so \\boxed{\\$1{,}000}", "1000", "strict", 1),
    ("The answer is 72", "72", "strict", 0),
    ("The answer is 72", "72", "flexible", 1),
    ("I got 70 then 72.", "72", "flexible", 1),
    ("#### 71", "72", "strict", 0),
    ("#### 72\nactually 5", "72", "flexible", 1),
    ("Gold solution text <<3*4=12>>12\n#### 12", "Step <<3*4=12>>12\n#### 12", "strict", 1),
    ("<think>#### 5</think> #### 72", "72", "strict", 1),
]


@pytest.mark.parametrize(("solution", "gt", "method", "acc"), CASES)
def test_gsm8k_cases(solution: str, gt: str, method: str, acc: int) -> None:
    got = compute_score("openai/gsm8k", solution, gt, method=method)
    assert got["acc"] == acc
    assert got["score"] == float(acc)
    assert isinstance(got["pred"], str)


def test_format_score_for_wrong_answer() -> None:
    got = compute_score("openai/gsm8k", "#### 5", "6", format_score=0.1)
    assert got == {"score": 0.1, "acc": 0, "pred": "5", "verified": 1, "status": "certain"}


def test_no_answer_scores_zero() -> None:
    assert compute_score("openai/gsm8k", "no digits here", "6", method="flexible")["score"] == 0.0


@pytest.mark.parametrize(
    ("kwargs", "key"), [({"method": "lenient"}, "method"), ({"format_score": "abc"}, "format_score")]
)
def test_bad_reward_kwargs_score_zero_and_name_the_key(
    kwargs: dict[str, object], key: str, caplog: pytest.LogCaptureFixture
) -> None:
    got = compute_score("openai/gsm8k", "#### 5", "5", **kwargs)  # type: ignore[arg-type]
    assert got["score"] == 0.0 and got["verified"] == 0
    assert f"reward_kwargs.{key}=" in got["status"]


@pytest.mark.parametrize("junk", [None, 5, b"\x00\xff", "", "\x00" * 1000])
def test_junk_never_raises(junk: object) -> None:
    got = compute_score("openai/gsm8k", junk, "5")
    assert got["score"] == 0.0 and got["acc"] == 0


def test_dispatch_routes_gsm8k_and_math_sources() -> None:
    assert dispatch_score("openai/gsm8k", "The answer is 72", "72")["acc"] == 0  # strict by default
    assert dispatch_score("openai/gsm8k", "The answer is 72", "72", method="flexible")["acc"] == 1
    omni = dispatch_score("KbsdJames/Omni-MATH", "so $\\boxed{\\dfrac{1}{2}}$", "0.5")
    assert omni == {"score": 1.0, "acc": 1, "pred": "\\dfrac{1}{2}", "verified": 1, "status": "certain"}
    assert dispatch_score("math", "\\boxed{3}", "4")["acc"] == 0
    assert dispatch_score("math", "nothing", "4")["score"] == 0.0
    assert set(dispatch_score("math", "nothing", "4")) == set(dispatch_score("openai/gsm8k", "#### 4", "4"))


def test_an_int_ground_truth_of_any_size_is_read_without_an_error(caplog: pytest.LogCaptureFixture) -> None:
    """An int past Python's 4,300-digit printing limit is compared, not logged as a failure."""
    huge = 10**5000
    with caplog.at_level("ERROR"):
        assert compute_score("openai/gsm8k", "#### 5", huge)["acc"] == 0
        assert compute_score("openai/gsm8k", "#### 5", 5)["acc"] == 1
    assert not caplog.records
