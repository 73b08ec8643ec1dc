"""The tiny local model used by tests and the demo behaves like a real HF model dir."""

from __future__ import annotations

import json
from pathlib import Path

from transformers import AutoConfig, AutoTokenizer


def test_tiny_model_loads_with_transformers(tiny_model_dir: Path) -> None:
    config = AutoConfig.from_pretrained(tiny_model_dir)
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    assert config.model_type == "qwen2"
    assert config.vocab_size >= len(tok)
    assert tok.eos_token == "<|im_end|>" and tok.pad_token == "<|endoftext|>"
    raw = json.loads((tiny_model_dir / "config.json").read_text())
    assert raw["num_hidden_layers"] == 2


def test_chat_template_and_think_tokens_are_special(tiny_model_dir: Path) -> None:
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    text = tok.apply_chat_template(
        [{"role": "user", "content": "What is 2+2?"}], add_generation_prompt=True, tokenize=False
    )
    assert text == "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n"
    ids = tok.encode("<think> add </think> The answer is \\boxed{4}")
    assert tok.convert_tokens_to_ids("<think>") in ids
    # The property the reward manager must cope with: skip_special_tokens drops the tags.
    assert "<think>" not in tok.decode(ids, skip_special_tokens=True)
    assert tok.decode(ids).startswith("<think> add </think>")


def test_stand_in_takes_another_models_shape(tmp_path: Path, repo_root: Path) -> None:
    from tools.testbed import tiny_model

    shape = json.loads((repo_root / "tests/fixtures/model_configs/phi4_14b.json").read_text())
    out = tiny_model.make_tiny_model(tmp_path / "phi4", shape={**shape, "max_position_embeddings": 32768})
    raw = json.loads((out / "config.json").read_text())
    tok = AutoTokenizer.from_pretrained(out)
    assert raw["num_hidden_layers"] == 40 and raw["hidden_size"] == 5120
    assert raw["max_position_embeddings"] == 32768
    assert "_comment" not in raw
    # special-token ids follow the tokenizer that ships with the stand-in, not the big model
    assert raw["eos_token_id"] == tok.eos_token_id
