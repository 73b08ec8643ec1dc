"""The repetition penalty's C kernel (``rewards/native/repetition.c``): build, load, call.

``make native`` (and, when they can, ``make dev``, ``make env-*`` and the tests) compiles the
kernel with the system C compiler into ``rewards/native/build/``, under a name that carries the
hash of the source and flags and the machine (``repetition-<sha>-x86_64.so``): a changed source
or another architecture sharing the checkout never loads a stale or foreign library. Where no
library loads (not built, another architecture, ``GRPO_REWARD_NATIVE=0``), :func:`kernel`
returns None and :mod:`rewards.repetition` uses its numpy passes (same penalty, about 3x the
time), logging that once.

Run ``python -m rewards.repetition_native`` to build it (``--strict``: exit 1 when it cannot be
built; without it, say why and exit 0, so an env build goes on).
"""

from __future__ import annotations

import argparse
import codecs
import ctypes
import functools
import hashlib
import logging
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

SOURCE = Path(__file__).resolve().parent / "native" / "repetition.c"
BUILD_DIR = SOURCE.parent / "build"
# No -Werror here (a newer compiler's new warning must not cost users the kernel); the tests
# compile with it.
CFLAGS = ("-O2", "-std=c11", "-fPIC", "-shared", "-Wall", "-Wextra")
DISABLE_ENV = "GRPO_REWARD_NATIVE"  # "0": never load the kernel (the numpy passes run)
_SCRATCH_MAX = 1 << 20  # text bytes up to which work arrays are kept per thread
_FIRST_SLOT_BITS = 12  # counted n-grams' table: 4,096 slots, grown for texts with more candidates


class NativeBuildError(RuntimeError):
    """The C compiler failed on the kernel's source."""


def library_path(source: Path = SOURCE) -> Path:
    """Where the library built from ``source`` (with ``CFLAGS``) for this machine's architecture
    lives."""
    digest = hashlib.sha256(source.read_bytes() + " ".join(CFLAGS).encode()).hexdigest()[:16]
    return BUILD_DIR / f"repetition-{digest}-{platform.machine() or 'unknown'}.so"


