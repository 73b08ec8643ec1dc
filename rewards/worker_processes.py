"""The symbolic workers' processes: forked by a zygote where the platform allows it, else spawned.

:class:`Zygote` starts ``python -m rewards._worker_zygote`` once per pool; it imports sympy and
math-verify once and forks each worker in milliseconds (:mod:`rewards._worker_zygote`), so a worker
killed after a timeout is replaced at once, and the workers share the zygote's memory pages. When
the reward's own process has already imported sympy and math-verify and runs a single thread, or
only OpenBLAS's besides (an evaluation script, not verl's thread pool; :func:`can_fork_here`),
the first zygote is that process forked instead, ready in milliseconds rather than after 0.4 s of
imports. It needs Linux's pidfd
(to watch and kill a process that is not our child without mistaking a reused pid) and
``socket.send_fds``; elsewhere, with ``REWARDS_WORKER_ZYGOTE=0``, or after the zygote failed twice,
each worker is spawned (:class:`Spawned`: ``python -m rewards._symbolic_worker``, about 0.4 s of
imports each).
"""

from __future__ import annotations

import functools
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import IO

from rewards.line_pipe import LineReader

logger = logging.getLogger(__name__)

ZYGOTE_ENV = "REWARDS_WORKER_ZYGOTE"
"""``0``: never fork workers from a zygote (each is spawned); ``fresh``: the zygote is always a new
interpreter, never this process forked (:func:`can_fork_here`)."""

_REPO_ROOT = str(Path(__file__).resolve().parents[1])


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = _REPO_ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


@functools.cache
def zygote_supported() -> bool:
    """Linux with pidfds and ``send_fds`` (and not turned off by :data:`ZYGOTE_ENV`)."""
    if os.environ.get(ZYGOTE_ENV, "").strip() == "0":
        return False
    if (
        not sys.platform.startswith("linux")
        or not hasattr(os, "pidfd_open")
        or not hasattr(socket, "send_fds")
    ):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))  # a kernel or sandbox without pidfds refuses this
    except OSError:
        return False
    return True


class Spawned:
    """A worker started as its own process (``python -m rewards._symbolic_worker``)."""

    def __init__(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "rewards._symbolic_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=child_env(),
            cwd=_REPO_ROOT,
        )
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self.pid = self._proc.pid
        self.stdin: IO[bytes] = self._proc.stdin
        self.stdout_fd = self._proc.stdout.fileno()

    def alive(self) -> bool:
        return self._proc.poll() is None

    def kill(self) -> None:
        try:
            self._proc.kill()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            logger.warning("symbolic worker pid %d did not exit after SIGKILL", self.pid)
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


_killed_cpu_s = 0.0
_killed_lock = threading.Lock()


def killed_workers_cpu_s() -> float:
    """CPU seconds used by the forked workers this process killed, read just before each kill:
    they are not our children, so no ``RUSAGE_CHILDREN`` counts them (the benchmark adds this)."""
    return _killed_cpu_s


