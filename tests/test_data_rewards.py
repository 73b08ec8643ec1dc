"""Every ground truth that prepare.py writes scores correct with the project's reward against the
gold solution (kept last: it needs the rewards package)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from dataprep import prepare

REPO = Path(__file__).resolve().parents[1]


def prepared(args: list[str]) -> list[dict]:
    assert prepare.main(args) == 0
    out = Path(args[args.index("--output") + 1])
    return pq.read_table(out / "train.parquet").to_pylist() + pq.read_table(out / "test.parquet").to_pylist()


def test_gsm8k_ground_truths_score_against_gold_solutions(shared_fixtures: Path, tmp_path: Path) -> None:
    import rewards

    rows = prepared(
        ["gsm8k", "--input", str(shared_fixtures / "gsm8k_train_sample.jsonl"), "--test-input",
         str(shared_fixtures / "gsm8k_test_sample.jsonl"), "--output", str(tmp_path / "g")]
    )  # fmt: skip
    assert len(rows) == 400
    for r in rows:
        gold = r["extra_info"]["answer"]  # the worked solution, ending "#### N"
        res = rewards.compute_score(
            r["data_source"], gold, r["reward_model"]["ground_truth"], r["extra_info"]
        )
        assert res["score"] == 1.0, (r["extra_info"]["index"], gold[-40:], r["reward_model"]["ground_truth"])
        wrong = rewards.compute_score(
            r["data_source"], gold + "\n#### 0.5", r["reward_model"]["ground_truth"]
        )
        assert wrong["score"] == 0.0


def test_omni_math_ground_truths_score_against_gold(shared_fixtures: Path, tmp_path: Path) -> None:
    import rewards

    src = {
        json.loads(x)["problem"]: json.loads(x) for x in (shared_fixtures / "omni_math_sample.jsonl").open()
    }
    rows = prepared(["omni-math", "--input", str(shared_fixtures / "omni_math_sample.jsonl"),
                     "--output", str(tmp_path / "o")])  # fmt: skip
    assert len(rows) == 100
    with_boxed = 0
    for r in rows:
        gt = r["reward_model"]["ground_truth"]
        gold = src[r["extra_info"]["problem"]]
        # a response that states the dataset's answer, as the phi4-reasoning template asks
        answer_resp = f"<think>work</think> So the answer is \\boxed{{{gold['answer']}}}."
        assert rewards.compute_score("omni_math", answer_resp, gt)["score"] == 1.0, gt
        if "\\boxed" in gold["solution"]:  # the gold worked solution itself, where it boxes its answer
            with_boxed += 1
            assert rewards.compute_score("omni_math", gold["solution"], gt)["score"] == 1.0, gt
    assert with_boxed > 10


def test_synthetic_ground_truths_score_with_gsm8k_reward(tmp_path: Path) -> None:
    import rewards

    rows = prepared(["synthetic", "--n", "200", "--seed", "5", "--output", str(tmp_path / "s")])
    for r in rows:
        res = rewards.compute_score(
            r["data_source"], r["extra_info"]["answer"], r["reward_model"]["ground_truth"]
        )
        assert res["score"] == 1.0
