"""Random strings built from a test's own pieces, for never-raises checks of text rules."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence


def random_texts(
    pieces: Sequence[str], seed: int, count: int, longest: int, shortest: int = 1
) -> Iterator[str]:
    """``count`` strings, each ``shortest``..``longest`` pieces drawn with ``random.Random(seed)``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(pieces) for _ in range(rng.randint(shortest, longest)))
