"""dataprep/check.py (``prepare.py check``): schema, content and ground-truth validation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dataprep import check as dataset_check
from dataprep import prepare

REPO = Path(__file__).resolve().parents[1]


def good_row(i: int, gt: str = "7") -> dict:
    return {
        "data_source": "openai/gsm8k",
        "prompt": [{"role": "user", "content": f"Problem {i}: what is 3 + 4?"}],
        "ability": "math",
        "reward_model": {"style": "rule", "ground_truth": gt},
        "extra_info": {"split": "train", "index": i},
    }


@pytest.fixture(scope="module")
def gsm8k_out(shared_fixtures: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("chk") / "g"
    src = shared_fixtures / "gsm8k_train_sample.jsonl"
    assert prepare.main(["gsm8k", "--input", str(src), "--output", str(out), "--test-size", "20"]) == 0
    return out


def test_prepared_output_passes(gsm8k_out: Path) -> None:
    rep = dataset_check.check_parquet(gsm8k_out / "train.parquet")
    assert rep.errors == [] and rep.rows == 180
    assert isinstance(rep.warnings, list) and "OK" in rep.summary()
    assert rep.data_sources == {"openai/gsm8k": 180}


def test_schema_errors(tmp_path: Path) -> None:
    p = tmp_path / "flat.parquet"
    pq.write_table(pa.table({"data_source": ["x"], "prompt": ["What is 1+1?"], "answer": ["2"]}), p)
    rep = dataset_check.check_parquet(p)
    joined = "\n".join(rep.errors)
    assert "'prompt' has type string" in joined and "missing column 'reward_model'" in joined
    assert any("ability" in w for w in rep.warnings)
    assert "FAILED" in rep.summary()

    notpq = tmp_path / "x.parquet"
    notpq.write_text("not parquet")
    assert "not a readable Parquet file" in dataset_check.check_parquet(notpq).errors[0]
    assert "no such file" in dataset_check.check_parquet(tmp_path / "nope.parquet").errors[0]


def test_content_errors_and_warnings(tmp_path: Path) -> None:
    rows = [good_row(i) for i in range(6)]
    rows[1]["prompt"] = []
    rows[2]["prompt"] = [{"role": "user", "content": "  "}]
    rows[3]["reward_model"] = {"style": "rule", "ground_truth": ""}
    rows[4]["prompt"] = rows[0]["prompt"]  # duplicate of row 0
    rows[5]["prompt"] = [{"role": "narrator", "content": "hi"}]
    p = tmp_path / "bad.parquet"
    pq.write_table(pa.Table.from_pylist(rows), p)
    rep = dataset_check.check_parquet(p)
    joined = "\n".join(rep.errors)
    assert rep.rows == 6
    assert "empty prompt (no messages): 1 row(s): row 1" in joined
    assert "empty message content: 1 row(s): row 2 message 0" in joined
    assert "empty or missing reward_model.ground_truth: 1 row(s): row 3" in joined
    assert "role not one of" in joined and "'narrator'" in joined
    assert any("duplicate prompt" in w and "row 4 repeats row 0" in w for w in rep.warnings)


def test_unparseable_ground_truth_is_an_error(tmp_path: Path) -> None:
    # "}{" cannot be written inside \boxed{} and read back: no reward can ever match it
    rows = [good_row(0, "42"), good_row(1, "\\frac{1}{2}"), good_row(2, "}{")]
    p = tmp_path / "gt.parquet"
    pq.write_table(pa.Table.from_pylist(rows), p)
    rep = dataset_check.check_parquet(p)
    bad = [e for e in rep.errors if "cannot match" in e]
    assert len(bad) == 1 and "row 2" in bad[0] and "row 1" not in bad[0]


def test_check_cli_exit_codes(gsm8k_out: Path, tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "dataprep", "check"]
    ok = subprocess.run([*cmd, str(gsm8k_out / "train.parquet")], capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and "180 rows" in ok.stdout
    p = tmp_path / "bad.parquet"
    pq.write_table(pa.Table.from_pylist([good_row(0, "")]), p)
    bad = subprocess.run([*cmd, str(p)], capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "ground_truth" in bad.stdout


def test_overlong_prompts_with_tokenizer(gsm8k_out: Path, tiny_model_dir: Path) -> None:
    rep = dataset_check.check_parquet(gsm8k_out / "test.parquet", str(tiny_model_dir), 10_000)
    assert rep.errors == [] and rep.length_stats["count"] == 20
    limit = rep.length_stats["p50"]
    rep2 = dataset_check.check_parquet(gsm8k_out / "test.parquet", str(tiny_model_dir), limit)
    over = [e for e in rep2.errors if "longer than max_prompt_length" in e]
    assert len(over) == 1 and "tokens" in over[0]
    n_over = int(over[0].split(": ", 1)[1].split(" row(s)")[0])
    assert 0 < n_over < 20
    missing = dataset_check.check_parquet(gsm8k_out / "test.parquet", str(gsm8k_out / "no_model"), 100)
    assert "no such local directory" in missing.errors[0]


def test_imports_as_a_package_in_a_fresh_process(gsm8k_out: Path, tmp_path: Path) -> None:
    """The preflight tool's way: ``dataprep.check`` imported from the repo root, from another cwd."""
    code = (
        "from dataprep import check as m\n"
        f"r = m.check_parquet({str(gsm8k_out / 'train.parquet')!r})\n"
        "print(r.rows, len(r.errors), len(r.warnings)); print(r.summary())\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert r.returncode == 0, r.stderr
    assert (
        r.stdout.splitlines()[0] == "180 0 0"
    )  # no warning: the rewards module was found from the file's place
