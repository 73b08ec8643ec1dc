"""Wait until every node of a Slurm job has joined its Ray cluster, then prove placement.

    python jobs/lib/ray_cluster.py wait --address IP:PORT --nodes n1,n2 --gpus-per-node 8 \
        --head-timeout 300 --timeout 300 --log-dir LOG_DIR [--pid n1=PID --pid n2=PID]

Each node's raylet advertises the custom resource ``slurm_node:<name>`` (jobs/lib/ray_node.sh).
The wait polls the GCS (no fixed sleeps) until every named node is alive with the expected GPU
count. Two bounds: the head (the first node) must answer and join within ``--head-timeout``
seconds of the start (RAY_HEAD_TIMEOUT), and every other node within ``--timeout`` seconds of the
head joining (RAY_WAIT_TIMEOUT): a worker cannot join before the head is up, so a slow head
(a loaded or cold node) never eats the workers' time and a worker that never joins is named as
that worker, not as the head. It fails early when the srun that runs a node's Ray has exited
(``--pid``), and at a deadline; either way it names the missing nodes and prints the tail of
their logs (``LOG_DIR/ray-<node>.log``). Then one tiny task per node, pinned by that resource and
asking for one GPU, reports which Slurm node it ran on.

Exit status: 0 ready, 3 a node never joined / its Ray died, 4 a placement probe failed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

NODE_RESOURCE = "slurm_node:{}"
LOG_NAME = "ray-{}.log"
TAIL_LINES = 20


def log_tail(log_dir: Path, node: str, lines: int = TAIL_LINES) -> str:
    """The last lines of a node's Ray log, indented, or a note that it is missing."""
    path = log_dir / LOG_NAME.format(node)
    if not path.exists():
        return f"    ({path} does not exist: the node's srun never started)"
    text = path.read_text(errors="replace").splitlines()[-lines:]
    if not text:
        return f"    ({path} is empty)"
    return "\n".join(f"    {line}" for line in text)


