"""Letters written together with digits and operators are a product, not the words of a sentence
(``2x^2+xy+6xz+3yz``): such an answer is compared as math. And a product in calculator syntax
reaches math-verify with its last letter kept (``v*t``: math-verify drops a last letter that names a
unit, t, s, m or g, after which ``v \\cdot`` did not parse)."""

from __future__ import annotations

import pytest

from rewards._symbolic_worker import is_prose
from rewards.answer_text import prose_words
from rewards.equivalence import _for_verify, compare


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("The answer is 5.", 3),
        ("I cannot solve this problem.", 4),  # "I": one letter
        ("Multiple answers: 42 and 24", 3),
        ("it's well-defined, so yes", 4),
        ("2x^2+xy+6xz+3yz", 0),
        ("33xyz+21x-5xy+42xyz-(-7xy)", 0),
        ("2as + 4for + is + print", 0),  # operators on both sides of each: a sum of products
        ("ac + ad + bc + bd", 0),
        ("x = 5 apples", 1),  # a unit after the value: one word, not a sum
        ("{matrix} 1 & 2 {matrix}", 0),
    ],
)
def test_prose_words_are_tokens_between_spaces(text: str, words: int) -> None:
    assert prose_words(text) == words


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("(2x+y)(x+3z)", "2x^2+xy+6xz+3yz"),
        ("33xyz+21x-5xy+42xyz-(-7xy)", "x(y(75z+2)+21)"),
        ("ab+bc+ca", "ca+ab+bc"),
        ("(a + b)(c + d)", "ac + ad + bc + bd"),  # was taken for a four-word sentence
        (
            "\\begin{matrix} 1 & 2 & 3 \\end{matrix} + \\begin{matrix} 1 & 2 & 3 \\end{matrix}",
            "\\begin{matrix} 2 & 4 & 6 \\end{matrix}",
        ),
    ],
)
def test_products_of_letters_are_compared_as_math(gold: str, pred: str) -> None:
    assert compare(gold, pred).equal, (gold, pred)
    assert not is_prose(gold) and not is_prose(pred)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("(2x+y)(x+3z)", "2x^2+xy+6xz+3yz+1", False),
        ("xy+xz", "x(y+z+1)", False),
    ],
)
def test_products_of_letters_that_differ(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want


@pytest.mark.parametrize(
    ("answer", "sent"),
    [
        ("v*t", "$v \\cdot{t}$"),
        ("3*g", "$3 \\cdot{g}$"),
        ("a \\cdot s", "$a \\cdot{s}$"),
        ("a \\times m", "$a \\times{m}$"),
        ("5 m", "$5 m$"),  # a unit after a number, not a product sign: math-verify's unit rule applies
    ],
)
def test_the_last_factor_of_a_product_is_kept_for_math_verify(answer: str, sent: str) -> None:
    assert _for_verify(answer, answer) == sent


@pytest.mark.parametrize(
    ("gold", "pred"),
    [("2*a*s + 4*f*o*r + i*s + p*r*i*n*t", "2as + 4for + is + print"), ("v*t*s", "s*t*v"), ("3*g", "g*3")],
)
def test_products_ending_in_a_unit_letter_are_equal(gold: str, pred: str) -> None:
    assert compare(gold, pred).equal, (gold, pred)
