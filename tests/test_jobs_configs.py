"""The experiment configs in jobs/configs, composed by the real Hydra + verl 0.9.1 (no Slurm).

Every experiment x engine composes, resolves, passes verl's own `validate_config` and the
dataclass conversions `main_ppo` does; the engine switch changes only what the overlay says.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
from omegaconf import DictConfig, OmegaConf

REPO = Path(__file__).resolve().parents[1]
CONFIGS = REPO / "jobs" / "configs"
EXPERIMENTS = ("phi4_omni_math", "gsm8k_qwen", "r1distill70b_lora")
ENGINES = ("sglang", "vllm")
JOB_SCRIPTS = {
    "phi4_sglang.sh": ("phi4_omni_math", "sglang"),
    "phi4_vllm.sh": ("phi4_omni_math", "vllm"),
    "gsm8k_qwen_sglang.sh": ("gsm8k_qwen", "sglang"),
    "gsm8k_qwen_vllm.sh": ("gsm8k_qwen", "vllm"),
    "r1distill70b_lora_sglang.sh": ("r1distill70b_lora", "sglang"),
    "r1distill70b_lora_vllm.sh": ("r1distill70b_lora", "vllm"),
}
REWARD = {
    "phi4_omni_math": "pkg://rewards.phi4",
    "gsm8k_qwen": "pkg://rewards.gsm8k",
    "r1distill70b_lora": "pkg://rewards",  # answer equivalence, dispatched by data_source
}
MODEL_NAMES = ("Phi-4-reasoning-plus", "Qwen2.5-1.5B-Instruct", "DeepSeek-R1-Distill-Llama-70B")


@pytest.fixture(scope="module")
def site_roots(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path) -> Path:
    """DATA_ROOT / MODEL_ROOT / CKPT_ROOT under one temp dir; the tiny model stands in."""
    root = tmp_path_factory.mktemp("site")
    (root / "models").mkdir()
    for name in MODEL_NAMES:
        (root / "models" / name).symlink_to(tiny_model_dir)
    return root


@pytest.fixture(autouse=True)
def site_env(site_roots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATA_ROOT", str(site_roots / "data"))
    monkeypatch.setenv("MODEL_ROOT", str(site_roots / "models"))
    monkeypatch.setenv("CKPT_ROOT", str(site_roots / "ckpt"))


def compose(experiment: str, overrides: list[str]) -> DictConfig:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    with initialize_config_dir(config_dir=str(CONFIGS), version_base=None):
        return hydra_compose(config_name=experiment, overrides=overrides)


def flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(node, dict):
        if not node and prefix:
            out[prefix] = {}
        for key, value in node.items():
            out.update(flatten(value, f"{prefix}.{key}" if prefix else str(key)))
    else:
        out[prefix] = node
    return out


def composed(experiment: str, engine: str, *extra: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(resolved, unresolved) flat views of one experiment x engine."""
    cfg = compose(experiment, [f"engine={engine}", *extra])
    raw = flatten(OmegaConf.to_container(cfg, resolve=False))
    return flatten(OmegaConf.to_container(cfg, resolve=True)), raw


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_composes_and_passes_verl_validation(experiment: str, engine: str) -> None:
    from verl.trainer.ppo.reward import get_custom_reward_fn, resolve_reward_manager_cls
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import omega_conf_to_dataclass, validate_config
    from verl.workers.config import HFModelConfig, RolloutConfig

    cfg = compose(experiment, [f"engine={engine}", "trainer.nnodes=2"])
    OmegaConf.resolve(cfg)
    assert cfg.actor_rollout_ref.rollout.name == engine
    assert cfg.algorithm.adv_estimator == "grpo"
    assert cfg.actor_rollout_ref.rollout.n >= 4
    assert cfg.actor_rollout_ref.actor.strategy == "fsdp2"
    # the reward is wired where 0.9.1 reads it, not at the silently ignored legacy keys
    assert cfg.custom_reward_function.path is None and cfg.reward_model.enable is None
    assert cfg.reward.custom_reward_function.path == REWARD[experiment]
    # long runs: resumable, two checkpoints kept, the trainer loop that honours the expiry save
    assert cfg.trainer.resume_mode == "auto"
    assert cfg.trainer.max_actor_ckpt_to_keep >= 2
    assert cfg.trainer.save_freq > 0 and cfg.trainer.use_v1 is False
    assert "file" in cfg.trainer.logger and "console" in cfg.trainer.logger

    # what main_ppo does before starting Ray, on the real verl
    if (
        engine == "vllm"
        and cfg.actor_rollout_ref.model.lora_rank > 0
        and importlib.util.find_spec("vllm") is None
    ):
        # verl's only engine-dependent rule (vLLM's LoRA ranks) imports vllm; preflight's lora
        # check applies it without vllm (tests/test_preflight_lora.py)
        with pytest.raises(Exception, match="vllm"):
            validate_config(cfg, use_reference_policy=True, use_critic=False)
        cfg.actor_rollout_ref.model.lora_rank = 0
    validate_config(cfg, use_reference_policy=need_reference_policy(cfg), use_critic=need_critic(cfg))
    assert need_reference_policy(cfg) and not need_critic(cfg)
    rollout = omega_conf_to_dataclass(cfg.actor_rollout_ref.rollout, dataclass_type=RolloutConfig)
    assert rollout.name == engine
    omega_conf_to_dataclass(cfg.algorithm)
    model = omega_conf_to_dataclass(cfg.actor_rollout_ref.model, dataclass_type=HFModelConfig)
    assert model.hf_config._attn_implementation == "sdpa"
    assert callable(get_custom_reward_fn(cfg))
    manager = resolve_reward_manager_cls(cfg)
    if experiment == "phi4_omni_math":
        assert manager.__name__ == "LengthAwareRewardManager"


