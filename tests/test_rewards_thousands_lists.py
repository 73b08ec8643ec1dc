"""Thousands commas inside a list (rewards/thousands_lists.py): a prediction with more items than
the reference is read again with some commas as thousands commas; only a reading with the
reference's items, in order, credits it, and the reference's own commas always separate items."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.thousands_lists import readings


@pytest.mark.parametrize(
    ("text", "count", "want"),
    [
        ("750,000, 350,000", 2, ["750000, 350000"]),
        ("750,000,350,000", 2, ["750000350,000", "750000,350000"]),
        ("(x,x+4000,78,000-x)", 3, ["(x,x+4000,78000-x)"]),
        ("262,144, 1,048,576", 2, ["262144, 1048576"]),
        ("1,5", 1, []),  # "5" is not a group of three
        ("0,500", 1, []),  # a group of three after 0: not a thousands comma
        ("1.5,000", 1, []),  # after a decimal's digits
        ("1, 000", 1, []),  # a space after the comma: a separator
        ("1,000", 2, []),  # no more items than wanted
    ],
)
def test_readings(text: str, count: int, want: list[str]) -> None:
    assert readings(text, count) == want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("750000,350000", "750,000, 350,000", True),
        ("750000,350000", "750,000,350,000", True),
        ("6,-24,96,-384,1536", "6, -24, 96, -384, 1,536", True),
        ("(x,x+4000,78000-x)", "\\left(x,x+4000,78,000-x\\right)", True),
        ("617", "1,234/2", True),
        ("800, 1400, 600", "1,400, 800, 600", False),  # the reference's order
        ("(8,125,2)", "(8125,2)", False),  # the reference's commas are separators
        ("(1,536)", "(1536)", False),
        ("1,-8,27,-64,125", "1,-8,27,-64125", False),
        ("750000,350000", "750,000, 350,001", False),
    ],
)
def test_thousands_commas_in_a_list(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)


def test_readings_of_many_commas_are_bounded() -> None:
    """Forty commas that could each be a thousands comma: the search stops early (no 2^40 walk)."""
    text = ",".join(["7", *["123"] * 38, "x"])
    for count in (2, 20, 35):
        assert len(readings(text, count)) <= 8