def find_compiler() -> str | None:
    """``$CC``, else the first of cc, gcc, clang on PATH."""
    names = [os.environ["CC"]] if os.environ.get("CC") else ["cc", "gcc", "clang"]
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def build(compiler: str | None = None) -> Path:
    """Compiles the kernel if its library is missing; returns the library's path.

    Raises FileNotFoundError without a compiler and NativeBuildError when compiling fails. The
    library is written under a temporary name and renamed, so a concurrent load never sees half
    a file."""
    target = library_path()
    if target.exists():
        return target
    cc = compiler or find_compiler()
    if cc is None:
        raise FileNotFoundError("no C compiler (set CC, or install cc/gcc/clang)")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".repetition-", suffix=".so", dir=target.parent)
    os.close(fd)
    try:
        done = subprocess.run(
            [cc, *CFLAGS, "-o", tmp, str(SOURCE)], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise NativeBuildError(
                f"{cc} failed on {SOURCE} (exit {done.returncode}):\n{done.stderr.strip()}"
            )
        os.replace(tmp, target)
        for stale in target.parent.glob(f"repetition-*-{platform.machine() or 'unknown'}.so"):
            if stale != target:  # an older source's library (a process that loaded it keeps it)
                stale.unlink(missing_ok=True)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


_CAPITAL_SIGMA = "\u03a3"  # lowercased to a final or a medial sigma by its neighbours
_ERRORS = "grpo-reward-word-bytes"  # the codecs error handler below
_runs = threading.local()  # .left: non-ASCII runs this encode may still map


class _TooManyRuns(Exception):
    """A text with this many non-ASCII runs is split faster by ``re`` (one Python call a run)."""


@functools.lru_cache(maxsize=8192)
def _lowercase_word_bytes(char: str) -> bytes:
    """``char.lower()`` in UTF-8, its non-ASCII characters that are not ``\\w`` (``str.isalnum``)
    as spaces: the words of the text are then its runs of ASCII word bytes and non-ASCII bytes."""
    return "".join(c if c.isascii() or c.isalnum() else " " for c in char.lower()).encode("utf-8")


def _map_run(err: UnicodeError) -> tuple[bytes, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    _runs.left -= 1
    if _runs.left < 0:
        raise _TooManyRuns
    return b"".join(map(_lowercase_word_bytes, err.object[err.start : err.end])), err.end


@functools.cache
def _register_errors() -> None:
    codecs.register_error(_ERRORS, _map_run)


def word_bytes(text: str) -> bytes | None:
    """``text`` for the kernel: ASCII as it is, each non-ASCII character as its lowercase in UTF-8
    with non-word characters as spaces (the ASCII encoder in C, one Python call per run of
    non-ASCII characters), so that its words are those of ``re.findall(r"\\w+", text.lower())``.
    None for a text with a capital sigma (``str.lower`` reads its neighbours for that one) or
    with more than one run per 32 characters (``re`` splits those faster)."""
    if text.isascii():
        return text.encode("ascii")
    if _CAPITAL_SIGMA in text:
        return None
    _register_errors()
    _runs.left = max(64, len(text) // 32)
    try:
        return text.encode("ascii", _ERRORS)
    except _TooManyRuns:
        return None


class _Scratch:
    """Per-thread work arrays for texts of up to ``n_bytes`` bytes (numpy, passed as pointers)."""

    def __init__(self, n_bytes: int) -> None:
        import numpy as np

        self.capacity = n_bytes
        self.hashes = np.empty(n_bytes // 2 + 2, dtype=np.uint64)
        self.keys = np.empty_like(self.hashes)
        bits = _bit_length(self.keys.size)
        self.buckets = np.empty(1 << max(4, bits - 1), dtype=np.uint32)
        self.ptr = {name: getattr(self, name).ctypes.data for name in ("hashes", "keys", "buckets")}
        self.grow_slots(_FIRST_SLOT_BITS)

    def grow_slots(self, bits: int) -> None:
        """Room for ``1 << bits`` counted n-grams (the candidates of a text that repeats itself)."""
        import numpy as np

        self.slot_bits = bits
        self.slot_keys = np.empty(1 << bits, dtype=np.uint64)
        self.slot_counts = np.empty(1 << bits, dtype=np.uint32)
        self.ptr.update(slot_keys=self.slot_keys.ctypes.data, slot_counts=self.slot_counts.ctypes.data)


def _bit_length(n: int) -> int:
    return int(n).bit_length()


class Kernel:
    """The loaded library's two functions, with per-thread work arrays."""

    def __init__(self, lib: ctypes.CDLL, path: Path) -> None:
        self.path = path
        i64, ptr = ctypes.c_int64, ctypes.c_void_p
        self._hash = lib.rep_word_hashes
        self._hash.restype = i64
        self._hash.argtypes = [ctypes.c_char_p, i64, ptr]
        self._count = lib.rep_ngram_counts
        self._count.restype = i64
        self._count.argtypes = [ptr, i64, i64, i64, ptr, ptr, i64, ptr, ptr, i64, ctypes.POINTER(i64)]
        self._local = threading.local()

    def _scratch(self, n_bytes: int) -> _Scratch:
        if n_bytes > _SCRATCH_MAX:  # rare huge inputs: fresh arrays, so no thread keeps holding them
            return _Scratch(n_bytes)
        scratch: _Scratch | None = getattr(self._local, "scratch", None)
        if scratch is None or scratch.capacity < n_bytes:
            scratch = _Scratch(max(n_bytes, 1 << 16))
            self._local.scratch = scratch
        return scratch

    def word_hashes(self, text: str) -> Any | None:
        """Hashes of the lowercase ``\\w+`` words of ``text`` (a view of this thread's work array,
        valid until its next call); None when :func:`word_bytes` leaves the text to ``re``."""
        raw = word_bytes(text)
        if raw is None:
            return None
        scratch = self._scratch(len(raw))
        n_words = self._hash(raw, len(raw), scratch.ptr["hashes"])
        return scratch.hashes[:n_words]

    def ngram_counts(self, hashes: Any, ngram: int, max_count: int) -> tuple[int, int]:
        """``(top, frequent)`` over the ``ngram``-grams of ``hashes`` (``len(hashes) >= ngram >= 1``):
        the highest count among n-grams seen at least ``max(max_count, 2)`` times (every n-gram
        when ``max_count < 1``), 0 if none is, and the number of distinct n-grams seen more than
        ``max_count`` times."""
        import numpy as np

        n_words = len(hashes)
        # room for n_words keys (a text's own ASCII hashes fit the scratch they are in)
        scratch = self._scratch(max(0, 2 * n_words - 4))
        hashes = np.ascontiguousarray(hashes, dtype=np.uint64)
        m = n_words - ngram + 1
        # Same counts for any max_count beyond these (no count is below 1 or above m), and both
        # fit int64: ctypes would wrap a larger Python int silently.
        max_count = max(-1, min(max_count, m + 1))
        frequent = ctypes.c_int64(0)
        while True:
            top = self._count(
                hashes.ctypes.data,
                n_words,
                ngram,
                max_count,
                scratch.ptr["keys"],
                scratch.ptr["buckets"],
                max(4, _bit_length(m) - 1),
                scratch.ptr["slot_keys"],
                scratch.ptr["slot_counts"],
                scratch.slot_bits,
                ctypes.byref(frequent),
            )
            if top >= 0:
                break
            scratch.grow_slots(frequent.value)  # too many candidates for the slots: once per size
        return int(top), frequent.value


_lock = threading.Lock()
_loaded: list[Kernel | None] = []  # [] until the first kernel() call


def kernel() -> Kernel | None:
    """The kernel, loaded once per process; None when it is disabled, not built or does not load
    here (logged once, with the fix)."""
    if _loaded:
        return _loaded[0]
    with _lock:
        if not _loaded:
            _loaded.append(_load())
    return _loaded[0]


def _load() -> Kernel | None:
    if os.environ.get(DISABLE_ENV, "").strip() == "0":
        return None
    try:
        path = library_path()
    except OSError as e:
        logger.warning("rewards: cannot read the repetition kernel's source (%s); using numpy", e)
        return None
    if not path.exists():
        logger.warning(
            "rewards: the repetition penalty's C kernel is not built (%s); using the numpy passes "
            "(same penalty, about 3x the time). Build it with `make native` in %s.",
            path.name,
            SOURCE.parents[2],
        )
        return None
    try:
        return open_kernel(path)
    except OSError as e:
        logger.warning("rewards: %s does not load here (%s); using the numpy passes", path, e)
        return None


_SELF_TEST = ("a b A b a B", 2, 1, (3, 2))
"""(text, ngram, max_count, (top, frequent)): ``a b`` three times, ``b a`` twice."""


def open_kernel(path: Path) -> Kernel:
    """The kernel of the library at ``path``, checked on one small text; raises OSError when the
    library does not load here, lacks the kernel's functions or counts wrong."""
    try:
        loaded = Kernel(ctypes.CDLL(str(path)), path)
    except AttributeError as e:  # a symbol missing
        raise OSError(f"{path.name} is not the repetition kernel: {e}") from e
    text, ngram, max_count, expected = _SELF_TEST
    hashes = loaded.word_hashes(text)
    got = None if hashes is None else loaded.ngram_counts(hashes, ngram, max_count)
    if got != expected:
        raise OSError(f"{path.name} counts {got} on {text!r}, not {expected}: rebuild it with `make native`")
    return loaded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rewards.repetition_native", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when the kernel cannot be built (default: say why, exit 0)",
    )
    args = parser.parse_args(argv)
    try:
        path = build()
    except (FileNotFoundError, NativeBuildError, OSError) as e:
        print(f"native: {e}", file=sys.stderr)
        print(
            "native: the repetition penalty will use its numpy passes (same scores, about 3x slower)",
            file=sys.stderr,
        )
        return 1 if args.strict else 0
    print(f"native: {path.relative_to(SOURCE.parents[2])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
