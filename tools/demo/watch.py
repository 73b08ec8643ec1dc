"""Follow a real training job on the (local) Slurm cluster until it ends, within a hard bound.

    python -m tools.demo.watch --job ID --log JOB_LOG --ckpt RUN_CKPT_DIR [--signal-at-step N] --timeout S

Prints progress as it happens: the launcher's milestones (resume, time limit, saves, requeue),
verl's steps (score, seconds), checkpoints. With ``--signal-at-step N`` it sends the job the
time-limit warning (``scancel --signal=USR1 --batch``: the signal slurmctld sends at
``--signal=B:USR1@S``) once the first run has saved step N, so that the launcher's time-limit
path (pre-expiry save -> stop -> ``scontrol requeue`` -> resume) runs on schedule. A job that
is not finished by the bound (a weight sync that hangs, for example, never exits by itself) is
cancelled and reported with the tail of its logs. Exit status: 0 completed, 1 failed, 124 bound.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

TERMINAL = {
    "COMPLETED",
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "OUT_OF_MEMORY",
    "BOOT_FAIL",
    "DEADLINE",
}
TRACKER = "latest_checkpointed_iteration.txt"
STEP_LINE = re.compile(r"\bstep:(\d+) - ")
LAUNCH_KEEP = re.compile(
    r"\[launch [0-9:]+\] (resume:|time limit:|trainer: (starting|finished|stopped|completed|failed|timelimit)|requeue:"
    r"|cpu mode:|job \d+ \(|job exits|error:)"
)
VERL_KEEP = re.compile(
    r"(Force saving checkpoint|Training from scratch|Resuming from |local_global_step_folder: )"
)


def metric(line: str, key: str) -> float | None:
    match = re.search(rf"(?:^| - ){re.escape(key)}:(-?[0-9.eE+-]+)", line)
    return float(match.group(1)) if match else None


def step_summary(line: str) -> str | None:
    match = STEP_LINE.search(line)
    if not match:
        return None
    parts = [f"step {match.group(1)}"]
    for key, label in (
        ("critic/score/mean", "score"),
        ("response_length/mean", "resp len"),
        ("timing_s/step", "s"),
    ):
        value = metric(line, key)
        if value is not None:
            parts.append(f"{label} {value:.3g}" if label != "s" else f"{value:.1f} s")
    return ", ".join(parts)


def job_info(job: str) -> dict[str, str]:
    proc = subprocess.run(["scontrol", "show", "job", "-o", job], capture_output=True, text=True, timeout=30)
    return dict(re.findall(r"(\w+)=(\S*)", proc.stdout))


def tracker_step(ckpt: Path) -> int:
    try:
        return int((ckpt / TRACKER).read_text().strip())
    except (OSError, ValueError):
        return 0


def job_rss_bytes(job: str) -> int:
    """Memory of every process that runs in Slurm job ``job`` (its environment says
    SLURM_JOB_ID=job): the launcher, Ray on every node, the trainer, vLLM. Proportional set
    size (``/proc/PID/smaps_rollup`` Pss: a page shared by N processes counts 1/N in each), so
    the torch/CUDA libraries every process maps are counted once, not once per process.
    Another cluster's job with the same id on this host (several local clusters, each counting
    from 1) is left out: a process whose SLURM_CONF is not this one's belongs to it."""
    marker = f"SLURM_JOB_ID={job}".encode()
    conf = os.environ.get("SLURM_CONF")
    ours = f"SLURM_CONF={conf}".encode() if conf else None
    total = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            env = (proc / "environ").read_bytes().split(b"\0")
            if marker not in env:
                continue
            if ours is not None and any(e.startswith(b"SLURM_CONF=") and e != ours for e in env):
                continue
            for line in (proc / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
                    break
        except OSError:
            continue
    return total


def tail(path: Path, lines: int = 60) -> str:
    if not path.exists():
        return f"({path} does not exist)"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@dataclass
class Follower:
    """Reads the job log incrementally and prints the lines that tell the story."""

    log: Path
    offset: int = 0
    seen: list[str] = field(default_factory=list)

    def poll(self) -> None:
        if not self.log.exists():
            return
        with self.log.open("rb") as fh:
            fh.seek(self.offset)
            chunk = fh.read()
        cut = chunk.rfind(b"\n") + 1
        self.offset += cut
        for raw in chunk[:cut].decode(errors="replace").splitlines():
            line = re.sub(r"\x1b\[[0-9;]*m", "", raw)
            shown = step_summary(line) or (
                line.strip() if LAUNCH_KEEP.search(line) or VERL_KEEP.search(line) else None
            )
            if shown:
                shown = re.sub(r"^\(TaskRunner pid=\d+\)\s*", "", shown)
                self.seen.append(shown)
                print(f"    | {shown}", flush=True)


class PeakMemory(threading.Thread):
    """Samples the job's memory every 2 s in the background (a /proc scan takes seconds on a
    loaded machine; the main loop must stay quick to send the warning in time)."""

    def __init__(self, job: str, out: Path | None) -> None:
        super().__init__(daemon=True)
        self.job, self.out, self.peak = job, out, 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(2.0):
            rss = job_rss_bytes(self.job)
            if rss > self.peak:
                self.peak = rss
                if self.out is not None:
                    self.out.parent.mkdir(parents=True, exist_ok=True)
                    self.out.write_text(f"{rss}\n")


def watch(
    job: str, log: Path, ckpt: Path, signal_at_step: int, timeout: float, rss_out: Path | None = None
) -> int:
    follower = Follower(log)
    memory = PeakMemory(job, rss_out)
    memory.start()
    try:
        return _watch(job, log, ckpt, signal_at_step, timeout, follower)
    finally:
        memory.stop.set()


def _watch(job: str, log: Path, ckpt: Path, signal_at_step: int, timeout: float, follower: Follower) -> int:
    deadline = time.monotonic() + timeout
    signaled = signal_at_step <= 0
    state = ""
    info: dict[str, str] = {}
    next_poll = 0.0
    while time.monotonic() < deadline:
        # the tracker every 0.25 s (steady steps take 1-3 s: the warning must land while the
        # first run still trains); the scheduler and the log every 2 s
        if not signaled and tracker_step(ckpt) >= signal_at_step:
            print(
                f"    > time-limit warning now: scancel --signal=USR1 --batch {job} (what slurmctld sends"
                f" at the job's --signal=B:USR1@S); global_step_{tracker_step(ckpt)} is saved",
                flush=True,
            )
            subprocess.run(["scancel", "--signal=USR1", "--batch", job], check=False, timeout=30)
            signaled = True
        if time.monotonic() >= next_poll:
            next_poll = time.monotonic() + 2.0
            follower.poll()
            info = job_info(job)
            state = info.get("JobState", "")
            if state in TERMINAL:
                time.sleep(1.0)
                follower.poll()
                if state == "COMPLETED":
                    return 0
                print(
                    f"watch: job {job} ended {state} (exit {info.get('ExitCode', '?')}); log tail:",
                    file=sys.stderr,
                )
                print(tail(log), file=sys.stderr)
                return 1
        time.sleep(0.25)
    follower.poll()
    subprocess.run(["scancel", job], check=False, timeout=30)
    print(
        f"watch: job {job} still {state or 'unknown'} after {timeout:.0f} s: cancelled it. "
        f"A weight sync that fails on CPU hangs instead of exiting. Log tail ({log}):",
        file=sys.stderr,
    )
    print(tail(log), file=sys.stderr)
    return 124


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.demo.watch", description=__doc__.splitlines()[0])
    parser.add_argument("--job", required=True)
    parser.add_argument("--log", required=True, type=Path)
    parser.add_argument("--ckpt", required=True, type=Path, help="the run's checkpoint dir")
    parser.add_argument(
        "--signal-at-step", type=int, default=0, help="send the time-limit warning after this save"
    )
    parser.add_argument("--timeout", type=float, default=420.0, help="hard bound in seconds")
    parser.add_argument("--rss-out", type=Path, help="write the job's peak RSS sum (bytes) here")
    args = parser.parse_args(argv)
    return watch(args.job, args.log, args.ckpt, args.signal_at_step, args.timeout, args.rss_out)


if __name__ == "__main__":
    sys.exit(main())
