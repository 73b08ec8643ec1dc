"""The symbolic workers are forked by a zygote (rewards/worker_processes.py,
rewards/_worker_zygote.py): they answer like spawned ones, a dead zygote is replaced (and after
two failures workers are spawned), REWARDS_WORKER_ZYGOTE=0 spawns them, and nothing outlives the
process that started them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rewards import worker_processes
from rewards.bounded import EQUAL, TIMEOUT, WorkerPool
from rewards.worker_processes import Forked, Spawned

pytest.importorskip("math_verify")
pytestmark = pytest.mark.skipif(not worker_processes.zygote_supported(), reason="needs Linux pidfds")


def _parent_pid(pid: int) -> int:
    stat = worker_processes.process_stat(pid)
    assert stat is not None
    return stat[0]


def _gone(pid: int) -> bool:
    """Exited (a zombie that nobody reaps counts: PID 1 of a container may not)."""
    stat = worker_processes.process_stat(pid)
    return stat is None or stat[2] in "ZX"


@pytest.fixture()
def pool() -> Iterator[WorkerPool]:
    p = WorkerPool(2)
    p.warm_up()
    yield p
    p.close()


def test_workers_are_forked_by_the_zygote_and_answer(pool: WorkerPool) -> None:
    zygote = pool._zygote
    assert zygote is not None and zygote.alive()
    assert len(pool._idle) == 2
    for worker in pool._idle:
        assert isinstance(worker.proc, Forked)
        assert _parent_pid(worker.proc.pid) == zygote.pid
    assert pool.compare("$2\\sqrt{2}$", "$\\sqrt{8}$", 60.0) == EQUAL


def test_a_killed_worker_is_forked_again(pool: WorkerPool) -> None:
    victim = pool._idle[-1]  # the next one borrowed
    os.kill(victim.proc.pid, signal.SIGKILL)
    assert pool.compare("$x^2-1$", "$(x-1)(x+1)$", 60.0) == EQUAL  # the call found it dead: retried
    pool.warm_up()
    assert pool.replaced == 1
    assert all(isinstance(w.proc, Forked) for w in pool._idle)
    assert victim.proc.pid not in [w.proc.pid for w in pool._idle]


def test_a_dead_zygote_is_started_again_then_given_up(pool: WorkerPool) -> None:
    for round_ in (1, 2):
        zygote = pool._zygote
        assert zygote is not None
        os.kill(zygote.pid, signal.SIGKILL)
        time.sleep(0.2)
        os.kill(
            pool._idle[-1].proc.pid, signal.SIGKILL
        )  # the next one borrowed: its replacement needs the zygote
        assert pool.compare("$\\frac{1}{2}$", "$0.5$", 60.0) == EQUAL
        pool.warm_up()
        assert pool._zygote_failures == round_
        if round_ == 1:  # started again: the replacement is forked by the new zygote
            assert pool._zygote is not None and pool._zygote.pid != zygote.pid
            assert any(
                isinstance(w.proc, Forked) and _parent_pid(w.proc.pid) == pool._zygote.pid for w in pool._idle
            )
    pool.close()  # the second new zygote, if any, ends with the pool
    assert pool._zygote is None


def test_spawned_when_the_zygote_is_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(worker_processes.ZYGOTE_ENV, "0")
    worker_processes.zygote_supported.cache_clear()
    try:
        p = WorkerPool(1)
        p.warm_up()
        try:
            assert p._zygote is None
            assert isinstance(p._idle[0].proc, Spawned)
            assert _parent_pid(p._idle[0].proc.pid) == os.getpid()
            assert p.compare("$x+1$", "$1+x$", 60.0) == EQUAL
        finally:
            p.close()
    finally:
        monkeypatch.delenv(worker_processes.ZYGOTE_ENV)
        worker_processes.zygote_supported.cache_clear()


_ORPHANS = """
import os, sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "numpy":
    import numpy  # noqa: F401  (OpenBLAS starts its threads)
if sys.argv[2] in ("loaded", "numpy"):
    import math_verify  # noqa: F401  (with sympy: this process can be forked into the zygote)
