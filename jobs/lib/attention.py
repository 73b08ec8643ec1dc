#!/usr/bin/env python3
"""The attention implementation the actor and reference models get, chosen as transformers will.

verl 0.9.1 asks transformers for ``override_config.attn_implementation`` (default
``flash_attention_2``). transformers (5.9 / 5.10, ``utils/import_utils.py``) uses flash-attn 2
only when all of these hold: ``flash_attn`` is importable, the *distribution* ``flash-attn``
provides it (``importlib.metadata.packages_distributions()``), and its version is >= 2.3.3 (plus
a CUDA device). Otherwise a ``flash_attention_2`` request falls back to the hub kernel
``kernels-community/flash-attn2`` when the ``kernels`` package is installed, which cannot load
with ``HF_HUB_OFFLINE=1`` (every job), so every actor/ref worker dies. ``flash-attn-4`` ships
only ``flash_attn/cute`` and makes ``flash_attn`` a namespace package: importable, but not
flash-attn 2.

Rules: ``ATTN_IMPLEMENTATION`` (or ``--requested``) wins but is verified; otherwise
``flash_attention_2`` when transformers would use flash-attn 2, else ``sdpa``.

CLI (run with the job env's Python; stdlib only until --verify imports the backend)::

    python jobs/lib/attention.py [--requested IMPL] [--verify] [--json]

prints ``<implementation>\\t<reason>`` (or a JSON object) and exits 0; exits 1 with the reason on
stderr when the requested implementation is unknown or cannot be loaded here.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import json
import os
import re
import sys
from dataclasses import dataclass

ENV_VAR = "ATTN_IMPLEMENTATION"
FA2_MIN_VERSION = (2, 3, 3)
# implementation -> (import name, distribution transformers requires for it, what it imports)
FLASH: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "flash_attention_2": ("flash_attn", "flash-attn", ("flash_attn", "flash_attn.bert_padding")),
    "flash_attention_3": ("flash_attn_interface", "flash-attn-3", ("flash_attn_interface",)),
    "flash_attention_4": ("flash_attn", "flash-attn-4", ("flash_attn.cute",)),
}
TORCH_BUILTIN = ("sdpa", "eager", "flex_attention")
KNOWN = (*TORCH_BUILTIN, *FLASH)


class AttentionError(RuntimeError):
    """The requested implementation is unknown or cannot be loaded in this env."""


@dataclass(frozen=True)
class Choice:
    implementation: str
    reason: str


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text.split("+", 1)[0])[:3])


def providers(import_name: str) -> dict[str, str]:
    """Installed distributions that provide the top-level ``import_name``: normalized name -> version."""
    found: dict[str, str] = {}
    for dist in importlib.metadata.packages_distributions().get(import_name, []):
        try:
            found[_norm(dist)] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            found[_norm(dist)] = "?"
    return found


def _where(import_name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(import_name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    locations = list(spec.submodule_search_locations or [])
    return spec.origin if spec.origin and spec.origin != "namespace" else ", ".join(locations) or "?"


def flash_status(implementation: str) -> tuple[bool, str]:
    """Would transformers use the real package for ``implementation`` (a flash_attention_N)? And why."""
    import_name, dist, _ = FLASH[implementation]
    where = _where(import_name)
    if where is None:
        return False, f"{dist} is not installed ({import_name} does not import)"
    provided_by = providers(import_name)
    if dist not in provided_by:
        others = ", ".join(f"{d} {v}" for d, v in sorted(provided_by.items()))
        what = f"comes only from {others}" if others else "belongs to no installed distribution"
        return False, (
            f"{import_name} imports ({where}) but {what}; transformers requires the {dist} distribution"
        )
    have = provided_by[dist]
    if implementation == "flash_attention_2" and _version_tuple(have) < FA2_MIN_VERSION:
        return False, f"{dist} {have} is older than 2.3.3, the oldest transformers uses"
    return True, f"{dist} {have} is installed"


def choose(requested: str | None = None) -> Choice:
    """The implementation the job will use and why. ``requested`` (else $ATTN_IMPLEMENTATION) wins
    when it can be used here; a flash_attention_N that transformers would not find raises."""
    requested = (requested if requested is not None else os.environ.get(ENV_VAR, "")).strip()
    if requested:
        if "/" in requested:
            raise AttentionError(
                f"{ENV_VAR}={requested} is a hub kernel: jobs run with HF_HUB_OFFLINE=1, so it cannot be "
                f"fetched. Use one of {', '.join(KNOWN)}"
            )
        if requested not in KNOWN:
            raise AttentionError(
                f"{ENV_VAR}={requested} is not an implementation; use one of {', '.join(KNOWN)}"
            )
        if requested in FLASH:
            usable, why = flash_status(requested)
            if not usable:
                raise AttentionError(
                    f"{ENV_VAR}={requested} cannot be used here: {why}. transformers would fall back to the hub "
                    f"kernel, which fails offline. Unset {ENV_VAR} (sdpa) or install "
                    f"{FLASH[requested][1]} in this env (FLASH_ATTN=1 make env-vllm)"
                )
            return Choice(requested, f"requested ({ENV_VAR} / override); {why}")
        return Choice(requested, f"requested ({ENV_VAR} / override)")
    usable, why = flash_status("flash_attention_2")
    if usable:
        return Choice("flash_attention_2", why)
    return Choice("sdpa", f"{why}; transformers' own sdpa needs nothing else")


def verify(implementation: str) -> str:
    """Import what transformers imports for ``implementation``; a short description, or AttentionError."""
    try:
        import torch

        if implementation == "sdpa":
            torch.nn.functional.scaled_dot_product_attention  # noqa: B018
        elif implementation == "flex_attention":
            importlib.import_module("torch.nn.attention.flex_attention")
        elif implementation in FLASH:
            for module in FLASH[implementation][2]:
                importlib.import_module(module)
        elif implementation != "eager":
            raise AttentionError(f"{implementation} is not an implementation; use one of {', '.join(KNOWN)}")
    except AttentionError:
        raise
    except Exception as exc:  # an extension that fails to load raises OSError, ImportError, ...
        raise AttentionError(f"{implementation} does not load here: {type(exc).__name__}: {exc}") from exc
    if implementation in FLASH:
        dist = FLASH[implementation][1]
        return f"{dist} {importlib.metadata.version(dist)} imports (torch {torch.__version__})"
    return f"torch {torch.__version__} provides it"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Choose (and verify) the attention implementation of a job.")
    parser.add_argument("--requested", help=f"an explicit request (default: ${ENV_VAR})")
    parser.add_argument("--verify", action="store_true", help="also import the backend in this env")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    args = parser.parse_args(argv)
    try:
        choice = choose(args.requested)
        loaded = verify(choice.implementation) if args.verify else ""
    except AttentionError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": str(exc)}))
        print(f"attention: {exc}", file=sys.stderr)
        return 1
    if args.json:
        out = {"ok": True, "implementation": choice.implementation, "reason": choice.reason}
        if args.verify:
            out["verified"] = loaded
        print(json.dumps(out))
    else:
        print(f"{choice.implementation}\t{choice.reason}" + (f"; {loaded}" if loaded else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