def pid_alive(pid: int) -> bool:
    """True while process ``pid`` exists (and is not a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError):
        return stat.read_text().split(") ", 1)[1][:1] != "Z"
    return True


def joined_nodes(ray: Any, nodes: list[str]) -> dict[str, float]:
    """Alive nodes of the cluster among ``nodes``, with the GPUs each declared."""
    found: dict[str, float] = {}
    for info in ray.nodes():
        if not info.get("Alive"):
            continue
        resources = info.get("Resources", {})
        for name in nodes:
            if NODE_RESOURCE.format(name) in resources:
                found[name] = float(resources.get("GPU", 0.0))
    return found


def fail(message: str, nodes: list[str], log_dir: Path) -> None:
    """Print ``message`` and the log tail of every node in ``nodes``."""
    print(f"ray_cluster: error: {message}", file=sys.stderr)
    for name in nodes:
        print(f"  --- {name}: {log_dir / LOG_NAME.format(name)}", file=sys.stderr)
        print(log_tail(log_dir, name), file=sys.stderr)


def connect(ray: Any, address: str, deadline: float, pids: dict[str, int]) -> str | None:
    """Connect to the GCS at ``address``; on failure return the reason (else None)."""
    last = ""
    while time.monotonic() < deadline:
        dead = [n for n, pid in pids.items() if not pid_alive(pid)]
        if dead:
            return "dead:" + ",".join(dead)
        try:
            # ray.init prints connection chatter; keep the job log to our own lines
            with contextlib.redirect_stderr(io.StringIO()):
                ray.init(address=address, logging_level="ERROR", log_to_driver=False)
            return None
        except Exception as exc:  # the GCS is not up yet: ConnectionError, RuntimeError, ...
            last = f"{type(exc).__name__}: {exc}"
            time.sleep(1.0)
    return "timeout:" + last


def wait_for_nodes(args: argparse.Namespace) -> int:
    import ray

    nodes: list[str] = args.nodes.split(",")
    log_dir = Path(args.log_dir)
    pids = {k: int(v) for k, v in (p.split("=", 1) for p in args.pid)}
    start = time.monotonic()
    deadline = start + args.head_timeout
    reason = connect(ray, args.address, deadline, pids)
    if reason is not None:
        if reason.startswith("dead:"):
            dead = reason[5:].split(",")
            fail(f"Ray exited on {', '.join(dead)} before the cluster formed", dead, log_dir)
        else:
            fail(
                f"no Ray head at {args.address} after {args.head_timeout:.0f} s (RAY_HEAD_TIMEOUT; {reason[8:]})",
                nodes[:1],
                log_dir,
            )
        return 3
    head = nodes[0]
    head_joined = False
    reported: set[str] = set()
    while True:
        found = joined_nodes(ray, nodes)
        for name in nodes:
            if name in found and name not in reported:
                reported.add(name)
                print(
                    f"ray_cluster: {name} joined ({found[name]:g} GPU) after {time.monotonic() - start:.1f} s",
                    flush=True,
                )
        if not head_joined and head in found:
            head_joined = True  # the workers' bound counts from here
            deadline = time.monotonic() + args.timeout
        ready = [n for n in nodes if found.get(n) == args.gpus_per_node]
        if len(ready) == len(nodes):
            break
        dead = [n for n, pid in pids.items() if not pid_alive(pid) and n not in ready]
        if dead:
            fail(f"Ray exited on {', '.join(dead)} before joining", dead, log_dir)
            return 3
        if time.monotonic() >= deadline:
            missing = [n for n in nodes if n not in found]
            wrong = [f"{n} ({found[n]:g} GPU)" for n in nodes if n in found and n not in ready]
            parts = []
            if missing:
                parts.append(f"never joined: {', '.join(missing)}")
            if wrong:
                parts.append(f"wrong GPU count (want {args.gpus_per_node:g}): {', '.join(wrong)}")
            bound = (
                f"{args.timeout:.0f} s after the head joined (RAY_WAIT_TIMEOUT)"
                if head_joined
                else f"{args.head_timeout:.0f} s without the head {head} (RAY_HEAD_TIMEOUT)"
            )
            fail(
                f"Ray cluster incomplete {bound}; " + "; ".join(parts),
                missing + [n for n in nodes if n in found and n not in ready],
                log_dir,
            )
            return 3
        time.sleep(1.0)
    total = sum(found.values())
    print(f"ray_cluster: all {len(nodes)} nodes joined, {total:g} GPUs declared", flush=True)
    return probe(ray, nodes, args.gpus_per_node, args.engine, args.attention)


def stack_on_node(engine: str, attention: str) -> str:
    """Runs inside the probe task: import the rollout engine and the attention backend the trainer
    will use on this node; their versions, or raises with what failed."""
    import importlib
    from importlib.metadata import version

    parts = [f"{d} {version(d)}" for d in ("torch", "transformers", "verl", "ray")]
    if engine:
        importlib.import_module(engine)
        parts.append(f"{engine} {version(engine)}")
    if attention:
        from jobs.lib.attention import verify  # the repo root is on every node's PYTHONPATH

        parts.append(f"attention {attention} ({verify(attention)})")
    return ", ".join(parts)


def where_am_i(engine: str = "", attention: str = "") -> dict[str, Any]:
    """Runs inside the probe task: the Slurm node and host it landed on, and its stack."""
    import ray

    try:
        stack, stack_error = stack_on_node(engine, attention), ""
    except Exception as exc:  # reported per node by probe()
        stack, stack_error = "", f"{type(exc).__name__}: {exc}"
    return {
        "slurm_node": os.environ.get("SLURMD_NODENAME", "?"),
        "host": socket.gethostname(),
        "gpu_ids": [str(g) for g in ray.get_gpu_ids()],
        "stack": stack,
        "stack_error": stack_error,
    }


def probe(ray: Any, nodes: list[str], gpus: float, engine: str = "", attention: str = "") -> int:
    """One task per node, pinned by its ``slurm_node:`` resource; each must land on its node and
    import the engine and the attention backend there."""
    remote = ray.remote(where_am_i)
    refs = {
        name: remote.options(
            num_cpus=0, num_gpus=1 if gpus >= 1 else 0, resources={NODE_RESOURCE.format(name): 0.01}
        ).remote(engine, attention)
        for name in nodes
    }
    bad = 0
    for name, ref in refs.items():
        try:
            got = ray.get(ref, timeout=120)
        except Exception as exc:
            print(f"ray_cluster: error: placement probe on {name} failed: {exc}", file=sys.stderr)
            bad += 1
            continue
        ok = got["slurm_node"] == name
        bad += 0 if ok else 1
        print(
            f"ray_cluster: probe {name}: task ran on slurm node {got['slurm_node']} (host {got['host']}, "
            f"GPU ids {','.join(got['gpu_ids']) or '-'}) {'ok' if ok else 'WRONG NODE'}",
            flush=True,
        )
        if got["stack_error"]:
            bad += 1
            print(
                f"ray_cluster: error: probe {name}: the job's stack does not import: {got['stack_error']}",
                file=sys.stderr,
                flush=True,
            )
        elif got["stack"]:
            print(f"ray_cluster: probe {name}: {got['stack']}", flush=True)
    ray.shutdown()
    return 4 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("wait", help="wait for all nodes, then run the placement probe")
    w.add_argument("--address", required=True, help="head GCS address IP:PORT")
    w.add_argument("--nodes", required=True, help="comma-separated Slurm node names")
    w.add_argument("--gpus-per-node", required=True, type=float)
    w.add_argument(
        "--head-timeout",
        type=float,
        default=300.0,
        help="seconds for the head to answer and join (default 300)",
    )
    w.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="seconds for the other nodes after the head joined (default 300)",
    )
    w.add_argument("--log-dir", required=True, help="where ray-<node>.log files are")
    w.add_argument("--pid", action="append", default=[], help="NODE=PID of the srun running that node's Ray")
    w.add_argument("--engine", default="", help="rollout engine package the probe imports on every node")
    w.add_argument("--attention", default="", help="attention implementation the probe loads on every node")
    args = parser.parse_args(argv)
    return wait_for_nodes(args)


if __name__ == "__main__":
    sys.exit(main())
