"""Answer forms found by held-out round 37 (unit-conversion tests of a Moodle question type) and by
label-free checks over the held-out references: an equation without free symbols
(``\\int_0^1 x\\,dx = \\frac12``) has nothing for sympy to solve, so math-verify's comparison of
two equations by their solutions called any two of them equal; ``u`` is micro on a keyboard
(``1000 um``), ohms take prefixes (``1 kohm``), and a bare ``C`` next to ``mC`` is a coulomb."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 x\\,dx = \\frac13", False),
        ("$\\int_0^1 x\\,dx = \\frac12$", "The integral is $\\int_0^1 x\\,dx = \\frac{1}{4}$.", False),
        ("\\int_0^{\\pi} \\sin x\\,dx = 2", "\\int_0^{\\pi} \\sin x\\,dx = 3", False),
        ("\\sum_{k=1}^{10} k = 55", "\\sum_{k=1}^{10} k = 56", False),
        ("\\sin(1) = \\frac12", "\\sin(1) = \\frac13", False),
        # the same statement, or the same value on the right, stays credited
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 x\\,dx = 0.5", True),
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_{0}^{1} x dx = \\frac{1}{2}", True),
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 t\\,dt = \\frac12", True),
        ("\\frac12", "\\int_0^1 x\\,dx = \\frac12", True),
        ("\\frac13", "\\int_0^1 x\\,dx = \\frac12", False),
        # equations in unknowns are still compared by their solutions
        ("x + 1 = 3", "2x = 4", True),
        ("x + 1 = 3", "2x = 6", False),
    ],
)
def test_equations_without_free_symbols(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("1 mm", "1000 um", True),
        ("1 ug", "0.001 mg", True),
        ("1 ms", "1000 us", True),
        ("1 N", "1000000 uN", True),
        ("1 uF", "1000 nF", True),
        ("1 m g/us", "1000 mm kg ms^-1", True),
        ("3 mm", "300 um", False),
        ("1000 ohm", "1 kohm", True),
        ("1000 ohm", "1000000 mohm", True),
        ("5 \\text{ ohms}", "5 \\Omega", True),
        ("2 kiloohms", "2000 ohms", True),
        ("5 hectometers", "500 m", True),
        ("1 C", "1000 mC", True),  # a coulomb: the other side writes millicoulombs
        ("1 C", "0.001 kC", True),
        ("1 uF", "0.000001 F", True),
        ("1 uF", "0.00001 F", False),
        ("1 C", "100 mC", False),
        ("25 C", "77 F", True),  # temperatures where no side has a prefix
        ("25 C", "25 mC", False),
    ],
)
def test_micro_as_u_ohms_and_coulombs(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
