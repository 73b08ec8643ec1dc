"""rewards.line_pipe.LineReader: lines from a pipe with a timeout, as the reward's parent and its
symbolic workers read each other."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

from rewards.line_pipe import LineReader


@pytest.fixture
def pipe() -> Iterator[tuple[LineReader, int]]:
    read_end, write_end = os.pipe()
    try:
        yield LineReader(read_end), write_end
    finally:
        os.close(read_end)
        try:
            os.close(write_end)
        except OSError:
            pass


def test_lines_split_and_joined_across_writes(pipe: tuple[LineReader, int]) -> None:
    reader, w = pipe
    os.write(w, b'{"a": 1}\n{"b"')
    assert reader.line(1.0) == b'{"a": 1}'
    assert reader.line(0.0) is None  # half a line waits: not a line yet
    os.write(w, b": 2}\n\n")
    assert reader.line(0.0) == b'{"b": 2}'
    assert reader.line(0.0) == b""  # an empty line is a line


def test_timeout_returns_none_in_about_that_time(pipe: tuple[LineReader, int]) -> None:
    reader, _ = pipe
    start = time.monotonic()
    assert reader.line(0.2) is None
    assert 0.15 <= time.monotonic() - start < 2.0


def test_without_timeout_it_waits_for_the_line(pipe: tuple[LineReader, int]) -> None:
    reader, w = pipe
    threading.Timer(0.2, lambda: os.write(w, b"late\n")).start()
    assert reader.line(None) == b"late"


def test_end_of_input(pipe: tuple[LineReader, int]) -> None:
    reader, w = pipe
    os.write(w, b"last without newline")
    os.close(w)
    assert reader.line(1.0) == b"last without newline"
    with pytest.raises(EOFError):
        reader.line(1.0)
    with pytest.raises(EOFError):
        reader.line(None)
