"""Named results: ``mean_fare: 34.65, is_normal: no`` answered as ``@mean_fare[34.65] @is_normal[no]``.

Data-analysis benchmarks (InfiAgent-DABench and the agents run on it) ask for several named
results and take each as ``@name[value]``; the reference lists them as ``name: value`` (or in the
same ``@name[value]`` form). Neither reader pairs them by name: math-verify compares the last
number of one with the last number of the other. :func:`named_values_of` reads the reference's
names and values, :func:`stated_value` finds what the response states for a name, and
:func:`result_pairs` pairs them for the caller to compare value by value.

The response may state more results than the reference asks for (they are not graded), in any
order. Its value for a name is the last one it states: ``@name[value]``, or, written without
brackets, ``@name value`` / ``@name: value`` / ``@namevalue`` (the value glued to the name), where
the value is the first token after the name (a number, a word; ``**bold**`` and backticks
removed). A bracketed or one-token value is *firm*: a value that differs refuses the pair. A value
followed by more words (``@count: 73 outliers were removed``) is not firm: it can only credit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "MAX_NAMES",
    "MAX_TEXT",
    "TAIL_CHARS",
    "ResultPair",
    "named_values_of",
    "result_pairs",
    "stated_value",
]

MAX_NAMES = 12
MAX_TEXT = 2000
"""A reference longer than this, or with more names, is not read as named results."""
TAIL_CHARS = 16000
"""Only the response's last characters are searched for its results (where answers are)."""

_NAME = r"[A-Za-z_][A-Za-z0-9_]{0,80}"
_REFERENCE_ITEM_RE = re.compile(rf"(?:^|,\s*)({_NAME})\s*:\s*")
_AT_NAME_RE = re.compile(rf"@({_NAME})\s*\[([^\[\]\n]{{0,300}})\]")
_MARKUP_RE = re.compile(r"\*\*|`")
_TOKEN_RE = re.compile(r"[-+]?[A-Za-z0-9_.%]+(?:e[-+]?\d+)?")
_WORD_AFTER_RE = re.compile(r"\s*[(\[,;.]?\s*[A-Za-z]{2,}")


@dataclass(frozen=True)
class ResultPair:
    name: str
    gold: str
    pred: str | None  # None: the response states no value for this name
    firm: bool  # the response's value is bracketed or a lone token


def named_values_of(reference: str) -> list[tuple[str, str]] | None:
    """``[(name, value), ...]`` of a reference written ``name: value, name: value`` or
    ``@name[value] @name[value]``; None when it is not wholly such a list."""
    text = reference.strip()
    if not text or len(text) > MAX_TEXT:
        return None
    if text.startswith("@"):
        pairs = [(m.group(1), m.group(2).strip()) for m in _AT_NAME_RE.finditer(text)]
        rest = _AT_NAME_RE.sub("", text).strip(" ,;\n")
        return pairs if pairs and not rest and _distinct(pairs) else None
    items = list(_REFERENCE_ITEM_RE.finditer(text))
    if not items or items[0].start() != 0:
        return None
    pairs = []
    for item, after in zip(items, [*items[1:], None], strict=True):
        value = text[item.end() : len(text) if after is None else after.start()].strip().rstrip(",").strip()
        if not value:
            return None
        pairs.append((item.group(1), value))
    return pairs if _distinct(pairs) else None


def _distinct(pairs: list[tuple[str, str]]) -> bool:
    names = [name.lower() for name, _ in pairs]
    return len(names) <= MAX_NAMES and len(set(names)) == len(names)


def stated_value(response: str, name: str, others: tuple[str, ...] = ()) -> tuple[str, bool] | None:
    """``(value, firm)`` the response states last for ``@name`` (see the module), or None.
    ``others``: the reference's other names (``@mean_x2`` is not ``@mean_x`` with value 2 when
    ``mean_x2`` is a name too)."""
    response = response[-TAIL_CHARS:]
    lowered = response.lower()
    at = "@" + name.lower()
    end = len(lowered)
    while True:
        start = lowered.rfind(at, 0, end)
        if start < 0:
            return None
        end = start
        rest = response[start + len(at) :]
        if rest[:1] and (rest[0].isalpha() or rest[0] == "_"):
            continue  # "@mean_fare_std" is another name
        if rest[:1].isdigit() and any(o.lower().startswith(name.lower()) and o != name for o in others):
            continue
        return _value_after(rest)


def _value_after(rest: str) -> tuple[str, bool] | None:
    rest = _MARKUP_RE.sub("", rest[:400])
    stripped = rest.lstrip(" \t:")
    if stripped.startswith("["):
        close = stripped.find("]")
        if close < 0 or "\n" in stripped[:close]:
            return None
        return stripped[1:close].strip(), True
    token = _TOKEN_RE.match(stripped)
    if token is None:
        return None
    value = token.group(0).rstrip(".")
    return value, _WORD_AFTER_RE.match(stripped[token.end() :]) is None


def result_pairs(gold: str, pred: str) -> list[ResultPair] | None:
    """The reference's named results, each with what the response states for it; None unless
    the reference is a list of named results and the response names at least one with ``@``."""
    if "@" not in pred or (":" not in gold and "@" not in gold):
        return None
    named = named_values_of(gold)
    if named is None:
        return None
    names = tuple(name for name, _ in named)
    out = []
    for name, value in named:
        stated = stated_value(pred, name, names)
        out.append(
            ResultPair(name, value, None if stated is None else stated[0], stated is not None and stated[1])
        )
    return out if any(p.pred is not None for p in out) else None
