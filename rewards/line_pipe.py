"""Lines from a pipe, with a timeout: how the reward's parent and its symbolic workers read each
other (:mod:`rewards.bounded`, :mod:`rewards._symbolic_worker`).

It reads the file descriptor with ``os.read`` and keeps its own buffer, so ``select`` tells the
truth about what is waiting (a Python file object may hold a line in its buffer that ``select``
cannot see).
"""

from __future__ import annotations

import os
import select
import time


class LineReader:
    """Newline-terminated lines from the file descriptor ``fd``."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buf = bytearray()

    def line(self, timeout: float | None) -> bytes | None:
        """The next line, without its newline; None when no whole line arrives within ``timeout``
        seconds (0: only what is waiting now; None: as long as it takes). Raises EOFError at the
        end of the input (a last line without a newline is returned first)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                got = bytes(self._buf[:nl])
                del self._buf[: nl + 1]
                return got
            if deadline is not None:
                remaining = deadline - time.monotonic()
                readable, _, _ = select.select([self.fd], [], [], max(0.0, remaining))
                if not readable:
                    return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                if self._buf:
                    got = bytes(self._buf)
                    self._buf.clear()
                    return got
                raise EOFError("the other end closed the pipe")
            self._buf.extend(chunk)
