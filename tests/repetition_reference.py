"""Shared by the repetition penalty's tests: the definition word by word, and the C kernel."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rewards import repetition_native


def reference(text: str, n: int = 5, max_count: int = 5) -> float:
    """The definition, word by word."""
    words = re.findall(r"\w+", text.lower())
    if n < 1 or len(words) < n:
        return 0.0
    grams = Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    top = max(grams.values())
    if top <= 1:
        return 0.0
    frequent = sum(1 for c in grams.values() if c > max_count) / (len(words) - n + 1)
    top_term = top / (len(words) / n) if top >= max_count else 0.0
    penalty = min(1.0, max(frequent, top_term))
    return -penalty if penalty > 0 else 0.0


def load_built_kernel() -> repetition_native.Kernel:
    """The C kernel, built if needed (as ``make native`` does); skips only without a C compiler."""
    if repetition_native.find_compiler() is None:
        pytest.skip("no C compiler here: the kernel cannot be built (the numpy passes are tested)")
    path = repetition_native.build()
    return repetition_native.open_kernel(path)
