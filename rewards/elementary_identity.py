"""Proof of identities of the circular, hyperbolic and exponential functions (``\\sin^2 x + \\cos^2 x``
and ``1``, ``\\sin 2x`` and ``2\\sin x\\cos x``, ``\\sec^2 x`` and ``1 + \\tan^2 x``, ``\\cos(x + \\pi)``
and ``-\\cos x``, ``e^{2x} e^{3x}`` and ``e^{5x}``, ``\\cosh^2 x - \\sinh^2 x`` and ``1``).

A helper of the certain path that can only say "equal", after the plain formal identity
(:func:`rewards.formal_identity.same_rational_function`) found none. The two sides are read by
:mod:`rewards.formal_identity` into quotients of polynomials in their atoms; each atom
``\\sin(a)``, ``\\cos(a)``, ``\\tan(a)``, ``\\cot(a)``, ``\\sec(a)``, ``\\csc(a)`` whose argument ``a``
is a polynomial is rewritten in the sines and cosines of *base angles*: per monomial of the
arguments the largest rational multiple of it that divides every argument's coefficient of it
(``2x`` and ``3x``: the base ``x``; ``\\frac{x}{2}`` and ``x``: the base ``\\frac{x}{2}``), by the
angle-addition formulas; a multiple of ``\\pi`` by a sixth or a quarter of a turn is exact
(``\\cos(x + \\frac{\\pi}{2}) = -\\sin x``). ``e^{a}``, ``\\exp(a)``, ``e`` itself and the
hyperbolic functions are rewritten the same way in powers of ``e`` to base exponents. Then
``n_1 d_2 - n_2 d_1`` is reduced modulo ``\\sin^2 + \\cos^2 = 1`` of every base angle (every
power of a cosine above the first is replaced); zero is a proof that the two sides are equal
wherever both are defined, since each rewriting replaces a function by an expression equal to
it. Anything else proves nothing (None). Logarithms, absolute values, roots of variables and
inverse functions are left as they are (their rules need a branch or a sign). The work counts
against the same budget as the formal identity (:mod:`rewards.rational_functions`).
"""

from __future__ import annotations

import math
from fractions import Fraction

from rewards.formal_identity import FormalPair, Spec, same_rational_function
from rewards.rational_functions import (
    ONE,
    Mono,
    Poly,
    Rat,
    Reject,
    add,
    const,
    int_power,
    is_const,
    mul,
    radical,
    rat_key,
    times,
)

CIRCULAR = frozenset({"\\sin", "\\cos", "\\tan", "\\cot", "\\sec", "\\csc"})
HYPERBOLIC = frozenset({"\\sinh", "\\cosh", "\\tanh", "\\coth", "\\sech", "\\csch"})
MAX_MULTIPLE = 12
"""Largest sum of the base-angle multiples in one argument (``\\sin 12x`` is expanded, ``\\sin 13x`` kept)."""
MAX_BASES = 4
"""Most base angles (or base exponents, or bases of roots) in one comparison."""
MAX_ROOT = 12
"""Largest root index: ``\\sqrt[12]{x}`` and ``x^{\\frac{5}{12}}`` are related to ``x``, ``x^{\\frac{1}{13}}`` is not."""

_PI: Mono = (1, (("pi", 1),))
_ANGLE_DENOMINATORS = (1, 2, 3, 4, 6)
"""A multiple of pi whose sine and cosine are written exactly here: by these denominators."""

_Pair = tuple[Poly, Poly]
"""The cosine and the sine of an angle, as polynomials."""


def _variable(key: str) -> Poly:
    return {(1, ((key, 1),)): Fraction(1)}


def _as_polynomial(arg: object) -> Poly | None:
    """An argument with a constant denominator, as one polynomial; None otherwise."""
    if not isinstance(arg, tuple) or len(arg) != 2:
        return None
    num, den = arg
    if len(den) != 1 or ONE not in den:
        return None
    scale = 1 / den[ONE]
    return {m: c * scale for m, c in num.items()}


def _rational_gcd(a: Fraction, b: Fraction) -> Fraction:
    return Fraction(
        math.gcd(a.numerator * b.denominator, b.numerator * a.denominator), a.denominator * b.denominator
    )


def _bases(args: list[Poly]) -> dict[Mono, Fraction]:
    """Per monomial, the largest rational that divides the coefficient of it in every argument."""
    out: dict[Mono, Fraction] = {}
    for arg in args:
        for m, c in arg.items():
            out[m] = _rational_gcd(out[m], abs(c)) if m in out else abs(c)
    if len(out) > MAX_BASES:
        raise Reject
    return out


def _multiples(arg: Poly, bases: dict[Mono, Fraction]) -> dict[Mono, int]:
    out = {m: int(c / bases[m]) for m, c in arg.items()}
    if sum(abs(k) for k in out.values()) > MAX_MULTIPLE:
        raise Reject
    return out


