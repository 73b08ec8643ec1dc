"""Which verl ``timing_s/*`` keys nest inside which, as data, and the per-step breakdown.

verl times each phase with ``marked_timer(name, timing_raw)`` (``verl/utils/profiler/
performance.py``: the seconds of every exit are *added* to ``timing_raw[name]``) and logs
``timing_s/<name>`` for every key (``compute_timing_metrics`` in
``verl/trainer/ppo/metric_utils.py``). The timers nest as the ``with`` blocks do:

verl 0.9.1, default V1 trainer (``trainer.use_v1=true``, ``trainer/ppo/v1/trainer_base.py``
``fit``/``_step_once`` + ``trainer_sync.py``)::

    step ── gen, reward, old_log_prob, ref, values, adv, update_critic, update_actor,
            save_checkpoint, update_weights (on_step_end)
    outside step: testing, dump_rollout_generations

verl 0.9.1 legacy loop (``trainer.use_v1=false``, ``trainer/ppo/ray_trainer.py`` ``fit``)::

    start_profile (outside)
    step ── gen ── agent_loop/* (per-sample statistics from the agent loop, not additive)
         ── reward, old_log_prob, ref, values, adv, update_critic, update_actor,
            save_checkpoint, update_weights, dump_rollout_generations
    testing, stop_profile (outside)

verl <= 0.5 (sharding managers; e.g. the SGLang/vLLM comparison of 2025)::

    step ── gen ── generate_sequences, reshard   (worker timers merged into timing_raw
         │         inside the gen block: ``timing_raw.update(output.meta_info["timing"])``)
         ── gen_max (REMAX), reward, old_log_prob, ref, values, adv, update_critic,
            update_actor, dump_rollout_generations, testing, save_checkpoint
    start_profile, stop_profile (outside)

So ``testing`` and ``dump_rollout_generations`` moved out of ``step`` between versions
("floating" keys). Each step is classified on its own (a resumed run may mix versions):
``update_weights`` marks the 0.9 layouts (``start_profile`` tells the legacy loop from V1);
``reshard``/``generate_sequences`` mark the <= 0.5 layout; otherwise a floating key counts as
inside ``step`` only if it fits in what the other phases leave of it. Keys not listed here are
reported as unclassified and never summed, so nothing is double-counted: the unaccounted
remainder is ``step - sum(top-level phases inside step)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PREFIX = "timing_s/"
PER_TOKEN_PREFIX = "timing_per_token_ms/"

# Top-level phases inside the step timer, in pipeline order (the report lists them this way).
STEP_PHASES: tuple[str, ...] = (
    "gen",
    "gen_max",
    "reward",
    "old_log_prob",
    "ref",
    "values",
    "adv",
    "update_critic",
    "update_actor",
    "save_checkpoint",
    "update_weights",
)
# parent -> timers measured inside it (additive: their sum is at most the parent)
NESTED: dict[str, tuple[str, ...]] = {
    "gen": ("generate_sequences", "reshard"),
}
# parent -> key prefixes of per-sample statistics logged under timing_s/ (not additive)
NESTED_STATS: dict[str, tuple[str, ...]] = {
    "gen": ("agent_loop/",),
}
# Timed outside the step timer in every version that has them.
OUTSIDE_STEP: tuple[str, ...] = ("start_profile", "stop_profile")
# Inside the step timer in some versions, outside in others.
FLOATING: tuple[str, ...] = ("testing", "dump_rollout_generations")
# Old names -> current names (applied to the part after the prefix, or to whole keys).
KEY_PREFIX_ALIASES: dict[str, str] = {"timing/": PREFIX}  # verl 0.1/0.2 logged timing/<name>
NAME_ALIASES: dict[str, str] = {"Role.RefPolicy": "ref"}  # str(Role.RefPolicy) before __str__ existed


@dataclass(frozen=True)
class Layout:
    """Where the floating keys sit in one family of verl versions."""

    name: str
    description: str
    inside_step: frozenset[str]  # floating keys that are inside step in this layout


LAYOUT_V09_V1 = Layout(
    "verl-0.9-v1", "verl 0.9 V1 trainer: testing, dump_rollout_generations outside step", frozenset()
)
LAYOUT_V09_LEGACY = Layout(
    "verl-0.9-legacy-loop",
    "verl 0.9 ray_trainer loop (use_v1=false): testing outside step",
    frozenset({"dump_rollout_generations"}),
)
LAYOUT_SHARDING = Layout(
    "verl-sharding-managers",
    "older verl with sharding managers (reshard; e.g. 0.4/0.5): testing inside step",
    frozenset({"testing", "dump_rollout_generations"}),
)
LAYOUT_UNKNOWN = Layout("unknown", "no version marker; floating keys placed by fit", frozenset())
LAYOUTS = (LAYOUT_V09_V1, LAYOUT_V09_LEGACY, LAYOUT_SHARDING, LAYOUT_UNKNOWN)


def detect_layout(names: set[str]) -> Layout:
    """The layout of one step from the timer names it logged."""
    if "update_weights" in names:
        return LAYOUT_V09_LEGACY if "start_profile" in names else LAYOUT_V09_V1
    if "reshard" in names or "generate_sequences" in names:
        return LAYOUT_SHARDING
    return LAYOUT_UNKNOWN


def normalize_metrics(metrics: dict[str, float]) -> dict[str, float]:
    """Rename old metric keys to the current ones (first name wins on a clash)."""
    out: dict[str, float] = {}
    for key, value in metrics.items():
        new = key
        for old, cur in KEY_PREFIX_ALIASES.items():
            if new.startswith(old):
                new = cur + new[len(old) :]
        for prefix in (PREFIX, PER_TOKEN_PREFIX):
            if new.startswith(prefix):
                name = new[len(prefix) :]
                new = prefix + NAME_ALIASES.get(name, name)
        out.setdefault(new, value)
    return out


def timing_of(metrics: dict[str, float]) -> dict[str, float]:
    """``{name: seconds}`` of the ``timing_s/<name>`` keys."""
    return {k[len(PREFIX) :]: v for k, v in metrics.items() if k.startswith(PREFIX)}


@dataclass
class StepBreakdown:
    """Where one step's ``timing_s/step`` went."""

    step: int
    total: float
    layout: str
    top: dict[str, float] = field(default_factory=dict)  # phases inside step, summed
    nested: dict[str, dict[str, float]] = field(default_factory=dict)  # parent -> child -> s
    nested_stats: dict[str, dict[str, float]] = field(default_factory=dict)  # not additive
    outside: dict[str, float] = field(default_factory=dict)  # timed outside step
    unclassified: dict[str, float] = field(default_factory=dict)  # unknown keys, not summed
    notes: list[str] = field(default_factory=list)

    @property
    def accounted(self) -> float:
        return sum(self.top.values())

    @property
    def remainder(self) -> float:
        return self.total - self.accounted


