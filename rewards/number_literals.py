"""Number literals in latex2sympy without sympy's expression parser.

latex2sympy turns every number it reads (``3``, ``216``, ``1000.99``) into a sympy number with
``sympy.Number(text)``, and sympy reads a string through ``sympify``: its tokenizer, its
transformations, ``exec("from sympy import *")`` into a fresh namespace and ``eval`` — about
0.3 ms per number, a fifth of the symbolic worker's time on the first two rebuilt evaluation
rounds (391 of its 394 string parses there were such literals). A literal of ASCII digits, with
at most one decimal point, is what that parse turns into ``Integer(int(text))`` or
``Float(text)``: :func:`install_number_literals` builds those directly and leaves every other
text (signs, exponents, other digits) to sympy as before, so latex2sympy's result is the same
object, with the same precision, either way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rewards.library_hooks import replace_attribute, unhooked

_INTEGER_RE = re.compile(r"0+|[1-9][0-9]*")  # Python reads 007 as an error, as sympy does
_DECIMAL_RE = re.compile(r"[0-9]+\.[0-9]*|\.[0-9]+")


def number_from_literal(text: str) -> Any | None:
    """``sympy.Number(text)`` for an ASCII integer literal (no leading zero) or decimal literal
    (no sign, no exponent), built directly; None for any other text."""
    import sympy

    if _INTEGER_RE.fullmatch(text):
        try:
            return sympy.Integer(int(text))
        except ValueError:  # beyond Python's digit limit for int(): sympy's own path decides
            return None
    if _DECIMAL_RE.fullmatch(text):
        return sympy.Float(text)
    return None


def install_number_literals() -> Callable[[], None] | None:
    """Make latex2sympy's ``parse_number`` build plain literals directly (see the module
    docstring). Returns a function that restores the original, or None when latex2sympy lacks the
    hook or it is installed already."""
    try:
        from latex2sympy2_extended.latex2sympy2 import _Latex2Sympy
    except ImportError:
        return None
    original = unhooked(_Latex2Sympy, "parse_number", "literals")
    if original is None:
        return None

    def parse_number(self: Any, text: str) -> Any:
        # latex2sympy drops thousands commas and leading zeros of an integer before sympy reads it
        plain = text.replace(",", "")
        if plain.isascii() and plain.isdigit():
            plain = plain.lstrip("0") or "0"
        built = number_from_literal(plain)
        return original(self, text) if built is None else built

    return replace_attribute(_Latex2Sympy, "parse_number", parse_number, "literals")
