"""dataprep/prepare.py on the real GSM8K / Omni-MATH sample rows: counts, filters, ground truths,
templates, manifest, splits, dedup/decontamination, determinism, synthetic data, hub offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from dataprep import prepare

REPO = Path(__file__).resolve().parents[1]


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run_prepare(*args: str | Path) -> int:
    return prepare.main([str(a) for a in args])


def rows(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def test_gsm8k_train_and_test_inputs(shared_fixtures: Path, tmp_path: Path) -> None:
    train_in, test_in = (
        shared_fixtures / "gsm8k_train_sample.jsonl",
        shared_fixtures / "gsm8k_test_sample.jsonl",
    )
    out = tmp_path / "g"
    assert run_prepare("gsm8k", "--input", train_in, "--test-input", test_in, "--output", out) == 0
    train, test = rows(out / "train.parquet"), rows(out / "test.parquet")
    src_train, src_test = jsonl(train_in), jsonl(test_in)
    assert len(train) == len(src_train) and len(test) == len(src_test)
    for row, src in zip(train, src_train, strict=True):
        expected_gt = src["answer"].rsplit("####", 1)[1].strip().replace(",", "")
        assert row["reward_model"] == {"style": "rule", "ground_truth": expected_gt}
        assert row["data_source"] == "openai/gsm8k" and row["ability"] == "math"
        assert len(row["prompt"]) == 1 and row["prompt"][0]["role"] == "user"
        assert row["prompt"][0]["content"].startswith(src["question"])
        assert "####" in row["prompt"][0]["content"]
        assert (
            row["extra_info"]["question"] == src["question"] and row["extra_info"]["answer"] == src["answer"]
        )
    assert [r["extra_info"]["index"] for r in train] == list(range(len(train)))
    assert {r["extra_info"]["split"] for r in train} == {"train"}
    assert {r["extra_info"]["split"] for r in test} == {"test"}
    m = manifest(out)
    assert m["source"] == "gsm8k" and m["splits"] == {"train": 200, "test": 200}
    assert m["counts"]["read"] == 200 and m["counts"]["after_length_filter"] == 200
    assert m["counts"]["test_input.read"] == 200
    assert m["input"]["sha256"] == __import__("hashlib").sha256(train_in.read_bytes()).hexdigest()
    assert m["prompt_template"]["name"] == "gsm8k"
    assert m["outputs"]["train.parquet"]["rows"] == 200
    assert not [p for p in out.iterdir() if p.name.startswith(".prepare-tmp")]


def test_gsm8k_commas_removed_from_ground_truth(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(
        json.dumps({"question": "How many?", "answer": "It is 1,234.\n#### 1,234"})
        + "\n"
        + json.dumps({"question": "Cost?", "answer": "So $5.\n#### $5"})
        + "\n"
    )
    out = tmp_path / "o"
    assert run_prepare("gsm8k", "--input", src, "--output", out, "--test-size", "0") == 0
    assert [r["reward_model"]["ground_truth"] for r in rows(out / "train.parquet")] == ["1234", "5"]


def test_omni_math_difficulty_and_domain_filters(shared_fixtures: Path, tmp_path: Path) -> None:
    src_rows = jsonl(shared_fixtures / "omni_math_sample.jsonl")
    out = tmp_path / "o"
    assert (
        run_prepare(
            "omni-math",
            "--input",
            shared_fixtures / "omni_math_sample.jsonl",
            "--output",
            out,
            "--min-difficulty",
            "5",
            "--test-size",
            "5",
            "--seed",
            "7",
        )  # fmt: skip
        == 0
    )
    train, test = rows(out / "train.parquet"), rows(out / "test.parquet")
    expected = [r for r in src_rows if r["difficulty"] >= 5]
    assert len(expected) == 55 and len(train) + len(test) == 55 and len(test) == 5
    by_problem = {r["problem"]: r for r in expected}
    for row in train + test:
        src = by_problem[row["extra_info"]["problem"]]
        assert row["data_source"] == "omni_math"
        assert row["reward_model"]["ground_truth"] == src["answer"].strip()
        assert row["extra_info"]["difficulty"] == src["difficulty"] >= 5
        assert row["extra_info"]["domain"] == src["domain"] and row["extra_info"]["source"] == src["source"]
        # phi4-reasoning template: a system message asking for <think> and \boxed{}
        assert [m["role"] for m in row["prompt"]] == ["system", "user"]
        assert "<think>" in row["prompt"][0]["content"] and "\\boxed{}" in row["prompt"][0]["content"]
        assert row["prompt"][1]["content"] == src["problem"]
    m = manifest(out)
    assert m["counts"]["read"] == 100 and m["counts"]["after_filters"] == 55
    assert m["options"]["min_difficulty"] == 5.0 and m["seed"] == 7

    out2 = tmp_path / "o2"
    args = ["omni-math", "--input", shared_fixtures / "omni_math_sample.jsonl", "--output", out2]
    assert run_prepare(*args, "--max-difficulty", "2", "--domain", "algebra", "--test-size", "0") == 0
    want = [r for r in src_rows if r["difficulty"] <= 2 and any("algebra" in d.lower() for d in r["domain"])]
    got = rows(out2 / "train.parquet")
    assert 0 < len(got) == len(want)
    assert all(r["extra_info"]["difficulty"] <= 2 for r in got)


def test_random_split_count_fraction_and_seed(shared_fixtures: Path, tmp_path: Path) -> None:
    src = shared_fixtures / "gsm8k_train_sample.jsonl"
    sizes = {}
    for name, size, seed in (("a", "0.25", "1"), ("b", "30", "1"), ("c", "30", "2")):
        out = tmp_path / name
        assert run_prepare("gsm8k", "--input", src, "--output", out, "--test-size", size, "--seed", seed) == 0
        train, test = rows(out / "train.parquet"), rows(out / "test.parquet")
        sizes[name] = (len(train), len(test), {r["extra_info"]["question"] for r in test})
        assert not sizes[name][2] & {r["extra_info"]["question"] for r in train}
        assert [r["extra_info"]["index"] for r in test] == list(range(len(test)))
    assert sizes["a"][:2] == (150, 50) and sizes["b"][:2] == (170, 30)
    assert sizes["b"][2] != sizes["c"][2]  # the seed picks the test rows


def test_custom_formats_extraction_and_limit(tmp_path: Path) -> None:
    recs = [
        {"q": f"What is {i} + {i}?", "sol": f"Adding gives \\boxed{{{2 * i}}}.", "meta": {"n": i}}
        for i in range(10)
    ]
    pq.write_table(pa.Table.from_pylist(recs), tmp_path / "in.parquet")
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    (tmp_path / "in.json").write_text(json.dumps(recs))
    (tmp_path / "in.csv").write_text("q,sol\n" + "".join(f'"{r["q"]}","{r["sol"]}"\n' for r in recs))
    results = []
    for ext in ("parquet", "jsonl", "json", "csv"):
        out = tmp_path / f"out_{ext}"
        code = run_prepare(
            "custom", "--input", tmp_path / f"in.{ext}", "--output", out, "--question-field", "q",
            "--answer-field", "sol", "--answer-extract", "boxed", "--data-source", "toy", "--test-size", "0",
            "--prompt-template", "plain", "--limit", "8",
        )  # fmt: skip
        assert code == 0
        got = rows(out / "train.parquet")
        results.append([(r["prompt"][0]["content"], r["reward_model"]["ground_truth"]) for r in got])
        assert {r["data_source"] for r in got} == {"toy"}
    assert results[0] == [(f"What is {i} + {i}?", str(2 * i)) for i in range(8)]
    assert all(r == results[0] for r in results)

    out = tmp_path / "regex"
    assert (
        run_prepare(
            "custom",
            "--input",
            tmp_path / "in.jsonl",
            "--output",
            out,
            "--question-field",
            "q",
            "--answer-field",
            "sol",
            "--answer-extract",
            r"regex:boxed\{(\d+)\}",
            "--data-source",
            "toy",
            "--test-size",
            "0",
            "--keep-field",
            "meta.n",
        )  # fmt: skip
        == 0
    )
    got = rows(out / "train.parquet")
    assert [r["reward_model"]["ground_truth"] for r in got] == [str(2 * i) for i in range(10)]
    assert [r["extra_info"]["meta.n"] for r in got] == [str(i) for i in range(10)]


def test_template_file_with_system_message(tmp_path: Path, shared_fixtures: Path) -> None:
    t = tmp_path / "t.json"
    t.write_text(json.dumps({"system": "Be brief.", "user": "Problem: {question}\nAnswer in \\boxed{}."}))
    out = tmp_path / "o"
    src = shared_fixtures / "gsm8k_train_sample.jsonl"
    assert run_prepare("gsm8k", "--input", src, "--output", out, "--prompt-template", t, "--limit", "3") == 0
    first = rows(out / "train.parquet")[0]
    q = jsonl(src)[0]["question"]
    assert first["prompt"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": f"Problem: {q}\nAnswer in \\boxed{{}}."},
    ]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"user": "no placeholder"}))
    assert run_prepare("gsm8k", "--input", src, "--output", tmp_path / "x", "--prompt-template", bad) == 2


def test_dedup_and_decontamination(tmp_path: Path, shared_fixtures: Path) -> None:
    gsm_test = jsonl(shared_fixtures / "gsm8k_test_sample.jsonl")
    train = jsonl(shared_fixtures / "gsm8k_train_sample.jsonl")[:20]
    # 3 exact duplicates with different spacing/case, and 4 test questions leaked into train
    dupes = [
        dict(train[i], question="  " + train[i]["question"].upper().replace(" ", "   ")) for i in range(3)
    ]
    leaked = [dict(gsm_test[i], question=gsm_test[i]["question"] + "\n") for i in range(4)]
    src = tmp_path / "train.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in train + dupes + leaked))
    out = tmp_path / "o"
    code = run_prepare(
        "gsm8k", "--input", src, "--output", out, "--dedup", "--test-size", "0",
        "--decontaminate-against", shared_fixtures / "gsm8k_test_sample.jsonl",
    )  # fmt: skip
    assert code == 0
    m = manifest(out)
    assert m["counts"]["read"] == 27 and m["counts"]["after_dedup"] == 24
    assert m["counts"]["after_decontamination"] == 20
    assert m["dropped"] == {"bad_rows": 0, "filters": 0, "dedup": 3, "decontamination": 4, "overlong": 0}
    assert m["decontaminate_against"][0]["rows"] == 200
    got = {r["extra_info"]["question"] for r in rows(out / "train.parquet")}
    assert got == {r["question"] for r in train}

    # with --test-input, train rows that appear in the test input are dropped too
    out2 = tmp_path / "o2"
    code = run_prepare(
        "gsm8k", "--input", src, "--output", out2, "--test-input", shared_fixtures / "gsm8k_test_sample.jsonl"
    )
    assert code == 0
    assert manifest(out2)["counts"]["after_decontamination"] == 23


def test_rerun_is_byte_identical(shared_fixtures: Path, tmp_path: Path) -> None:
    args = ["omni-math", "--input", str(shared_fixtures / "omni_math_sample.jsonl"), "--test-size", "0.2"]
    a, b = tmp_path / "a", tmp_path / "b"
    assert run_prepare(*args, "--output", a) == 0
    time.sleep(1.1)  # anything time-dependent would now differ
    assert run_prepare(*args, "--output", b) == 0
    for name in ("train.parquet", "test.parquet"):
        assert (a / name).read_bytes() == (b / name).read_bytes()
    assert manifest(a) == manifest(b)
    # same output folder twice: the manifest file itself is byte-identical
    first = (a / "manifest.json").read_bytes()
    assert run_prepare(*args, "--output", a) == 0
    assert (a / "manifest.json").read_bytes() == first


def test_synthetic_is_deterministic_and_correct(tmp_path: Path) -> None:
    from dataprep import synthetic as prep_synthetic

    probs = list(prep_synthetic.iter_problems(200, seed=3))
    assert probs == list(prep_synthetic.iter_problems(200, seed=3))
    assert probs != list(prep_synthetic.iter_problems(200, seed=4))
    for p in probs:
        # recompute every <<expr=result>> annotation and check the final line repeats the last result
        results = []
        for ann in p["answer"].split("<<")[1:]:
            expr, res = ann.split(">>")[0].split("=")
            a, op, b = next((expr.split(o)[0], o, expr.split(o)[1]) for o in "*+-/" if o in expr)
            val = {"*": int(a) * int(b), "+": int(a) + int(b), "-": int(a) - int(b), "/": int(a) / int(b)}[op]
            assert val == int(res) and val >= 0
            results.append(int(res))
        assert p["answer"].endswith(f"#### {results[-1]}")
    out = tmp_path / "s"
    r = subprocess.run(
        [sys.executable, "-m", "dataprep", "synthetic", "--output", str(out), "--n", "300", "--seed", "3"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    m = manifest(out)
    assert m["splits"] == {"train": 270, "test": 30} and m["input"]["seed"] == 3
    got = rows(out / "train.parquet") + rows(out / "test.parquet")
    by_q = {p["question"]: p for p in prep_synthetic.iter_problems(300, seed=3)}
    for row in got:
        assert row["data_source"] == "synthetic/gsm8k"
        gold = by_q[row["extra_info"]["question"]]["answer"]
        assert row["reward_model"]["ground_truth"] == gold.rsplit("#### ", 1)[1]


def test_hub_offline_fails_fast_with_local_file_hint(tmp_path: Path) -> None:
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    t0 = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "dataprep", "gsm8k", "--input", "openai/gsm8k", "--output", str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert r.returncode == 2
    assert "HF_HUB_OFFLINE=1" in r.stderr and "--input /path/to" in r.stderr and "openai/gsm8k" in r.stderr
    assert time.monotonic() - t0 < 60
    assert not (tmp_path / "train.parquet").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".prepare-tmp")]


def test_hub_reader_through_datasets(shared_fixtures: Path, tmp_path: Path, monkeypatch) -> None:
    """The online path's reader, run on the real ``datasets`` library with a local dataset folder
    (no network here, so only the reachability probe is bypassed)."""
    from dataprep import sources as prep_sources

    folder = tmp_path / "hubdir"
    folder.mkdir()
    (folder / "train.jsonl").write_bytes((shared_fixtures / "gsm8k_train_sample.jsonl").read_bytes())
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf_cache"))
    monkeypatch.setattr(prep_sources, "_offline_reason", lambda: None)
    spec = prep_sources.InputSpec(str(folder), None, "train")
    got = [rec for batch in prep_sources._iter_hub(spec) for rec in batch]
    assert [r for _, r in got] == jsonl(shared_fixtures / "gsm8k_train_sample.jsonl")
    assert got[5][0] == f"{folder}[train] row 5"
