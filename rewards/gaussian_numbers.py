"""Exact complex numbers with rational parts (``3+4i``, ``\\frac{1+i}{2}``), for the exact reader.

:class:`Gaussian` supports ``+ - * /``, equality and :func:`gaussian_power` (a whole exponent);
every result with a zero imaginary part is a plain ``Fraction``, so ``i \\cdot i`` is ``-1`` and
compares with real values as they do. It defines no ordering and no ``float()``: the reader's
real-only steps (``<``, ``\\sin``, ``\\lfloor``) raise ``TypeError`` on it, and the reader refuses
the whole text, so a complex value never reaches a real-only verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

MAX_GAUSSIAN_EXPONENT = 64
"""The largest whole exponent of a complex base (``(1+i)^{64}``); beyond it the reader refuses."""


@dataclass(frozen=True)
class Gaussian:
    """``re + im*i`` with rational parts; built through :func:`gaussian`, never with ``im == 0``."""

    re: Fraction
    im: Fraction

    def __add__(self, other: object) -> Fraction | Gaussian:
        o = _as_gaussian(other)
        return gaussian(self.re + o.re, self.im + o.im)

    __radd__ = __add__

    def __neg__(self) -> Gaussian:
        return Gaussian(-self.re, -self.im)

    def __sub__(self, other: object) -> Fraction | Gaussian:
        return self + -_as_gaussian(other)

    def __rsub__(self, other: object) -> Fraction | Gaussian:
        return _as_gaussian(other) + -self

    def __mul__(self, other: object) -> Fraction | Gaussian:
        o = _as_gaussian(other)
        return gaussian(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Fraction | Gaussian:
        o = _as_gaussian(other)
        norm = o.re * o.re + o.im * o.im
        if norm == 0:
            raise ZeroDivisionError("division by zero")
        return gaussian((self.re * o.re + self.im * o.im) / norm, (self.im * o.re - self.re * o.im) / norm)

    def __rtruediv__(self, other: object) -> Fraction | Gaussian:
        return _as_gaussian(other) / self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (int, Fraction)):
            return False  # a Gaussian always has a nonzero imaginary part
        return isinstance(other, Gaussian) and (self.re, self.im) == (other.re, other.im)

    def __hash__(self) -> int:
        return hash((self.re, self.im))

    def norm(self) -> Fraction:
        """``|z|^2``."""
        return self.re * self.re + self.im * self.im


IMAGINARY_UNIT = Gaussian(Fraction(0), Fraction(1))


def gaussian(re: Fraction, im: Fraction) -> Fraction | Gaussian:
    """``re + im*i``: a plain Fraction when ``im`` is 0."""
    return Fraction(re) if im == 0 else Gaussian(Fraction(re), Fraction(im))


def _as_gaussian(value: object) -> Gaussian:
    if isinstance(value, Gaussian):
        return value
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return Gaussian(Fraction(value), Fraction(0))
    raise TypeError(f"not an exact number: {type(value).__name__}")  # a float: not exact


def gaussian_power(base: Fraction | Gaussian, exponent: Fraction) -> Fraction | Gaussian:
    """``base ** exponent`` for a whole exponent of at most :data:`MAX_GAUSSIAN_EXPONENT` in size;
    ``ValueError`` otherwise (a fractional power of a complex number has several values)."""
    if exponent.denominator != 1 or abs(exponent) > MAX_GAUSSIAN_EXPONENT:
        raise ValueError("not a small whole exponent")
    e = int(exponent)
    result: Fraction | Gaussian = Fraction(1)
    for _ in range(abs(e)):
        result = base * result
    if e < 0:
        return Fraction(1) / result  # ZeroDivisionError for 0 ** -n
    return result
