"""Answer forms found by held-out round 36 (frontier models' Omni-MATH responses under its rule
grader; the science verifiers' tests of a multimodal RL reward): a binomial coefficient next to a
number, another binomial or a fraction is a factor (latex2sympy reads ``50\\binom{10}{5}`` as
50 + 252 and ``\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}`` as 19, as if they were mixed numbers);
``0.333...`` is 1/3; a Unicode arrow over a letter marks a vector; a ``\\pm`` value with one unit;
``microfarads``; ``tanθ``; ``根号2`` and units in Chinese; temperatures in words and in two scales;
``a²`` for both readers; times of day with a meridiem; ``1/2004!``; a primed symbol ``d'``."""

from __future__ import annotations

import pytest

from rewards.binomial_products import binomials_after_numbers_multiplied
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("50\\binom{10}{5}", "50 \\cdot \\binom{10}{5}"),
        ("(3)\\dbinom{4}{2}", "(3) \\cdot \\dbinom{4}{2}"),
        (
            "\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}",
            "\\binom{5}{2} \\cdot \\binom{4}{2} \\cdot \\binom{3}{1}",
        ),
        ("\\binom{5}{2} \\tfrac12", "\\binom{5}{2} \\cdot \\tfrac12"),
        ("3\\frac{1}{2}", "3\\frac{1}{2}"),  # a mixed number stays one
        ("2^3\\binom{4}{2}", "2^3\\binom{4}{2}"),  # ends a longer term: already a product
        ("a_2\\binom{4}{2}", "a_2\\binom{4}{2}"),
        ("x\\binom{4}{2}", "x\\binom{4}{2}"),
        ("\\binom{n}{k}", "\\binom{n}{k}"),
    ],
)
def test_binomials_next_to_factors_are_multiplied(text: str, written: str) -> None:
    assert binomials_after_numbers_multiplied(text) == written


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("$50 \\cdot \\binom{100}{50}$", "\\boxed{50 \\binom{100}{50}}", True),  # Omni-MATH, labelled true
        ("50 \\binom{10}{5}", "12600", True),
        ("50 \\binom{10}{5}", "302", False),  # latex2sympy's reading, 50 + 252
        ("180", "\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}", True),
        ("19", "\\binom{5}{2}\\binom{4}{2}\\binom{3}{1}", False),
        ("5", "\\binom{5}{2}\\frac{1}{2}", True),
        ("\\frac{21}{2}", "\\binom{5}{2}\\frac{1}{2}", False),
        ("90", "The answer is $\\binom{6}{2}\\binom{4}{2}$ ways.", True),
        ("36", "2\\binom{4}{2}\\binom{3}{1}", True),
        ("\\frac{7}{2}", "3\\frac{1}{2}", True),  # still a mixed number
    ],
)
def test_products_of_binomial_coefficients(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("1/3", "0.333...", True),  # a repeating digit, then an ellipsis
        ("1/3", "0.333\\ldots", True),
        ("\\frac{1}{6}", "0.1666…", True),
        ("\\frac{5}{11}", "0.4545...", True),  # a repeating pair
        ("\\frac{1}{3}", "0.34...", False),
        ("\\pi", "3.14...", False),  # no repetition: cut digits, no exact value
        ("e", "2.718281828...", True),  # long: the rounding rule, not a repeating 1828
        ("F = ma", "F\u20d7 = ma\u20d7", True),  # combining arrows: vectors named by one letter
        ("F = ma", "F\u20d7 = 2ma\u20d7", False),
        ("9.81 ± 0.01 m/s²", "(9.81 ± 0.01) m/s²", True),  # the unit of both values
        ("9.81 \\pm 0.01 m/s^2", "(9.81 \\pm 0.02) m/s^2", False),
        ("3 \\pm 2 x", "(3 \\pm 2) x", False),  # a variable, not a unit
        ("2 \\pm 1 kg", "1 kg, 3 kg", True),
        ("2.5 microfarads", "2.5 μF", True),
        ("10 picofarads", "10 pF", True),
        ("tanθ", "sinθ/cosθ", True),  # a function glued to a Greek letter
        ("\\tan\\theta", "sin\\theta/cos\\theta", True),
        ("tanθ", "cosθ/sinθ", False),
        ("sqrt(2)", "根号2", True),
        ("3\\sqrt{2}", "3根号2", True),
        ("40厘米", "0.4米", True),  # centimetres and metres
        ("40厘米", "0.5米", False),
        ("3千克", "3000克", True),
        ("15 degrees Celsius", "$\\boxed{15^\\circ C}$", True),  # temperatures: scale words and letters
        ("15 degrees Celsius", "59 °F", True),  # converted exactly
        ("15 degrees Celsius", "15 °F", False),  # math-verify reads only the numbers
        ("15^\\circ C", "288.15 K", True),
        ("25 C", "25 F", False),
        ("a² + 2ab + b²", "2(a² + 2ab + b²)", False),  # math-verify read both as the number 2
        ("a² + 2ab + b²", "(a+b)^2", True),
        ("10^{-3}", "10⁻³", True),
        ("2:35 P.M.", "2:35 A.M.", False),  # times of day: math-verify read the numbers only
        ("2:35 P.M.", "14:35", True),
        ("2:35 P.M.", "2:35", True),  # the half of the day left out
        ("12:00 A.M.", "0:00", True),
        ("1:10 P.M.", "The meeting ends at $\\boxed{1:10 \\text{ A.M.}}$", False),
        ("2:3", "4:6", True),  # no meridiem: a ratio, math-verify's reading
        ("\\frac{1}{2004!}", "\\frac{1}{2005!}", False),  # both 0 as floats to math-verify
        ("\\frac{1}{2004!}", "1/2004!", True),
        ("\\frac{\\pi r^2 (d' - d) V^2}{2d^2}", "\\frac{\\pi r^2 (d' - d) V^2}{2d^3}", False),  # d' is not d
        ("\\frac{\\pi r^2 (d' - d) V^2}{2d^2}", "\\frac{\\pi r^2 V^2 (d' - d)}{2d^2}", True),
        ("2小时", "120分钟", True),
    ],
)
def test_round36_forms(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("swing dance class", "So it is $\\boxed{swing dance class}$.", True),
        ("Acorns to Oaks", "Therefore, the final answer is $\\boxed{\\text{Acorns to Oaks}}$.", True),
        ("1 hour and 45 minutes", "So the answer is $\\boxed{1 hour and 45 minutes}$.", True),
        ("swing dance class", "<think>\nMaybe tango?\n</think>\n<answer>swing dance class</answer>", True),
        ("swing dance class", "So it is $\\boxed{tango class}$.", False),
        ("swing dance class", "<answer>tango class</answer>", False),
        ("swing dance class", "I like swing dance class.", False),  # not boxed: not the answer
    ],
)
def test_a_phrase_as_reference_given_as_the_answer(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