def _base_key(m: Mono, g: Fraction) -> str:
    return rat_key(({m: g}, const(Fraction(1))))


def _quarter_turns(c: Poly, s: Poly, turns: int) -> _Pair:
    for _ in range(turns % 4):
        c, s = mul(s, const(Fraction(-1))), c
    return c, s


def _pi_angle(r: Fraction) -> _Pair:
    """``(\\cos r\\pi, \\sin r\\pi)`` exactly, for ``r`` with a denominator in _ANGLE_DENOMINATORS."""
    degrees = r * 180 % 360
    turns, rest = divmod(degrees, 90)
    first = {
        0: (const(Fraction(1)), {}),
        30: (radical(Fraction(3, 4)), const(Fraction(1, 2))),
        45: (radical(Fraction(1, 2)), radical(Fraction(1, 2))),
        60: (const(Fraction(1, 2)), radical(Fraction(3, 4))),
    }[int(rest)]
    return _quarter_turns(first[0], first[1], int(turns))


def _rotate(a: _Pair, b: _Pair) -> _Pair:
    """The angle ``a + b``: ``(\\cos a \\cos b - \\sin a \\sin b, \\sin a \\cos b + \\cos a \\sin b)``."""
    return (
        add(mul(a[0], b[0]), mul(mul(a[1], b[1]), const(Fraction(-1)))),
        add(mul(a[1], b[0]), mul(a[0], b[1])),
    )


def _angle(arg: Poly, bases: dict[Mono, Fraction]) -> _Pair:
    """Cosine and sine of ``arg`` in the base angles' ``C[...]`` and ``S[...]``."""
    out: _Pair = (const(Fraction(1)), {})
    r = arg.get(_PI, Fraction(0))
    if _PI not in bases and r:
        out = _pi_angle(r)
        arg = {m: c for m, c in arg.items() if m != _PI}
    for m, k in _multiples(arg, bases).items():
        key = _base_key(m, bases[m])
        step: _Pair = (_variable(f"C[{key}]"), _variable(f"S[{key}]"))
        if k < 0:
            step, k = (step[0], mul(step[1], const(Fraction(-1)))), -k
        for _ in range(k):
            out = _rotate(out, step)
    return out


def _exponential(arg: Poly, bases: dict[Mono, Fraction]) -> Rat:
    """``e^{arg}`` as a quotient of powers of the base exponentials ``E[...]``."""
    num, den = const(Fraction(1)), const(Fraction(1))
    for m, k in _multiples(arg, bases).items():
        e = _variable(f"E[{_base_key(m, bases[m])}]")
        if k > 0:
            num = mul(num, int_power(e, k))
        else:
            den = mul(den, int_power(e, -k))
    return num, den


MAX_BASE = 10**6
"""Largest numerator or denominator of a number raised to a variable power (``6^x``) that is
factored into primes here."""
MAX_CONSTANT_EXPONENT = 64
"""Largest constant part of such a power's exponent, per prime (``2^{x+64}``), written out."""


def _prime_factors(n: int) -> dict[int, int]:
    out: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


def _number_power(base: Rat, exponent: Poly) -> tuple[Rat, Poly] | None:
    """A positive rational ``b`` to a polynomial power ``a``: ``b^a = e^{a \\ln b}`` with
    ``\\ln b = \\sum k_p \\ln p`` over the primes of ``b`` (each ``\\ln p`` a new letter
    ``L[p]``). The exponent's constant part is written out exactly (``2^{x+1} = 2 \\cdot 2^x``).
    Returns that constant factor and the exponent of ``e`` left; None for any other power. For
    ``b > 0`` these are identities of functions: ``b^{u+v} = b^u b^v``, ``(pq)^a = p^a q^a``."""
    bn, bd = is_const(base[0]), is_const(base[1])
    if bn is None or bd is None or not bd or bn / bd <= 0:
        return None
    b = bn / bd
    if b == 1 or b.numerator > MAX_BASE or b.denominator > MAX_BASE:
        return None
    primes = _prime_factors(b.numerator)
    primes.update({p: -k for p, k in _prime_factors(b.denominator).items()})
    constant = exponent.get(ONE, Fraction(0))
    scale: Rat = (const(Fraction(1)), const(Fraction(1)))
    logs: Poly = {}
    for p, k in primes.items():
        e = constant * k
        if abs(e) > MAX_CONSTANT_EXPONENT or e.denominator not in (1, 2):
            raise Reject
        factor = (
            int_power(radical(Fraction(p)), abs(e.numerator))
            if e.denominator == 2
            else (const(Fraction(p) ** abs(int(e))))
        )
        scale = times(scale, (factor, const(Fraction(1))) if e > 0 else (const(Fraction(1)), factor))
        logs = add(logs, mul(_variable(f"L[{p}]"), const(Fraction(k))))
    rest = {m: c for m, c in exponent.items() if m != ONE}
    return scale, mul(rest, logs)


