"""Numeric value of a closed-form constant written in LaTeX (``2\\sqrt{3}``, ``\\frac{\\pi}{4}``, ``e^{2}``).

A helper of the certain path (:mod:`rewards.expressions`): a strict recursive-descent reader of a small
LaTeX subset that returns a float, or None for anything outside the subset, anything ambiguous
(``1/2\\pi``) and anything whose magnitude would explode (power towers). It never evaluates text
as code and its work is linear in the input length (nesting depth is capped), so it needs no
timeout. Expressions with variables, relations, sets etc. are left to the symbolic worker.

Subset: decimal numbers; ``+ - * / ^``; ``\\cdot``, ``\\times``, ``\\div``; implicit multiplication
(``2\\pi``, ``(1+x)(2)``); ``( )``, ``[ ]``, ``{ }`` groups; ``\\frac{a}{b}`` (and ``\\frac12``);
``\\sqrt{x}``, ``\\sqrt[n]{x}``; ``|x|``, ``\\lfloor x \\rfloor``, ``\\lceil x \\rceil``; ``\\pi``, ``e``;
``n!`` of a whole number up to 150; ``\\binom{n}{k}`` of braced whole numbers; ``\\ln``,
``\\sin``, ``\\cos``, ``\\tan`` of a group, with an optional power on the name (``\\ln^3(2)``,
``\\sin^{2}(1)``; never ``^{-1}``).

:func:`evaluate_gaussian` reads the same subset with ``i`` as the imaginary unit and rational
arithmetic on complex numbers (:mod:`rewards.gaussian_numbers`): ``i(2-i)`` is ``1+2i``.
"""

from __future__ import annotations

import functools
import math
import re
from fractions import Fraction

from rewards.exact_numbers import Num, read_number
from rewards.gaussian_numbers import IMAGINARY_UNIT, Gaussian, gaussian, gaussian_power

_TOKEN_RE = re.compile(r"\s*(\d+\.\d*|\.\d+|\d+|\\[a-zA-Z]+|[-+*/^_(){}\[\]|!]|[a-zA-Z])")
_E_NOTATION_RE = re.compile(r"(?<![\w.])(?:\d+(?:\.\d+)?|\.\d+)[eE][-+]?\d+(?![\w.])")
"""``1e-5``, ``6.02E23``: a number in E notation, as the number readers take it (never ``e - 5``,
``e`` times ``23``)."""
_MAX_DEPTH = 40
_MAX_ABS = 1e250
_MAX_EXACT_BITS = 4096  # exact results larger than this fall back to floats (then inexact)
_BINOMIALS = ("\\binom", "\\dbinom", "\\tbinom")
"""Read only where a factor starts an expression or follows an operator: ``2\\binom{4}{2}`` is
``2 + 6`` to latex2sympy, as if a mixed number, so a binomial never starts an implicit product."""
_MAX_BINOMIAL = 10_000  # the top of \binom{n}{k}; bounds the work of math.comb
_MAX_FACTORIAL = 150  # beyond _MAX_ABS from 144! on, which _check refuses; this bounds the work

Value = Fraction | float
"""A Fraction is exact (only integers, ``+ - * /``, integer powers); a float is not. The reader of
:func:`evaluate_gaussian` also makes :class:`~rewards.gaussian_numbers.Gaussian` values (exact)."""
_FUNCS = {"\\ln": math.log, "\\sin": math.sin, "\\cos": math.cos, "\\tan": math.tan}
_OPEN_CLOSE = {"(": ")", "[": "]", "{": "}"}
_ROUNDING = {"\\lfloor": ("\\rfloor", math.floor), "\\lceil": ("\\rceil", math.ceil)}


def _exact(v: Value) -> bool:
    return isinstance(v, Fraction)


def _exact_or_complex(a: Value) -> bool:
    return isinstance(a, (Fraction, Gaussian))


def _mul(a: Value, b: Value) -> Value:
    # float() of a Gaussian raises TypeError: a complex value never mixes with a float
    return a * b if _exact_or_complex(a) and _exact_or_complex(b) else float(a) * float(b)


def _div(a: Value, b: Value) -> Value:
    return a / b if _exact_or_complex(a) and _exact_or_complex(b) else float(a) / float(b)