from rewards.bounded import WorkerPool
pool = WorkerPool(2)
pool.warm_up()
print(type(pool._zygote._proc).__name__, pool._zygote.pid, *[w.proc.pid for w in pool._idle], flush=True)
os._exit(0)  # no atexit, no close: as if the process were killed
"""


@pytest.mark.parametrize(
    ("imported", "zygote_kind"), [("bare", "Popen"), ("loaded", "_ForkedChild"), ("numpy", "_ForkedChild")]
)
def test_nothing_outlives_the_process_that_started_the_pool(imported: str, zygote_kind: str) -> None:
    """Either zygote (a fresh interpreter, or this process forked once it has math-verify loaded)
    and its workers end when the process that started them dies."""
    root = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", _ORPHANS, root, imported],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    kind, *rest = done.stdout.split()
    assert kind == zygote_kind
    pids = [int(p) for p in rest]
    assert len(pids) == 3
    deadline = time.monotonic() + 20
    while not all(_gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(_gone(pid) for pid in pids)


_FORKED_HERE = """
import os, select, signal, sys, time
sys.path.insert(0, sys.argv[1])
import math_verify  # noqa: F401
from rewards.bounded import EQUAL, WorkerPool
marker = sys.argv[2]
signal.signal(signal.SIGUSR1, lambda *_: open(marker, "w").close())  # this process's own handler
r, w = os.pipe()  # a pipe of this process's: its reader must see EOF once we close the writer
pool = WorkerPool(2)
pool.warm_up()
zygote = pool._zygote
assert type(zygote._proc).__name__ == "_ForkedChild", zygote._proc
assert all(open(f"/proc/{x.proc.pid}/stat").read().split(") ")[1].split()[1] == str(zygote.pid) for x in pool._idle)
assert pool.compare("$2\\sqrt{2}$", "$\\sqrt{8}$", 60.0) == EQUAL
os.close(w)
assert select.select([r], [], [], 5)[0] and os.read(r, 1) == b"", "the zygote kept the pipe open"
os.kill(zygote.pid, signal.SIGUSR1)  # default action in the zygote: it ends, our handler not run
deadline = time.monotonic() + 10
while zygote.alive() and time.monotonic() < deadline:
    time.sleep(0.05)
assert not zygote.alive() and not os.path.exists(marker)
pool.close()
print("ok")
"""


def test_a_single_threaded_process_with_math_verify_loaded_is_forked_into_the_zygote(tmp_path: Path) -> None:
    """An evaluation script that has imported math-verify and runs one thread becomes the zygote
    by forking (milliseconds instead of 0.4 s of imports). The zygote keeps none of the script's
    file descriptors (a pipe the script closes reaches EOF) and none of its signal handlers."""
    root = str(Path(__file__).resolve().parents[1])
    marker = tmp_path / "handler-ran"
    done = subprocess.run(
        [sys.executable, "-c", _FORKED_HERE, root, str(marker)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["ok"]
    assert not marker.exists()


_WHEN_FORKED = """
import os, sys, threading
sys.path.insert(0, sys.argv[1])
from rewards import worker_processes as wp
assert not wp.can_fork_here(), "math-verify not imported yet"
import math_verify  # noqa: F401
assert wp.can_fork_here()
stop = threading.Event()
helper = threading.Thread(target=stop.wait)
helper.start()
assert not wp.can_fork_here(), "a second thread"
stop.set()
helper.join()
os.environ[wp.ZYGOTE_ENV] = "fresh"
assert not wp.can_fork_here(), "told not to"
del os.environ[wp.ZYGOTE_ENV]
wp.FORK_MAX_RSS_BYTES = 1 << 20
assert not wp.can_fork_here(), "too much memory"
print("ok")
"""


def test_a_process_is_forked_into_the_zygote_only_when_loaded_single_threaded_small_and_allowed() -> None:
    root = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", _WHEN_FORKED, root], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["ok"]


_WITH_OPENBLAS = """
import ctypes, os, sys
sys.path.insert(0, sys.argv[1])
import numpy  # noqa: F401  (OpenBLAS starts its threads at import)
import math_verify  # noqa: F401
from rewards import worker_processes as wp
threads = len(os.listdir("/proc/self/task"))
if threads == 1:
    print("one-core")  # OpenBLAS started no thread of its own: nothing to tell apart
    sys.exit(0)
assert wp.openblas_server_threads() == threads - 1, (wp.openblas_server_threads(), threads)
assert wp.can_fork_here(), "only OpenBLAS's threads (it stops them itself before a fork)"
pid = os.fork()  # OpenBLAS's fork handler: this process is down to one thread until its next call
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
assert len(os.listdir("/proc/self/task")) == 1
libc = ctypes.CDLL(None)
thread = ctypes.c_ulong()
start = ctypes.cast(libc.pause, ctypes.c_void_p)  # a native thread with no Python in it, blocked
assert libc.pthread_create(ctypes.byref(thread), None, start, None) == 0
assert len(os.listdir("/proc/self/task")) == 2  # as many as before the fork: not OpenBLAS's though
assert not wp.can_fork_here(), "a thread of some other library"
print("ok")
"""


def test_openblas_threads_do_not_stop_the_fork_but_another_librarys_thread_does() -> None:
    """A script that imported numpy runs OpenBLAS's threads; OpenBLAS stops them before any fork
    (its pthread_atfork handler), so the script is still forked into the zygote. A native thread
    of another library, which nothing stops, keeps it from that."""
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    done = subprocess.run(
        [sys.executable, "-c", _WITH_OPENBLAS, root], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    if done.stdout.split() == ["one-core"]:
        pytest.skip("OpenBLAS runs no thread of its own on one core")
    assert done.stdout.split() == ["ok"]


def _cpu_s(pid: int) -> float:
    stat = worker_processes.process_stat(pid)
    assert stat is not None
    return stat[1]


def test_the_benchmark_counts_the_cpu_of_forked_and_killed_workers(pool: WorkerPool) -> None:
    """Forked workers are not our children: the benchmark's CPU column walks the process tree
    and adds what a killed worker had used (read before the kill)."""
    from tools.bench.reward import children_cpu_s

    assert pool._zygote is not None
    processes = [pool._zygote.pid, *[w.proc.pid for w in pool._idle]]
    total = children_cpu_s()
    assert total is not None
    assert total >= sum(_cpu_s(pid) for pid in processes)
    before = worker_processes.killed_workers_cpu_s()
    assert pool.compare("$(1+i)^{20000}$", "$3$", 0.5) == TIMEOUT  # sympy busy until the kill
    deadline = time.monotonic() + 20
    while worker_processes.killed_workers_cpu_s() < before + 0.05 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert worker_processes.killed_workers_cpu_s() >= before + 0.05  # it ran sympy for 0.5 s


_WITH_JEMALLOC = """
import os, sys, threading
sys.path.insert(0, sys.argv[1])
import pyarrow  # noqa: F401  (its jemalloc starts a background thread)
import math_verify  # noqa: F401
from rewards import worker_processes as wp
from rewards.bounded import EQUAL, WorkerPool
if wp.JEMALLOC_THREAD_NAME not in wp.thread_names():
    print("no-jemalloc-thread")
    sys.exit(0)
