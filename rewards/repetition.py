"""The repetition penalty of the Phi-4-reasoning reward: how often a response repeats its n-grams.

Words are the lowercase ``\\w+`` runs of the text; an n-gram is ``n`` consecutive words (5 by
default). With ``top`` the highest n-gram count and ``n_frequent`` the number of distinct n-grams
seen more than ``max_count`` times (5 by default):
``R_rep = -max(n_frequent / n_ngrams, top / (n_words / n))``, the second term only when
``top >= max_count``; clipped to ``[-1, 0]``; exactly 0 when no n-gram repeats or there are fewer
than ``n`` words.

It runs on every response of a GRPO batch (20,000 words and more), so it is counted by the C
kernel of :mod:`rewards.repetition_native` (``make native``; about 3x faster) where it is built,
and otherwise without a Python loop over the words, in four numpy passes (same penalty):

1. **Word hashes** (ASCII text): the text is translated so that word bytes are lowercase and every
   other byte a space; each word's first 8 bytes are read as one little-endian integer at its start,
   and the bytes after its first space are cleared with a branch-free bit trick (no search for the
   word's end). Words of 8 bytes or more add their next 8 bytes the same way, up to 64 bytes; the
   rest of a longer word (rare) is hashed by Python. A 64-bit mixer (splitmix64's) finishes each
   hash. Words under 8 bytes get distinct hashes (the mixer is a bijection). Other text goes
   through ``re`` and Python's ``hash``.
2. **N-gram keys**: ``sum_j h[i+j] * P**(n-1-j)`` modulo 2**64 for every ``i``, built by doubling
   (the keys of ``2b`` words from two keys of ``b`` words), so ``log2(n)`` passes for any ``n``.
3. **Candidates**: only n-grams seen at least ``max_count`` times can change the penalty. The keys
   are counted per bucket of their top bits (one ``bincount``); a key in a bucket with fewer
   hits cannot reach ``max_count`` and is dropped.
4. **Counts**: the candidates are sorted and their runs counted.

Two different n-grams share a key with probability about ``n_words**2 / 2**65`` (1e-11 for
20,000 words), which at worst miscounts one n-gram. The work arrays are kept per thread and
reused (fresh arrays of this size page-fault on every call, which cost more than the passes).

numpy is imported with this module, not by the first call: in a process that had not imported it,
the first calls of 16 threads queued on its import (1.2-1.3 s with a cold page cache, over twice
a 0.5 s bound).
"""

from __future__ import annotations

import re
import threading
from typing import Any

import numpy as np

from rewards.repetition_native import Kernel, kernel

_WORD_RE = re.compile(r"\w+")
_WORD_BYTES = bytes(  # bytes.translate table: ASCII word characters lowercased, the rest spaces
    (c + 32 if 65 <= c <= 90 else c) if chr(c).isascii() and (chr(c).isalnum() or c == 95) else 32
    for c in range(256)
)
_SPACE = 32
_CHUNKS = 8  # 8-byte pieces of a word read with numpy; the rest of a longer word: Python's hash
_K = 0x9E3779B97F4A7C15  # odd: joins a long word's pieces, h = h * K + piece
_P = 0x100000001B3  # odd: the n-gram keys' polynomial base
_MASK64 = (1 << 64) - 1
_SCRATCH_MAX = 1 << 20  # text bytes up to which work arrays are kept (18 bytes each: 18 MiB a thread)
_scratch = threading.local()


