"""Compose a job's config as the launcher does, and find keys verl 0.9.1 would reject or ignore.

- :func:`compose_job` runs Hydra's compose API on the experiment config dir with
  ``engine=<name>`` and the launcher/user overrides, the same inputs
  ``python -m verl.trainer.main_ppo --config-path=... --config-name=...`` gets.
- :func:`unknown_keys` diffs the composed config against verl's own ``ppo_trainer``: a key that
  verl does not define is dropped on the floor at run time (Hydra only rejects unknown keys on
  the command line, not in an experiment YAML or with ``+``).
- :func:`legacy_keys` finds keys that verl keeps only as placeholders. The list is read from
  verl's own config files, never hand-kept: the config groups that ``ppo_trainer.yaml`` pulls in
  "for backward compatibility" (``legacy_reward_impl.yaml``: every leaf is a ``null``
  placeholder that ``main_ppo`` never reads), and keys whose comment in verl's YAML says
  "Deprecated and ignored" (errors) or "[Deprecated]" (warnings). The new key for a legacy
  reward key is found by running verl's own ``migrate_legacy_reward_impl`` on a copy.
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

# Path segments under which verl accepts free-form user keys (passed through to an engine,
# Ray or a user function). New keys below them are not "unknown".
_FREE_FORM = re.compile(r"(kwargs|^kw_args$|^override_config$|^runtime_env$|^env_vars$|^engine_kwargs$)")


class ComposeError(Exception):
    """The config could not be composed or resolved; the message says why and what to do."""


def verl_config_dir() -> Path:
    import verl

    return Path(verl.__file__).resolve().parent / "trainer" / "config"


def _cause_chain(exc: BaseException) -> list[str]:
    out: list[str] = []
    cur: BaseException | None = exc
    seen: set[int] = set()
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        msg = str(cur).strip()
        if msg and msg not in out:
            out.append(msg)
        cur = cur.__cause__ or cur.__context__
    return out


def _readable_compose_error(exc: BaseException, where: str, known_paths: list[str]) -> str:
    """Turn Hydra/OmegaConf's message into one that names the key and the fix."""
    chain = _cause_chain(exc)
    text = chain[0] if chain else type(exc).__name__
    m = re.search(r"Could not override '([^']+)'", text)
    if m and "No match in the defaults list" in text:
        return f"{where}: '{m.group(1)}' is not a config group of this experiment ({text.splitlines()[0]})"
    if m:
        key = m.group(1)
        hint = suggest(key, known_paths)
        return (
            f"{where}: unknown key '{key}': verl 0.9.1 has no such key"
            + (f"; did you mean '{hint}'?" if hint else "")
            + f" (to add a new key on purpose write +{key}=...). Hydra said: {text.splitlines()[0]}"
        )
    m = re.search(r"An item is already at '([^']+)'", text)
    if m:
        return (
            f"{where}: '+{m.group(1)}' adds a key that already exists in verl 0.9.1: drop the leading '+' "
            f"(0.4-era scripts needed it)"
        )
    if "Error parsing override" in text:
        return (
            f"{where}: {text.splitlines()[0]} (overrides are key=value; see `python -m tools.preflight -h`)"
        )
    if "Cannot find primary config" in text or "MissingConfigException" in type(exc).__name__:
        return f"{where}: {text.splitlines()[0]}"
    return f"{where}: " + " | ".join(line for msg in chain for line in msg.splitlines()[:2])


def suggest(key: str, known_paths: list[str]) -> str | None:
    """The closest existing dotted key: a sibling with a similar name, else the same leaf elsewhere."""
    parent, _, leaf = key.rpartition(".")
    siblings = {p.rpartition(".")[2]: p for p in known_paths if p.rpartition(".")[0] == parent}
    close = difflib.get_close_matches(leaf, list(siblings), n=1, cutoff=0.6)
    if close:
        return siblings[close[0]]
    same_leaf = [p for p in known_paths if p.rpartition(".")[2] == leaf]
    if same_leaf:
        return min(same_leaf, key=len)
    leaves: dict[str, str] = {}
    for p in sorted(known_paths, key=len):
        leaves.setdefault(p.rpartition(".")[2], p)
    close = difflib.get_close_matches(leaf, list(leaves), n=1, cutoff=0.85)
    return leaves[close[0]] if close else None


