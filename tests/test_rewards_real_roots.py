"""Odd roots of negative numbers read as real roots (rewards/real_roots.py), credit only."""

from __future__ import annotations

import pytest
from random_text import random_texts

from rewards.equivalence import compare, decide_fast
from rewards.real_roots import odd_roots_as_real


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("(-5)^{1/3}", "(-5^{1/3})"),
        ("(-5)^{2/6}", "(-5^{1/3})"),  # in lowest terms first
        ("(-5)^{4/3}", "(5^{4/3})"),  # an even power of the real root is positive
        ("(-5)^{-1/3}", "(-5^{-1/3})"),
        ("(-5)^{0.2}", "(-5^{1/5})"),
        ("(-8)^{\\frac{1}{3}}", "(-8^{1/3})"),
        ("x+(-8)^{1/3}", "x+(-8^{1/3})"),
        ("(-4)^{1/2}", "(-4)^{1/2}"),  # an even root of a negative number is not real
        ("(-8)^{2}", "(-8)^{2}"),  # an integer power needs nothing
        ("(-2)^{n+1}", "(-2)^{n+1}"),  # not a constant exponent
    ],
)
def test_odd_roots_as_real(text: str, want: str) -> None:
    assert odd_roots_as_real(text) == want


def test_text_without_negative_powers_is_the_same_object() -> None:
    text = "5^{1/3}"
    assert odd_roots_as_real(text) is text


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("-2", "(-8)^{1/3}", True),  # latex2sympy reads the principal root 1 + sqrt(3) i: refused
        ("(-8)^{\\frac13}", "-2", True),
        ("4", "(-8)^{2/3}", True),
        ("-1.709975946", "(-5)^(1/3)", True),  # KAS's pairs, plain syntax (a truncated reference)
        ("-0.584803547", "(-5)^(-1/3)", True),
        ("-1.379729661", "(-5)^(1/5)", True),
        ("-1.379729661", "(-5)^(0.2)", True),
        ("8.549879733", "(-5)^(4/3)", True),
        ("(-8)^{1/3}", "2", None),  # credit only: a refusal stays math-verify's
        ("-2", "(-4)^{1/2}", None),
    ],
)
def test_odd_roots_of_negative_numbers_are_credited_as_real(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


def test_random_and_adversarial_text_raises_nothing() -> None:
    alphabet = ["(", ")", "-", "^", "{", "}", "1", "3", "/", ".", "\\frac", " ", "x", "8"]
    for text in random_texts(alphabet, seed=3, count=5000, longest=60, shortest=0):
        assert isinstance(odd_roots_as_real(text), str)
    long = "(-" + "1" * 12 + ")^{" + "{" * 50_000  # bounded repetitions: one linear scan
    assert odd_roots_as_real(long) is long


def test_compare_credits_the_real_root_on_the_certain_path() -> None:
    verdict = compare("-2", "\\boxed{(-8)^{1/3}}")
    assert verdict.equal and verdict.path in ("certain", "cache")
