"""Fullwidth ASCII forms (``２ｘ``, ``（１，２）``) read as the ASCII characters they stand for.

East Asian input methods type digits, letters and operators as the Unicode block "Halfwidth
and Fullwidth Forms" (U+FF01-U+FF5E) and the ideographic space (U+3000). No LaTeX reader
knows them, so ``２ｘ`` was refused against ``2x``. This is the part of NFKC that maps that
block; the rest of NFKC (superscripts, ligatures, circled digits) is left to the rules that
read them.
"""

from __future__ import annotations

_TABLE = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def fullwidth_as_ascii(text: str) -> str:
    """``text`` with each fullwidth form and ideographic space as its ASCII character."""
    if text.isascii():
        return text
    return text.translate(_TABLE)