def test_phi4_reference_values() -> None:
    """The 2025 reference run's settings, at 0.9.1's keys."""
    flat, _ = composed("phi4_omni_math", "sglang")
    expected = {
        "data.max_prompt_length": 1020,
        "data.max_response_length": 31744,
        "data.train_batch_size": 16,
        "actor_rollout_ref.actor.fsdp_config.param_offload": True,
        "actor_rollout_ref.actor.fsdp_config.optimizer_offload": True,
        "actor_rollout_ref.ref.fsdp_config.param_offload": True,
        "actor_rollout_ref.actor.use_dynamic_bsz": True,
        # 32,768 (not the reference's 39,904) and a bf16 reference: preflight estimated 105% of HBM
        "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": 32768,
        "actor_rollout_ref.ref.fsdp_config.model_dtype": "bf16",
        "actor_rollout_ref.model.enable_activation_offload": True,
        "actor_rollout_ref.model.use_remove_padding": True,
        "actor_rollout_ref.model.enable_gradient_checkpointing": True,
        "actor_rollout_ref.actor.use_kl_loss": True,
        "actor_rollout_ref.actor.kl_loss_type": "low_var_kl",
        "actor_rollout_ref.actor.kl_loss_coef": 0.001,
        "algorithm.use_kl_in_reward": False,
        "actor_rollout_ref.actor.optim.lr": 1e-6,
        "actor_rollout_ref.actor.optim.lr_warmup_steps": 10,
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 4,
        "actor_rollout_ref.rollout.tensor_model_parallel_size": 2,
        "actor_rollout_ref.rollout.gpu_memory_utilization": 0.7,
        "actor_rollout_ref.rollout.max_num_batched_tokens": 33792,
        "actor_rollout_ref.rollout.engine_kwargs.sglang.chunked_prefill_size": 33792,
        "trainer.save_freq": 10,
        "trainer.total_epochs": 2,
    }
    assert {k: flat[k] for k in expected} == expected
    # the token budget fits one maximal sequence
    assert flat["actor_rollout_ref.actor.ppo_max_token_len_per_gpu"] >= 1020 + 31744


