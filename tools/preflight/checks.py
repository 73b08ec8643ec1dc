"""The config checks behind ``tools/preflight/cli.py``: the report model, verl's own validation, the
algorithm, allocation, rollout parallelism, batch sizes and engine rules. Each ``check_*(ctx)``
records findings in ``ctx.report``; the checks that read files live in ``preflight_files.py``.

verl's own rules are run, not re-implemented: its config dataclasses (``omega_conf_to_dataclass``),
``verl.utils.config.validate_config`` with ``need_reference_policy``/``need_critic``, and its
advantage-estimator, policy-loss and KL registries. The checks added here are the ones verl makes
only once the job is running (or never): the allocation, rollout parallelism, mini-batch division
by the data-parallel size, engine-specific rules.
"""

from __future__ import annotations

import contextlib
import copy
import io
import os
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from omegaconf import open_dict

from tools.preflight.memory import DEFAULT_GPU_MEM_GIB

REPO_ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------------------ report


@dataclass
class Check:
    name: str
    status: str = "ok"  # ok | warn | error | skip
    detail: str = ""


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    memory: dict[str, Any] = field(default_factory=dict)

    def _check(self, name: str) -> Check:
        for c in self.checks:
            if c.name == name:
                return c
        c = Check(name)
        self.checks.append(c)
        return c

    def ok(self, name: str, detail: str = "") -> None:
        c = self._check(name)
        if detail and c.status in ("ok", "skip"):
            c.detail = detail
        if c.status == "skip":
            c.status = "ok"

    def skip(self, name: str, detail: str) -> None:
        c = self._check(name)
        if c.status == "ok" and not c.detail:
            c.status, c.detail = "skip", detail

    def warn(self, name: str, message: str) -> None:
        c = self._check(name)
        if c.status in ("ok", "skip"):
            c.status, c.detail = "warn", message
        self.warnings.append(f"[{name}] {message}")

    def error(self, name: str, message: str) -> None:
        c = self._check(name)
        if c.status != "error":
            c.status, c.detail = "error", message
        self.errors.append(f"[{name}] {message}")

    @property
    def passed(self) -> bool:
        return not self.errors


@dataclass
class Context:
    cfg: Any  # resolved DictConfig (struct)
    engine: str | None
    report: Report
    nodes: int | None = None
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    gpu_mem_gib: float = DEFAULT_GPU_MEM_GIB
    model: Any = None  # verl HFModelConfig once loaded
    hf_config: dict[str, Any] | None = None


@contextlib.contextmanager
def quiet() -> Iterator[io.StringIO]:
    """verl prints and warns while validating; keep stdout clean for ``--json``."""
    buf = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        warnings.simplefilter("ignore")
        yield buf


