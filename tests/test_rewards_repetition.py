"""The Phi-4 repetition penalty (rewards/repetition.py) against a plain Counter of word n-grams,
through both its C kernel and its numpy passes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from repetition_reference import load_built_kernel, reference

from rewards import repetition_native
from rewards.phi4 import format_ok
from rewards.repetition import repetition_penalty, word_hashes


@pytest.fixture(params=["kernel", "numpy"], scope="module")
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a test with the C kernel loaded, then with none (the numpy passes)."""
    chosen = load_built_kernel() if request.param == "kernel" else None
    saved = list(repetition_native._loaded)
    repetition_native._loaded[:] = [chosen]
    yield request.param
    repetition_native._loaded[:] = saved


# Words around the 8-byte pieces the hashes read (7, 8, 9, 16, 17, 64, 65 bytes), the Python tail
# of words over 64 bytes, prefixes of one another, case and digits.
_LONG = ["consider", "considered", "considers", "x" * 16, "x" * 17, "y" * 64, "y" * 65, "z" * 200]
_WORDS = st.sampled_from(["a", "A", "ab", "so", "wait", "let_me", "abcdefg", "2", "10", *_LONG])
_SEPS = st.sampled_from([" ", "  ", ", ", "\n", ".", "$\\", "-", "(", "=", "é"])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    words=st.lists(st.tuples(_WORDS, _SEPS), max_size=120),
    lead=_SEPS,
    n=st.sampled_from([1, 2, 3, 4, 5, 6, 8, 9, 17]),
    max_count=st.sampled_from([-1, 0, 1, 2, 3, 5, 8]),
)
def test_matches_the_definition(
    backend: str, words: list[tuple[str, str]], lead: str, n: int, max_count: int
) -> None:
    text = lead + "".join(w + s for w, s in words)
    assert repetition_penalty(text, n, max_count) == pytest.approx(reference(text, n, max_count), abs=1e-12)


def _long_text(rng: random.Random, n_words: int, vocab: int, loop: str = "", loops: int = 0) -> str:
    words = [f"w{rng.randrange(vocab)}" for _ in range(n_words)]
    for _ in range(loops):
        words.insert(rng.randrange(len(words)), loop)
    return " ".join(words)


@pytest.mark.parametrize(
    ("n_words", "vocab", "loops", "max_count"),
    [
        (9000, 5000, 0, 5),  # nothing repeats: no bucket is hot
        (9000, 5000, 7, 5),  # one phrase 7 times: a few hot buckets, their keys sorted
        (9000, 5000, 5, 5),  # exactly max_count times: the top term, no frequent n-gram
        (9000, 12, 0, 5),  # a tiny vocabulary: most buckets hot, every key sorted
        (9000, 5000, 7, 2),
        (9000, 5000, 7, 0),  # every distinct n-gram is frequent: no filter
    ],
)
def test_long_responses_match_the_definition(
    backend: str, n_words: int, vocab: int, loops: int, max_count: int
) -> None:
    """Over 4,096 n-grams the counts go through the bucket filter."""
    text = _long_text(
        random.Random(n_words + vocab + loops), n_words, vocab, "wait let me check again", loops
    )
    assert repetition_penalty(text, 5, max_count) == pytest.approx(reference(text, 5, max_count), abs=1e-12)


@pytest.mark.parametrize("max_count", [2**63, 10**30, -(2**63) - 1, -(10**30), 2**31, -(2**31)])
def test_max_counts_beyond_64_bits(backend: str, max_count: int) -> None:
    """reward_kwargs may hold any int: none wraps around on its way to the kernel."""
    text = "wait let me check again " * 30 + "done"
    assert repetition_penalty(text, 5, max_count) == pytest.approx(reference(text, 5, max_count), abs=1e-12)


def test_text_whose_lowercase_has_more_words_than_it_has_characters_over_two(backend: str) -> None:
    """ "İ".lower() is "i" and a combining dot (no word character): 100,000 "İ" are 100,000 words."""
    text = "İ" * 100_000
    with ThreadPoolExecutor(1) as fresh:  # a new thread: work arrays sized for this text's bytes
        got = fresh.submit(repetition_penalty, text).result()
    assert got == pytest.approx(reference(text), abs=1e-12) == -1.0


def test_equal_words_equal_hashes_distinct_words_distinct() -> None:
    words = ["a", "b", "ab", "ba", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh_", *_LONG]
    words += [w.upper() for w in words] + ["w" * k for k in range(1, 150)]
    text = " ".join(words)
    got = word_hashes(text)
    lower = [w.lower() for w in words]
    assert len(got) == len(words)
    assert len(set(got.tolist())) == len(set(lower))
    first = {}
    for w, h in zip(lower, got.tolist(), strict=True):
        assert first.setdefault(w, h) == h


def test_hashes_do_not_depend_on_the_neighbours() -> None:
    """A word's hash is the same whatever follows it within its 8-byte read."""
    a = word_hashes("cat dog")
    b = word_hashes("cat,dogs")
    c = word_hashes("  cat")
    assert a[0] == b[0] == c[0]
    assert a[1] != b[1]
    assert word_hashes("").size == word_hashes(" ,. ").size == 0
    assert isinstance(word_hashes("Über alles"), np.ndarray)


def test_format_ok_counts_the_tags_past_many_angle_brackets() -> None:
    """Past 16 ``<`` format_ok counts the tags instead of looking at each ``<``."""
    body = " x < 1 " * 40
    assert format_ok("<think>" + body + "</think> 1")
    assert not format_ok("<think>" + body + "<think></think> 1")
    assert not format_ok("<think>" + body + "</think></think> 1")
    assert not format_ok(body + "</think>" + body + "<think>")