@pytest.mark.parametrize("experiment", EXPERIMENTS)
@pytest.mark.parametrize("nnodes", [1, 2, 4])
def test_batch_divisibility(experiment: str, nnodes: int) -> None:
    """verl counts ppo_mini_batch_size in prompts and multiplies by rollout.n itself."""
    flat, _ = composed(experiment, "sglang")
    prompts = flat["data.train_batch_size"]
    n = flat["actor_rollout_ref.rollout.n"]
    mini = flat["actor_rollout_ref.actor.ppo_mini_batch_size"]
    dp = nnodes * flat["trainer.n_gpus_per_node"]
    assert prompts % mini == 0, "each step must split into whole mini batches"
    assert (prompts * n) % dp == 0, f"{prompts}x{n} sequences must spread evenly over {dp} GPUs"
    assert (mini * n) % dp == 0, f"a mini batch of {mini}x{n} sequences must spread over {dp} GPUs"
    tp = flat["actor_rollout_ref.rollout.tensor_model_parallel_size"]
    assert dp % tp == 0


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_engine_switch_changes_only_the_overlay(experiment: str) -> None:
    sg, sg_raw = composed(experiment, "sglang")
    vl, vl_raw = composed(experiment, "vllm")
    overlay_keys: set[str] = set()
    for engine in ENGINES:
        body = OmegaConf.to_container(OmegaConf.load(CONFIGS / "engine" / f"{engine}.yaml"), resolve=False)
        overlay_keys |= set(flatten(body))
    differing = {k for k in sg.keys() | vl.keys() if sg.get(k, "<absent>") != vl.get(k, "<absent>")}
    assert "actor_rollout_ref.rollout.name" in differing
    for key in differing:
        if key in overlay_keys or any(o.startswith(key + ".") for o in overlay_keys):
            continue  # set by an overlay (an empty parent where the other overlay fills it)
        # otherwise verl derives it from an overlay key by interpolation (e.g. the teacher's name)
        refs = {
            m
            for raw in (sg_raw.get(key), vl_raw.get(key))
            for m in re.findall(r"\$\{[^}]*?([\w.]+)\}", str(raw))
        }
        assert refs & overlay_keys, (
            f"{key} differs between engines but no overlay sets it: {sg.get(key)} vs {vl.get(key)}"
        )


@pytest.mark.parametrize("script", sorted(JOB_SCRIPTS))
def test_job_script_is_a_screen_naming_experiment_and_engine(script: str) -> None:
    text = (REPO / "jobs" / script).read_text()
    experiment, engine = JOB_SCRIPTS[script]
    assert f"\nEXPERIMENT={experiment}\n" in text and f"\nENGINE={engine}\n" in text
    assert (CONFIGS / f"{experiment}.yaml").is_file() and (CONFIGS / "engine" / f"{engine}.yaml").is_file()
    assert len(text.splitlines()) <= 30
    # all the logic lives in the launcher: a job script has directives, two names and the call
    code = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert code[-1] == 'launch_job "$@"' and len(code) == 5, code
    for directive in ("--gres=gpu:8", "--requeue", "--signal=B:USR1@", "--output=%x-%j", "--nodes=1"):
        assert f"#SBATCH {directive}" in text


def test_engine_overlays_do_not_repeat_verls_rollout_defaults() -> None:
    """An overlay line that restates verl's default (e.g. enable_chunked_prefill: true) is noise
    that hides what the overlay really changes."""
    import verl
    import yaml

    defaults = yaml.safe_load(
        (Path(verl.__file__).parent / "trainer" / "config" / "rollout" / "rollout.yaml").read_text()
    )
    repeated = []
    for overlay in sorted(
        (Path(__file__).resolve().parents[1] / "jobs" / "configs" / "engine").glob("*.yaml")
    ):
        rollout = (yaml.safe_load(overlay.read_text()) or {}).get("actor_rollout_ref", {}).get("rollout", {})
        for key, value in rollout.items():
            if key in defaults and not isinstance(value, dict) and defaults[key] == value:
                repeated.append(f"{overlay.name}: rollout.{key}: {value}")
    assert not repeated, repeated


@pytest.mark.parametrize("engine", ENGINES)
def test_r1distill70b_lora_reaches_verls_lora_settings(engine: str) -> None:
    """The LoRA settings land where verl 0.9.1 reads them: the FSDP engine's HFModelConfig
    (lora_rank/alpha/target_modules, lora.merge), the rollout config and the checkpoint dataclass."""
    from verl.utils.config import omega_conf_to_dataclass
    from verl.workers.config import HFModelConfig

    cfg = compose("r1distill70b_lora", [f"engine={engine}"])
    model = omega_conf_to_dataclass(cfg.actor_rollout_ref.model, dataclass_type=HFModelConfig)
    assert (model.lora_rank, model.lora_alpha, model.target_modules) == (32, 32, "all-linear")
    assert model.lora.get("merge") is False  # the engine gets an adapter
    rollout = omega_conf_to_dataclass(cfg.actor_rollout_ref.rollout)
    assert (rollout.name, rollout.load_format, rollout.layered_summon) == (engine, "safetensors", True)
    assert rollout.tensor_model_parallel_size == 8
    actor = omega_conf_to_dataclass(cfg.actor_rollout_ref.actor)
    assert actor.checkpoint.save_lora_only is True
    assert cfg.actor_rollout_ref.actor.fsdp_config.model_dtype == "bf16"
