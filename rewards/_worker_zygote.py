"""Zygote of the symbolic workers: imports sympy and math-verify once, then forks workers on demand
(``python -m rewards._worker_zygote FD``, started by :mod:`rewards.bounded`; or the reward's own
process forked, :func:`run_forked`, when that process already has them loaded and runs one thread
at the fork: :func:`rewards.worker_processes.can_fork_here`).

A worker started with ``python -m rewards._symbolic_worker`` spends about 0.4 s importing sympy,
latex2sympy and math-verify, and its first comparisons load more code. The pool replaces a worker
after every timeout (it is killed), so under answers that time out often it ran short of workers
for that long each time, and every worker of every process paid the imports again. The zygote pays
them once per pool: it imports and loads the worker's tools, then serves fork requests on a Unix
socket from the parent. Each request carries the two pipe ends the new worker uses as stdin and
stdout (``SCM_RIGHTS``); the zygote forks, the child runs the worker's loop
(:func:`rewards._symbolic_worker.serve`) on them, and the zygote answers the child's pid. A fork
takes milliseconds, and the workers share the zygote's memory pages until they write them (its
objects are frozen out of the garbage collector's reach for that). Each worker warms up as a
spawned one does (:class:`rewards._symbolic_worker.WarmUp`, in its own idle time); the zygote does
not compare warm-up pairs itself: on a machine with few cores that work competed with the first
comparisons. It only imports, once no fork request has come for half a second, the modules sympy
and ANTLR load on first use (:data:`rewards._symbolic_worker.LAZY_MODULES`, about 0.1 s), so that
a replacement forked after a timeout does not import them again.

The zygote is single-threaded (forking it is safe); ``SIGCHLD`` is ignored, so the kernel reaps
its children. It exits when the parent's end of the socket closes; its workers exit when their
stdin closes.
"""

from __future__ import annotations

import gc
import os
import select
import signal
import socket
import sys
from typing import Any, NoReturn

from rewards import _symbolic_worker as worker


def main(argv: list[str]) -> int:
    return serve_forks(socket.socket(fileno=int(argv[0])))


def serve_forks(sock: socket.socket) -> int:
    """Loads the worker's tools, then forks a worker for each request on ``sock`` until the
    parent closes its end (0) or the socket fails (1)."""
    import logging

    logging.disable(logging.WARNING)
    sys.stdout = sys.stderr  # nothing may write to the zygote's stdout
    tools = worker._load()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps forked workers
    gc.freeze()  # the collector would touch, and so copy, every page a worker shares with us
    lazy_loaded = False
    while True:
        if not lazy_loaded and not _request_within(sock, IDLE_BEFORE_LAZY_IMPORTS_S):
            worker.import_lazy_modules()  # for the workers forked from now on (replacements)
            gc.freeze()
            lazy_loaded = True
            continue
        try:
            message, fds, _, _ = socket.recv_fds(sock, 64, 2)
        except OSError:
            return 1
        if not message:  # the parent closed its end
            return 0
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            continue
        pid = os.fork()
        if pid == 0:
            _run_worker(sock, fds, tools)
        for fd in fds:
            os.close(fd)
        sock.sendall(f"{pid}\n".encode())


IDLE_BEFORE_LAZY_IMPORTS_S = 0.5
"""The zygote loads :data:`rewards._symbolic_worker.LAZY_MODULES` once no fork request has come for
this long: after the pool's first workers, so that they are not kept waiting for it."""


def _request_within(sock: socket.socket, seconds: float) -> bool:
    """Whether ``sock`` has something to read (a request, or the parent's close) within ``seconds``."""
    try:
        readable, _, _ = select.select([sock], [], [], seconds)
    except (OSError, ValueError):
        return True  # let recv_fds report the broken socket
    return bool(readable)


MAX_FD = 1 << 20
"""Above any file descriptor number in use (``closerange`` closes up to it in one system call)."""


def run_forked(sock: socket.socket) -> NoReturn:
    """In a child forked from the reward's own process (``Zygote(here=True)`` in
    :mod:`rewards.worker_processes`):
    drops what it inherited that is not the zygote's (every file descriptor but ``sock``, with
    /dev/null as stdin, stdout and stderr; Python-level signal handlers; a signal wake-up fd),
    then serves fork requests; never returns."""
    code = 1
    try:
        keep = sock.fileno()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, keep)  # a pipe the parent holds must not stay open here (EOF for its reader)
        os.closerange(keep + 1, MAX_FD)
        signal.set_wakeup_fd(-1)
        for sig in signal.valid_signals():
            try:
                if callable(signal.getsignal(sig)):
                    signal.signal(sig, signal.SIG_DFL)
            except (OSError, ValueError):  # signals that cannot be caught
                continue
        code = serve_forks(sock)
    finally:
        os._exit(code)


def _run_worker(sock: socket.socket, fds: list[int], tools: tuple[Any, Any, Any]) -> None:
    """In the forked child: the two received pipe ends become stdin and stdout, then the worker's
    loop; never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        sock.close()
        os.dup2(fds[0], 0)
        os.dup2(fds[1], 1)
        os.close(fds[0])
        os.close(fds[1])
        code = worker.serve(tools, worker.WarmUp(), worker._private_stdout())
    finally:
        os._exit(code)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
