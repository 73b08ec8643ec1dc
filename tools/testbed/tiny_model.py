#!/usr/bin/env python3
"""Write a tiny, fully local Hugging Face model directory for tests and the demo.

The directory holds what verl, the data tools and preflight read from a model path:

- ``config.json`` of a 2-layer decoder (real keys, tiny sizes): Qwen2-style by default, or
  ``--family phi3``: Phi-4-reasoning-plus's architecture (``Phi3ForCausalLM``: fused qkv and
  gate/up projections, grouped-query attention, untied embeddings) with head_dim 32, the
  smallest vLLM's CPU attention accepts (it rejects 16);
- a real *fast* tokenizer (byte-level BPE trained here on a small built-in corpus), with a
  ChatML-style chat template and, like Phi-4-reasoning's tokenizer, ``<think>`` and
  ``</think>`` registered as added **special** tokens (so ``skip_special_tokens=True`` strips
  them — the case the reward manager has to handle);
- optionally random ``model.safetensors`` weights (``--with-weights``, seeded), for code that
  loads the model on CPU (FSDP, vLLM's CPU build, transformers);
- or, with ``--shape CONFIG.json``, a stand-in for a big model: that model's architecture keys
  (layers, hidden size, heads, vocab, context length, ...) in ``config.json`` with the tiny
  tokenizer, so tools that only read the config (preflight's memory estimate) see the real shape.

Nothing is downloaded. The output is deterministic for a given version of ``tokenizers``.

Usage: ``python -m tools.testbed.tiny_model OUT_DIR [--family phi3] [--with-weights]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

PAD_TOKEN = "<|endoftext|>"
IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"
SPECIAL_TOKENS = [PAD_TOKEN, IM_START, IM_END]
THINK_TOKENS = [THINK_OPEN, THINK_CLOSE]

# A ChatML template, as Qwen2.5 and Phi-4-reasoning use (Phi-4 puts <|im_sep|> after the role).
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)

_CORPUS = [
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May.",
    "How many clips did Natalia sell altogether in April and May? Let's think step by step.",
    "The answer is 72. #### 72",
    "Solve for x: 3x + 5 = 20, so x = 5. The final answer is \\boxed{5}.",
    "Compute \\frac{1}{2} + \\frac{1}{3} = \\frac{5}{6} and \\sqrt{2} \\cdot \\pi.",
    "<think> First add the numbers, then divide by two. </think> The answer is \\boxed{42}.",
    "system user assistant You are a helpful math assistant. Please reason step by step,",
    "and put your final answer within \\boxed{}. Find all real numbers such that",
    "0 1 2 3 4 5 6 7 8 9 10 100 1000 12 24 36 48 60 72 84 96 + - * / = ( ) [ ] { } ^ _ , . ; :",
]


def _train_tokenizer(vocab_size: int):  # -> tokenizers.Tokenizer
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token=None))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(_CORPUS * 4, trainer=trainer)
    return tok


FAMILIES = ("qwen2", "phi3")


def _phi3_config(vocab_size: int, pad_id: int, eos_id: int) -> dict[str, object]:
    """Phi-4-reasoning-plus's family (its config.json: Phi3ForCausalLM, model_type phi3), tiny."""
    return {
        "architectures": ["Phi3ForCausalLM"],
        "model_type": "phi3",
        "hidden_size": 128,
        "intermediate_size": 256,
        "num_hidden_layers": 2,
        # head_dim = hidden_size / heads = 32; 4 query heads share 2 key/value heads, as
        # Phi-4's 40 share 10
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "hidden_act": "silu",
        "max_position_embeddings": 4096,
        "original_max_position_embeddings": 4096,
        "rms_norm_eps": 1e-5,
        "rope_theta": 250000.0,
        "partial_rotary_factor": 1.0,
        "resid_pdrop": 0.0,
        "embd_pdrop": 0.0,
        "attention_dropout": 0.0,
        "sliding_window": None,
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
        "vocab_size": vocab_size,
        "bos_token_id": None,
        "eos_token_id": eos_id,
        "pad_token_id": pad_id,
    }