def _add(a: Value, b: Value) -> Value:
    return a + b if _exact_or_complex(a) and _exact_or_complex(b) else float(a) + float(b)


def _exact_power_fits(base: Value, exponent: Value) -> bool:
    """Whether ``base^exponent`` is computed exactly (:func:`_pow`): both exact, a whole exponent,
    a result of at most :data:`_MAX_EXACT_BITS` bits."""
    if not (_exact(base) and _exact(exponent) and exponent.denominator == 1):
        return False
    bits = max(abs(base.numerator).bit_length(), abs(base.denominator).bit_length())
    return bits * abs(int(exponent)) <= _MAX_EXACT_BITS


def _pow(base: Value, exponent: Value, exact: bool) -> Value:
    """``base^exponent``, exactly when ``exact`` (:func:`_exact_power_fits`), else as a float."""
    if exact:
        e = int(exponent)
        if e < 0:
            return Fraction(1) / (base ** (-e))
        return base**e
    return float(base) ** float(exponent)


def _root(radicand: Value, index: int) -> Value:
    if _exact(radicand) and radicand >= 0:
        num = _iroot(radicand.numerator, index)
        den = _iroot(radicand.denominator, index)
        if num is not None and den is not None:
            return Fraction(num, den)
    return float(radicand) ** (1.0 / index)


def _iroot(n: int, k: int) -> int | None:
    if n.bit_length() > _MAX_EXACT_BITS:
        return None
    r = round(n ** (1.0 / k)) if n < 2**1000 else int(math.isqrt(n)) if k == 2 else None
    if r is None:
        return None
    for c in (r - 1, r, r + 1):
        if c >= 0 and c**k == n:
            return c
    return None


class _Reject(Exception):
    """Outside the subset; the caller returns None."""