class _Work:
    """Per-call work arrays: ``flags`` (2 rows of booleans, one per text byte) and ``words`` (4 rows
    of uint64, one per word: the hashes, two work rows, the n-gram keys). Kept per thread up to
    ``_SCRATCH_MAX`` text bytes."""

    def __init__(self, n_bytes: int) -> None:
        self.capacity = n_bytes
        self.flags = np.empty((2, n_bytes + 1), dtype=bool)
        self.words = np.empty((4, n_bytes // 2 + 2), dtype=np.uint64)  # a word takes 2 bytes or more


def _work(n_bytes: int) -> _Work:
    if n_bytes > _SCRATCH_MAX:  # rare huge inputs: fresh arrays, so no thread keeps holding them
        return _Work(n_bytes)
    work: _Work | None = getattr(_scratch, "work", None)
    if work is None or work.capacity < n_bytes:
        work = _Work(max(n_bytes, 1 << 16))
        _scratch.work = work
    return work


def _mix64(x: Any, tmp: Any) -> None:
    """splitmix64's finalizer, in place (``tmp``: a work array of the same length)."""
    np.right_shift(x, np.uint64(30), out=tmp)
    x ^= tmp
    x *= np.uint64(0xBF58476D1CE4E5B9)
    np.right_shift(x, np.uint64(27), out=tmp)
    x ^= tmp
    x *= np.uint64(0x94D049BB133111EB)
    np.right_shift(x, np.uint64(31), out=tmp)
    x ^= tmp


_HIGHS = 0x8080808080808080
_WORD_BITS = 0x5050505050505050  # each word byte has 0x10 or 0x40 set; a space (0x20) neither


def _keep_word_bytes(v: Any, tmp: Any, first: Any) -> Any:
    """Keeps, in place, the bytes of each 8-byte piece ``v`` up to its first space (and 0x20 for
    that space, which ends every short word alike); returns which pieces had no space (the word
    goes on).

    Bytes are a space or a word byte (after ``_WORD_BYTES``): ``0x80..80 - (v & 0x50..50)`` has,
    byte by byte without borrows, the high bit set exactly at the spaces. Its lowest set bit,
    ``1 << (8i + 7)`` for the first space at byte ``i``, minus 1 is the mask of the bytes before
    it (and 7 bits of the space); no space gives 0, whose mask ``0 - 1`` keeps all 8 bytes.
    ``tmp`` and ``first``: work arrays of ``v``'s length."""
    np.bitwise_and(v, np.uint64(_WORD_BITS), out=tmp)
    np.subtract(np.uint64(_HIGHS), tmp, out=tmp)
    tmp &= np.uint64(_HIGHS)  # high bits at the spaces
    np.subtract(np.uint64(0), tmp, out=first)
    first &= tmp  # the lowest set bit, or 0
    full = first == 0
    first -= np.uint64(1)
    v &= first
    return full


def _ascii_word_hashes(text: str, work: _Work) -> Any:
    """Hashes of the words of ASCII ``text`` (a view into ``work.words[0]``)."""
    raw = text.encode("ascii").translate(_WORD_BYTES)
    n = len(raw)
    buf = b" " + raw + b" " * 8  # a space before the first word; every 8-byte read stays inside
    data = np.frombuffer(buf, dtype=np.uint8)
    space = work.flags[0, : n + 1]
    np.equal(data[: n + 1], _SPACE, out=space)
    begins = work.flags[1, :n]
    np.greater(space[:-1], space[1:], out=begins)  # a space, then a word byte
    starts = np.flatnonzero(begins)
    starts += 1  # positions in buf
    nw = starts.size
    h, tmp = work.words[0, :nw], work.words[1, :nw]
    if nw == 0:
        return h
    pieces = np.ndarray((n + 2,), dtype="<u8", buffer=buf, strides=(1,))  # pieces[i] = buf[i:i+8]
    np.take(pieces, starts, out=h)
    going = np.flatnonzero(_keep_word_bytes(h, tmp, work.words[2, :nw]))
    offset = 8
    while going.size and offset < 8 * _CHUNKS:
        piece = pieces[starts[going] + offset]
        full = _keep_word_bytes(piece, np.empty_like(piece), np.empty_like(piece))
        _join(h, going, piece)
        going = going[full]
        offset += 8
    if going.size:  # words over 64 bytes: the rest of each in one Python hash (at most n/64 words)
        rest = [hash(buf[p : buf.index(b" ", p)]) & _MASK64 for p in (starts[going] + offset).tolist()]
        _join(h, going, np.array(rest, dtype=np.uint64))
    _mix64(h, tmp)
    return h


def _join(h: Any, going: Any, piece: Any) -> None:
    """``h[going] = h[going] * K + piece``: the next piece of the words at ``going``."""
    joined = h[going]
    joined *= np.uint64(_K)
    joined += piece
    h[going] = joined


def word_hashes(text: str, work: _Work | None = None) -> Any:
    """64-bit hashes of the lowercase ``\\w+`` words of ``text``, in order (numpy uint64 array;
    equal words, equal hashes). With ``work``, a view into its arrays."""
    if not text.isascii():
        return _unicode_word_hashes(text)
    return _ascii_word_hashes(text, work if work is not None else _Work(len(text)))


def _ngram_keys(h: Any, n: int, work: _Work) -> Any:
    """``sum_j h[i+j] * P**(n-1-j)`` modulo 2**64 for ``i = 0 .. len(h) - n`` (a view into
    ``work.words[3]``). By doubling: ``K_{a+b}[i] = K_a[i] * P**b + K_b[i+a]``, so ``result``
    (the keys of the first ``covered`` words) takes ``block`` (keys of ``b`` words, ``b`` a power
    of two) for every bit of ``n``."""
    total = len(h)
    result: Any = None
    covered = 0
    block, b = h, 1
    rows = (work.words[1], work.words[2])  # the doubled blocks alternate between these (free after hashing)
    doublings = 0
    bits = n
    while True:
        if bits & 1:
            size = total - (covered + b) + 1
            if result is None:
                result = work.words[3, :size]
                result[:] = block[:size]
            else:
                result = result[:size]
                result *= np.uint64(pow(_P, b, 1 << 64))
                result += block[covered : covered + size]
            covered += b
        bits >>= 1
        if not bits:
            return result
        size = total - 2 * b + 1
        doubled = rows[doublings % 2][:size]
        np.multiply(block[:size], np.uint64(pow(_P, b, 1 << 64)), out=doubled)
        doubled += block[b : b + size]
        block, b = doubled, 2 * b
        doublings += 1


def _counts_of_repeated(keys: Any, at_least: int, work: _Work) -> Any:
    """The counts of the distinct values of ``keys`` seen at least ``at_least`` times (any order;
    ``keys`` may be reordered)."""
    m = len(keys)
    if at_least > 1 and m >= 1 << 12:
        bits = m.bit_length() - 1  # about m/2 .. m buckets: 1 key per bucket on average
        bucket = np.right_shift(keys, np.uint64(64 - bits), out=work.words[1, :m]).view(np.int64)
        hot = np.bincount(bucket, minlength=1 << bits) >= at_least
        chosen = hot[bucket]
        n_chosen = int(np.count_nonzero(chosen))
        if n_chosen == 0:
            return np.zeros(0, dtype=np.int64)
        if n_chosen < m // 2:
            keys = keys[np.flatnonzero(chosen)]
            m = n_chosen
    if m == 0:
        return np.zeros(0, dtype=np.int64)
    keys.sort()
    boundaries = np.flatnonzero(keys[1:] != keys[:-1])
    edges = np.concatenate(([0], boundaries + 1, [m]))
    counts = np.diff(edges)
    return counts[counts >= at_least] if at_least > 1 else counts


def _unicode_word_hashes(text: str) -> Any:
    words = _WORD_RE.findall(text.lower())
    return np.fromiter(map(hash, words), dtype=np.int64, count=len(words)).view(np.uint64)


def _counts_numpy(text: str, ngram_size: int, max_count: int) -> tuple[int, int, int]:
    """``(n_words, top, frequent)`` by the numpy passes (see :func:`_counts_native`)."""
    work = _work(len(text))
    hashes = word_hashes(text, work)
    n_words = len(hashes)
    if n_words < ngram_size:
        return n_words, 0, 0
    if work.words.shape[1] < n_words:  # lowercasing made more words than bytes allow ("İ" -> "i̇")
        work = _work(2 * n_words)
    counts = _counts_of_repeated(_ngram_keys(hashes, ngram_size, work), _at_least(max_count), work)
    top = int(counts.max()) if counts.size else 0
    return n_words, top, int((counts > max_count).sum())


def _counts_native(text: str, ngram_size: int, max_count: int, native: Kernel) -> tuple[int, int, int]:
    """``(n_words, top, frequent)``: the number of words, the highest count among n-grams seen at
    least ``_at_least(max_count)`` times (0 if none is) and the number of distinct n-grams seen
    more than ``max_count`` times, by the C kernel (which hashes the words too, but for a text
    with a capital sigma)."""
    hashes = native.word_hashes(text)
    if hashes is None:
        hashes = _unicode_word_hashes(text)
    n_words = len(hashes)
    if n_words < ngram_size:
        return n_words, 0, 0
    top, frequent = native.ngram_counts(hashes, ngram_size, max_count)
    return n_words, top, frequent


def _at_least(max_count: int) -> int:
    """Only n-grams seen this often count: top below max_count and no frequent n-gram give 0, and
    top <= 1 gives 0; with max_count <= 0 every distinct n-gram is frequent."""
    return max(max_count, 2) if max_count >= 1 else 1


def repetition_penalty(text: str, ngram_size: int = 5, max_count: int = 5) -> float:
    """``R_rep`` in ``[-1, 0]`` (see the module docstring)."""
    if ngram_size < 1:
        return 0.0
    native = kernel()
    if native is not None:
        n_words, top, frequent = _counts_native(text, ngram_size, max_count, native)
    else:
        n_words, top, frequent = _counts_numpy(text, ngram_size, max_count)
    if n_words < ngram_size or top <= 1:
        return 0.0
    term_frequent = frequent / (n_words - ngram_size + 1)
    term_top = top / (n_words / ngram_size) if top >= max_count else 0.0
    penalty = min(1.0, max(term_frequent, term_top))
    return -penalty if penalty > 0 else 0.0