def _msg(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    cause = exc.__cause__ or exc.__context__
    if cause is not None and str(cause).strip() and str(cause).strip() not in text:
        text += f" ({str(cause).strip().splitlines()[0]})"
    return f"{type(exc).__name__}: {text}"


def sel(cfg: Any, path: str, default: Any = None) -> Any:
    from omegaconf import OmegaConf

    return OmegaConf.select(cfg, path, default=default)


# ------------------------------------------------------------------------------ verl's own rules


def check_verl_rules(ctx: Context) -> None:
    """Build verl's config dataclasses and run ``validate_config`` as ``main_ppo`` does."""
    name = "verl validation"
    cfg, r = ctx.cfg, ctx.report
    from verl.utils.config import omega_conf_to_dataclass, validate_config

    with quiet():
        from verl.trainer.ppo.utils import need_critic, need_reference_policy

        use_ref, use_critic = bool(need_reference_policy(cfg)), bool(need_critic(cfg))
    # The sections verl turns into dataclasses at run time (workers/engine_workers.py); the actor
    # and critic are built inside validate_config, the model in check_model.
    sections = ["algorithm", "actor_rollout_ref.rollout", "actor_rollout_ref.rollout.checkpoint_engine"]
    for section in sections:
        try:
            with quiet():
                omega_conf_to_dataclass(sel(cfg, section))
        except Exception as exc:
            r.error(name, f"{section}: verl's config dataclass rejects it: {_msg(exc)}")
    note = ""
    try:
        with quiet():
            validate_config(config=cfg, use_reference_policy=use_ref, use_critic=use_critic)
    except Exception as exc:
        if not _engine_missing(exc):
            r.error(name, f"verl's validate_config: {_msg(exc)}")
        else:
            # Only the vLLM LoRA-rank check imports the engine; run the rest without LoRA. The
            # same rule (vLLM's allowed ranks) is applied by check_lora without vllm.
            note = "; vLLM's LoRA-rank rule checked by the lora check (vllm is not installed here)"
            trial = copy.deepcopy(cfg)
            with open_dict(trial):
                trial.actor_rollout_ref.model.lora_rank = 0
                trial.actor_rollout_ref.model.lora = {}
            try:
                with quiet():
                    validate_config(config=trial, use_reference_policy=use_ref, use_critic=use_critic)
            except Exception as exc2:
                r.error(name, f"verl's validate_config: {_msg(exc2)}")
    r.ok(name, f"dataclasses + validate_config (reference policy: {use_ref}, critic: {use_critic}){note}")


def _engine_missing(exc: BaseException) -> bool:
    """The error comes from importing a rollout engine (vLLM/SGLang) that this env lacks."""
    tb = exc.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    engine_frame = any("vllm" in f or "sglang" in f for f in frames)
    return engine_frame and (
        isinstance(exc, ImportError) or "not supported" in str(exc) or "not Found" in str(exc)
    )


def check_algorithm(ctx: Context) -> None:
    """Advantage estimator, policy loss and KL estimator names against verl's registries; GRPO sanity."""
    name = "algorithm"
    cfg, r = ctx.cfg, ctx.report
    with quiet():
        from verl.trainer.ppo import core_algos
    adv = str(sel(cfg, "algorithm.adv_estimator"))
    try:
        core_algos.get_adv_estimator_fn(adv)
    except Exception as exc:
        r.error(name, f"algorithm.adv_estimator={adv!r}: {_msg(exc)}")
    loss_mode = sel(cfg, "actor_rollout_ref.actor.policy_loss.loss_mode")
    if loss_mode is not None:
        try:
            core_algos.get_policy_loss_fn(loss_mode)
        except Exception as exc:
            r.error(name, f"actor.policy_loss.loss_mode={loss_mode!r}: {_msg(exc)}")
    use_kl_loss = bool(sel(cfg, "actor_rollout_ref.actor.use_kl_loss"))
    use_kl_reward = bool(sel(cfg, "algorithm.use_kl_in_reward"))
    for flag, path in (
        (use_kl_loss, "actor_rollout_ref.actor.kl_loss_type"),
        (use_kl_reward, "algorithm.kl_penalty"),
    ):
        kind = sel(cfg, path)
        if flag and kind is not None:
            _check_kl_name(r, name, path, str(kind), core_algos)
    n = int(sel(cfg, "actor_rollout_ref.rollout.n", 1))
    grpo_like = adv in ("grpo", "grpo_passk", "grpo_vectorized", "rloo", "rloo_vectorized", "opo", "gpg")
    if grpo_like and n == 1:
        r.warn(
            name,
            f"adv_estimator={adv} with actor_rollout_ref.rollout.n=1: each group has one response, so "
            "every advantage is 0 and the policy never moves; set rollout.n >= 2 (4-16 is usual)",
        )
    if adv.startswith("grpo"):
        if use_kl_reward:
            r.warn(
                name,
                "GRPO with algorithm.use_kl_in_reward=true: GRPO puts the KL term in the loss "
                "(actor.use_kl_loss=true), not in the reward" + (" — both are on" if use_kl_loss else ""),
            )
        coef = float(sel(cfg, "actor_rollout_ref.actor.kl_loss_coef", 0.0) or 0.0)
        if use_kl_loss and coef == 0.0:
            r.warn(
                name, "actor.use_kl_loss=true with kl_loss_coef=0: a reference model is loaded for nothing"
            )
        if not use_kl_loss and not use_kl_reward:
            r.ok(name, f"{adv}, n={n}, no KL (no reference model)")
        if sel(cfg, "critic.enable") is True:
            r.warn(name, "GRPO with critic.enable=true: GRPO needs no critic; it costs a second model")
    r.ok(name, f"{adv}, n={n}, kl_loss={use_kl_loss}, kl_in_reward={use_kl_reward}")


def _check_kl_name(r: Report, name: str, path: str, kind: str, core_algos: ModuleType) -> None:
    import torch

    lp = torch.zeros(1, 2)
    try:
        core_algos.kl_penalty(lp, lp, kind)
    except NotImplementedError as exc:
        r.error(name, f"{path}={kind!r} is not a KL estimator verl knows: {_msg(exc)}")
    except Exception:  # other shapes ("full") need real distributions; the name itself was accepted
        pass


# ------------------------------------------------------------------------------ allocation and batches


def slurm_allocation(env: dict[str, str]) -> tuple[int, int | None] | None:
    """(nodes, GPUs per node or None) of the Slurm job we run in, or None outside a job."""
    if not env.get("SLURM_JOB_ID"):
        return None
    nodes_s = env.get("SLURM_JOB_NUM_NODES") or env.get("SLURM_NNODES")
    if not nodes_s:
        return None
    gpus: int | None = None
    for key in ("SLURM_GPUS_ON_NODE", "SLURM_GPUS_PER_NODE", "SLURM_JOB_GPUS"):
        val = env.get(key)
        if not val:
            continue
        if key == "SLURM_JOB_GPUS":
            gpus = len([g for g in val.split(",") if g.strip()])
        else:
            m = re.search(r"(\d+)(?:\(|$)", val.split(",")[0])
            gpus = int(m.group(1)) if m else None
        if gpus:
            break
    return int(nodes_s), gpus or None  # 0 (no GRES count) means unknown


def check_topology(ctx: Context) -> None:
    name = "allocation"
    cfg, r = ctx.cfg, ctx.report
    nnodes = int(sel(cfg, "trainer.nnodes"))
    per_node = int(sel(cfg, "trainer.n_gpus_per_node"))
    alloc = slurm_allocation(ctx.env)
    if alloc is not None:
        nodes, gpus = alloc
        source = f"Slurm job {ctx.env.get('SLURM_JOB_ID')}"
    elif ctx.nodes is not None:
        nodes, gpus = ctx.nodes, None
        source = "--nodes"
    else:
        nodes, gpus, source = None, None, ""
    if nodes is None:
        r.skip(
            name, f"trainer asks for {nnodes}x{per_node} GPUs; pass --nodes N to check against an allocation"
        )
    else:
        if nnodes != nodes:
            r.error(
                name,
                f"trainer.nnodes={nnodes} but the allocation ({source}) has {nodes} node(s): "
                f"set trainer.nnodes={nodes} (the launcher does this) or change --nodes/#SBATCH --nodes",
            )
        if gpus is not None and per_node > gpus:
            r.error(
                name,
                f"trainer.n_gpus_per_node={per_node} but {source} gives {gpus} GPU(s) per node: "
                f"set trainer.n_gpus_per_node={gpus} or #SBATCH --gpus-per-node={per_node}",
            )
        r.ok(
            name,
            f"{nnodes} node(s) x {per_node} GPUs ({source}: {nodes} node(s)"
            + (f" x {gpus} GPUs)" if gpus else ")"),
        )

    name = "rollout parallelism"
    tp = int(sel(cfg, "actor_rollout_ref.rollout.tensor_model_parallel_size", 1))
    dp = int(sel(cfg, "actor_rollout_ref.rollout.data_parallel_size", 1))
    pp = int(sel(cfg, "actor_rollout_ref.rollout.pipeline_model_parallel_size", 1))
    world = tp * dp * pp
    total = nnodes * per_node
    on_node = min(per_node, world)
    if world <= per_node and per_node % world != 0:
        r.error(
            name,
            f"rollout TP*DP*PP={tp}*{dp}*{pp}={world} does not divide trainer.n_gpus_per_node={per_node}: "
            "a replica would straddle nodes; pick a tensor_model_parallel_size that divides it",
        )
    elif world % on_node != 0 or total % world != 0:
        r.error(
            name,
            f"rollout TP*DP*PP={world} must divide the {total} GPUs (and be a multiple of the "
            f"{per_node} GPUs per node when larger than a node)",
        )
    else:
        r.ok(name, f"TP={tp} DP={dp} PP={pp}: {total // world} replica(s)")


def check_batches(ctx: Context) -> None:
    """What verl asserts only inside the workers (engine_workers.update_actor) or not at all."""
    name = "batch sizes"
    cfg, r = ctx.cfg, ctx.report
    n_gpus = int(sel(cfg, "trainer.nnodes")) * int(sel(cfg, "trainer.n_gpus_per_node"))
    n = int(sel(cfg, "actor_rollout_ref.rollout.n", 1))
    train = int(sel(cfg, "data.train_batch_size"))
    mini = int(sel(cfg, "actor_rollout_ref.actor.ppo_mini_batch_size"))
    sp = int(sel(cfg, "actor_rollout_ref.actor.ulysses_sequence_parallel_size", 1) or 1)
    sp = max(sp, int(sel(cfg, "actor_rollout_ref.actor.fsdp_config.ulysses_sequence_parallel_size", 1) or 1))
    dynamic = bool(sel(cfg, "actor_rollout_ref.actor.use_dynamic_bsz"))
    dp = max(1, n_gpus // sp)
    if mini > train:
        r.error(name, f"actor.ppo_mini_batch_size={mini} > data.train_batch_size={train}")
    elif train % mini:
        r.warn(
            name,
            f"data.train_batch_size={train} is not a multiple of actor.ppo_mini_batch_size={mini}: "
            "the last mini-batch of every step is short",
        )
    global_mini = mini * n
    if global_mini % dp:
        r.error(
            name,
            f"actor.ppo_mini_batch_size x rollout.n = {mini} x {n} = {global_mini} sequences must divide "
            f"evenly over the {dp} data-parallel ranks ({n_gpus} GPUs / Ulysses SP {sp}); verl asserts this "
            f"in update_actor after the first rollout. Use a mini batch that makes {mini}*{n} a multiple of {dp}",
        )
    elif not dynamic:
        per_gpu = global_mini // dp
        micro = sel(cfg, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu")
        if micro and per_gpu % int(micro):
            r.warn(
                name,
                f"{per_gpu} sequences per GPU per mini-batch is not a multiple of "
                f"actor.ppo_micro_batch_size_per_gpu={micro}: the last micro-batch is short",
            )
    if (train * n) % n_gpus:
        r.error(
            name,
            f"data.train_batch_size x rollout.n = {train * n} sequences do not split over {n_gpus} GPUs",
        )
    r.ok(name, f"{train} prompts x n={n} = {train * n} sequences/step; mini {mini} x {n} over {dp} DP ranks")


# ------------------------------------------------------------------------------ engine


def check_engine(ctx: Context) -> None:
    """Engine-specific rules (verl 0.9.1 code); LoRA rules in ``check_lora``."""
    name = "engine"
    cfg, r = ctx.cfg, ctx.report
    rollout = str(sel(cfg, "actor_rollout_ref.rollout.name"))
    if ctx.engine and rollout != ctx.engine:
        r.error(
            name,
            f"engine={ctx.engine} but actor_rollout_ref.rollout.name={rollout}: an override "
            "fights the engine overlay; drop the rollout.name override",
        )
    if rollout not in ("sglang", "vllm"):
        r.warn(name, f"rollout.name={rollout}: this project ships SGLang and vLLM environments only")
    other = {"sglang": "vllm", "vllm": "sglang"}.get(rollout)
    if other:
        kw = sel(cfg, f"actor_rollout_ref.rollout.engine_kwargs.{other}")
        if kw:
            r.warn(name, f"rollout.engine_kwargs.{other} is set but the rollout is {rollout}: it is ignored")
    lora_rank = max(
        int(sel(cfg, "actor_rollout_ref.model.lora_rank", 0) or 0),
        int(sel(cfg, "actor_rollout_ref.model.lora.rank", 0) or 0),
    )
    if lora_rank > 0 or sel(cfg, "actor_rollout_ref.model.lora_adapter_path"):
        check_lora(ctx, rollout, lora_rank)
    if str(sel(cfg, "actor_rollout_ref.rollout.mode", "async")) != "async":
        r.error(name, "actor_rollout_ref.rollout.mode must be async in verl 0.9.1")
    r.ok(name, f"{rollout}" + (f", LoRA rank {lora_rank}" if lora_rank else ""))


# vllm.config.lora.MaxLoRARanks; verl's fallback copy: workers/rollout/vllm_rollout/utils.py:94
VLLM_MAX_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)


def check_lora(ctx: Context, rollout: str, rank: int) -> None:
    """The LoRA rules verl 0.9.1 enforces at run time (each cites where), checked before the queue.

    - vLLM: ``max_lora_rank`` is the rank rounded up to vLLM's allowed ranks, > 512 raises
      (workers/rollout/vllm_rollout/utils.py:83-102, called by verl/utils/config.py:206-215 and
      vllm_async_server.py:417-435). Merged LoRA (``lora.merge``) starts vLLM without LoRA.
    - SGLang adapter mode: ``enable_lora`` with ``max_lora_rank=rank`` and ``lora_target_modules`` from
      ``target_modules``; a regex string raises (sglang_rollout/utils.py:77-102,
      async_sglang_server.py:343-350).
    - ``load_format``: with ``dummy`` the engine starts with random weights and the first sync sends
      the base (engine_workers.py:673, 790-801); ``layered_summon`` then raises, since it needs the
      base preloaded (utils/fsdp_utils.py:725-730), and without it every rank gathers the whole base
      into host RAM (fsdp_utils.py:761-773). verl's docs require safetensors.
    - ``lora_adapter_path``: PEFT loads ``adapter_config.json`` + the adapter weights
      (engine/fsdp/transformer_impl.py:342-356); the engines size their slots by ``lora_rank``.
    """
    name = "lora"
    cfg, r = ctx.cfg, ctx.report
    model = "actor_rollout_ref.model"
    merged = bool(sel(cfg, f"{model}.lora.merge", False))
    target = sel(cfg, f"{model}.target_modules")
    load_format = str(sel(cfg, "actor_rollout_ref.rollout.load_format"))
    layered = bool(sel(cfg, "actor_rollout_ref.rollout.layered_summon", False))
    served = "merged weights" if merged else "an adapter"
    if rank <= 0:
        r.error(
            name,
            f"{model}.lora_adapter_path is set but lora_rank is 0: the engines are started without LoRA "
            "slots; set lora_rank to the adapter's r",
        )
        return
    if rollout == "vllm" and not merged:
        if rank > VLLM_MAX_LORA_RANKS[-1]:
            r.error(
                name,
                f"lora_rank={rank} > {VLLM_MAX_LORA_RANKS[-1]}, the largest max_lora_rank vLLM accepts "
                "(verl raises in validate_config): use a rank <= 512 or model.lora.merge=true",
            )
        else:
            slot = next(x for x in VLLM_MAX_LORA_RANKS if rank <= x)
            if slot != rank:
                r.warn(
                    name,
                    f"vLLM serves LoRA at ranks {VLLM_MAX_LORA_RANKS}: verl starts it with "
                    f"max_lora_rank={slot} for lora_rank={rank}, padding every LoRA kernel; use {slot}",
                )
    if rollout == "sglang" and not merged and isinstance(target, str) and target != "all-linear":
        r.error(
            name,
            f"SGLang serves LoRA adapters only for target_modules=all-linear or a list of module names, not "
            f"the pattern {target!r} (verl raises in sglang_lora_target_modules); list the modules or set "
            "model.lora.merge=true",
        )
    if "dummy" in load_format and not merged:
        if layered:
            r.error(
                name,
                f"load_format={load_format} with layered_summon=true: the engine starts without the base "
                "weights and verl's first sync raises ('To use layered_summon, you must make sure base-model "
                "is preloaded'); set actor_rollout_ref.rollout.load_format=safetensors",
            )
        else:
            r.warn(
                name,
                f"load_format={load_format}: the engine starts with random weights and verl's first sync "
                "gathers the whole base model into host RAM on every rank to send it; "
                "actor_rollout_ref.rollout.load_format=safetensors (verl's LoRA docs require it) loads it from disk",
            )
    strategy = str(sel(cfg, "actor_rollout_ref.actor.strategy", "fsdp2"))
    if strategy == "fsdp" and not layered:
        r.warn(
            name,
            "actor.strategy=fsdp (FSDP1) without rollout.layered_summon: every weight sync summons the "
            "full model on each GPU; set actor_rollout_ref.rollout.layered_summon=true",
        )
    _check_adapter_path(ctx, rank)
    r.ok(
        name,
        f"rank {rank}, alpha {sel(cfg, f'{model}.lora_alpha')}, target_modules={target}; {rollout} gets "
        f"{served}; load_format={load_format}, layered_summon={layered}",
    )


def _check_adapter_path(ctx: Context, rank: int) -> None:
    import json

    path = sel(ctx.cfg, "actor_rollout_ref.model.lora_adapter_path")
    if not path:
        return
    name, r = "lora", ctx.report
    d = Path(str(path))
    if "://" in str(path):
        r.skip(name, f"lora_adapter_path={path} is remote; verl copies it at start (not checked)")
        return
    cfg_file = d / "adapter_config.json"
    if not cfg_file.is_file():
        r.error(
            name,
            f"lora_adapter_path={path}: {cfg_file} is missing (PEFT needs adapter_config.json and "
            "adapter_model.safetensors there)",
        )
        return
    if not any((d / f).is_file() for f in ("adapter_model.safetensors", "adapter_model.bin")):
        r.error(name, f"lora_adapter_path={path}: no adapter_model.safetensors (or .bin) in it")
        return
    try:
        adapter = json.loads(cfg_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        r.error(name, f"{cfg_file} is not readable JSON: {exc}")
        return
    r_adapter = int(adapter.get("r") or 0)
    if r_adapter > rank:
        r.error(
            name,
            f"{cfg_file} has r={r_adapter} but actor_rollout_ref.model.lora_rank={rank}: the engines size "
            f"their LoRA slots by lora_rank; set lora_rank={r_adapter}",
        )
