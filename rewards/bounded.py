"""Hard wall-clock bound for symbolic comparison: a small pool of killable worker processes.

Symbolic simplification and LaTeX parsing of model text can take unbounded time (power towers,
huge exponents). No in-process timeout can stop that reliably, and ``signal.alarm`` does not work
in verl's reward loop (thread pool inside Ray actors). So the slow path runs in child processes
(:mod:`rewards._symbolic_worker`): each handles one request at a time; a request that exceeds its
bound gets its process killed (SIGKILL) and a fresh one started on next use. A timeout counts as
"not equivalent".

The pool starts lazily on the first slow-path call (fast paths never touch it), is shared by all
threads of the process and is thread-safe. Its size is ``REWARDS_SYMBOLIC_WORKERS`` (default 2).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

logger = logging.getLogger(__name__)

STARTUP_TIMEOUT_S = 120.0
"""How long a fresh worker may take to import sympy/math-verify (not part of a call's bound)."""

_REPO_ROOT = str(Path(__file__).resolve().parents[1])


def _pool_size() -> int:
    raw = os.environ.get("REWARDS_SYMBOLIC_WORKERS", "2")
    try:
        return max(1, int(raw))
    except ValueError:
        logger.warning("REWARDS_SYMBOLIC_WORKERS=%r is not an integer; using 2", raw)
        return 2


class WorkerError(RuntimeError):
    """A worker could not be started or died; the comparison counts as not equivalent."""


class _Worker:
    """One child process and the line-buffered pipe to it."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = _REPO_ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.setdefault("OMP_NUM_THREADS", "1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rewards._symbolic_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=_REPO_ROOT,
        )
        self._buf = bytearray()
        self.ready = False

    def _read_line(self, deadline: float) -> bytes | None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line = bytes(self._buf[:nl])
                del self._buf[: nl + 1]
                return line
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise WorkerError("symbolic worker exited unexpectedly")
            self._buf.extend(chunk)

    def wait_ready(self) -> None:
        if self.ready:
            return
        line = self._read_line(time.monotonic() + STARTUP_TIMEOUT_S)
        if line is None:
            raise WorkerError(f"symbolic worker did not start within {STARTUP_TIMEOUT_S:.0f} s")
        self.ready = True

    def ask(self, gold: str, pred: str, timeout_s: float) -> bool | None:
        """True/False, or None on timeout (the caller must then kill this worker)."""
        self.wait_ready()
        assert self.proc.stdin is not None
        payload = json.dumps({"gold": gold, "pred": pred}).encode() + b"\n"
        try:
            self.proc.stdin.write(payload)
            self.proc.stdin.flush()
        except OSError as exc:
            raise WorkerError(f"symbolic worker pipe closed: {exc}") from exc
        line = self._read_line(time.monotonic() + timeout_s)
        if line is None:
            return None
        reply = json.loads(line)
        if "error" in reply:
            logger.debug("symbolic comparison failed: %s", reply["error"])
            return False
        return bool(reply.get("eq", False))

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            logger.warning("symbolic worker pid %d did not exit after SIGKILL", self.proc.pid)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


class WorkerPool:
    """At most ``size`` workers; a caller borrows one exclusively for one request."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._idle: list[_Worker] = []
        self._count = 0
        self._cond = threading.Condition()
        self._pid = os.getpid()
        self.timeouts = 0
        self.calls = 0

    def _borrow(self) -> _Worker:
        with self._cond:
            while True:
                if self._idle:
                    return self._idle.pop()
                if self._count < self.size:
                    self._count += 1
                    break
                self._cond.wait()
        try:
            return _Worker()
        except Exception:
            with self._cond:
                self._count -= 1
                self._cond.notify()
            raise

    def _give_back(self, worker: _Worker | None) -> None:
        with self._cond:
            if worker is None:
                self._count -= 1
            else:
                self._idle.append(worker)
            self._cond.notify()

    def warm_up(self) -> None:
        """Start every worker now and wait until each has imported its libraries."""
        workers = [self._borrow() for _ in range(self.size)]
        for w in workers:
            try:
                w.wait_ready()
            except WorkerError:
                w.kill()
                self._give_back(None)
                raise
        for w in workers:
            self._give_back(w)

    def compare(self, gold: str, pred: str, timeout_s: float) -> bool:
        worker = self._borrow()
        try:
            worker.wait_ready()
            result = worker.ask(gold, pred, timeout_s)
        except (WorkerError, OSError, ValueError) as exc:
            logger.warning("symbolic worker failed (%s); counting the pair as not equivalent", exc)
            worker.kill()
            self._give_back(None)
            return False
        with self._cond:
            self.calls += 1
        if result is None:
            with self._cond:
                self.timeouts += 1
            logger.info(
                "symbolic comparison exceeded %.2f s; worker killed, pair counted not equivalent", timeout_s
            )
            worker.kill()
            self._give_back(None)
            return False
        self._give_back(worker)
        return result

    def close(self) -> None:
        with self._cond:
            idle, self._idle = self._idle, []
            self._count -= len(idle)
        for w in idle:
            w.kill()


_POOL: WorkerPool | None = None
_POOL_LOCK = threading.Lock()


def get_pool() -> WorkerPool:
    """The process-wide pool (created on first use; a forked child gets its own)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL._pid != os.getpid():
            _POOL = WorkerPool(_pool_size())
            atexit.register(_POOL.close)
        return _POOL


def symbolic_equal(gold: str, pred: str, timeout_s: float) -> bool:
    """Compare two normalised answers in a worker process; False on timeout or failure."""
    return get_pool().compare(gold, pred, timeout_s)
