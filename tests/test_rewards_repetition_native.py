"""The repetition penalty's C kernel (rewards/repetition_native.py, rewards/native/repetition.c):
its words are ``re``'s lowercase ``\\w+`` words, its counts are exact, it is built once per
source and machine, and without it the reward says so and runs the numpy passes."""

from __future__ import annotations

import logging
import random
import re
import shutil
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from repetition_reference import load_built_kernel, reference

from rewards import repetition, repetition_native
from rewards.repetition import repetition_penalty


@pytest.fixture(scope="module")
def kernel() -> repetition_native.Kernel:
    return load_built_kernel()


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def test_every_ascii_byte_splits_or_joins_words_as_re_does(kernel: repetition_native.Kernel) -> None:
    for code in range(128):
        text = f"ab{chr(code)}cd {chr(code)}x{chr(code)}"
        assert len(kernel.word_hashes(text)) == len(_words(text)), repr(chr(code))


def test_equal_words_equal_hashes_and_distinct_words_distinct(kernel: repetition_native.Kernel) -> None:
    """Around the 8-byte pieces (7, 8, 9, 15, 16, 17 ... bytes), case, digits, underscores, and
    every word length up to 150 at every alignment the 64-byte blocks give."""
    words = ["a", "A", "_", "a_", "_a", "0", "00", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh_"]
    words += ["x" * k for k in range(1, 150)] + ["Consider", "CONSIDERED", "considered_2"]
    rng = random.Random(3)
    for _ in range(20):
        rng.shuffle(words)
        seps = [rng.choice([" ", "  ", ",", ".\n", "-", "$\\", "(" * rng.randrange(1, 70)]) for _ in words]
        text = "".join(w + s for w, s in zip(words, seps, strict=True))
        got = kernel.word_hashes(text).tolist()
        assert len(got) == len(words)
        seen: dict[str, int] = {}
        for w, h in zip((w.lower() for w in words), got, strict=True):
            assert seen.setdefault(w, h) == h
        assert len(set(got)) == len(seen)


# Non-ASCII characters of every kind \\w and str.lower treat specially: letters with a multi-character
# or ASCII lowercase (İ, the Kelvin sign, ß stays), ligatures, combining marks (not \\w), digits
# and numerics (², ½, Arabic-Indic), CJK, symbols and dashes, no-break space, a lone surrogate.
_UNICODE = ["é", "É", "İ", "\u212a", "ß", "ẞ", "ﬁ", "\u0301", "²", "½", "٣", "数", "学", "≥", "—", "π", "Π"]
_UNICODE += ["\u00a0", "\u200d", "\ud800", "😀", "ǅ", "Ω", "\u2126"]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["ab", "AB", " ", "_", "x9", ".", *_UNICODE]), max_size=60))
def test_non_ascii_text_splits_into_the_words_of_re(
    kernel: repetition_native.Kernel, parts: list[str]
) -> None:
    text = "".join(parts)
    words = _words(text)
    got = kernel.word_hashes(text)
    assert got is not None  # no capital sigma, few runs
    got = got.tolist()
    assert len(got) == len(words)
    for i in range(len(words)):
        for j in range(i):
            assert (got[i] == got[j]) == (words[i] == words[j]), (text, words[i], words[j])


def test_non_ascii_bytes_are_not_lowercased_like_ascii(kernel: repetition_native.Kernel) -> None:
    """U+4E00 and U+4E20 differ only in bit 0x20 of a continuation byte: distinct words."""
    got = kernel.word_hashes("\u4e00 \u4e20 \u4e00 A a").tolist()
    assert got[0] == got[2] != got[1] and got[3] == got[4]


def test_texts_left_to_re_still_score_exactly(kernel: repetition_native.Kernel) -> None:
    """A capital sigma (its lowercase depends on its neighbours) and a text of many non-ASCII runs
    go to ``re``; the kernel still counts them."""
    sigma = "ΟΔΟΣ ΣΟΦΙΑ οδος σοφια " * 40
    chinese = "数学 很 有趣 " * 3000
    assert repetition_native.word_bytes(sigma) is None
    assert repetition_native.word_bytes(chinese) is None
    assert repetition_native.word_bytes(("so we check x " * 6 + "≥ 3 ") * 100) is not None  # 1 run per 88
    saved = list(repetition_native._loaded)
    repetition_native._loaded[:] = [kernel]
    try:
        for text in (sigma, chinese, "so x ≥ 3 — π is " * 500):
            assert repetition_penalty(text) == pytest.approx(reference(text), abs=1e-12)
    finally:
        repetition_native._loaded[:] = saved


@pytest.mark.parametrize("length", range(0, 140))
def test_texts_of_every_length_near_the_block_edges(kernel: repetition_native.Kernel, length: int) -> None:
    """The last bytes of a text (read past its end as zeros) end the last word correctly."""
    text = ("ab cde " * 40)[:length]
    assert len(kernel.word_hashes(text)) == len(_words(text))
    assert repetition_penalty(text, 2, 3) == pytest.approx(reference(text, 2, 3), abs=1e-12)


def test_counts_are_exact_on_many_collisions_of_the_buckets(kernel: repetition_native.Kernel) -> None:
    """A tiny vocabulary makes every bucket hot: every key goes to the exact count."""
    rng = random.Random(7)
    words = [rng.choice("abc") for _ in range(30_000)]
    hashes = kernel.word_hashes(" ".join(words)).copy()
    for n, max_count in [(1, 5), (3, 5), (5, 0), (5, -1), (8, 1)]:
        grams = Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
        top, frequent = kernel.ngram_counts(hashes, n, max_count)
        assert top == max(grams.values())
        assert frequent == sum(c > max_count for c in grams.values())
    # every n-gram was a candidate for (5, 0): the thread's slots grew past their first size
    assert kernel._local.scratch.slot_bits > repetition_native._FIRST_SLOT_BITS