def process_stat(pid: int) -> tuple[int, float, str] | None:
    """``(parent pid, CPU seconds used, state letter)`` of a process from ``/proc/<pid>/stat``;
    None when it is gone or there is no ``/proc``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()  # after the command name, which may hold spaces
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), fields[0]


def _count_cpu_of_killed(pid: int) -> None:
    global _killed_cpu_s
    stat = process_stat(pid)
    if stat is not None:
        with _killed_lock:
            _killed_cpu_s += stat[1]


class Forked:
    """A worker forked by the zygote (not our child): watched and killed through its pidfd."""

    def __init__(self, pid: int, pidfd: int, stdin_fd: int, stdout_fd: int) -> None:
        self.pid = pid
        self._pidfd = pidfd
        self.stdin: IO[bytes] = os.fdopen(stdin_fd, "wb")
        self.stdout_fd = stdout_fd
        self._closed = False

    def _exited(self, timeout: float) -> bool:
        readable, _, _ = select.select([self._pidfd], [], [], timeout)  # readable once it exits
        return bool(readable)

    def alive(self) -> bool:
        return not self._exited(0.0)

    def kill(self) -> None:
        """SIGKILL, wait for the exit (5 s at most), close the pipes and the pidfd; once (a second
        call would close fd numbers that may belong to something else by then)."""
        if self._closed:
            return
        self._closed = True
        if self.alive():
            _count_cpu_of_killed(self.pid)
        try:
            signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
        except OSError:  # already gone
            pass
        if not self._exited(5.0):
            logger.warning("symbolic worker pid %d did not exit after SIGKILL", self.pid)
        for close in (self.stdin.close, lambda: os.close(self.stdout_fd), lambda: os.close(self._pidfd)):
            try:
                close()
            except OSError:
                pass


FORK_MAX_RSS_BYTES = 1 << 30
"""A process using more memory than this is not forked into the zygote: the zygote keeps the pages
of the process as they were at the fork, and each page the process writes afterwards is copied."""


def can_fork_here() -> bool:
    """Whether this process can become the workers' zygote by forking: it has already imported
    sympy and math-verify (what a fresh zygote spends 0.4 s importing), it runs one Python thread
    and no other thread but OpenBLAS's and jemalloc's background thread (no other thread holds a
    lock the child would inherit taken: a reward called from verl's thread pool never qualifies,
    an evaluation script comparing answers one after another does, numpy or pandas imported or
    not), it uses at most :data:`FORK_MAX_RSS_BYTES`, and :data:`ZYGOTE_ENV` is not ``fresh``."""
    if os.environ.get(ZYGOTE_ENV, "").strip() == "fresh":
        return False
    if "sympy" not in sys.modules or "math_verify" not in sys.modules:
        return False
    if len(sys._current_frames()) != 1:  # another Python thread
        return False
    try:
        rss_pages = int(Path("/proc/self/statm").read_text().split()[1])
        if rss_pages * os.sysconf("SC_PAGE_SIZE") > FORK_MAX_RSS_BYTES:
            return False
        if len(os.listdir("/proc/self/task")) == 1:
            return True
        server = openblas_server_threads()  # restarts them if a fork stopped them: then count
        names = thread_names()
        return len(names) == 1 + server + names.count(JEMALLOC_THREAD_NAME)
    except (OSError, ValueError, IndexError):
        return False


OPENBLAS_THREAD_CALLS = (
    ("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),  # numpy's, scipy's
    ("scipy_openblas_get_num_threads", "scipy_openblas_set_num_threads"),
    ("openblas_get_num_threads64_", "openblas_set_num_threads64_"),
    ("openblas_get_num_threads", "openblas_set_num_threads"),  # a system or conda OpenBLAS
)


JEMALLOC_THREAD_NAME = "jemalloc_bg_thd"
"""The name jemalloc gives its background thread (pyarrow's jemalloc starts one when imported, so
pandas and ``datasets`` do too). jemalloc takes all its locks in its ``pthread_atfork`` handler
and resets them, and its background-thread state, in the child: a fork is safe while it runs."""


def thread_names() -> list[str]:
    """The names of this process's threads, read in one pass (a thread that ends meanwhile is left
    out), so that a count of them and of jemalloc's among them agree."""
    names = []
    for tid in os.listdir("/proc/self/task"):
        try:
            names.append(Path(f"/proc/self/task/{tid}/comm").read_text().strip())
        except OSError:  # the thread ended meanwhile
            continue
    return names


def openblas_server_threads() -> int:
    """How many threads of their own the OpenBLAS libraries loaded in this process run (0 when
    none is loaded), after making sure they run: numpy's import starts them, OpenBLAS stops them
    in its ``pthread_atfork`` handler before every fork, and setting the thread count starts them
    again (as OpenBLAS's next call would). So a process whose only other threads are these forks
    as a single-threaded one, and counting them while they run tells them from another library's
    thread. Other BLAS libraries' threads (MKL's OpenMP) are not stopped at a fork, nor counted."""
    paths: set[str] = set()
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        for line in maps:  # address, permissions, offset, device, inode, path
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and "openblas" in fields[5].lower():
                paths.add(fields[5].rstrip("\n"))
    import ctypes

    server = 0
    for path in paths:
        try:
            library = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
        except OSError:
            continue
        for get_name, set_name in OPENBLAS_THREAD_CALLS:
            get, put = getattr(library, get_name, None), getattr(library, set_name, None)
            if get is not None and put is not None:
                get.restype = ctypes.c_int
                count = int(get())
                put(ctypes.c_int(count))
                server += max(0, count - 1)
                break
    return server


