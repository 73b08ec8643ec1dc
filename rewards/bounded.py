"""Hard wall-clock bound for the symbolic path: a small pool of killable worker processes.

LaTeX parsing and sympy simplification of model text can take unbounded time (power towers,
huge exponents). No in-process timeout stops that reliably, and ``signal.alarm`` does not work in
verl's reward loop (a thread pool inside Ray actors). So the slow path runs in child processes
(:mod:`rewards._symbolic_worker`), one request at a time each.

The bound covers the whole call: waiting for a free worker *and* the comparison. Callers wait in
first-come first-served order; a call that gets no worker before its deadline, or whose worker
does not answer in time, returns :data:`TIMEOUT` / :data:`UNAVAILABLE` (the caller counts the pair
as not verified and says so). A worker that overran is killed (SIGKILL) and a replacement starts in
the background; so does a worker found dead while idle, and the call that found it dead is retried
once on another worker (within the same deadline). Worker start-up happens in background threads:
the pool starts all its workers on the first slow-path call, which waits for the first one to be
ready within its own bound. On Linux the workers are forked by the pool's zygote
(:mod:`rewards.worker_processes`), which imports sympy and math-verify once (about 0.4 s), so a
replacement is ready in milliseconds; elsewhere each worker is spawned and imports them itself.
A worker's ``WARM_UP_PAIRS`` run after it says it is ready, while it is idle.

Pool size: ``REWARDS_SYMBOLIC_WORKERS`` (default 2), shared by all threads of the process.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import threading
import time
from collections import deque

from rewards.line_pipe import LineReader
from rewards.worker_processes import Forked, Spawned, Zygote, ZygoteError, can_fork_here, zygote_supported

logger = logging.getLogger(__name__)

STARTUP_TIMEOUT_S = 120.0
"""How long a fresh worker may take to import sympy/math-verify (in the background)."""

EQUAL = "equal"
DIFFERENT = "different"
TIMEOUT = "timeout"
UNAVAILABLE = "unavailable"
"""Outcomes of :meth:`WorkerPool.compare`; the last two mean "not verified"."""


def _pool_size() -> int:
    raw = os.environ.get("REWARDS_SYMBOLIC_WORKERS", "2")
    try:
        return max(1, int(raw))
    except ValueError:
        logger.warning("REWARDS_SYMBOLIC_WORKERS=%r is not an integer; using 2", raw)
        return 2


class WorkerError(RuntimeError):
    """A worker could not be started, died, or broke its pipe."""


class _Worker:
    """One worker process (forked by the pool's zygote, or spawned) and the pipes to it."""

    def __init__(self, zygote: Zygote | None, deadline: float) -> None:
        self.proc: Forked | Spawned = zygote.fork(deadline) if zygote is not None else Spawned()
        self._reader = LineReader(self.proc.stdout_fd)

    def alive(self) -> bool:
        return self.proc.alive()

    def read_line(self, deadline: float) -> bytes | None:
        """One reply line, or None when ``deadline`` passes first; WorkerError on EOF."""
        try:
            return self._reader.line(max(0.0, deadline - time.monotonic()))
        except EOFError as exc:
            raise WorkerError("symbolic worker exited unexpectedly") from exc

    def ask(self, gold: str, pred: str, deadline: float) -> bool | None:
        """True/False, or None when ``deadline`` passed (the caller must kill this worker)."""
        payload = json.dumps({"gold": gold, "pred": pred}).encode() + b"\n"
        try:
            self.proc.stdin.write(payload)
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise WorkerError(f"symbolic worker pipe closed: {exc}") from exc
        line = self.read_line(deadline)
        if line is None:
            return None
        reply = json.loads(line)
        if "error" in reply:
            logger.debug("symbolic comparison failed: %s", reply["error"])
            return False
        return bool(reply.get("eq", False))

    def kill(self) -> None:
        self.proc.kill()


class WorkerPool:
    """``size`` workers; callers borrow one exclusively per request, first come first served."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._idle: list[_Worker] = []
        self._starting = 0
        self._queue: deque[object] = deque()
        self._cond = threading.Condition()
        self._pid = os.getpid()
        self._closed = False
        self._busy = 0
        self.calls = 0
        self.timeouts = 0
        self.unavailable = 0
        self.replaced = 0
        self._zygote: Zygote | None = None
        self._zygote_lock = threading.Lock()
        self._zygote_failures = 0

    # -- worker lifecycle ---------------------------------------------------------------------

    def _spawn_locked(self) -> None:
        """Start one worker in a background thread (caller holds ``_cond``)."""
        self._starting += 1
        threading.Thread(target=self._start_one, name="rewards-worker-start", daemon=True).start()

    def _start_one(self) -> None:
        worker: _Worker | None = None
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        try:
            worker = self._new_worker(deadline)
            if worker.read_line(deadline) is None:
                raise WorkerError(f"symbolic worker did not start within {STARTUP_TIMEOUT_S:.0f} s")
        except (OSError, WorkerError) as exc:
            if not self._closed:  # a start the pool's close (at exit) cut short is no failure
                logger.error("could not start a symbolic worker: %s", exc)
            if worker is not None:
                worker.kill()
            worker = None
        with self._cond:
            self._starting -= 1
            if worker is not None and not self._closed:
                self._idle.append(worker)
            elif worker is not None:
                worker.kill()
            self._cond.notify_all()

    def _new_worker(self, deadline: float) -> _Worker:
        """Forked by the zygote (started with the first worker; started again if it died, until
        it has failed twice), else spawned."""
        with self._zygote_lock:
            zygote = self._zygote
            if zygote is not None and not zygote.alive():
                logger.warning("the symbolic workers' zygote (pid %d) died; starting another", zygote.pid)
                self._drop_zygote_locked(zygote)
                zygote = None
            if zygote is None and self._zygote_failures < 2 and not self._closed and zygote_supported():
                zygote = self._zygote = Zygote()
        if zygote is None:
            return _Worker(None, deadline)
        try:
            return _Worker(zygote, deadline)
        except ZygoteError as exc:
            if self._closed:  # closed under this start (the process exits): start nothing
                raise WorkerError("the pool closed while a worker was starting") from exc
            logger.warning("%s; starting this worker on its own", exc)
            with self._zygote_lock:
                self._drop_zygote_locked(zygote)
            return _Worker(None, deadline)

    def _zygote_from_here(self) -> None:
        """The first zygote is this process forked, when it can be (:func:`can_fork_here`: one
        thread, sympy and math-verify already imported): ready in milliseconds instead of after
        0.4 s of imports. Runs in the caller's thread, before the pool starts threads of its own."""
        with self._zygote_lock:
            if self._zygote is not None or self._zygote_failures or self._closed:
                return
            if not zygote_supported() or not can_fork_here():
                return
            try:
                self._zygote = Zygote(here=True)
            except OSError as exc:
                logger.warning("could not fork the workers' zygote from this process: %s", exc)

    def _drop_zygote_locked(self, zygote: Zygote) -> None:
        """Counts a failure of ``zygote`` and ends it, unless another thread already did (caller
        holds ``_zygote_lock``)."""
        if self._zygote is zygote:
            zygote.close()
            self._zygote = None
            self._zygote_failures += 1

    def _fill_locked(self) -> None:
        missing = self.size - len(self._idle) - self._starting - self._busy
        if missing > 0:
            self._zygote_from_here()
        for _ in range(max(0, missing)):
            self._spawn_locked()

    def warm_up(self, wait_s: float = STARTUP_TIMEOUT_S) -> None:
        """Start every worker now and wait (up to ``wait_s``) until all are ready."""
        deadline = time.monotonic() + wait_s
        with self._cond:
            self._fill_locked()
            while len(self._idle) + self._busy < self.size and time.monotonic() < deadline:
                self._cond.wait(max(0.0, deadline - time.monotonic()))

    # -- borrowing ---------------------------------------------------------------------------

    def _borrow(self, deadline: float) -> _Worker | None:
        """A live worker, or None if none is free before ``deadline`` (FIFO among waiters)."""
        ticket = object()
        with self._cond:
            self._fill_locked()
            self._queue.append(ticket)
            try:
                while True:
                    if self._queue[0] is ticket:
                        while self._idle:
                            worker = self._idle.pop()
                            if worker.alive():
                                self._busy += 1
                                return worker
                            logger.warning(
                                "symbolic worker pid %d died while idle; replacing it", worker.proc.pid
                            )
                            self.replaced += 1
                            worker.kill()
                            self._spawn_locked()
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return None
                    self._cond.wait(remaining)
            finally:
                self._queue.remove(ticket)
                self._cond.notify_all()

    def _give_back(self, worker: _Worker, healthy: bool) -> None:
        if not healthy:  # SIGKILL and reaping happen off the caller's clock
            threading.Thread(target=worker.kill, name="rewards-worker-kill", daemon=True).start()
        with self._cond:
            self._busy -= 1
            if healthy and not self._closed:
                self._idle.append(worker)
            else:
                if not healthy:
                    self.replaced += 1
                if not self._closed:
                    self._spawn_locked()
            self._cond.notify_all()

    def compare(
        self,
        gold: str,
        pred: str,
        timeout_s: float,
        deadline: float | None = None,
        work_s: float | None = None,
    ) -> str:
        """EQUAL / DIFFERENT, or TIMEOUT / UNAVAILABLE; never later than ``deadline``. ``work_s``
        bounds the worker's time on this pair once it holds one (the wait for it is not counted):
        a comparison that runs longer is TIMEOUT, like one that reaches ``deadline``."""
        if deadline is None:
            deadline = time.monotonic() + timeout_s
        for attempt in (1, 2):
            worker = self._borrow(deadline)
            if worker is None:
                with self._cond:
                    self.unavailable += 1
                return UNAVAILABLE
            ask_deadline = deadline if work_s is None else min(deadline, time.monotonic() + work_s)
            try:
                result = worker.ask(gold, pred, ask_deadline)
            except (WorkerError, OSError, ValueError) as exc:
                logger.warning("symbolic worker failed (%s); replacing it (attempt %d)", exc, attempt)
                self._give_back(worker, healthy=False)
                continue
            if result is None:
                with self._cond:
                    self.timeouts += 1
                bound = timeout_s if work_s is None else min(timeout_s, work_s)
                logger.info("symbolic comparison exceeded its %.2f s bound; worker killed", bound)
                self._give_back(worker, healthy=False)
                return TIMEOUT
            with self._cond:
                self.calls += 1
            self._give_back(worker, healthy=True)
            return EQUAL if result else DIFFERENT
        return UNAVAILABLE

    def close(self) -> None:
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
        for w in idle:
            w.kill()
        with self._zygote_lock:
            zygote, self._zygote = self._zygote, None
        if zygote is not None:
            zygote.close()


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


def symbolic_compare(
    gold: str, pred: str, timeout_s: float, deadline: float | None = None, work_s: float | None = None
) -> str:
    """Compare two answers (texts) with math-verify in a worker; see :meth:`WorkerPool.compare`."""
    return get_pool().compare(gold, pred, timeout_s, deadline, work_s)


def symbolic_equal(gold: str, pred: str, timeout_s: float) -> bool:
    """True only when a worker verified the pair as equal within ``timeout_s``."""
    return symbolic_compare(gold, pred, timeout_s) == EQUAL