def _tolerance(total: float) -> float:
    """Slack for rounding in printed values and timer overhead."""
    return max(0.05, 0.005 * total)


def _stat_parent(name: str) -> str | None:
    for parent, prefixes in NESTED_STATS.items():
        if name.startswith(prefixes):
            return parent
    return None


def breakdown(step: int, timing: dict[str, float]) -> StepBreakdown | None:
    """Classify one step's timers; ``None`` when the step has no ``timing_s/step``."""
    if "step" not in timing:
        return None
    total = timing["step"]
    layout = detect_layout(set(timing))
    bd = StepBreakdown(step=step, total=total, layout=layout.name)
    nested_of = {child: parent for parent, children in NESTED.items() for child in children}
    floating: list[str] = []
    for name, value in timing.items():
        if name == "step":
            continue
        if name in STEP_PHASES:
            bd.top[name] = value
        elif name in nested_of:
            bd.nested.setdefault(nested_of[name], {})[name] = value
        elif (parent := _stat_parent(name)) is not None:
            bd.nested_stats.setdefault(parent, {})[name] = value
        elif name in OUTSIDE_STEP:
            bd.outside[name] = value
        elif name in FLOATING:
            floating.append(name)
        else:
            bd.unclassified[name] = value
    tol = _tolerance(total)
    for name in floating:
        value = timing[name]
        fits = bd.accounted + value <= total + tol
        if layout is LAYOUT_UNKNOWN:
            inside = fits
        else:
            inside = name in layout.inside_step
            if inside and not fits:
                inside = False
                bd.notes.append(
                    f"step {step}: {name} ({value:.3f} s) does not fit inside step for layout "
                    f"{layout.name}; counted outside step"
                )
        (bd.top if inside else bd.outside)[name] = value
    if bd.accounted > total + tol:
        bd.notes.append(
            f"step {step}: phases sum to {bd.accounted:.3f} s > timing_s/step {total:.3f} s "
            "(overlapping timers or an unknown verl layout)"
        )
    for parent, children in bd.nested.items():
        inner = sum(children.values())
        if parent in bd.top and inner > bd.top[parent] + tol:
            bd.notes.append(
                f"step {step}: timers nested in {parent} sum to {inner:.3f} s > {parent} {bd.top[parent]:.3f} s"
            )
    return bd


def ordered_phases(names: set[str]) -> list[str]:
    """Phase names in pipeline order, unknown ones last (alphabetical)."""
    known = [n for n in (*STEP_PHASES, *FLOATING, *OUTSIDE_STEP) if n in names]
    return known + sorted(names - set(known))