def _tokenize(s: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    s = s.rstrip()
    while pos < len(s):
        m = _TOKEN_RE.match(s, pos)
        if m is None:
            raise _Reject
        tokens.append(m.group(1))
        pos = m.end()
    return tokens


class _Reader:
    def __init__(self, tokens: list[str], imaginary: bool = False) -> None:
        self.t = tokens
        self.i = 0
        self.depth = 0
        self.imaginary = imaginary  # "i" is the imaginary unit (evaluate_gaussian)

    def starts_factor(self, tok: str) -> bool:
        return _starts_factor(tok) or (self.imaginary and tok == "i")

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise _Reject
        self.i += 1
        return tok

    def expr(self) -> Value:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _Reject
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.term()
            value = _add(value, rhs if op == "+" else -rhs)
        self.depth -= 1
        return _check(value)

    def term(self) -> Value:
        value = self.signed()
        after_division = False
        while True:
            tok = self.peek()
            if tok in ("*", "\\cdot", "\\times"):
                self.take()
                value = _mul(value, self.signed())
                after_division = False
            elif tok in ("/", "\\div"):
                self.take()
                den = self.signed()
                if den == 0:
                    raise _Reject
                value = _div(value, den)
                after_division = True
            elif tok is not None and self.starts_factor(tok):
                if after_division:
                    raise _Reject  # "1/2\pi": (1/2)*pi or 1/(2 pi)?
                if (tok[0].isdigit() and self.t[self.i - 1] not in (")", "!")) or tok == "\\frac":
                    raise _Reject  # "2 3" (a list?) or "3\frac12" (a mixed number); "(n-2) 2^n", "2!3!" are products
                value = _mul(value, self.power())
            else:
                return _check(value)

    def signed(self) -> Value:
        if self.peek() == "-":
            self.take()
            return -self.signed()
        if self.peek() == "+":
            self.take()
            return self.signed()
        return self.power()

    def power(self) -> Value:
        base = self.factorial(self.atom())
        if self.peek() == "^":
            self.take()
            exponent = self.exponent()
            if self.peek() == "!":
                raise _Reject  # "2^3!": latex2sympy reads (2^3)!, a reader might read 2^(3!)
            if isinstance(base, Gaussian) or isinstance(exponent, Gaussian):
                if not _whole(exponent):
                    raise _Reject  # "i^{1/2}", "2^i": several values, or not algebraic
                try:
                    return _check(gaussian_power(base, exponent))  # type: ignore[arg-type]
                except ValueError:
                    raise _Reject from None
            if base == 0 and exponent <= 0:
                raise _Reject
            if base < 0 and exponent != int(exponent):
                raise _Reject
            if abs(exponent) > 1e4 or (exponent != 0 and not _whole(exponent) and abs(exponent) < 1e-9):
                raise _Reject  # 2^{2^{-1000}}: a float would round it to 1
            exact = _exact_power_fits(base, exponent)
            if not exact and abs(base) > 1 and abs(exponent) * math.log10(abs(base)) > 250:
                raise _Reject  # a float beyond _MAX_ABS; an exact power may be as long as _MAX_EXACT_BITS
            return _check(_pow(base, exponent, exact))
        return base

    def factorial(self, value: Value) -> Value:
        """``5!``: a whole number from 0 to :data:`_MAX_FACTORIAL` followed by ``!``; ``n!!`` is the
        double factorial (``7!! = 7 \\cdot 5 \\cdot 3 \\cdot 1``), as sympy's ``factorial2`` and
        math-verify's plain reading have it (latex2sympy reads ``(n!)!``, which no one writes so).
        A power of it is of the factorial, as in ``\\frac{(2n)!}{n!^2}`` (latex2sympy refuses
        ``9!^2``; math-verify's reading of it is ``9``)."""
        if self.peek() != "!":
            return value
        self.take()
        double = self.peek() == "!"
        if double:
            self.take()
        if self.peek() == "!" or not _whole(value) or not 0 <= value <= _MAX_FACTORIAL:
            raise _Reject
        n = int(value)
        if double:
            return _check(Fraction(math.prod(range(n, 0, -2))))  # 0!! = 1
        return _check(Fraction(math.factorial(n)))  # "9!^2" is (9!)^2: ! binds tighter

    def exponent(self) -> Value:
        tok = self.peek()
        if tok in ("{", "("):
            return self.group()
        if tok == "-":
            self.take()
            return -self.exponent()
        if tok is not None and tok[0].isdigit():
            if not tok.isdigit():
                raise _Reject  # "2^1.5"
            return _number(self.take())  # "2^10" is 2^{10}, as latex2sympy (math-verify) reads it
        return self.atom()

    def function_power(self) -> int:
        """``\\ln^3(2)`` = ``(\\ln 2)^3``: a power written on the function name, one digit 1-9 (bare
        or braced). Anything else is refused: ``\\sin^{-1}`` is the inverse function."""
        if self.peek() != "^":
            return 1
        self.take()
        braced = self.peek() == "{"
        if braced:
            self.take()
        tok = self.take()
        if len(tok) != 1 or not "1" <= tok <= "9":
            raise _Reject
        if braced:
            self.take("}")
        return int(tok)

    def group(self) -> Value:
        opener = self.take()
        if opener not in _OPEN_CLOSE:
            raise _Reject
        value = self.expr()
        self.take(_OPEN_CLOSE[opener])
        return value

    def brace_or_digit(self) -> Value:
        tok = self.peek()
        if tok == "{":
            return self.group()
        if tok is not None and tok.isdigit():  # \frac12: one digit per argument
            self.take()
            if len(tok) > 1:
                self.t.insert(self.i, tok[1:])
            return Fraction(int(tok[0]))
        raise _Reject

    def atom(self) -> Value:
        tok = self.peek()
        if tok is None:
            raise _Reject
        if tok in _OPEN_CLOSE:
            return self.group()
        if tok[0].isdigit() or tok[0] == ".":
            return _number(self.take())
        self.take()
        if tok == "\\pi":
            return math.pi
        if tok == "e":
            return math.e
        if tok == "i" and self.imaginary:
            return IMAGINARY_UNIT
        if tok == "\\frac":
            braced = self.peek() == "{"
            num = self.brace_or_digit()
            nxt = self.peek() or ""
            if not braced and nxt.isdigit() and len(nxt) > 1:
                raise _Reject  # "\frac123", "\frac 1 23": 1/23 to latex2sympy
            den = self.brace_or_digit()
            if den == 0:
                raise _Reject
            return _div(num, den)
        if tok in _BINOMIALS:
            if self.peek() != "{":
                raise _Reject  # "\binom{10}2": latex2sympy refuses it
            n = self.group()
            if self.peek() != "{":
                raise _Reject
            k = self.group()
            if not (_whole(n) and _whole(k)) or not 0 <= n <= _MAX_BINOMIAL or k < 0:
                raise _Reject
            return _check(Fraction(math.comb(int(n), int(k))))
        if tok == "\\sqrt":
            index: Value = Fraction(2)
            if self.peek() == "[":
                index = self.group()
                if index < 2 or index != int(index):
                    raise _Reject
            radicand = self.brace_or_digit()
            if self.imaginary and index == 2 and _exact(radicand) and radicand < 0:
                root = _root(-radicand, 2)  # \sqrt{-4} = 2i, the principal root (sympy's)
                if not _exact(root):
                    raise _Reject
                return gaussian(Fraction(0), root)  # type: ignore[arg-type]
            if radicand < 0 and not self.imaginary and int(index) % 2 == 1:
                return -_root(-radicand, int(index))  # \sqrt[3]{-8} = -2: an odd radical is the real root
            if radicand < 0:
                raise _Reject
            return _root(radicand, int(index))
        if tok == "|":  # |x|: no implicit product inside, so the first "|" after a term closes it
            value = self.expr()
            self.take("|")
            if isinstance(value, Gaussian):
                return _root(value.norm(), 2)  # |3+4i| = 5
            return abs(value)
        if tok in _ROUNDING:
            closer, rounding = _ROUNDING[tok]
            value = self.expr()
            self.take(closer)
            if isinstance(value, float) and abs(value - round(value)) < 1e-9 * max(1.0, abs(value)):
                raise _Reject  # a float this close to an integer: its floor is not certain
            return Fraction(rounding(value))
        if tok == "\\log" and self.peek() == "_":  # \log_2 8, \log_{10}(1000): a written base
            self.take()
            base = self.brace_or_digit()
            arg = self.log_argument()
            if base <= 0 or base == 1:
                raise _Reject
            return _check(math.log(float(arg)) / math.log(float(base)))
        if tok in _FUNCS:
            power = self.function_power()
            if tok == "\\ln" and power == 1 and self.peek() not in _OPEN_CLOSE:
                return _check(math.log(float(self.log_argument())))  # \ln 5
            if self.peek() not in _OPEN_CLOSE:
                raise _Reject
            paren = self.peek() == "("
            arg = self.group()
            nxt = self.peek()
            if not paren and nxt is not None and (_starts_factor(nxt) or nxt[0].isdigit() or nxt == "^"):
                raise _Reject  # "\ln{2}3", "\sin{x}^2": latex2sympy reads on into the argument
            if tok == "\\ln" and arg <= 0:
                raise _Reject
            return _check(_FUNCS[tok](float(arg)) ** power)
        raise _Reject

    def log_argument(self) -> Value:
        """A logarithm's argument: a group, or one written number (``\\log_2 8``, ``\\ln 5``)."""
        tok = self.peek()
        if tok in _OPEN_CLOSE:
            arg = self.group()
        elif tok is not None and (tok[0].isdigit() or tok[0] == "."):
            arg = _number(self.take())
            if self.peek() is not None and _starts_factor(self.peek() or ""):
                raise _Reject  # "\\ln 2x": where the argument ends is not certain
        else:
            raise _Reject
        if arg <= 0:
            raise _Reject
        return arg


def _whole(v: Value) -> bool:
    return _exact(v) and v.denominator == 1


def _starts_factor(tok: str) -> bool:
    return (
        tok in ("(", "{", "[", "\\pi", "e", "\\frac", "\\sqrt")
        or tok in _FUNCS
        or tok in _ROUNDING
        or tok[0].isdigit()
    )


def _number(tok: str) -> Value:
    if len(tok) > 30:
        raise _Reject
    return Fraction(tok)


_MAX_ABS_INT = int(_MAX_ABS)  # the same bound, exactly, for Fractions (a float would be converted per call)


def _too_big(q: Fraction) -> bool:
    return abs(q.numerator) > _MAX_ABS_INT * q.denominator


def _too_long(q: Fraction) -> bool:
    return max(abs(q.numerator).bit_length(), q.denominator.bit_length()) > _MAX_EXACT_BITS + 64


def _check(value: Value) -> Value:
    """An intermediate value: an exact one may be as long as :data:`_MAX_EXACT_BITS` (``2^{2009} -
    1`` inside a fraction near 2/3); the final value is bounded by :data:`_MAX_ABS` too."""
    if isinstance(value, Fraction):
        if _too_long(value):
            raise _Reject
        return value
    if isinstance(value, Gaussian):
        if _too_long(value.re) or _too_long(value.im):
            raise _Reject
        return value
    if isinstance(value, float) and not math.isfinite(value):
        raise _Reject
    if abs(value) > _MAX_ABS:
        raise _Reject
    return value


def evaluate_exact(s: str) -> Value | None:
    """The value of a closed-form constant: a Fraction when exact, a float when not, or None."""
    return _evaluate(s, imaginary=False)


def evaluate_gaussian(s: str) -> Fraction | Gaussian | None:
    """The exact value of a constant with ``i`` the imaginary unit (``\\frac{1+i}{1-i}`` is ``i``,
    ``\\sqrt{-4}`` is ``2i``, ``|3+4i|`` is 5): a Fraction or a
    :class:`~rewards.gaussian_numbers.Gaussian`, or None for anything inexact (``\\pi i``,
    ``\\sqrt{2}i``) or outside the subset (``e^{i\\pi}``, ``i^{1/2}``)."""
    value = _evaluate(s, imaginary=True)
    return value if isinstance(value, (Fraction, Gaussian)) else None


@functools.lru_cache(maxsize=4096)
def _evaluate(s: str, imaginary: bool) -> Value | None:
    """Memoised: the rules of the certain path read the same texts several times per pair, and a
    GRPO group repeats its reference (values are immutable: Fraction, float, Gaussian)."""
    if not s or len(s) > 500:
        return None
    if _E_NOTATION_RE.search(s):
        literal = _E_NOTATION_RE.fullmatch(s.strip())  # "2e-5 + 1": not read inside an expression
        number = None if literal is None else read_number(literal.group(0))
        return number.value if isinstance(number, Num) else None
    try:
        reader = _Reader(_tokenize(s), imaginary)
        value = reader.expr()
        if reader.peek() is not None:
            return None
        if isinstance(value, Fraction) and _too_big(value):
            return None
        if isinstance(value, Gaussian) and (_too_big(value.re) or _too_big(value.im)):
            return None
        return value
    except (_Reject, OverflowError, ZeroDivisionError, ValueError, RecursionError, TypeError):
        return None


_HUGE_FACTORIAL_RE = re.compile(r"^\s*(\d+|\([^()]*\)|\{[^{}]*\})\s*!\s*$")
_MAX_HUGE_FACTORIAL = 10**12


def huge_factorial(s: str) -> int | None:
    """``n`` when ``s`` is exactly ``n!`` of a whole number ``n`` too large for
    :func:`evaluate_exact` (above :data:`_MAX_FACTORIAL`, up to 10^12): ``1000!``, ``(10^6)!``.
    Such a factorial exceeds every value :func:`evaluate_exact` returns (151! > 10^264, and those
    are at most 10^250), so it differs from each of them, and two are equal exactly when their
    ``n`` are; sympy would spend seconds computing it. ``10^6!`` is not read (``(10^6)!`` to
    latex2sympy, ``10^{720}`` to a reader)."""
    m = _HUGE_FACTORIAL_RE.match(s)
    if m is None:
        return None
    inner = m.group(1)
    n = evaluate_exact(inner[1:-1] if inner[0] in "({" else inner)
    if n is None or not _whole(n) or not _MAX_FACTORIAL < n <= _MAX_HUGE_FACTORIAL:
        return None
    return int(n)


def evaluate_constant(s: str) -> float | None:
    """The value of a closed-form constant expression as a float, or None outside the subset."""
    value = evaluate_exact(s)
    return None if value is None else float(value)
