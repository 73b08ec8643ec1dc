"""Exact arithmetic on quotients of polynomials with rational coefficients, the algebra behind the
certain path's proofs of identity (:mod:`rewards.formal_identity`, :mod:`rewards.trig_identity`).

A monomial is a squarefree integer under a square root (1: none) and atoms with exponents; atoms are
opaque keys (``x``, ``pi``, ``\\sin(...)``). All work for one comparison is bounded: polynomial
sizes, coefficient sizes and the number of monomial products (:func:`start_budget`, :func:`spend`);
going past a bound raises :class:`Reject`.
"""

from __future__ import annotations

import math
import threading
from fractions import Fraction

MAX_TERMS = 400
"""Most terms in any intermediate polynomial."""
MAX_BITS = 4096
"""Largest coefficient (numerator or denominator, in bits)."""
MAX_WORK = 10_000
"""Most monomial products for one comparison (both sides): bounds the time at a few tens of ms."""
MAX_POWER = 24
"""Largest integer power expanded for a polynomial of several terms (a monomial: 10,000); a larger
power of an expression with a variable is an atom (``(x-a)^{5999}``), of a number a refusal."""


class Reject(Exception):
    """The text or the work is outside what is read here."""


Mono = tuple[int, tuple[tuple[str, int], ...]]
"""A monomial: the squarefree integer under a square root (1: none), then atoms with exponents."""
Poly = dict[Mono, Fraction]
Rat = tuple[Poly, Poly]

ONE: Mono = (1, ())


def const(c: Fraction) -> Poly:
    return {ONE: c} if c else {}


def check(p: Poly) -> Poly:
    if len(p) > MAX_TERMS:
        raise Reject
    for c in p.values():
        if c.numerator.bit_length() > MAX_BITS or c.denominator.bit_length() > MAX_BITS:
            raise Reject
    return p


def add(a: Poly, b: Poly) -> Poly:
    out = dict(a)
    for m, c in b.items():
        s = out.get(m, Fraction(0)) + c
        if s:
            out[m] = s
        else:
            out.pop(m, None)
    return check(out)


def _mul_mono(a: Mono, b: Mono) -> tuple[Mono, int]:
    g = math.gcd(a[0], b[0])
    merged = dict(a[1])
    for k, e in b[1]:
        merged[k] = merged.get(k, 0) + e
    return (a[0] * b[0] // (g * g), tuple(sorted(merged.items()))), g


_budget = threading.local()


def spend(work: int) -> None:
    """Count ``work`` monomial products against this thread's budget for one comparison."""
    left = getattr(_budget, "left", MAX_WORK) - work
    if left < 0:
        raise Reject
    _budget.left = left


def mul(a: Poly, b: Poly) -> Poly:
    spend(len(a) * len(b))
    out: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m, g = _mul_mono(ma, mb)
            s = out.get(m, Fraction(0)) + ca * cb * g
            if s:
                out[m] = s
            else:
                out.pop(m, None)
        check(out)
    return out


def expands(p: Poly, n: int) -> bool:
    """Whether ``p**n`` is expanded (a monomial up to 10,000, several terms up to MAX_POWER)."""
    return n <= (10_000 if len(p) == 1 else MAX_POWER)


def int_power(p: Poly, n: int) -> Poly:
    if not expands(p, n):
        raise Reject
    out, base = const(Fraction(1)), p
    while n:
        if n & 1:
            out = mul(out, base)
        n >>= 1
        if n:
            base = mul(base, base)
    return out


def is_const(p: Poly) -> Fraction | None:
    if not p:
        return Fraction(0)
    if len(p) == 1 and ONE in p:
        return p[ONE]
    return None


def rat_key(r: Rat) -> str:
    """A text that equal forms of ``r`` share often (not always): the key of an atom's argument."""
    num, den = r
    lead = den[min(den)]
    return f"{_poly_key(num, lead)}/{_poly_key(den, lead)}"


def _poly_key(p: Poly, scale: Fraction) -> str:
    return "+".join(f"{c / scale}*{_mono_key(m)}" for m, c in sorted(p.items()))


def _mono_key(m: Mono) -> str:
    """A monomial as text, without repr's escaping (nested atoms would double their backslashes)."""
    return f"r{m[0]}" + "".join(f"[{name}]{e}" for name, e in m[1])


def radical(c: Fraction) -> Poly:
    """The exact square root of a non-negative rational: ``m \\sqrt{s}`` with ``s`` squarefree."""
    if c < 0:
        raise Reject
    n = c.numerator * c.denominator  # sqrt(p/q) = sqrt(p q) / q
    if n > 10**8:
        raise Reject
    out, s, f = 1, 1, 2
    while f * f <= n:
        while n % (f * f) == 0:
            n //= f * f
            out *= f
        if n % f == 0:
            n //= f
            s *= f
        f += 1
    s *= n
    return {(s, ()): Fraction(out, c.denominator)} if c else {}


def times(a: Rat, b: Rat) -> Rat:
    return mul(a[0], b[0]), mul(a[1], b[1])


def start_budget() -> None:
    """Give this thread a fresh work budget (:data:`MAX_WORK`) for one comparison."""
    _budget.left = MAX_WORK