def _model_config(vocab_size: int, pad_id: int, eos_id: int, family: str = "qwen2") -> dict[str, object]:
    if family == "phi3":
        return _phi3_config(vocab_size, pad_id, eos_id)
    if family != "qwen2":
        raise ValueError(f"unknown model family {family!r}; choose one of {', '.join(FAMILIES)}")
    return {
        "architectures": ["Qwen2ForCausalLM"],
        "model_type": "qwen2",
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "hidden_act": "silu",
        "max_position_embeddings": 4096,
        "rms_norm_eps": 1e-6,
        "rope_theta": 10000.0,
        "tie_word_embeddings": True,
        "torch_dtype": "bfloat16",
        "vocab_size": vocab_size,
        "bos_token_id": None,
        "eos_token_id": eos_id,
        "pad_token_id": pad_id,
        "use_sliding_window": False,
    }


def make_tiny_model(
    out_dir: str | os.PathLike[str],
    *,
    with_weights: bool = False,
    vocab_size: int = 512,
    shape: dict[str, object] | None = None,
    family: str = "qwen2",
) -> Path:
    """Create the tiny model directory at ``out_dir`` (replaced atomically) and return its path.

    ``shape``: architecture keys of another model that replace the tiny ones in config.json
    (a stand-in: no weights can go with it).
    """
    if shape is not None and with_weights:
        raise ValueError("a stand-in with another model's shape cannot have weights")
    from transformers import PreTrainedTokenizerFast

    out = Path(out_dir).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        fast = PreTrainedTokenizerFast(
            tokenizer_object=_train_tokenizer(vocab_size),
            eos_token=IM_END,
            pad_token=PAD_TOKEN,
            model_max_length=4096,
            chat_template=CHAT_TEMPLATE,
        )
        fast.add_special_tokens({"additional_special_tokens": THINK_TOKENS})
        fast.save_pretrained(tmp)
        # Round the embedding size up to a multiple of 64, as real checkpoints do.
        n_vocab = -(-len(fast) // 64) * 64
        config = _model_config(n_vocab, fast.pad_token_id, fast.eos_token_id, family)
        if shape is not None:
            config.update({k: v for k, v in shape.items() if not k.startswith("_")})
            config["eos_token_id"], config["pad_token_id"] = fast.eos_token_id, fast.pad_token_id
        (tmp / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
        (tmp / "generation_config.json").write_text(
            json.dumps({"eos_token_id": fast.eos_token_id, "pad_token_id": fast.pad_token_id}, indent=2)
            + "\n"
        )
        if with_weights:
            _write_random_weights(tmp)
        tmp.chmod(0o755)
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _write_random_weights(model_dir: Path) -> None:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    torch.manual_seed(0)
    config = AutoConfig.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_config(config).to(torch.bfloat16)
    model.save_pretrained(model_dir, safe_serialization=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", help="directory to create (replaced if it exists)")
    parser.add_argument("--with-weights", action="store_true", help="also write random safetensors weights")
    parser.add_argument(
        "--family",
        choices=FAMILIES,
        default="qwen2",
        help="architecture: qwen2 (default) or phi3 (Phi-4-reasoning-plus's, head_dim 32 for vLLM on CPU)",
    )
    parser.add_argument(
        "--shape",
        metavar="CONFIG_JSON",
        help="another model's config.json whose architecture keys replace the tiny ones (a stand-in, no weights)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=INT",
        help="override an integer config key, e.g. max_position_embeddings=32768 (repeatable)",
    )
    args = parser.parse_args(argv)
    shape: dict[str, object] | None = None
    if args.shape or args.set:
        shape = {}
        if args.shape:
            try:
                shape.update(json.loads(Path(args.shape).read_text()))
            except (OSError, json.JSONDecodeError) as exc:
                parser.error(f"--shape {args.shape}: {exc}")
        for item in args.set:
            key, sep, value = item.partition("=")
            if not sep or not value.lstrip("-").isdigit():
                parser.error(f"--set {item!r}: expected KEY=INTEGER")
            shape[key] = int(value)
    path = make_tiny_model(args.out_dir, with_weights=args.with_weights, shape=shape, family=args.family)
    print(f"tiny_model: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