assert wp.can_fork_here(), "only jemalloc's (and OpenBLAS's) threads"
pool = WorkerPool(2)
pool.warm_up()
assert type(pool._zygote._proc).__name__ == "_ForkedChild"
assert pool.compare("$x^2+1$", "$1+x^2$", 60.0) == EQUAL
pool.close()
stop = threading.Event()
helper = threading.Thread(target=stop.wait)
helper.start()
assert not wp.can_fork_here(), "a Python thread besides"
stop.set()
helper.join()
print("ok")
"""


def test_a_script_with_pyarrows_jemalloc_thread_is_forked_into_the_zygote() -> None:
    """pandas and ``datasets`` import pyarrow, whose jemalloc runs a background thread; jemalloc
    makes a fork safe itself, so such a script is still forked into the zygote, without Python
    3.12's warning that a fork with threads may deadlock (shown here if it came)."""
    pytest.importorskip("pyarrow")
    root = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-W", "always::DeprecationWarning", "-c", _WITH_JEMALLOC, root],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    if done.stdout.split() == ["no-jemalloc-thread"]:
        pytest.skip("this pyarrow starts no jemalloc background thread")
    assert done.stdout.split() == ["ok"]
    assert "may lead to deadlocks" not in done.stderr


_LAZY_IMPORTS = """
import json, socket, sys, threading, time
sys.path.insert(0, sys.argv[1])
from rewards import _symbolic_worker as worker, _worker_zygote as zygote
idle = float(sys.argv[2])
ours, theirs = socket.socketpair()
zygote.IDLE_BEFORE_LAZY_IMPORTS_S = 0.05
def close_later():
    time.sleep(idle)
    ours.close()
threading.Thread(target=close_later, daemon=True).start()
assert zygote.serve_forks(theirs) == 0
print(json.dumps(sorted(m for m in worker.LAZY_MODULES if m in sys.modules)), file=sys.__stdout__)  # the zygote sends print to stderr
"""


@pytest.mark.parametrize("idle", [0.0, 3.0])
def test_the_zygote_loads_the_lazily_imported_modules_only_once_idle(idle: float) -> None:
    """Replacement workers forked later share what sympy and ANTLR import on first use; the pool's
    first workers are not kept waiting for it (a parent that closes at once finds none loaded)."""
    root = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", _LAZY_IMPORTS, root, str(idle)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    from rewards._symbolic_worker import LAZY_MODULES

    assert json.loads(done.stdout) == (sorted(LAZY_MODULES) if idle else [])


_EXIT_AFTER_TIMEOUT = r"""
import logging, sys
sys.path.insert(0, sys.argv[1])
logging.basicConfig(level=logging.WARNING)
from rewards.bounded import TIMEOUT, WorkerPool
pool = WorkerPool(1)
pool.warm_up()
slow = r"\begin{pmatrix} \frac{1}{\sqrt{2}} \\ \frac{i}{\sqrt{2}} \end{pmatrix}"
other = r"\begin{pmatrix} \frac{1}{\sqrt{3}} \\ \frac{i}{\sqrt{2}} \end{pmatrix}"
print(pool.compare("$" + slow + "$", "$" + other + "$", 0.005) == TIMEOUT, flush=True)
pool.close()  # at once, while the killed worker's replacement starts (as at interpreter exit)
"""


def test_closing_while_a_replacement_starts_reports_nothing() -> None:
    """A process that exits right after a timed-out comparison closes the pool under the start of
    the killed worker's replacement: that start ends quietly (no "zygote failed" warning, no
    worker spawned on its own, no "could not start" error)."""
    root = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", _EXIT_AFTER_TIMEOUT, root],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == ["True"]
    assert "zygote failed" not in done.stderr
    assert "could not start" not in done.stderr
