"""A "cpu" platform for verl 0.9.1's platform registry (``verl/plugin/platform/``).

verl imports this module at ``import verl`` time when ``VERL_USE_EXTERNAL_MODULES`` names it
(``verl/__init__.py``: ``import_external_libs``); ``VERL_PLATFORM=cpu`` then selects it. Every
Ray worker and vLLM process inherits both variables from the launcher, so all of verl's
processes agree on the device.

What it declares: device ``cpu``, collective backend ``gloo``, Ray resource ``GPU`` (Ray may
declare GPUs that do not exist: each one stands for a training process and a vLLM replica),
no CUDA IPC (verl then ships weights through shared memory), and a ``torch.cuda``-like device
module whose memory and stream calls answer for the CPU.

Two run-time adjustments, applied only when this platform is selected (``apply()``):

1. ``verl/utils/distributed.py:89`` builds the backend ``cpu:gloo,{device}:{backend}``; with
   device ``cpu`` that is ``cpu:gloo,cpu:gloo`` and torch rejects it ("Duplicate device type
   cpu"). The wrapper passes plain ``gloo`` when verl passes no backend.
2. ``verl/workers/engine/fsdp/transformer_impl.py:462`` gives the reference model
   ``CPUOffloadPolicy(pin_memory=True)``; pinning host memory needs an accelerator. The policy
   verl imports (``verl/utils/fsdp_utils.py:43``) becomes one that never pins.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import torch
from verl.plugin.platform import PlatformBase, PlatformRegistry

PLATFORM_NAME = "cpu"


def _mem_get_info(device: Any = None) -> tuple[int, int]:
    """(free, total) bytes of host memory, as ``torch.cuda.mem_get_info`` answers for a GPU."""
    total = avail = 0
    with open("/proc/meminfo") as fh:
        for line in fh:
            key, _, rest = line.partition(":")
            if key == "MemTotal":
                total = int(rest.split()[0]) * 1024
            elif key == "MemAvailable":
                avail = int(rest.split()[0]) * 1024
    return avail, total


def _zero(*_args: Any, **_kwargs: Any) -> int:
    return 0


def _noop(*_args: Any, **_kwargs: Any) -> None:
    return None


def _device_module() -> SimpleNamespace:
    """A ``torch.cuda``-shaped namespace for the CPU: what verl calls on its device module."""
    cpu = torch.cpu
    return SimpleNamespace(
        is_available=lambda: True,
        device_count=lambda: 1,
        current_device=lambda: torch.device("cpu"),
        set_device=_noop,
        synchronize=cpu.synchronize,
        current_stream=cpu.current_stream,
        stream=cpu.stream,
        Stream=cpu.Stream,
        Event=cpu.Event,
        empty_cache=_noop,
        ipc_collect=_noop,
        mem_get_info=_mem_get_info,
        memory_allocated=_zero,
        memory_reserved=_zero,
        max_memory_allocated=_zero,
        max_memory_reserved=_zero,
        reset_peak_memory_stats=_noop,
        set_per_process_memory_fraction=_noop,
        get_rng_state=lambda *a, **k: torch.get_rng_state(),
        set_rng_state=lambda state, *a, **k: torch.set_rng_state(state),
        manual_seed=torch.manual_seed,
        manual_seed_all=torch.manual_seed,
        get_device_name=lambda *a, **k: "cpu",
        is_initialized=lambda: True,
    )


@PlatformRegistry.register(platform=PLATFORM_NAME)
class PlatformCPU(PlatformBase):
    """verl on the host CPU: gloo collectives, Ray "GPU" slots, no IPC."""

    _module = None

    @property
    def device_name(self) -> str:
        return "cpu"

    @property
    def vendor_name(self) -> str:
        return "cpu"

    @property
    def device_module(self) -> Any:
        if PlatformCPU._module is None:
            PlatformCPU._module = _device_module()
        return PlatformCPU._module

    def is_available(self) -> bool:
        return True

    def is_platform_available(self, use_smi_check: bool = False) -> bool:
        # never auto-detected: only VERL_PLATFORM=cpu selects it
        return False

    def current_device(self) -> Any:  # type: ignore[override]
        # an int would mean "accelerator index" to torch (FSDP's device_id, tensor.to(i))
        return torch.device("cpu")

    def device_count(self) -> int:
        return 1

    def set_device(self, device_index: int) -> None:
        return None

    def synchronize(self, device_index: int | None = None) -> None:
        return None

    def manual_seed(self, seed: int) -> None:
        torch.manual_seed(seed)

    def manual_seed_all(self, seed: int) -> None:
        torch.manual_seed(seed)

    def set_allocator_settings(self, settings: str) -> None:
        return None

    def empty_cache(self) -> None:
        return None

    def get_device_capability(self, device_index: int = 0) -> tuple[int | None, int | None]:
        return None, None

    def communication_backend_name(self) -> str:
        return "gloo"

    def visible_devices_envvar(self) -> str:
        # Ray sets CUDA_VISIBLE_DEVICES for actors that hold declared "GPU"s
        return "CUDA_VISIBLE_DEVICES"

    @contextlib.contextmanager
    def nvtx_range(self, msg: str) -> Iterator[None]:
        yield

    def profiler_start(self) -> None:
        return None

    def profiler_stop(self) -> None:
        return None

    def ray_resource_name(self) -> str:
        return "GPU"

    def ray_noset_envvars(self) -> list[str]:
        return ["RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES"]

    def is_ipc_supported(self) -> bool:
        return False

    def cudart(self) -> Any:
        return None


def _gloo_process_group() -> None:
    """Adjustment 1 (module docstring): plain ``gloo`` instead of ``cpu:gloo,cpu:gloo``."""
    from verl.utils import distributed

    original = distributed.initialize_global_process_group_ray
    if getattr(original, "_cpu_train", False):
        return

    def initialize_global_process_group_ray(timeout_second: Any = None, backend: str | None = None) -> Any:
        return original(timeout_second=timeout_second, backend=backend or "gloo")

    initialize_global_process_group_ray._cpu_train = True  # type: ignore[attr-defined]
    distributed.initialize_global_process_group_ray = initialize_global_process_group_ray


def _unpinned_offload() -> None:
    """Adjustment 2 (module docstring): FSDP2's CPU offload without pinned memory."""
    import torch.distributed.fsdp as fsdp

    base = fsdp.CPUOffloadPolicy
    if getattr(base, "_cpu_train", False):
        return

    class UnpinnedCPUOffloadPolicy(base):  # type: ignore[misc, valid-type]
        _cpu_train = True

        def __init__(self, pin_memory: bool = False) -> None:
            super().__init__(pin_memory=False)

    fsdp.CPUOffloadPolicy = UnpinnedCPUOffloadPolicy  # type: ignore[misc]


def selected() -> bool:
    """True when this process runs verl on the cpu platform (``VERL_PLATFORM=cpu``)."""
    return os.environ.get("VERL_PLATFORM", "").strip().lower() == PLATFORM_NAME


def apply() -> None:
    """The cpu platform's run-time adjustments; nothing unless it is selected."""
    if not selected():
        return
    _gloo_process_group()
    _unpinned_offload()


apply()