def _circular(name: str, c: Poly, s: Poly) -> Rat:
    one = const(Fraction(1))
    return {
        "\\sin": (s, one),
        "\\cos": (c, one),
        "\\tan": (s, c),
        "\\cot": (c, s),
        "\\sec": (one, c),
        "\\csc": (one, s),
    }[name]


def _hyperbolic(name: str, x: Rat) -> Rat:
    """``\\sinh`` and kin of ``a`` from ``x = e^{a}``: ``\\sinh a = (x^2 - 1) / (2x)``."""
    n2, d2 = mul(x[0], x[0]), mul(x[1], x[1])
    minus, plus = add(n2, mul(d2, const(Fraction(-1)))), add(n2, d2)
    twice = mul(mul(x[0], x[1]), const(Fraction(2)))
    return {
        "\\sinh": (minus, twice),
        "\\cosh": (plus, twice),
        "\\tanh": (minus, plus),
        "\\coth": (plus, minus),
        "\\sech": (twice, plus),
        "\\csch": (twice, minus),
    }[name]


Relations = dict[str, tuple[int, Poly]]
"""Per atom ``R``, a power ``q`` and what ``R^q`` equals (``R^q = b`` of a root, ``C^2 = 1 - S^2``
of a base angle's cosine)."""


def _rewrites(specs: dict[str, Spec]) -> tuple[dict[str, Rat], Relations]:
    """Each rewritten atom's key with the quotient it stands for, and ``C^2 = 1 - S^2`` of each
    base angle."""
    circular: dict[str, tuple[str, Poly]] = {}
    exponential: dict[str, tuple[str, Poly]] = {}
    scales: dict[str, Rat] = {}  # the constant factor of a number to a variable power
    for key, spec in specs.items():
        if spec[0] == "fn" and spec[1] in CIRCULAR | HYPERBOLIC:
            arg = _as_polynomial(spec[2])
            if arg is not None:
                (circular if spec[1] in CIRCULAR else exponential)[key] = (str(spec[1]), arg)
        elif spec[0] == "exp":
            arg = _as_polynomial(spec[1])
            if arg is not None:
                exponential[key] = ("exp", arg)
        elif spec[0] == "pow" and not isinstance(spec[2], Fraction):
            arg = _as_polynomial(spec[2])
            got = None if arg is None else _number_power(spec[1], arg)  # type: ignore[arg-type]
            if got is not None:
                scales[key] = got[0]
                exponential[key] = ("exp", got[1])
    out: dict[str, Rat] = {}
    cosines: Relations = {}
    if not circular and not exponential:
        return out, cosines
    if exponential and "e" in specs:
        exponential["e"] = ("exp", const(Fraction(1)))
    if circular:
        args = [a for _, a in circular.values()]
        pi_exact = all(a.get(_PI, Fraction(0)).denominator in _ANGLE_DENOMINATORS for a in args)
        bases = _bases([{m: c for m, c in a.items() if not (pi_exact and m == _PI)} for a in args])
        for m, g in bases.items():
            sine = int_power(_variable(f"S[{_base_key(m, g)}]"), 2)
            cosines[f"C[{_base_key(m, g)}]"] = (2, add(const(Fraction(1)), mul(sine, const(Fraction(-1)))))
        for key, (name, arg) in circular.items():
            c, s = _angle(arg, bases)
            if not c and name in ("\\tan", "\\sec") or not s and name in ("\\cot", "\\csc"):
                raise Reject  # "\tan\frac{\pi}{2}": undefined
            out[key] = _circular(name, c, s)
    if exponential:
        bases = _bases([a for _, a in exponential.values()])
        for key, (name, arg) in exponential.items():
            x = _exponential(arg, bases)
            out[key] = x if name == "exp" else _hyperbolic(name, x)
            if key in scales:
                out[key] = times(out[key], scales[key])
    return out, cosines


