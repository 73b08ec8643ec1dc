"""Malformed input fails with an error naming the file, line/row and field (or is counted and
listed with --skip-bad), and a failed run leaves no half-written output behind."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from dataprep import prepare

REPO = Path(__file__).resolve().parents[1]


def lines_from(shared_fixtures: Path, n: int) -> list[str]:
    return (shared_fixtures / "gsm8k_train_sample.jsonl").read_text(encoding="utf-8").splitlines()[:n]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


BAD_GSM8K_LINES = {
    # name: (bad line, words the error must contain)
    "missing_field": (json.dumps({"question": "Q?"}), ["line 4", "missing field 'answer'"]),
    "non_numeric": (
        json.dumps({"question": "Q?", "answer": "so\n#### seven"}),
        ["line 4", "'answer'", "seven"],
    ),
    "no_hashes": (json.dumps({"question": "Q?", "answer": "It is 7."}), ["line 4", "'answer'", "####"]),
    "broken_json": ('{"question": "Q?", "answer": "#### 7"', ["line 4", "broken JSON"]),
    "not_object": ("[1, 2]", ["line 4", "JSON object"]),
    "empty_question": (json.dumps({"question": "  ", "answer": "#### 7"}), ["line 4", "'question' is empty"]),
}


@pytest.mark.parametrize("case", sorted(BAD_GSM8K_LINES))
def test_bad_gsm8k_row_fails_naming_file_line_field(
    case: str, shared_fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad, words = BAD_GSM8K_LINES[case]
    good = lines_from(shared_fixtures, 6)
    src = write(tmp_path / "in.jsonl", good[:3] + [bad] + good[3:])
    out = tmp_path / "out"
    assert prepare.main(["gsm8k", "--input", str(src), "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(src) in err and "--skip-bad" in err
    for w in words:
        assert w in err, (w, err)
    assert not (out / "train.parquet").exists() and not (out / "manifest.json").exists()

    # --skip-bad: the row is counted and listed, the rest is written
    assert (
        prepare.main(["gsm8k", "--input", str(src), "--output", str(out), "--skip-bad", "--test-size", "0"])
        == 0
    )
    m = json.loads((out / "manifest.json").read_text())
    assert m["bad_rows"]["count"] == 1 and f"{src}:line 4" in m["bad_rows"]["listed"][0]
    assert m["counts"]["read"] == 7 and m["counts"]["parsed"] == 6
    assert pq.read_metadata(out / "train.parquet").num_rows == 6


def test_omni_math_bad_difficulty_and_missing_answer(shared_fixtures: Path, tmp_path: Path) -> None:
    rows = [json.loads(x) for x in (shared_fixtures / "omni_math_sample.jsonl").read_text().splitlines()[:5]]
    rows[1]["difficulty"] = "hard"
    del rows[3]["answer"]
    src = write(tmp_path / "o.jsonl", [json.dumps(r) for r in rows])
    r = subprocess.run(
        [sys.executable, "-m", "dataprep", "omni-math", "--input", str(src), "--output", str(tmp_path / "o")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 2
    assert f"{src}:line 2" in r.stderr and "'difficulty'" in r.stderr and "'hard'" in r.stderr
    assert (
        prepare.main(["omni-math", "--input", str(src), "--output", str(tmp_path / "o"), "--skip-bad"]) == 0
    )
    listed = json.loads((tmp_path / "o" / "manifest.json").read_text())["bad_rows"]["listed"]
    assert [x.split(": ", 1)[0] for x in listed] == [f"{src}:line 2", f"{src}:line 4"]
    assert "missing field 'answer'" in listed[1]


def test_empty_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert prepare.main(["gsm8k", "--input", str(empty), "--output", str(tmp_path / "o")]) == 2
    assert f"{empty}: the file is empty" in capsys.readouterr().err
    blank = write(tmp_path / "blank.jsonl", ["", "   "])
    assert prepare.main(["gsm8k", "--input", str(blank), "--output", str(tmp_path / "o")]) == 2
    assert "no rows" in capsys.readouterr().err
    missing = tmp_path / "nope.jsonl"
    assert prepare.main(["gsm8k", "--input", str(missing), "--output", str(tmp_path / "o")]) == 2
    assert f"{missing}: no such file" in capsys.readouterr().err
    txt = write(tmp_path / "data.txt", ["hello"])
    assert prepare.main(["gsm8k", "--input", str(txt), "--output", str(tmp_path / "o")]) == 2
    assert "unsupported file type '.txt'" in capsys.readouterr().err


def test_unknown_source_and_bad_options(tmp_path: Path, shared_fixtures: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "dataprep", "mathqa", "--input", "x.jsonl", "--output", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 2 and "mathqa" in r.stderr and "gsm8k" in r.stderr
    src = str(shared_fixtures / "gsm8k_train_sample.jsonl")
    out = str(tmp_path / "o")
    assert (
        prepare.main(
            [
                "custom",
                "--input",
                src,
                "--output",
                out,
                "--question-field",
                "question",
                "--answer-field",
                "answer",
            ]
        )
        == 2
    )  # fmt: skip  (no --data-source)
    # a custom field that does not exist names the field and the row's fields
    assert prepare.main(["custom", "--input", src, "--output", out, "--question-field", "problem",
                         "--answer-field", "answer", "--data-source", "x"]) == 2  # fmt: skip
    assert prepare.main(["gsm8k", "--input", src, "--output", out, "--test-size", "5000"]) == 2
    assert prepare.main(["gsm8k", "--input", src, "--output", out, "--max-prompt-length", "10"]) == 2
    with pytest.raises(SystemExit):
        prepare.main(["gsm8k", "--input", src, "--output", out, "--test-size", "1.5"])
    assert not (tmp_path / "o" / "train.parquet").exists()


def test_failed_run_keeps_previous_outputs_and_leaves_no_temp(shared_fixtures: Path, tmp_path: Path) -> None:
    good = lines_from(shared_fixtures, 200)
    out = tmp_path / "out"
    src = write(tmp_path / "in.jsonl", good)
    assert prepare.main(["gsm8k", "--input", str(src), "--output", str(out)]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert set(before) == {"train.parquet", "test.parquet", "manifest.json"}
    # the bad row comes after 190 good rows were already written to the temp files
    write(src, good[:190] + ['{"question": "Q?", "answer": "#### x"}'] + good[190:])
    assert prepare.main(["gsm8k", "--input", str(src), "--output", str(out)]) == 2
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
