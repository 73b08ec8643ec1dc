"""Answer forms found by held-out round 39 (test tables of tutoring apps' answer checkers in
TypeScript, R and PHP; graded GPT-3 responses to university maths): two percents compare as the
numbers written (``10%`` is not ``0.1%``, which the percent-as-fraction reading had credited); a
question part's label before a number (``(a) 5``) is no product; a spaced ``x`` between numbers
is a times sign (``2^3 x 3``); an article before a text answer is dropped (``The Nile.``). Round
40 (GeoQA responses graded by math-verify): a unit of area after a radical (``4√{3}cm²``), which
math-verify reads as a product of letters, is decided on the values. Round 41 (judge prompts'
examples): a one-sentence answer that names a value at its end after its verb is credited when
the value is the reference (``The interval ... is [50, 100].``); WeBWorK's ``C(52,5)`` and
``fact(3)`` in calculator syntax. Round 42 (Science Bowl answer lines): ``AND``/``OR`` in capitals,
times signs typed as ``x`` on both sides, ``x/1!``; a constant of integration in the response only;
a false equation in the response against an equation."""

from __future__ import annotations

import pytest

from rewards.answer_text import in_math_mode
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        # two percents: the numbers written, not one read as a fraction of the other
        ("$10\\%$", "0.1%", False),
        ("10%", "0.1\\%", False),
        ("50\\%", "0.5 percent", False),
        ("10%", "10.0%", True),
        ("12.5\\%", "12.50%", True),
        # one percent against a bare number: either reading, as before
        ("10\\%", "0.1", True),
        ("0.1", "10%", True),
        ("\\frac12", "50%", True),
        # a part label before an answer without letters
        ("5", "(a) 5", True),
        ("(a) 5", "5", True),
        ("5", "(ii) \\frac{5}{1}", True),
        ("\\frac12", "(c) 0.5", True),
        ("5", "(a) 6", False),
        ("5", "(b) 6", False),
        # a spaced x between numbers, when x is no variable on either side
        ("$2^3 \\times 3$", "2^3 x 3", True),
        ("$2^2 \\times 3^2$", "2^2 X 3^2", True),
        ("24", "2^3 x 3", True),
        ("2^3 \\times 3", "2^3 x 4", False),
        ("24x", "2^3 x 3", True),
        ("x^2", "2 x 3", False),
        # an article before a text answer
        ("nile", "The Nile.", True),
        ("ellipse", "an ellipse", True),
        ("a parabola", "parabola", True),
        ("nile", "The Amazon.", False),
        ("A", "the A", False),
        # round 40 (GeoQA responses): a unit of area or volume after a radical; a braced root sign
        ("4√{3}cm²", "<answer>4√3</answer>", True),
        ("4\\sqrt{3} cm^{2}", "4\\sqrt3", True),
        ("8\\pi m^3", "\\boxed{8\\pi}", True),
        ("4\\sqrt{3} cm^{2}", "2\\sqrt3", False),
        ("4√{3}cm²", "4", False),
        ("x cm^2", "x", False),
        ("\\frac{√{3}}{2}", "\\frac{\\sqrt3}{2}", True),
        # round 41 (judge prompts' examples): a sentence that names a value at its end
        ("[50, 100]", "The interval where the blue curve achieves the maximum value is [50, 100].", True),
        ("1500", "The value of the blue curve at t=50 is 1.5e3.", True),
        ("(3, 4]", "The solution set is (3, 4].", True),
        ("The probability is 1/2.", "\\frac12", True),
        ("[50, 100]", "The interval is [50, 101].", False),
        ("12", "The area is 12 and the perimeter is 14.", False),
        ("√2/2", "The value is √2/2.", True),
        ("π + 1", "The value is π + 1.", True),
        ("3", "The value is π + 1.", False),
        # round 41 (WeBWorK answer logs): C(n,k) and fact(n) in calculator syntax
        ("C(52,5)-C(40,5)", "52!/5!/47! - 40!/35!/5!", True),
        ("C(52,5)-C(40,5)", "1940952", True),
        ("(C(32,5)-C(20,5))/(C(52,5)-C(40,5))", "185872/1940952", True),
        ("52-13", "C(39,1)", True),
        ("fact(3)", "3*2*1", True),
        ("C(52,5)", "2598961", False),
        ("3", "C(x,2)", False),
        ("(3, 2)", "C(3, 2)", False),  # a point named C is no binomial of a pair
        # round 42 (Science Bowl answer lines): capital connectives, times signs on both sides,
        # factorials of whole numbers (math-verify refused x for x/1!)
        ("-2 + i AND -2 - i", "-2 ± i", True),
        ("4 OR -4", "x=±4", True),
        ("2 x 2 x 2 x 2 x 3 x 5", "2^4 x 3 x 5", True),
        ("2 x 2 x 3", "2^2 x 4", False),
        ("2x", "2 x 3", False),
        ("x", "x/1!", True),
        ("1, x, x²/2", "1, x/1!, x²/2!", True),
        ("\\frac{x^3}{6}", "\\frac{x^3}{4!}", False),
        # a constant of integration the reference does not name (GHOSTS' rated antiderivatives)
        ("6\\sinh(x) + 12x", "12x + 6\\sinh(x) + C", True),
        ("x^2", "\\boxed{x^2 + C_1}", True),
        ("x^2", "x^3 + C", False),
        ("x^2 + C", "x^2", False),  # a reference with + C asks for it
        ("5", "5 + C", False),
        # a false equation is no answer, whatever the reference's form (CMoA's agreement tests)
        ("1 + 2 = 3", "1 + 1 = 3", False),
        ("x = 3", "x = 1 + 1 = 3", False),
        ("1 + 2 = 3", "2 + 1 = 3", True),
    ],
)
def test_round39_forms(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


def test_text_in_math_mode_closes_after_a_backslash() -> None:
    assert in_math_mode("2\\sqrt{3}") == "$2\\sqrt{3}$"
    assert in_math_mode("\\boxed{}. \\") == "$\\boxed{}. \\ $"  # not an escaped closing dollar


def test_a_degenerate_rollout_cut_after_a_backslash_is_compared_not_timed_out() -> None:
    """A rollout of empty boxes (round 29's Qwen2.5-Math RL runs) whose last 4,000 characters end in
    a backslash: wrapped in dollars for math-verify, its closing dollar was escaped, and the boxed
    inline-math pattern backtracked in cubic time (7 s) until the 3 s bound killed the worker."""
    text = "The answer is \\boxed{}. " + "\\boxed{}. " * 500 + "\\"
    assert compare("\\frac{11}{36}", text).path == "symbolic"
