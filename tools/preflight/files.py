"""The checks of ``tools/preflight/cli.py`` that read the job's files: the model dir (through verl's
``HFModelConfig``), lengths against the model's context, the train/val Parquet (``dataprep/check.py``),
the reward (verl's ``get_custom_reward_fn`` on a real train row), the checkpoint dir. Each ``check_*(ctx)`` records findings in ``ctx.report``;
memory, host RAM and disk are in ``capacity.py``.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dataprep.check import check_parquet
from tools.preflight.checks import Context, Report, _msg, quiet, sel

REWARD_TIMEOUT_S = 20.0


def check_model(ctx: Context) -> None:
    """The model dir has config.json and a tokenizer, and verl's HFModelConfig loads both."""
    name = "model"
    cfg, r = ctx.cfg, ctx.report
    path = str(sel(cfg, "actor_rollout_ref.model.path"))
    if "://" in path and not path.startswith("file://"):
        r.skip(name, f"{path} is remote; verl copies it at start (not checked here)")
        return
    p = Path(path)
    if not p.is_dir():
        r.error(
            name,
            f"actor_rollout_ref.model.path={path}: no such directory (download the model there, "
            "or fix MODEL_ROOT in the site file)",
        )
        return
    if not (p / "config.json").is_file():
        r.error(name, f"{p}/config.json is missing: this is not a Hugging Face model directory")
        return
    tok_files = ("tokenizer.json", "tokenizer.model", "tokenizer_config.json", "vocab.json")
    tok_dir = Path(str(sel(cfg, "actor_rollout_ref.model.tokenizer_path") or p))
    if not any((tok_dir / f).is_file() for f in tok_files):
        r.error(name, f"{tok_dir} has no tokenizer ({', '.join(tok_files)}); copy the tokenizer files there")
        return

    try:
        ctx.hf_config = json.loads((p / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        r.error(name, f"{p}/config.json is not readable JSON: {exc}")
        return
    from verl.utils.config import omega_conf_to_dataclass

    try:
        with quiet():
            ctx.model = omega_conf_to_dataclass(sel(cfg, "actor_rollout_ref.model"))
    except Exception as exc:
        r.error(name, f"verl's HFModelConfig cannot load {p}: {_msg(exc)}")
        return
    arch = (ctx.model.architectures or ["?"])[0]
    r.ok(name, f"{p.name}: {arch}, tokenizer {type(ctx.model.tokenizer).__name__}")


def max_position_embeddings(hf_config: dict[str, Any]) -> int | None:
    """Mirror of verl.workers.rollout.utils.get_max_position_embeddings (that module needs uvicorn)."""
    value = hf_config.get("max_position_embeddings")
    if value is None and isinstance(hf_config.get("text_config"), dict):
        value = hf_config["text_config"].get("max_position_embeddings")
    return int(value) if value is not None else None


def check_lengths(ctx: Context) -> None:
    name = "lengths"
    cfg, r = ctx.cfg, ctx.report
    prompt = int(sel(cfg, "data.max_prompt_length"))
    response = int(sel(cfg, "data.max_response_length"))
    need = prompt + response
    r_prompt = sel(cfg, "actor_rollout_ref.rollout.prompt_length")
    r_resp = sel(cfg, "actor_rollout_ref.rollout.response_length")
    if r_prompt is not None and int(r_prompt) != prompt or r_resp is not None and int(r_resp) != response:
        r.warn(
            name,
            f"rollout.prompt_length/response_length ({r_prompt}/{r_resp}) differ from data.max_prompt_length/"
            f"max_response_length ({prompt}/{response}); set the data.* keys only",
        )
    pos = max_position_embeddings(ctx.hf_config) if ctx.hf_config else None
    mml = sel(cfg, "actor_rollout_ref.rollout.max_model_len")
    if mml is not None:
        mml = int(mml)
        if pos is not None and mml > pos:
            r.error(
                name,
                f"rollout.max_model_len={mml} > the model's max_position_embeddings={pos} "
                "(verl's rollout server refuses to start)",
            )
        if need > mml:
            r.error(
                name,
                f"max_prompt_length + max_response_length = {prompt} + {response} = {need} > "
                f"rollout.max_model_len={mml}: raise max_model_len or shorten the response",
            )
    elif pos is not None and need > pos:
        r.error(
            name,
            f"max_prompt_length + max_response_length = {need} > the model's max_position_embeddings={pos} "
            "(the rollout's max model length)",
        )
    if sel(cfg, "actor_rollout_ref.actor.use_dynamic_bsz"):
        cap = int(sel(cfg, "actor_rollout_ref.actor.ppo_max_token_len_per_gpu"))
        if cap < need:
            r.error(name, f"actor.ppo_max_token_len_per_gpu={cap} < one full sequence ({need} tokens)")
    limit = mml if mml is not None else pos
    r.ok(name, f"prompt {prompt} + response {response} = {need} tokens (max model len {limit or 'unknown'})")


# ------------------------------------------------------------------------------ files


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def check_data(ctx: Context) -> None:
    cfg, r = ctx.cfg, ctx.report
    tokenizer = str(ctx.model.local_tokenizer_path) if ctx.model is not None else None
    max_prompt = int(sel(cfg, "data.max_prompt_length"))
    for key in ("data.train_files", "data.val_files"):
        name = key.split(".")[1].replace("_files", " data")
        files = _as_list(sel(cfg, key))
        if not files:
            r.error(name, f"{key} is empty")
            continue
        for f in files:
            if "://" in f:
                r.skip(name, f"{f} is remote; not checked")
                continue
            if not Path(f).is_file():
                r.error(name, f"{key}: {f} does not exist (run `python -m dataprep ...` or fix DATA_ROOT)")
                continue
            with quiet():
                rep = check_parquet(f, tokenizer_path=tokenizer, max_prompt_length=max_prompt)
            for e in rep.errors:
                r.error(name, f"{f}: {e}")
            for w in rep.warnings:
                r.warn(name, f"{f}: {w}")
            r.ok(name, f"{Path(f).name}: {rep.rows} rows")


def _first_row(path: str) -> dict[str, Any] | None:
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    for batch in pf.iter_batches(batch_size=1):
        rows = batch.to_pylist()
        if rows:
            return rows[0]
    return None


def _dummy_responses(ground_truth: str, tokenizer: Any, skip_special: bool) -> tuple[str, str]:
    """A well-formed correct and a wrong response, as the reward manager hands them to
    ``compute_score``: verl's registered managers decode with ``skip_special_tokens=True``."""
    right = (
        "<think>\nLet me work through the problem step by step and check the result.\n</think>\n\n"
        f"The final answer is $\\boxed{{{ground_truth}}}$.\n#### {ground_truth}"
    )
    wrong = "<think>\nI am not sure.\n</think>\n\nThe final answer is $\\boxed{-987654321}$.\n#### -987654321"
    if tokenizer is not None and skip_special:
        try:
            right = tokenizer.decode(
                tokenizer.encode(right, add_special_tokens=False), skip_special_tokens=True
            )
            wrong = tokenizer.decode(
                tokenizer.encode(wrong, add_special_tokens=False), skip_special_tokens=True
            )
        except Exception:  # a tokenizer that cannot round-trip: score the plain text
            pass
    return right, wrong


def _call_with_timeout(fn: Callable[[], Any], timeout: float) -> Any:
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = fn()
        except BaseException as exc:  # reported to the caller
            result["error"] = exc

    t = threading.Thread(target=run, daemon=True, name="preflight-reward")
    t.start()
    t.join(timeout)
    if t.is_alive():
        raise TimeoutError(f"no result within {timeout:g} s")
    if "error" in result:
        raise result["error"]
    return result.get("value")


def _score_value(result: Any) -> float:
    value = result.get("score") if isinstance(result, dict) else result
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(
            f"compute_score returned {result!r}; verl needs a number or a dict with a numeric 'score'"
        )
    if not math.isfinite(float(value)):
        raise ValueError(f"compute_score returned a non-finite score {value!r}")
    return float(value)


def check_reward(ctx: Context) -> None:
    """Load the reward through verl's loader and score the first train row."""
    name = "reward"
    cfg, r = ctx.cfg, ctx.report
    path = sel(cfg, "reward.custom_reward_function.path")
    fn_name = sel(cfg, "reward.custom_reward_function.name")
    from verl.trainer.ppo.reward import get_custom_reward_fn, resolve_reward_manager_cls

    if sel(cfg, "reward.reward_manager.source") == "importlib":
        try:
            with quiet():
                resolve_reward_manager_cls(cfg)
        except Exception as exc:
            r.error(
                name, f"reward.reward_manager ({sel(cfg, 'reward.reward_manager.module.path')}): {_msg(exc)}"
            )
    if not path:
        r.warn(
            name,
            "reward.custom_reward_function.path is not set: verl falls back to its built-in scorer "
            "for each data_source",
        )
        return
    if "://" not in str(path) and not Path(str(path)).is_file():
        r.error(name, f"reward.custom_reward_function.path={path}: no such file")
        return
    try:
        with quiet():
            fn = get_custom_reward_fn(cfg)
    except Exception as exc:
        r.error(name, f"verl could not load {fn_name!r} from {path}: {_msg(exc)}")
        return
    _check_repetition_kernel(r, name, str(path))
    files = _as_list(sel(cfg, "data.train_files"))
    local = [f for f in files if "://" not in f and Path(f).is_file()]
    if not local:
        r.ok(name, f"{path}:{fn_name} loads (no local train file to score a row from)")
        return
    try:
        row = _first_row(local[0])
    except Exception as exc:
        r.warn(name, f"could not read a row of {local[0]} to score: {_msg(exc)}")
        return
    if not row:
        r.warn(name, f"{local[0]} has no rows to score")
        return
    reward_model = row.get("reward_model") or {}
    gt = reward_model.get("ground_truth") if isinstance(reward_model, dict) else None
    source = row.get("data_source")
    extra = row.get("extra_info") or {}
    tokenizer = getattr(ctx.model, "tokenizer", None)
    registered = sel(cfg, "reward.reward_manager.source") != "importlib"
    right, wrong = _dummy_responses(str(gt), tokenizer, skip_special=registered)
    scores = []
    for text in (right, wrong):
        try:
            with quiet():
                result = _call_with_timeout(
                    lambda t=text: fn(
                        data_source=source, solution_str=t, ground_truth=gt, extra_info=dict(extra)
                    ),
                    REWARD_TIMEOUT_S,
                )
            scores.append(_score_value(result))
        except Exception as exc:
            r.error(
                name,
                f"{path}:{fn_name} failed on row 0 of {Path(local[0]).name} "
                f"(data_source={source!r}): {_msg(exc)}",
            )
            return
    manager = sel(cfg, "reward.reward_manager.name")
    if scores[0] <= scores[1]:
        r.warn(
            name,
            f"{path}:{fn_name} scores a well-formed correct answer ({scores[0]:g}) no higher than a wrong one "
            f"({scores[1]:g}) on row 0 ({source}), as reward manager '{manager}' passes them"
            + (
                " (decoded with skip_special_tokens=True, which drops special <think>/</think> tokens and "
                "passes no token length); a length-aware or tag-checking reward needs "
                "reward.reward_manager.source=importlib with rewards/manager.py's LengthAwareRewardManager"
                if registered
                else ""
            ),
        )
    r.ok(
        name,
        f"{path}:{fn_name} on row 0 ({source}): well-formed correct answer {scores[0]:g}, "
        f"wrong answer {scores[1]:g}",
    )


def _check_repetition_kernel(r: Report, name: str, path: str) -> None:
    """This project's Phi-4 reward without its C kernel scores the same, in about 3x the time."""
    from rewards import repetition_native

    if path.startswith("pkg://"):
        if path.removeprefix("pkg://") != "rewards.phi4":
            return
    elif "://" in path or Path(path).resolve() != repetition_native.SOURCE.parents[1] / "phi4.py":
        return
    library = repetition_native.library_path()
    if not library.exists():
        r.warn(
            name,
            "the Phi-4 reward's repetition kernel is not built for this checkout "
            f"({library.name}): run `make native` (needs a C compiler); "
            "without it the reward uses its numpy passes (same scores, about 3x the time)",
        )


def check_checkpoint_dir(ctx: Context) -> None:
    name = "checkpoint dir"
    cfg, r = ctx.cfg, ctx.report
    d = str(sel(cfg, "trainer.default_local_dir"))
    if not os.path.isabs(d):
        r.error(
            name,
            f"trainer.default_local_dir={d} is relative: Ray workers resolve it against their own working "
            "directory, so checkpoints land somewhere unexpected; set an absolute path (CKPT_ROOT in the site file)",
        )
        return
    p = Path(d)
    existing = p
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        r.error(name, f"{d}: {existing} exists but is not a directory")
        return
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".preflight-"):
            pass
    except OSError as exc:
        r.error(name, f"{d}: cannot write in {existing} ({exc.strerror}); pick a writable CKPT_ROOT")
        return
    r.ok(name, f"{d} ({'exists' if p.exists() else f'will be created under {existing}'}, writable)")
