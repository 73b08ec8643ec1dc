"""A whole answer written in Chinese numerals (``十五``, ``一百零八``, ``两千``), perhaps with a
measure word or unit (``十五只``, ``三个``, ``两千米``), a mixed number with 又 (``2又1/2``) or a
fraction said denominator first (``3分之1``, ``三分之一``), in Arabic digits.

Chinese primary-school graders take ``十五只`` for 15 and ``2又1/2`` for two and a half; neither
reader knows the characters, and the certain path refused ``十`` against ``10`` for certain. Only
a whole short answer is rewritten (at most :data:`MAX_CHARS` characters: numerals, then nothing or one of
:data:`MEASURE_WORDS`), never numerals inside prose (``一共``, ``统一``), so both readers see
``15只`` or ``2\\frac{1}{2}`` instead (:func:`chinese_numerals_written_out`).
"""

from __future__ import annotations

import re

MAX_CHARS = 20
_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_SECTIONS = {"万": 10**4, "亿": 10**8}
_NUMERALS = "".join((*_DIGITS, *_UNITS, *_SECTIONS))
_ANSWER_RE = re.compile(rf"\s*([{_NUMERALS}]+)\s*([\u4e00-\u9fff]{{0,3}})\s*")
MEASURE_WORDS = frozenset(
    (
        "个 只 人 袋 元 角 米 天 次 本 条 张 块 支 棵 辆 头 匹 件 台 道 题 分 岁 名 位 页 克 吨 秒 年 月 日 "
        "周 度 倍 份 组 箱 盒 瓶 杯 碗 双 对 层 行 根 颗 粒 朵 片 座 所 间 把 架 艘 部 篇 首 枚 封 套 亩 斤 "
        "升 毫升 厘米 毫米 分米 千米 公里 千克 公斤 小时 分钟 平方米 立方米 平方厘米 立方厘米 公顷"
    ).split()
)
"""Measure words and units that may follow the numerals of an answer (``十五只``, ``三千米``)."""
_MIXED_RE = re.compile(r"\s*(\d+)\s*又\s*(\d+)\s*/\s*(\d+)\s*")
_FRACTION_RE = re.compile(
    r"\s*(\d+|[零〇一二两三四五六七八九十百千]+)\s*分之\s*(\d+|[零〇一二两三四五六七八九十百千]+)\s*"
)
"""A fraction said denominator first: ``3分之1`` and ``三分之一`` are one third, ``百分之五`` five
hundredths (a percent)."""


def chinese_number(numerals: str) -> int | None:
    """The value of a run of Chinese numerals (``十五`` 15, ``一百零八`` 108, ``两千`` 2000,
    ``三万五千`` 35000), or None when it is not a well-formed number."""
    total = section = 0
    digit: int | None = None
    for ch in numerals:
        if ch in _DIGITS:
            if digit is not None and digit != 0:
                return None  # "一二": two digits in a row
            digit = _DIGITS[ch]
        elif ch in _UNITS:
            unit = _UNITS[ch]
            if digit is None:
                if unit != 10 or section:
                    return None  # "百" alone; "十" is 10 only at the start ("十五", not "二百十")
                digit = 1
            section += digit * unit
            digit = None
        else:
            section = (section + (digit or 0)) * _SECTIONS[ch]
            if section == 0:
                return None
            total += section
            section, digit = 0, None
    return total + section + (digit or 0)


def chinese_numerals_written_out(text: str) -> str:
    """``十五只`` -> ``15只``, ``十`` -> ``10``, ``2又1/2`` -> ``2\\frac{1}{2}``, ``3分之1`` and ``三分之一``
    -> ``\\frac{1}{3}``; anything else as it is."""
    if len(text) > MAX_CHARS:
        return text
    m = _MIXED_RE.fullmatch(text)
    if m:
        return f"{m.group(1)}\\frac{{{m.group(2)}}}{{{m.group(3)}}}"
    m = _FRACTION_RE.fullmatch(text)
    if m:
        below, above = (
            int(x) if x.isdigit() else 100 if x == "百" else chinese_number(x) for x in m.groups()
        )
        return text if not below or above is None else f"\\frac{{{above}}}{{{below}}}"
    m = _ANSWER_RE.fullmatch(text)
    if m is None or (m.group(2) and m.group(2) not in MEASURE_WORDS):
        return text  # "一共", "一样": words, not numbers
    value = chinese_number(m.group(1))
    return text if value is None else f"{value}{m.group(2)}"