def compose_job(config_dir: Path, experiment: str, overrides: list[str]) -> Any:
    """Compose ``<config_dir>/<experiment>.yaml`` with ``overrides`` (unresolved DictConfig)."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    if not (config_dir / f"{experiment}.yaml").is_file():
        names = sorted(p.stem for p in config_dir.glob("*.yaml"))
        raise ComposeError(
            f"no experiment '{experiment}': {config_dir}/{experiment}.yaml does not exist "
            f"(experiments here: {', '.join(names) or 'none'})"
        )
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(config_dir), version_base=None, job_name="preflight"):
            return compose(config_name=experiment, overrides=list(overrides))
    except Exception as exc:  # Hydra raises several exception types; all mean "does not compose"
        raise ComposeError(
            _readable_compose_error(exc, f"{experiment}.yaml + {len(overrides)} override(s)", base_paths())
        ) from exc
    finally:
        GlobalHydra.instance().clear()


@lru_cache(maxsize=4)
def _compose_base(group_overrides: tuple[str, ...]) -> Any:
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(
            config_dir=str(verl_config_dir()), version_base=None, job_name="preflight"
        ):
            return compose(config_name="ppo_trainer", overrides=list(group_overrides))
    finally:
        GlobalHydra.instance().clear()


def base_config(group_overrides: tuple[str, ...] = ()) -> Any:
    """verl's own ``ppo_trainer`` config, composed (unresolved)."""
    return _compose_base(group_overrides)


@lru_cache(maxsize=1)
def base_paths() -> list[str]:
    return [p for p, _ in walk(base_config())]


