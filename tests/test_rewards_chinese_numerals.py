"""Whole answers in Chinese numerals, with a measure word, and mixed numbers with 又
(rewards.chinese_numerals): read as digits by both readers, never inside prose."""

from __future__ import annotations

import pytest

from rewards.chinese_numerals import chinese_number, chinese_numerals_written_out
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("numerals", "value"),
    [
        ("十", 10),
        ("十五", 15),
        ("二十", 20),
        ("九十九", 99),
        ("一百零八", 108),
        ("一千零一", 1001),
        ("两千", 2000),
        ("三万五千", 35000),
        ("一亿", 10**8),
        ("零", 0),
        ("一二", None),  # two digits in a row: not a number
        ("百", None),
        ("二百十", None),
    ],
)
def test_chinese_number(numerals: str, value: int | None) -> None:
    assert chinese_number(numerals) == value


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("十五只", "15只"),
        ("十", "10"),
        ("三个", "3个"),
        ("两千元", "2000元"),
        ("2又1/2", "2\\frac{1}{2}"),
        ("一共", "一共"),  # words, not numbers
        ("一样", "一样"),
        ("二十五岁了", "二十五岁了"),  # more than a measure word after the numerals
        ("所以一共有十五只", "所以一共有十五只"),  # prose
        ("5", "5"),
    ],
)
def test_chinese_numerals_written_out(text: str, written: str) -> None:
    assert chinese_numerals_written_out(text) == written


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("15", "十五只", True),
        ("10", "十", True),
        ("16", "十五只", False),
        ("2.5", "2又1/2", True),
        ("3", "2又1/2", False),
    ],
)
def test_verdicts_with_chinese_numerals(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
