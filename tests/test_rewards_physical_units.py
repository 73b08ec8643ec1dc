"""Quantities with physical units on the certain path (rewards/physical_units.py): conversions
between units of one dimension are exact, another dimension is a different answer, and anything
that is not a number followed by units of the table is left to the other rules."""

from __future__ import annotations

from fractions import Fraction

import pytest
from random_text import random_texts

from rewards.equivalence import compare
from rewards.physical_units import quantities_decide, read_quantity

M, KG, S, A = (
    (1, 0, 0, 0, 0, 0, 0, 0),
    (0, 1, 0, 0, 0, 0, 0, 0),
    (0, 0, 1, 0, 0, 0, 0, 0),
    (0, 0, 0, 1, 0, 0, 0, 0),
)
NEWTON = (1, 1, -2, 0, 0, 0, 0, 0)
JOULE = (2, 1, -2, 0, 0, 0, 0, 0)


@pytest.mark.parametrize(
    ("text", "value", "scale", "dims"),
    [
        ("5000 mA", Fraction(5000), Fraction(1, 1000), A),
        ("10 g", Fraction(10), Fraction(1, 1000), KG),
        ("9.8 kg m / s^2", Fraction(98, 10), Fraction(1), NEWTON),
        ("9.8 N / kg", Fraction(98, 10), Fraction(1), (1, 0, -2, 0, 0, 0, 0, 0)),
        ("1E-3 kJ", Fraction(1, 1000), Fraction(1000), JOULE),
        ("10^-3 kJ", Fraction(1, 1000), Fraction(1000), JOULE),
        ("10**-3 kJ", Fraction(1, 1000), Fraction(1000), JOULE),
        ("1/1000 kJ", Fraction(1, 1000), Fraction(1000), JOULE),
        ("\\frac{1}{2} km", Fraction(1, 2), Fraction(1000), M),
        ("1 N \\cdot m", Fraction(1), Fraction(1), JOULE),
        ("5*10^-13 T*m/angstrom", Fraction(5, 10**13), Fraction(10**10), (0, 1, -2, -1, 0, 0, 0, 0)),
        ("3 \\times 10^{8} m/s", Fraction(3 * 10**8), Fraction(1), (1, 0, -1, 0, 0, 0, 0, 0)),
        ("5 \\mathrm{m s^{-2}}", Fraction(5), Fraction(1), (1, 0, -2, 0, 0, 0, 0, 0)),
        ("9.8 \\frac{ m }{ s ^2}", Fraction(98, 10), Fraction(1), (1, 0, -2, 0, 0, 0, 0, 0)),
        ("12 cm ^2", Fraction(12), Fraction(1, 10**4), (2, 0, 0, 0, 0, 0, 0, 0)),
        ("2 \\mu C", Fraction(2), Fraction(1, 10**6), (0, 0, 1, 1, 0, 0, 0, 0)),
        ("1.5 hours", Fraction(3, 2), Fraction(3600), S),
        ("3 kilometers", Fraction(3), Fraction(1000), M),
        ("2 weeks", Fraction(2), Fraction(7 * 86400), S),
        ("1 mi", Fraction(1), Fraction(1609344, 1000), M),
        ("100m", Fraction(100), Fraction(1), M),
        ("-4 ms", Fraction(-4), Fraction(1, 1000), S),
    ],
)
def test_read_quantity(text: str, value: Fraction, scale: Fraction, dims: tuple[int, ...]) -> None:
    q = read_quantity(text)
    assert q is not None, text
    assert (q.number.value, q.scale, q.dims) == (value, scale, dims)


@pytest.mark.parametrize(
    "text",
    [
        "12",  # no unit: the unit-dropping rule of exact_numbers decides
        "2 x",  # a variable
        "2\\pi m",  # a constant before the unit
        "25 C",  # after normalisation 25^\circ C: a temperature, not coulombs
        "72 F",
        "5 in",  # a word
        "8 am",  # a time of day (atto is not read)
        "5 apples",
        "J 1",  # the unit before the number
        "5/s",  # a number over a unit
        "3 m 4 cm",  # two numbers
        "5 m^2 + 3",
        "2 m/s/s",  # two slashes: read either way by someone
        "1 amu",  # its factor to kg is measured, not exact
        "2 m^{10}",
        "x m",
    ],
)
def test_read_quantity_refuses(text: str) -> None:
    assert read_quantity(text) is None


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("1 J", "0.001 kJ", True),
        ("1 J", "1 N*m", True),
        ("1 J", "7/7 J", True),
        ("1 J", "1E-3 kJ", True),
        ("9.8 N", "9.8 kg m / s^2", True),
        ("9.8 N / kg", "9.8 m / s^2", True),
        ("5 A", "5000 mA", True),
        ("0.01 kg", "10 g", True),
        ("0.005 T", "5*10^-13 T*m/angstrom", True),
        ("12\\text{ cm}^2", "1200 \\text{mm}^2", True),
        ("\\boxed{5\\text{ m/s}^2}", "$5\\,\\mathrm{m\\,s^{-2}}$", True),
        ("\\boxed{3 \\times 10^{8} \\text{ m/s}}", "300000 km/s", True),
        ("1.5 hours", "90 minutes", True),
        ("2 weeks", "14 days", True),
        ("1 year", "12 months", True),
        ("60 mph", "96.56064 km/h", True),
        ("0.33 km", "330 m", True),
        ("0.33 km", "\\frac{1000}{3} m", False),  # 330 m: a decimal is not an exact value
        ("0.33 km", "340 m", False),
        ("\\frac{1}{3} km", "333 m", False),  # an exact reference: a decimal must equal it
        ("1 J", "1 N", False),  # another dimension
        ("9.8 N", "9.8 m", False),
        ("12 m^2", "12 m", False),  # was credited by dropping both units
        ("5 cm", "5 m", False),  # was credited by dropping both units
        ("1 J", "1.1 J", False),
        ("2mg", "3 m g", False),  # another number: different either way
        ("2 mg", "2 g", False),
    ],
)
def test_quantity_verdicts_are_certain(gold: str, pred: str, want: bool) -> None:
    verdict = compare(gold, pred)
    assert (verdict.equal, verdict.path) == (want, "certain"), (gold, pred)


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("12 m^2", "12"),  # one side without a unit: not this rule's pair
        ("25^\\circ C", "298 K"),
        ("2 x", "2 m"),
        ("2mg", "2 m g"),  # a weight (m g) when the letters are variables: the same product of letters
        ("2mg", "2 m \\cdot g"),
        ("5 apples", "5 kg"),
    ],
)
def test_pairs_without_two_quantities_are_left_to_other_rules(gold: str, pred: str) -> None:
    from rewards.answer_text import normalize

    assert quantities_decide(normalize(gold), normalize(pred)) is None


def test_random_unit_text_never_raises() -> None:
    pieces = "1 0.5 10^ -3 { } / * ^ 2 m k g s J N ( ) \\frac \\mathrm{ \\cdot mA kJ hours \\mu E x ** , . Å".split()
    pieces.append(" ")
    texts = random_texts(pieces, seed=14, count=40_000, longest=12)
    for _ in range(20_000):
        a, b = next(texts), next(texts)
        got = quantities_decide(a, b)
        assert got in (None, True, False)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("2mg", "2 m \\cdot g", True),  # was refused for certain: "2mg" read as 2 milligrams, a constant
        ("2mg", "2gm", True),
        ("2mg", "3 m \\cdot g", False),
        ("\\frac{1}{2}mv^2", "0.5 m v^2", True),
    ],
)
def test_letters_that_may_be_variables(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want