class _ForkedChild:
    """A child of ours made with ``os.fork``: the part of ``subprocess.Popen`` a zygote uses."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere (a SIGCHLD handler of the caller's)
                self.returncode = -1
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout)
            time.sleep(0.01)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:  # not reaped yet, so the pid is still ours
            os.kill(self.pid, signal.SIGKILL)


class ZygoteError(RuntimeError):
    """The zygote could not fork a worker (it died, or did not answer in time)."""


def _fork_zygote(ours: socket.socket, theirs: socket.socket) -> _ForkedChild:
    """This process forked into a zygote that keeps ``theirs`` (see :func:`can_fork_here`)."""
    from rewards._worker_zygote import run_forked  # imported before the fork: the child imports nothing

    with warnings.catch_warnings():  # one Python thread (can_fork_here): changing filters is safe
        # Python 3.12 warns at a fork while jemalloc's background thread runs; jemalloc's own
        # fork handlers make that safe (can_fork_here allows no other thread)
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child never returns into the caller's code
        try:
            ours.close()
            run_forked(theirs)
        finally:
            os._exit(1)
    return _ForkedChild(pid)


class Zygote:
    """``python -m rewards._worker_zygote``, or this process forked (``here``, see
    :func:`can_fork_here`): forks workers on request (one at a time)."""

    def __init__(self, here: bool = False) -> None:
        ours, theirs = socket.socketpair()
        self._proc: subprocess.Popen[bytes] | _ForkedChild
        try:
            if here:
                self._proc = _fork_zygote(ours, theirs)
            else:
                self._proc = subprocess.Popen(
                    [sys.executable, "-m", "rewards._worker_zygote", str(theirs.fileno())],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    pass_fds=(theirs.fileno(),),
                    env=child_env(),
                    cwd=_REPO_ROOT,
                )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.pid = self._proc.pid
        self._sock = ours
        self._replies = LineReader(ours.fileno())
        self._lock = threading.Lock()

    def alive(self) -> bool:
        return self._proc.poll() is None

    def fork(self, deadline: float) -> Forked:
        """A new worker (it says ready on its stdout); ZygoteError when the zygote does not fork
        one before ``deadline`` (the first fork waits for the zygote's imports)."""
        with self._lock:
            stdin_r, stdin_w = os.pipe()
            stdout_r, stdout_w = os.pipe()
            try:
                pid, pidfd = self._request_fork(stdin_r, stdout_w, deadline)
            except BaseException:
                os.close(stdin_w)
                os.close(stdout_r)
                raise
            finally:
                os.close(stdin_r)  # the worker has its own copies now
                os.close(stdout_w)
        return Forked(pid, pidfd, stdin_w, stdout_r)

    def _request_fork(self, stdin_r: int, stdout_w: int, deadline: float) -> tuple[int, int]:
        """Sends the worker's pipe ends, reads its pid back: ``(pid, pidfd)``, or ZygoteError."""
        try:
            socket.send_fds(self._sock, [b"fork"], [stdin_r, stdout_w])
            line = self._replies.line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise ZygoteError("the worker zygote did not fork a worker in time")
            pid = int(line)
            return pid, os.pidfd_open(pid)
        except (OSError, EOFError, ValueError) as exc:
            raise ZygoteError(f"the worker zygote failed: {type(exc).__name__}: {exc}") from exc

    def close(self) -> None:
        """Ends the zygote (its workers end when their stdin closes)."""
        try:
            self._sock.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
