"""Composition helpers of preflight: legacy/deprecated keys read from verl's own config files,
unknown-key detection, job-script parsing (tools/preflight/config.py, tools/preflight/cli.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO_ROOT

from tools.preflight import cli
from tools.preflight import config as pconf


def verl_compose(*overrides: str):
    """verl's ppo_trainer composed with overrides (Hydra's compose API, as preflight uses it)."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(pconf.verl_config_dir()), version_base=None):
            return compose(config_name="ppo_trainer", overrides=list(overrides))
    finally:
        GlobalHydra.instance().clear()


def test_placeholders_come_from_verls_backward_compat_file():
    from omegaconf import OmegaConf

    assert "legacy_reward_impl.yaml" in pconf.backward_compat_files()
    keys = pconf.placeholder_keys()
    assert {"custom_reward_function.path", "reward_model.enable", "sandbox_fusion.url"} <= set(keys)
    base = pconf.base_config()
    for key in keys:  # every one is only a null placeholder in the composed verl config
        assert OmegaConf.select(base, key, default="absent") is None, key


def test_deprecated_keys_are_read_from_verl_comments():
    found = {(k.file, k.path_in_file): k for k in pconf.deprecated_keys()}
    steps = found[("actor/actor.yaml", "profiler.tool_config.precision_debugger.steps")]
    assert steps.ignored and steps.replacement == "global_profiler.steps"
    micro = found[("actor/actor.yaml", "ppo_micro_batch_size")]
    assert not micro.ignored


def test_legacy_keys_map_to_new_keys_through_verls_migration():
    cfg = verl_compose(
        "custom_reward_function.path=/r.py",
        "reward_model.model.path=/rm",
        "sandbox_fusion.url=http://sandbox",
    )
    problems = {p.key: p for p in pconf.legacy_keys(cfg)}
    assert "'reward.custom_reward_function.path'" in problems["custom_reward_function.path"].message
    # verl renames this one on the way (model.path -> model_path): derived, not guessed
    assert "'reward.reward_model.model_path'" in problems["reward_model.model.path"].message
    assert "'reward.sandbox_fusion.url'" in problems["sandbox_fusion.url"].message
    assert all(p.level == "error" for p in problems.values())


def test_ignored_and_deprecated_keys():
    cfg = verl_compose(
        "actor_rollout_ref.rollout.profiler.tool_config.precision_debugger.steps=[1,2]",
        "actor_rollout_ref.actor.optim.warmup_style=cosine",
    )
    problems = {p.key: p for p in pconf.legacy_keys(cfg)}
    ignored = problems["actor_rollout_ref.rollout.profiler.tool_config.precision_debugger.steps"]
    assert ignored.level == "error" and "global_profiler.steps" in ignored.message
    assert problems["actor_rollout_ref.actor.optim.warmup_style"].level == "warning"
    assert not pconf.legacy_keys(verl_compose())  # verl's defaults are clean


def test_unknown_keys_added_with_plus_and_free_form_sections():
    cfg = verl_compose(
        "+actor_rollout_ref.rollout.temprature=0.7",
        "+actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=fa3",
        "+trainer.v1.sync.anything=1",
        "+ray_kwargs.ray_init.runtime_env.env_vars.FOO=1",
    )
    problems = pconf.unknown_keys(cfg, pconf.base_config())
    assert [p.key for p in problems] == ["actor_rollout_ref.rollout.temprature"]
    assert "did you mean 'actor_rollout_ref.rollout.temperature'" in problems[0].message


def test_suggest_prefers_siblings():
    known = ["a.rollout.tensor_model_parallel_size", "a.rollout.n", "b.tensor_model_parallel_size"]
    assert pconf.suggest("a.rollout.tensor_parallel_size", known) == "a.rollout.tensor_model_parallel_size"
    assert pconf.suggest("a.rollout.zzz", known) is None


def test_job_script_variables(tmp_path: Path):
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/usr/bin/env bash\n#SBATCH --nodes=2\nset -euo pipefail\n"
        'EXPERIMENT="gsm8k_qwen"\nENGINE=${ENGINE:-vllm}\nsource jobs/lib/launch.sh\n'
    )
    assert cli.resolve_target(str(script), REPO_ROOT / "jobs" / "configs")[:3] == ("gsm8k_qwen", "vllm", 2)
    assert cli.resolve_target("phi4_omni_math", REPO_ROOT / "jobs" / "configs")[:3] == (
        "phi4_omni_math",
        None,
        None,
    )
    script.write_text("echo no experiment here\n")
    with pytest.raises(SystemExit, match="EXPERIMENT"):
        cli.resolve_target(str(script), REPO_ROOT / "jobs" / "configs")


def test_shipped_job_scripts_name_existing_experiments():
    scripts = sorted((REPO_ROOT / "jobs").glob("*.sh"))
    if not scripts:
        pytest.skip("no job scripts yet")
    for script in scripts:
        experiment, engine, _, _ = cli.resolve_target(str(script), REPO_ROOT / "jobs" / "configs")
        assert (REPO_ROOT / "jobs" / "configs" / f"{experiment}.yaml").is_file(), script
        assert engine in ("sglang", "vllm"), script


def test_launcher_override_order():
    overrides, notes = cli.build_overrides("vllm", 2, ["data.train_batch_size=8"])
    assert overrides == ["engine=vllm", "trainer.nnodes=2", "data.train_batch_size=8"]
    overrides, _ = cli.build_overrides("vllm", 2, ["trainer.nnodes=1"])
    assert overrides == ["engine=vllm", "trainer.nnodes=1"]  # an explicit value is not duplicated


def test_slurm_allocation_from_environment():
    from tools.preflight import checks

    job = {"SLURM_JOB_ID": "7", "SLURM_JOB_NUM_NODES": "2"}
    assert checks.slurm_allocation({}) is None
    assert checks.slurm_allocation({**job, "SLURM_GPUS_PER_NODE": "h100:8"}) == (2, 8)
    assert checks.slurm_allocation({**job, "SLURM_GPUS_ON_NODE": "4"}) == (2, 4)
    assert checks.slurm_allocation({**job, "SLURM_JOB_GPUS": "0,1,2"}) == (2, 3)
    assert checks.slurm_allocation(job) == (2, None)  # no GPU count: nodes only


def test_new_keys_in_legacy_sections_are_legacy_errors():
    cfg = verl_compose(
        "+custom_reward_function.reward_kwargs.alpha=1",  # 0.4-era place: ignored
        "+reward.custom_reward_function.reward_kwargs.alpha=1",  # the 0.9.1 place: read by verl
    )
    problems = pconf.unknown_keys(cfg, pconf.base_config())
    assert [p.key for p in problems] == ["custom_reward_function.reward_kwargs"]
    assert "IGNORED" in problems[0].message
    assert "'reward.custom_reward_function.reward_kwargs'" in problems[0].message
