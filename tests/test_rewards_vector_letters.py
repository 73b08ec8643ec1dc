"""A vector named by one letter is that letter however it is decorated (rewards.answer_text.
plain_vector_letters, applied by rewards.equivalence.compare to both sides). math-verify reads
``\\vec{a}`` as a symbol ``vec{a}`` and ``\\vec a`` not at all, so it refuses ``\\vec a`` against
``\\mathbf a``. A name of several letters keeps its arrow: ``AB`` as letters is the product, which
would make the vector AB equal to BA."""

from __future__ import annotations

import pytest

from rewards.answer_text import plain_vector_letters
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("\\vec{a}", "a"),
        ("\\vec a + \\vec{b}", "a + b"),
        ("3\\boldsymbol{a}-\\bm{b}", "3a-b"),
        ("\\mathbf{v}\\cdot\\mathbf{w}", "v\\cdot w"),  # a command before: a space keeps it one
        ("\\overrightarrow{a}", "a"),
        ("\\vv{u}", "u"),
        ("\\overrightarrow{AB}", "\\overrightarrow{AB}"),  # several letters: kept
        ("\\vec{AB}", "\\vec{AB}"),
        ("\\vec ab", "\\vec ab"),  # \vec applies to a only; left as written
        ("\\vector{a}", "\\vector{a}"),  # another command
        ("\\mathbf{12}", "\\mathbf{12}"),
        ("no vectors here: 3x+1", "no vectors here: 3x+1"),
    ],
)
def test_plain_vector_letters(text: str, want: str) -> None:
    assert plain_vector_letters(text) == want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("$a$", "$\\vec{a}$", True),
        ("$a + b$", "$\\vec{a} + \\vec{b}$", True),
        ("$3a$", "$3\\vec{a}$", True),
        ("$\\boldsymbol{a}$", "$\\vec{a}$", True),
        ("$\\vec a$", "$\\mathbf{a}$", True),
        ("$a + b$", "$\\bm{a} + \\bm{b}$", True),
        ("$\\vec{a}\\cdot\\vec{b}$", "$\\mathbf{a}\\cdot\\mathbf{b}$", True),
        (
            "$\\frac{1}{2}\\vec{a}+\\frac{1}{3}\\vec{b}$",
            "The answer is $\\boxed{\\frac{\\vec a}{2}+\\frac{\\vec b}{3}}$.",
            True,
        ),
        ("$\\vec{a}$", "$\\vec{b}$", False),
        ("$2\\vec{a}$", "$\\vec{a}$", False),
        ("$\\vec{a} - \\vec{b}$", "$\\vec{b} - \\vec{a}$", False),
        ("$\\vec{AB}$", "$\\overrightarrow{AB}$", True),
        ("$\\overrightarrow{AB}$", "$\\overrightarrow{BA}$", False),  # not the product A B
    ],
)
def test_decorated_vectors_compare_as_their_letters(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred, 10.0).equal is want
    assert compare(pred, gold, 10.0).equal is want