def walk(node: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every dotted path of a DictConfig (dicts and leaves; lists are leaves), without resolving."""
    from omegaconf import DictConfig

    if not isinstance(node, DictConfig):
        return
    for key in node.keys():
        path = f"{prefix}{key}"
        child = node._get_node(key)
        value = child if isinstance(child, DictConfig) else _raw(child)
        yield path, value
        if isinstance(child, DictConfig):
            yield from walk(child, path + ".")


def _raw(node: Any) -> Any:
    try:
        return node._value()
    except Exception:
        return node


def group_choices(overrides: list[str]) -> tuple[str, ...]:
    """The overrides that pick one of ``ppo_trainer``'s own top-level config groups
    (``model_engine=megatron``), so the reference config is composed with the same choice."""
    import yaml

    data = yaml.safe_load((verl_config_dir() / "ppo_trainer.yaml").read_text(encoding="utf-8")) or {}
    groups = {
        k for entry in data.get("defaults", []) if isinstance(entry, dict) for k in entry if "@" not in k
    }
    return tuple(o for o in overrides if "=" in o and o.split("=", 1)[0].lstrip("+~") in groups)


@dataclass
class KeyProblem:
    level: str  # "error" | "warning"
    key: str
    message: str


def target_fields(node: Any) -> frozenset[str]:
    """Field names of the dataclass a config node's ``_target_`` names (empty when none/not one)."""
    import dataclasses
    import importlib

    target = node.get("_target_") if hasattr(node, "get") else None
    if not isinstance(target, str) or "." not in target:
        return frozenset()
    module, _, name = target.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return frozenset()
    if not dataclasses.is_dataclass(cls):
        return frozenset()
    return frozenset(f.name for f in dataclasses.fields(cls))


def unknown_keys(cfg: Any, base: Any) -> list[KeyProblem]:
    """Keys in ``cfg`` that verl's ``ppo_trainer`` does not define (topmost of each subtree)."""
    from omegaconf import DictConfig, OmegaConf

    known = {p: v for p, v in walk(base)}
    problems: list[KeyProblem] = []
    reported: list[str] = []
    for path, _ in walk(cfg):
        if path in known or any(path.startswith(r + ".") for r in reported):
            continue
        parent = path.rpartition(".")[0]
        parent_value = known.get(parent) if parent else base
        segments = path.split(".")
        if segments[0] in legacy_sections():
            # e.g. the 0.4-era custom_reward_function.reward_kwargs: the whole section is ignored
            reported.append(path)
            new = "reward." + path
            free_form = bool(_FREE_FORM.search(segments[-1])) and ("reward." + parent) in known
            target = f"use '{new}'" if new in known or free_form else "remove it"
            problems.append(
                KeyProblem(
                    "error",
                    path,
                    f"legacy key '{path}' is accepted but IGNORED by verl 0.9.1's main_ppo "
                    f"(the '{segments[0]}' section is a placeholder): {target}",
                )
            )
            continue
        if any(_FREE_FORM.search(s) for s in segments):
            continue
        # Below an empty or non-dict default (e.g. ``sync: {}``) verl takes whatever you give it.
        if parent and (
            not isinstance(parent_value, DictConfig) or len(OmegaConf.to_container(parent_value)) == 0
        ):
            continue
        if parent and parent not in known:
            continue
        if segments[-1] in target_fields(parent_value):
            # not in the YAML but a field of the dataclass verl builds from this node
            # (e.g. actor.checkpoint.save_lora_only -> verl.trainer.config.CheckpointConfig)
            continue
        reported.append(path)
        hint = suggest(path, list(known))
        problems.append(
            KeyProblem(
                "error",
                path,
                f"unknown key '{path}': verl 0.9.1 does not define it, so it would be silently ignored"
                + (f"; did you mean '{hint}'?" if hint else "; remove it"),
            )
        )
    return problems


# ---------------------------------------------------------------- legacy / deprecated keys


@dataclass(frozen=True)
class LegacyKey:
    path_in_file: str  # dotted path relative to where the file is mounted
    file: str  # file relative to verl/trainer/config
    default: Any
    ignored: bool  # True: verl never reads it; False: deprecated but still honoured
    replacement: str | None
    comment: str


_KEY_LINE = re.compile(r"^(\s*)([A-Za-z_][\w\-]*)\s*:\s*(.*)$")


def _scan_yaml_comments(path: Path) -> Iterator[tuple[str, str, str]]:
    """(dotted key path within the file, raw value text, the comment block above it)."""
    stack: list[tuple[int, str]] = []
    comment: list[str] = []
    in_defaults = False
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            comment.append(stripped.lstrip("#").strip())
            continue
        m = _KEY_LINE.match(line)
        if not m or stripped.startswith("-"):
            comment = []
            continue
        indent, key, value = len(m.group(1)), m.group(2), m.group(3)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if indent == 0:
            in_defaults = key == "defaults"
        if not in_defaults:
            dotted = ".".join([k for _, k in stack] + [key])
            yield dotted, value, "\n".join(comment)
        stack.append((indent, key))
        comment = []


def _top_level_keys(path: Path) -> set[str]:
    keys = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _KEY_LINE.match(line)
        if m and not m.group(1) and m.group(2) not in ("defaults", "_target_"):
            keys.add(m.group(2))
    return keys


def _parse_scalar(text: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text) if text else None
    except yaml.YAMLError:
        return text


_DEPRECATED = re.compile(r"deprecat", re.IGNORECASE)
_IGNORED = re.compile(r"\bignored\b", re.IGNORECASE)
_USE = re.compile(r"\buse\s+([A-Za-z_][\w.]*)", re.IGNORECASE)


@lru_cache(maxsize=1)
def backward_compat_files() -> tuple[str, ...]:
    """Config files that ``ppo_trainer.yaml``'s defaults list includes "for backward compatibility"."""
    text = (verl_config_dir() / "ppo_trainer.yaml").read_text(encoding="utf-8").splitlines()
    out = []
    comment = ""
    for line in text:
        s = line.strip()
        if s.startswith("#"):
            comment += " " + s
            continue
        m = re.match(r"-\s*([\w/]+)\s*$", s)  # a plain "- name" entry merges at the root
        if m and re.search(r"backward\s+compat", comment, re.IGNORECASE):
            out.append(m.group(1) + ".yaml")
        if s:
            comment = ""
    return tuple(out)


@lru_cache(maxsize=1)
def deprecated_keys() -> tuple[LegacyKey, ...]:
    """Keys verl's own YAML comments mark as deprecated (read from the installed verl)."""
    root = verl_config_dir()
    found: list[LegacyKey] = []
    for f in sorted(root.rglob("*.yaml")):
        if f.name.startswith("_generated"):
            continue
        rel = str(f.relative_to(root))
        if rel in backward_compat_files():
            continue
        for dotted, value, comment in _scan_yaml_comments(f):
            if not _DEPRECATED.search(comment):
                continue
            # "deprecated" has to be about the key, not a mention of a deprecated option value.
            if not re.search(
                r"(\[\s*deprecated|^deprecated|\bwill be deprecated|\[\s*will be)", comment, re.I | re.M
            ):
                continue
            use = _USE.search(comment)
            found.append(
                LegacyKey(
                    path_in_file=dotted,
                    file=rel,
                    default=_parse_scalar(value),
                    ignored=bool(_IGNORED.search(comment)),
                    replacement=use.group(1).rstrip(".") if use else None,
                    comment=comment,
                )
            )
    return tuple(found)


@lru_cache(maxsize=1)
def placeholder_keys() -> tuple[str, ...]:
    """Every leaf of the backward-compatibility files: the legacy keys ``main_ppo`` never reads."""
    root = verl_config_dir()
    out: list[str] = []
    for rel in backward_compat_files():
        import yaml

        data = yaml.safe_load((root / rel).read_text(encoding="utf-8")) or {}

        def leaves(node: Any, prefix: str) -> Iterator[str]:
            if isinstance(node, dict):
                for k, v in node.items():
                    yield from leaves(v, f"{prefix}{k}.")
            else:
                yield prefix.rstrip(".")

        out.extend(leaves(data, ""))
    return tuple(out)


def legacy_sections() -> set[str]:
    """Top-level sections that exist only as backward-compatibility placeholders."""
    return {k.split(".")[0] for k in placeholder_keys()}


def _mount_points(cfg_paths: dict[str, Any], legacy: LegacyKey) -> list[str]:
    """Full paths of ``legacy`` in the composed config: the suffix must match and the parent
    node must hold every top-level key of the file that defines it (i.e. the file is mounted there)."""
    top = _top_level_keys(verl_config_dir() / legacy.file)
    first = legacy.path_in_file.split(".")[0]
    out = []
    for path in cfg_paths:
        if path != legacy.path_in_file and not path.endswith("." + legacy.path_in_file):
            continue
        mount = path[: len(path) - len(legacy.path_in_file)].rstrip(".")
        siblings = {p.rpartition(".")[2] for p in cfg_paths if p.rpartition(".")[0] == mount}
        if not mount:
            siblings = {p for p in cfg_paths if "." not in p}
        if first in siblings and top <= siblings:
            out.append(path)
    return out


def _new_reward_keys(cfg: Any, legacy_path: str) -> list[str]:
    """Where verl's own migration (``migrate_legacy_reward_impl``) moves ``legacy_path``."""
    from omegaconf import OmegaConf, open_dict

    try:
        from verl.experimental.reward_loop.reward_loop import migrate_legacy_reward_impl
    except Exception:  # optional extras of that module missing: fall back to the same path under reward.
        return []
    value = OmegaConf.select(cfg, legacy_path)
    trial = copy.deepcopy(cfg)
    with open_dict(trial):
        for p in placeholder_keys():
            if OmegaConf.select(trial, p, default="__absent__") != "__absent__":
                OmegaConf.update(trial, p, None, force_add=True)
        OmegaConf.update(trial, legacy_path, value, force_add=True)
    before = {p: v for p, v in walk(trial.reward, "reward.")}
    try:
        after_cfg = migrate_legacy_reward_impl(trial)
    except Exception:
        return []
    after = {p: v for p, v in walk(after_cfg.reward, "reward.")}
    return [p for p, v in after.items() if before.get(p, "__absent__") != v and v == value]


def legacy_keys(cfg: Any) -> list[KeyProblem]:
    """Legacy placeholders set to a value (error) and deprecated keys changed from verl's default."""
    from omegaconf import OmegaConf

    problems: list[KeyProblem] = []
    for path in placeholder_keys():
        value = OmegaConf.select(cfg, path, default=None)
        if value is None:
            continue
        new = _new_reward_keys(cfg, path)
        if not new:
            candidate = "reward." + path
            if OmegaConf.select(cfg, candidate, default="__absent__") != "__absent__":
                new = [candidate]
        target = f"use '{new[0]}' instead" if new else "it has no equivalent in verl 0.9.1; remove it"
        problems.append(
            KeyProblem(
                "error",
                path,
                f"legacy key '{path}' ({value!r}) is accepted but IGNORED by verl 0.9.1's main_ppo: {target}",
            )
        )
    resolved = OmegaConf.to_container(cfg, resolve=False)
    flat = dict(_flatten(resolved))
    seen: set[str] = set()
    for legacy in deprecated_keys():
        for path in _mount_points(flat, legacy):
            value = flat[path]
            if path in seen or value == legacy.default or (isinstance(value, str) and "${" in value):
                continue
            seen.add(path)
            use = ""
            if legacy.replacement:
                mount = path[: len(path) - len(legacy.path_in_file)].rstrip(".")
                sibling = f"{mount}.{legacy.replacement}" if mount else legacy.replacement
                use = f"; use '{sibling if sibling in flat else legacy.replacement}' instead"
            note = next((ln for ln in legacy.comment.splitlines() if _DEPRECATED.search(ln)), "")
            if legacy.ignored:
                problems.append(
                    KeyProblem(
                        "error", path, f"'{path}' ({value!r}) is deprecated and IGNORED by verl 0.9.1{use}"
                    )
                )
            else:
                problems.append(
                    KeyProblem("warning", path, f"'{path}' is deprecated in verl 0.9.1 ({note.strip()}){use}")
                )
    return problems


def _flatten(node: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for k, v in node.items():
            path = f"{prefix}{k}"
            yield path, v
            yield from _flatten(v, path + ".")
