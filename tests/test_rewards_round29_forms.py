"""Answer forms found by held-out round 29 (judged evaluation outputs: GSM-Plus, MathOdyssey,
TheoremQA, ConceptMath): a ``####`` line that goes on as a sentence, an option letter with the
option's text, a JSON or Python list in square brackets."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.extract import extract_answer


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("8 + 15 = 23\n\nTherefore, Mark needs #### 23 pounds of stuffing to make 4 beds.", "23"),
        ("Alicia spends #### 235.00 on dry-cleaning in 5 weeks.", "235.00"),
        ("#### $1,200 in total for the trip", "$1,200"),
        ("#### 23 pounds", "23 pounds"),  # one unit word: read as before
        ("#### 10 percent of the total cost", "10 percent of the total cost"),
        ("#### 2 x + 3", "2 x + 3"),
    ],
)
def test_hash_line_number_then_sentence(text: str, answer: str) -> None:
    assert extract_answer(text) == answer


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        (
            "23",
            "Therefore, Mark needs #### 23 pounds of stuffing to make 4 chihuahua beds and 3 collie beds.",
            True,
        ),
        ("24", "Therefore, Mark needs #### 23 pounds of stuffing to make 4 chihuahua beds.", False),
        ("235", "Alicia spends #### 235.00 on dry-cleaning in 5 weeks.", True),
        # an option letter against the option chosen with its text
        ("B", "B. Carl has a winning strategy.", True),
        ("D", "D) no horizontal asymptotes", True),
        ("$B$", "The correct answer is **B) cosine**.", True),
        ("B", "(B) an acute triangle", True),
        ("A", "(B) an acute triangle", False),
        ("C", "B) 12", False),
        ("(a)", "Therefore, the answer is (a) Baire category theorem.", True),
        ("(b)", "Therefore, the answer is (a) Baire category theorem.", False),
        ("(a)", "Therefore, the answer is (a) [0,1].", True),
        # square brackets around three items or more: a list (a tuple), not an interval
        ("[1, 2, 4, 8]", "1, 2, 4, 8", True),
        ("[1, 2, 4, 8]", "\\boxed{1, 2, 4, 8}", True),
        ("[1, 2, 4, 8]", "(1, 2, 4, 8)", True),
        ("[x, 2x, 3]", "x, 2x, 3", True),
        ("[1, 2, 4, 8]", "8, 4, 2, 1", False),  # a tuple keeps its order
        ("[1, 2, 4, 8]", "(1, 2, 4, 9)", False),
        ("[1,2]", "(1,2)", False),  # two items: still an interval
    ],
)
def test_round29_forms(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
