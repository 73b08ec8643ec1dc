"""The symbolic worker's number literals (rewards/number_literals.py): latex2sympy's numbers built
without sympy's expression parser must be the very numbers sympy builds (type, value, precision),
and every parse latex2sympy makes with the hook must be the one it makes without it (so every
verdict stays math-verify's)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sympy
from test_rewards_worker_parsing import _corpus, _parse, parses_with_and_without

from rewards.latex_prediction import install_two_stage_parsing
from rewards.number_literals import install_number_literals, number_from_literal

latex2sympy2 = pytest.importorskip("latex2sympy2_extended.latex2sympy2")


def _literals() -> list[str]:
    rng = random.Random(14)
    out = ["0", "00", "3", "216", "1000.99", "1000.", "0.", ".5", "007.5", "00.5", "0.000"]
    out += ["123456789012345678901234567890", "3.14159265358979323846264338327950288419716939937510"]
    for _ in range(300):
        whole = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 30)))
        part = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 30)))
        out += [whole, f"{whole}.{part}", f".{part or '0'}"]
    return out


def _sympy_number(text: str) -> sympy.Number | None:
    try:
        return sympy.Number(text)
    except Exception:  # sympy refuses it: the hook must not build one either
        return None


def _described(number: sympy.Number | None) -> tuple[str, str, object] | None:
    if number is None:
        return None
    return (type(number).__name__, sympy.srepr(number), getattr(number, "_prec", None))


def test_literals_are_the_numbers_sympy_builds() -> None:
    """Type, value and precision; where sympy refuses a literal (``007``: Python reads a leading
    zero as an error) the hook builds nothing either."""
    literals = _literals()
    differ = [s for s in literals if _described(number_from_literal(s)) != _described(_sympy_number(s))]
    assert not differ, differ
    assert sum(number_from_literal(s) is not None for s in literals) > len(literals) * 3 // 4


@pytest.mark.parametrize(
    "text", ["-3", "+3", "1e5", "1E-3", "0x10", "1_000", "٣", "３", "1.2.3", "", " 3", "3 ", "2i"]
)
def test_other_texts_are_left_to_sympy(text: str) -> None:
    assert number_from_literal(text) is None


@pytest.fixture
def literals() -> Iterator[Callable[[], None]]:
    """The hook installed (its restore function given), over the worker's two-stage parsing."""
    restore_parsing = install_two_stage_parsing()
    restore = install_number_literals()
    assert restore is not None, "latex2sympy's parse_number is missing: the worker would parse numbers slowly"
    try:
        yield restore
    finally:
        restore()
        if restore_parsing is not None:
            restore_parsing()


def test_parses_with_literals_are_latex2sympys_own(
    literals: Callable[[], None], shared_fixtures: Path
) -> None:
    corpus = _corpus(shared_fixtures) + [
        "1,000,000",
        "0012",
        "0.25",
        "3.",
        "12.5\\%",
        "10^{100}",
        "2\\frac{1}{2}",
    ]
    plain, differ = parses_with_and_without(literals, install_number_literals, corpus)
    assert not differ, differ
    assert sum("Integer(" in v or "Float(" in v for v in plain.values()) > len(corpus) // 3


def test_numbers_no_longer_go_through_sympys_parser(
    literals: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The speed-up itself: ``216 + 3.5 x`` makes no call of sympy's expression parser (two before)."""
    from sympy.parsing import sympy_parser

    calls: list[str] = []
    real = sympy_parser.parse_expr

    def counted(text: str, *args: object, **kwargs: object) -> object:
        calls.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sympy_parser, "parse_expr", counted)
    assert _parse("216 + 3.5 x") == _parse("216 + 3.5x")
    assert calls == []
    literals()
    _parse("216 + 3.5 x")
    assert sorted(calls) == ["216", "3.5"]
