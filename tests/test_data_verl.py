"""verl round trip: verl 0.9.1's own RLHFDataset reads the prepared Parquet, and our prompt-length
filter keeps exactly the rows verl's ``filter_overlong_prompts`` keeps (tiny local tokenizer)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from dataprep import prepare
from dataprep import tokens as prep_tokens

REPO = Path(__file__).resolve().parents[1]


def rlhf_dataset(files: list[Path], tokenizer_dir: Path, cache: Path, max_len: int, filter_long: bool):
    from omegaconf import OmegaConf
    from transformers import AutoTokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset

    tok = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    cfg = OmegaConf.create(
        {
            "cache_dir": str(cache),
            "prompt_key": "prompt",
            "max_prompt_length": max_len,
            "filter_overlong_prompts": filter_long,
            "filter_overlong_prompts_workers": 1,
            "truncation": "error",
        }
    )
    return RLHFDataset([str(f) for f in files], tok, cfg)


def test_rlhf_dataset_reads_prepared_parquet(
    shared_fixtures: Path, tiny_model_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "o"
    src = shared_fixtures / "omni_math_sample.jsonl"
    assert prepare.main(["omni-math", "--input", str(src), "--output", str(out), "--test-size", "10"]) == 0
    ours = pq.read_table(out / "train.parquet").to_pylist()
    ds = rlhf_dataset([out / "train.parquet"], tiny_model_dir, tmp_path / "cache", 100_000, False)
    assert len(ds) == len(ours) == 90
    for i in (0, 1, 45, 89):
        item = ds[i]
        assert item["raw_prompt"] == ours[i]["prompt"]
        assert [m["role"] for m in item["raw_prompt"]] == ["system", "user"]
        assert item["reward_model"]["ground_truth"] == ours[i]["reward_model"]["ground_truth"]
        assert item["data_source"] == "omni_math"
        assert item["index"] == i == item["extra_info"]["index"]
        assert item["extra_info"]["difficulty"] == ours[i]["extra_info"]["difficulty"]


def test_length_filter_matches_verl(shared_fixtures: Path, tiny_model_dir: Path, tmp_path: Path) -> None:
    src = shared_fixtures / "gsm8k_train_sample.jsonl"
    full = tmp_path / "full"
    assert prepare.main(["gsm8k", "--input", str(src), "--output", str(full), "--test-size", "0"]) == 0
    prompts = [r["prompt"] for r in pq.read_table(full / "train.parquet").to_pylist()]
    tok = prep_tokens.load_tokenizer(str(tiny_model_dir))
    batched = prep_tokens.prompt_lengths(tok, prompts)
    assert batched == [prep_tokens.prompt_length(tok, p) for p in prompts]
    limit = sorted(batched)[len(batched) // 2]
    cut = tmp_path / "cut"
    args = ["gsm8k", "--input", str(src), "--output", str(cut), "--test-size", "0"]
    assert prepare.main([*args, "--tokenizer", str(tiny_model_dir), "--max-prompt-length", str(limit)]) == 0
    m = json.loads((cut / "manifest.json").read_text())
    kept = m["splits"]["train"]
    assert kept == sum(n <= limit for n in batched) and 0 < kept < 200
    assert m["prompt_length"]["dropped_overlong"] == 200 - kept
    assert m["prompt_length"]["tokens"]["max"] == max(batched)
    ds = rlhf_dataset([full / "train.parquet"], tiny_model_dir, tmp_path / "cache", limit, True)
    assert len(ds) == kept
    assert [ds[i]["raw_prompt"] for i in range(len(ds))] == [
        r["prompt"] for r in pq.read_table(cut / "train.parquet").to_pylist()
    ]
    # --on-overlong fail names the row and the fix
    assert prepare.main([*args, "--tokenizer", str(tiny_model_dir), "--max-prompt-length", str(limit),
                         "--on-overlong", "fail"]) == 2  # fmt: skip
