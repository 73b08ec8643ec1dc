"""verl's "cpu" platform (tools/cpu_train/platform.py) in a fresh interpreter, as verl loads it.

The real run (tests/test_train_cpu.py) shows the whole trainer works on it; these check each
adjustment on its own with the real verl and torch, in seconds: a process started with the
launcher's CPU-mode environment gets the cpu platform from ``import verl``, a gloo process
group from verl's own initializer (not the rejected ``cpu:gloo,cpu:gloo``), and an FSDP2
offload policy that does not pin memory. Without ``VERL_PLATFORM=cpu`` nothing changes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROBE = """
import json, os
import verl  # loads VERL_USE_EXTERNAL_MODULES
import torch
import torch.distributed as dist
import torch.distributed.fsdp as fsdp
from verl.plugin.platform import get_platform
from verl.utils import distributed
out = {"platform": get_platform().device_name, "pin": fsdp.CPUOffloadPolicy(pin_memory=True).pin_memory}
if out["platform"] == "cpu":
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=os.environ["PROBE_PORT"], RANK="0", WORLD_SIZE="1")
    distributed.initialize_global_process_group_ray(timeout_second=60)
    t = torch.ones(3)
    dist.all_reduce(t)
    out.update(backend=str(dist.get_backend()), sum=t.tolist(), current=str(get_platform().current_device()),
               ray_resource=get_platform().ray_resource_name(), ipc=get_platform().is_ipc_supported())
    dist.destroy_process_group()
print(json.dumps(out))
"""


def probe(**env: str) -> dict[str, object]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("VERL_")}
    environ.update(PYTHONPATH=str(REPO), PROBE_PORT=str(29000 + os.getpid() % 1000), **env)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], env=environ, capture_output=True, text=True, timeout=300, cwd=REPO
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_cpu_mode_environment_gives_verl_a_working_cpu_platform() -> None:
    got = probe(VERL_PLATFORM="cpu", VERL_USE_EXTERNAL_MODULES="tools.cpu_train.platform")
    assert got["platform"] == "cpu" and got["current"] == "cpu"
    assert got["backend"] == "gloo" and got["sum"] == [1.0, 1.0, 1.0]
    assert got["pin"] is False  # the reference model's CPUOffloadPolicy(pin_memory=True) cannot pin on CPU
    assert got["ray_resource"] == "GPU" and got["ipc"] is False


def test_loading_the_plugin_without_the_cpu_platform_changes_nothing() -> None:
    got = probe(VERL_USE_EXTERNAL_MODULES="tools.cpu_train.platform")
    assert got["platform"] != "cpu"
    assert got["pin"] is True