def _roots(specs: dict[str, Spec], rewrites: dict[str, Rat]) -> tuple[dict[str, Rat], Relations]:
    """Powers of a polynomial ``b`` to fractional exponents (``\\sqrt{b}``, ``\\sqrt[3]{b}``,
    ``b^{\\frac{2}{3}}``) rewritten as integer powers of one root ``R = b^{1/q}`` per base (``q``
    the least common denominator of its exponents), with the relation ``R^q = b`` (``b`` with its
    functions rewritten, while that stays a polynomial). Principal branches:
    ``(b^{1/q})^k = b^{k/q}`` for every integer ``k``."""
    by_base: dict[str, list[tuple[str, Fraction]]] = {}
    bases: dict[str, Poly] = {}
    for key, spec in specs.items():
        if spec[0] != "pow" or not isinstance(spec[2], Fraction) or spec[2].denominator == 1:
            continue
        base = _as_polynomial(spec[1])
        if base is not None:
            base_key = rat_key(spec[1])  # type: ignore[arg-type]
            by_base.setdefault(base_key, []).append((key, spec[2]))
            bases[base_key] = base
    if len(by_base) > MAX_BASES:
        raise Reject
    out: dict[str, Rat] = {}
    relations: Relations = {}
    for base_key, items in by_base.items():
        q = math.lcm(*(e.denominator for _, e in items))
        num, den = _substitute(bases[base_key], rewrites)
        scale = _as_polynomial((num, den))
        if q > MAX_ROOT or scale is None:
            continue
        root = f"R[{base_key};{q}]"
        relations[root] = (q, scale)
        for key, e in items:
            k = int(e * q)
            power = int_power(_variable(root), abs(k))
            out[key] = (power, const(Fraction(1))) if k > 0 else (const(Fraction(1)), power)
    return out, relations


def _substitute(p: Poly, rewrites: dict[str, Rat]) -> Rat:
    """``p`` with its rewritten atoms replaced, over the common denominator: the product of each
    replaced atom's denominator to the highest power the atom has in ``p``."""
    highest: dict[str, int] = {}
    for _, atoms in p:
        for key, e in atoms:
            if key in rewrites:
                highest[key] = max(highest.get(key, 0), e)
    den = const(Fraction(1))
    for key, e in highest.items():
        den = mul(den, int_power(rewrites[key][1], e))
    num: Poly = {}
    for (root, atoms), c in p.items():
        term: Poly = {(root, tuple((k, e) for k, e in atoms if k not in rewrites)): c}
        for key, e in atoms:
            if key in rewrites:
                r_num, r_den = rewrites[key]
                term = mul(term, mul(int_power(r_num, e), int_power(r_den, highest[key] - e)))
        for key, e in highest.items():
            if not any(k == key for k, _ in atoms):
                term = mul(term, int_power(rewrites[key][1], e))
        num = add(num, term)
    return num, den


def _reduce(p: Poly, relations: Relations) -> Poly:
    """``p`` with every power ``R^e`` of an atom with a relation ``R^q = b`` and ``e >= q``
    replaced by ``R^{e mod q} b^{e div q}``."""
    out: Poly = {}
    for (root, atoms), c in p.items():
        term: Poly = {(root, ()): c}
        for key, e in atoms:
            if key in relations and e >= relations[key][0]:
                q, base = relations[key]
                term = mul(term, int_power(base, e // q))
                e %= q
            if e:
                term = mul(term, {(1, ((key, e),)): Fraction(1)})
        out = add(out, term)
    return out


def _normal_form(p: Poly, roots: Relations, cosines: Relations) -> Poly:
    """``p`` modulo ``R^q = b`` of every root, then ``C^2 = 1 - S^2`` of every base angle (roots
    first: their ``b`` may hold cosines). The relations' leading terms are coprime, so this normal
    form is zero exactly when ``p`` is in the ideal they generate."""
    return _reduce(_reduce(p, roots), cosines)


def same_elementary_function(pair: FormalPair | None) -> bool | None:
    """True when the two sides of ``pair`` (read by :func:`rewards.formal_identity.read_pair`) are
    equal by the identities of the circular, hyperbolic and exponential functions; None otherwise."""
    if pair is None:
        return None
    a, b, gold_specs, pred_specs = pair
    try:
        specs = {**gold_specs, **pred_specs}
        rewrites, cosines = _rewrites(specs)
        roots, relations = _roots(specs, rewrites)
        rewrites.update(roots)
        if not rewrites:
            return None
        a_num, a_den = times(_substitute(a[0], rewrites), _swap(_substitute(a[1], rewrites)))
        b_num, b_den = times(_substitute(b[0], rewrites), _swap(_substitute(b[1], rewrites)))
        if not _normal_form(a_den, relations, cosines) or not _normal_form(b_den, relations, cosines):
            return None  # a side that is nowhere defined
        difference = add(mul(a_num, b_den), mul(mul(b_num, a_den), const(Fraction(-1))))
        return True if not _normal_form(difference, relations, cosines) else None
    except (Reject, ZeroDivisionError, OverflowError, RecursionError):
        return None


def _swap(r: Rat) -> Rat:
    return r[1], r[0]


def proves_same_function(pair: FormalPair | None) -> bool | None:
    """True when the two sides of ``pair`` are the same rational function of their atoms
    (:func:`rewards.formal_identity.same_rational_function`) or equal by the identities above;
    None otherwise."""
    return same_rational_function(pair) or same_elementary_function(pair)