def test_the_kernel_is_used_and_threads_agree(
    kernel: repetition_native.Kernel, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_numpy(*args: object) -> None:
        raise AssertionError("the numpy passes ran although the kernel is loaded")

    monkeypatch.setattr(repetition, "_counts_numpy", no_numpy)
    rng = random.Random(11)
    texts = [" ".join(f"w{rng.randrange(v)}" for _ in range(3000)) for v in (20, 200, 2000, 20000)] * 8
    saved = list(repetition_native._loaded)
    repetition_native._loaded[:] = [kernel]
    try:
        expected = [reference(t) for t in texts]
        with ThreadPoolExecutor(8) as pool:
            got = list(pool.map(repetition_penalty, texts))
    finally:
        repetition_native._loaded[:] = saved
    assert got == pytest.approx(expected, abs=1e-12)


def test_the_library_name_follows_the_source_and_the_machine(tmp_path: Path) -> None:
    copy = tmp_path / "repetition.c"
    shutil.copy(repetition_native.SOURCE, copy)
    first = repetition_native.library_path(copy)
    copy.write_text(copy.read_text() + "\n/* changed */\n")
    assert repetition_native.library_path(copy) != first
    assert first.name.endswith(f"-{__import__('platform').machine()}.so")
    assert repetition_native.library_path(repetition_native.SOURCE).parent == repetition_native.BUILD_DIR


def test_the_source_compiles_without_warnings(tmp_path: Path, kernel: repetition_native.Kernel) -> None:
    cc = repetition_native.find_compiler()
    assert cc is not None
    done = subprocess.run(
        [
            cc,
            *repetition_native.CFLAGS,
            "-Werror",
            "-o",
            str(tmp_path / "k.so"),
            str(repetition_native.SOURCE),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _compile(tmp_path: Path, name: str, source: str) -> Path:
    cc = repetition_native.find_compiler()
    assert cc is not None
    src, lib = tmp_path / f"{name}.c", tmp_path / f"{name}.so"
    src.write_text(source)
    subprocess.run([cc, *repetition_native.CFLAGS, "-o", str(lib), str(src)], check=True)
    return lib


def test_a_library_that_is_not_the_kernel_or_counts_wrong_is_refused(
    tmp_path: Path, kernel: repetition_native.Kernel
) -> None:
    foreign = _compile(tmp_path, "foreign", "int other(void) { return 1; }\n")
    with pytest.raises(OSError, match="foreign.so is not the repetition kernel"):
        repetition_native.open_kernel(foreign)
    # the kernel's source with one count off: loads, has both functions, fails the check
    source = repetition_native.SOURCE.read_text()
    wrong = source.replace("? (int64_t)top : 0;", "? (int64_t)top + 1 : 0;")
    assert wrong != source
    off = _compile(tmp_path, "off", wrong)
    with pytest.raises(OSError, match=r"off.so counts \(4, 2\).*make native"):
        repetition_native.open_kernel(off)
    assert repetition_native.open_kernel(kernel.path).path == kernel.path


def test_build_without_a_compiler_and_with_a_broken_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(repetition_native, "BUILD_DIR", tmp_path / "build")
    monkeypatch.setenv("CC", "no-such-compiler-here")
    with pytest.raises(FileNotFoundError, match="no C compiler"):
        repetition_native.build()
    assert repetition_native.main([]) == 0  # make dev and the env builds go on without it...
    assert repetition_native.main(["--strict"]) == 1  # ...make native does not
    assert "numpy passes" in capsys.readouterr().err
    false = shutil.which("false")
    assert false is not None
    with pytest.raises(repetition_native.NativeBuildError, match="repetition.c"):
        repetition_native.build(false)
    monkeypatch.setenv("CC", false)
    assert repetition_native.main([]) == 0
    assert repetition_native.main(["--strict"]) == 1
    assert "failed on" in capsys.readouterr().err
    assert not list((tmp_path / "build").iterdir())  # no half-written library left


def test_without_the_library_the_reward_says_so_once_and_still_scores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(repetition_native, "BUILD_DIR", tmp_path / "empty")
    monkeypatch.setattr(repetition_native, "_loaded", [])
    text = "wait let me check again " * 30
    with caplog.at_level(logging.WARNING, logger="rewards.repetition_native"):
        assert repetition_penalty(text) == pytest.approx(reference(text), abs=1e-12)
        assert repetition_penalty(text) == pytest.approx(reference(text), abs=1e-12)
    assert repetition_native._loaded == [None]
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1 and "make native" in messages[0]


def test_disabled_by_the_environment(
    monkeypatch: pytest.MonkeyPatch, kernel: repetition_native.Kernel
) -> None:
    monkeypatch.setattr(repetition_native, "_loaded", [])
    monkeypatch.setenv(repetition_native.DISABLE_ENV, "0")
    assert repetition_native.kernel() is None
    monkeypatch.setattr(repetition_native, "_loaded", [])
    monkeypatch.delenv(repetition_native.DISABLE_ENV)
    loaded = repetition_native.kernel()
    assert loaded is not None and loaded.path == kernel.path
