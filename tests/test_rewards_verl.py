"""Integration with the real verl 0.9.1 on CPU: Hydra-composed ppo_trainer config, verl's own
loaders (get_custom_reward_fn / load_reward_manager inside verl's RewardLoopWorker), a DataProto
batch made with the tiny local tokenizer, and verl's rm_scores assembly."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
verl = pytest.importorskip("verl")

pytestmark = pytest.mark.slow  # verl import + Hydra composition: ~15 s on 2 cores

REPO = Path(__file__).resolve().parents[1]
RESPONSE_LENGTH = 24
PROMPT_LENGTH = 6


def manager_overrides(model_dir: Path) -> list[str]:
    return [
        f"actor_rollout_ref.model.path={model_dir}",
        "actor_rollout_ref.rollout.name=vllm",
        f"actor_rollout_ref.rollout.response_length={RESPONSE_LENGTH}",
        f"reward.custom_reward_function.path={REPO / 'rewards' / 'phi4.py'}",
        "reward.custom_reward_function.name=compute_score",
        "+reward.custom_reward_function.reward_kwargs.timeout_s=30",
        "reward.reward_manager.source=importlib",
        "reward.reward_manager.name=LengthAwareRewardManager",
        f"reward.reward_manager.module.path={REPO / 'rewards' / 'manager.py'}",
        "reward.num_workers=1",
    ]


def compose(overrides: list[str]) -> Any:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    config_dir = Path(verl.__file__).parent / "trainer" / "config"
    with initialize_config_dir(config_dir=str(config_dir), version_base=None):
        return hydra_compose("ppo_trainer", overrides=overrides)


@pytest.fixture()
def event_loop_for_verl() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)  # verl's managers capture the current loop at construction
    try:
        yield loop
    finally:
        asyncio.set_event_loop(None)
        loop.close()


def make_batch(tokenizer: Any, samples: list[tuple[str, bool]]) -> tuple[Any, list[int]]:
    """Left-padded prompts, right-padded responses (verl's layout); (text, append EOS) per sample."""
    from verl import DataProto

    pad = tokenizer.pad_token_id
    prompts, responses, masks, lengths = [], [], [], []
    for k, (text, eos) in enumerate(samples):
        prompt = tokenizer.encode("What is 40 + 2?", add_special_tokens=False)[-(PROMPT_LENGTH - k % 3) :]
        ids = tokenizer.encode(text, add_special_tokens=False) + ([tokenizer.eos_token_id] if eos else [])
        ids = ids[:RESPONSE_LENGTH]
        lengths.append(len(ids))
        prompts.append([pad] * (PROMPT_LENGTH - len(prompt)) + prompt)
        responses.append(ids + [pad] * (RESPONSE_LENGTH - len(ids)))
        masks.append(
            [0] * (PROMPT_LENGTH - len(prompt))
            + [1] * len(prompt)
            + [1] * len(ids)
            + [0] * (RESPONSE_LENGTH - len(ids))
        )
    prompts_t, responses_t = torch.tensor(prompts), torch.tensor(responses)
    tensors = {
        "prompts": prompts_t,
        "responses": responses_t,
        "input_ids": torch.cat([prompts_t, responses_t], dim=1),
        "attention_mask": torch.tensor(masks),
    }
    n = len(samples)
    non_tensors = {
        "data_source": np.array(["KbsdJames/Omni-MATH"] * n, dtype=object),
        "reward_model": np.array([{"ground_truth": "42", "style": "rule"} for _ in range(n)], dtype=object),
        "extra_info": np.array([{"index": i} for i in range(n)], dtype=object),
    }
    return DataProto.from_dict(tensors=tensors, non_tensors=non_tensors), lengths


def test_phi4_reward_through_verl_loaders(
    tiny_model_dir: Path, event_loop_for_verl: asyncio.AbstractEventLoop
) -> None:
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker
    from verl.trainer.ppo.reward import resolve_reward_manager_cls

    cfg = compose(manager_overrides(tiny_model_dir))
    worker = RewardLoopWorker(cfg)  # verl's own worker: get_custom_reward_fn + load_reward_manager
    manager = worker.reward_manager
    assert type(manager).__name__ == "LengthAwareRewardManager"
    tok = worker.input_tokenizer

    samples = [
        ("<think> 40 plus 2 </think> The answer is \\boxed{42}.", True),  # correct, ends with EOS
        ("<think> 40 plus 3 </think> \\boxed{43}", True),  # wrong
        ("<think> " + "forty two " * 40, False),  # fills the budget without EOS: truncated
        ("no think tags \\boxed{42}", True),  # format violation
    ]
    data, lengths = make_batch(tok, samples)
    assert lengths[2] == RESPONSE_LENGTH
    outputs = event_loop_for_verl.run_until_complete(worker.compute_score_batch(data))
    infos = [o["reward_extra_info"] for o in outputs]

    assert [i["response_length"] for i in infos] == lengths
    assert [i["truncated"] for i in infos] == [0, 0, 1, 0]
    assert [i["acc"] for i in infos] == [1, 0, 0, 0]
    assert [i["format_ok"] for i in infos] == [1, 1, 0, 0]
    assert infos[0]["acc_score"] == pytest.approx(1.0)
    assert infos[2]["acc_score"] == -0.5  # truncation wins over the missing </think>
    assert infos[3]["acc_score"] == -1.0
    assert len({tuple(sorted(i)) for i in infos}) == 1

    rm_scores = resolve_reward_manager_cls(cfg).assemble_rm_scores(data, [o["reward_score"] for o in outputs])
    assert rm_scores.shape == (len(samples), RESPONSE_LENGTH)
    for row, (length, out) in enumerate(zip(lengths, outputs, strict=True)):
        nonzero = torch.nonzero(rm_scores[row]).flatten().tolist()
        assert nonzero == [length - 1], (row, nonzero)  # the last valid response token
        assert rm_scores[row, length - 1].item() == pytest.approx(out["reward_score"], abs=1e-6)


def test_response_filling_budget_with_eos_is_not_truncated(
    tiny_model_dir: Path, event_loop_for_verl: asyncio.AbstractEventLoop
) -> None:
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    worker = RewardLoopWorker(compose(manager_overrides(tiny_model_dir)))
    tok = worker.input_tokenizer
    body = tok.encode("<think> ok </think> \\boxed{42} " + "x " * 40, add_special_tokens=False)
    text = tok.decode(body[: RESPONSE_LENGTH - 1])
    data, lengths = make_batch(tok, [(text, True)])
    assert lengths == [RESPONSE_LENGTH]
    (out,) = event_loop_for_verl.run_until_complete(worker.compute_score_batch(data))
    assert out["reward_extra_info"]["truncated"] == 0


def test_think_tags_survive_decoding_but_pad_and_eos_do_not(tiny_model_dir: Path) -> None:
    from transformers import AutoTokenizer

    from rewards.manager import special_ids_to_drop

    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    added = json.loads((tiny_model_dir / "tokenizer.json").read_text())["added_tokens"]
    special = {t["content"] for t in added if t["special"]}
    assert {"<think>", "</think>"} <= special  # as in Phi-4-reasoning: the tags are special tokens
    ids = tok.encode("<think> a </think> b", add_special_tokens=False) + [tok.eos_token_id, tok.pad_token_id]
    assert "<think>" not in tok.decode(ids, skip_special_tokens=True)  # what verl's naive manager sees
    kept = [i for i in ids if i not in special_ids_to_drop(tok)]
    text = tok.decode(kept, skip_special_tokens=False)
    assert "<think>" in text and "</think>" in text
    assert tok.eos_token not in text and tok.pad_token not in text


def test_tags_that_are_plain_added_tokens_are_kept_too(tiny_model_dir: Path, tmp_path: Path) -> None:
    from transformers import AutoTokenizer

    from rewards.manager import special_ids_to_drop

    data = json.loads((tiny_model_dir / "tokenizer.json").read_text())
    for tok_entry in data["added_tokens"]:
        if tok_entry["content"] in ("<think>", "</think>"):
            tok_entry["special"] = False
    variant = tmp_path / "plain_think"
    variant.mkdir()
    for f in tiny_model_dir.iterdir():
        if f.is_file():
            (variant / f.name).write_bytes(f.read_bytes())
    (variant / "tokenizer.json").write_text(json.dumps(data))
    cfg = json.loads((variant / "tokenizer_config.json").read_text())
    cfg.pop("extra_special_tokens", None)
    cfg.pop("additional_special_tokens", None)
    (variant / "tokenizer_config.json").write_text(json.dumps(cfg))
    tok = AutoTokenizer.from_pretrained(variant)
    ids = tok.encode("<think> a </think> b", add_special_tokens=False) + [tok.eos_token_id]
    text = tok.decode([i for i in ids if i not in special_ids_to_drop(tok)])
    assert text.count("<think>") == 1 and text.count("</think>") == 1
    assert tok.eos_token not in text


def test_legacy_top_level_keys_do_not_reach_the_loader(tiny_model_dir: Path) -> None:
    """The old ``custom_reward_function.path`` composes but verl 0.9.1 ignores it (documented)."""
    from verl.trainer.ppo.reward import get_custom_reward_fn

    cfg = compose(
        [
            f"actor_rollout_ref.model.path={tiny_model_dir}",
            "actor_rollout_ref.rollout.name=vllm",
            f"custom_reward_function.path={REPO / 'rewards' / 'phi4.py'}",
        ]
    )
    assert get_custom_reward_fn(cfg) is None
    cfg = compose(manager_overrides(tiny_model_dir))
    fn = get_custom_reward_fn(cfg)
    assert fn is not None
    got = fn(data_source="x", solution_str="<think>a</think> \\boxed{42}", ground_truth="42", extra_info=None)
    assert got["acc"] == 1


def test_reward_loop_manager_in_ray_actors(tiny_model_dir: Path) -> None:
    """The production path: verl's RewardLoopManager starts RewardLoopWorker Ray actors, which
    load both files by path (no PYTHONPATH) and run the symbolic worker pool inside the actor."""
    ray = pytest.importorskip("ray")
    from transformers import AutoTokenizer

    overrides = [o for o in manager_overrides(tiny_model_dir) if not o.startswith("reward.num_workers")]
    cfg = compose([*overrides, "reward.num_workers=2"])
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    samples = [
        ("<think> ok </think> The answer is \\boxed{42}.", True),
        ("<think> hmm </think> \\boxed{x^2-1}", True),  # symbolic: needs the worker process
        ("<think> " + "forty two " * 40, False),  # truncated
        ("<think> b </think> \\boxed{\\frac{84}{2}}", True),
    ]
    data, lengths = make_batch(tok, samples)
    data.non_tensor_batch["reward_model"] = np.array(
        [{"ground_truth": g} for g in ("42", "(x-1)(x+1)", "42", "42")], dtype=object
    )
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        runtime_env={"env_vars": {"PYTHONPATH": "", "REWARDS_SYMBOLIC_WORKERS": "1"}},
    )
    try:
        from verl.experimental.reward_loop.reward_loop import RewardLoopManager

        out = RewardLoopManager(cfg).compute_rm_score(data)
    finally:
        ray.shutdown()
    assert out.non_tensor_batch["acc"].tolist() == [1, 1, 0, 1]
    assert out.non_tensor_batch["truncated"].tolist() == [0, 0, 1, 0]
    assert out.non_tensor_batch["response_length"].tolist() == lengths
    rm = out.batch["rm_scores"]
    for row, length in enumerate(lengths):
        assert torch.nonzero(rm[row]).flatten().tolist() == [length - 1]
        assert rm[row, length - 1].item() == pytest.approx(
            float(out.non_tensor_batch["score"][row]), abs=1e-6
        )
