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


def test_phi3_family_has_phi4s_architecture_and_loads_with_weights(tmp_path: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM

    from tools.testbed.tiny_model import make_tiny_model

    out = make_tiny_model(tmp_path / "phi3", family="phi3", with_weights=True)
    raw = json.loads((out / "config.json").read_text())
    assert raw["architectures"] == ["Phi3ForCausalLM"] and raw["model_type"] == "phi3"
    # vLLM's CPU attention rejects head_dim 16; Phi-4 shares K/V heads (40 query, 10 KV)
    assert raw["hidden_size"] // raw["num_attention_heads"] == 32
    assert raw["num_key_value_heads"] < raw["num_attention_heads"]
    assert raw["tie_word_embeddings"] is False
    model = AutoModelForCausalLM.from_pretrained(out)
    tok = AutoTokenizer.from_pretrained(out)
    assert model.config.vocab_size >= len(tok)
    ids = tok("The answer is", return_tensors="pt")
    with torch.no_grad():
        logits = model(**ids).logits
    assert torch.isfinite(logits).all() and logits.abs().sum() > 0  # real (random, seeded) weights
    again = make_tiny_model(tmp_path / "again", family="phi3", with_weights=True)
    assert (again / "model.safetensors").read_bytes() == (out / "model.safetensors").read_bytes()
