"""Short text answers against a short sentence that names them at its end (``blue`` against ``The
color is blue.``): credit only, never for a sentence with a negation or with more than the answer
after its "is"."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("blue", "the color is blue", True),
        ("blue", "The color is blue.", True),
        ("Paris", "The capital of France is Paris.", True),
        ("The winner was Alice!", "Alice", True),  # a reference sentence
        ("blue", "It is blue", True),
    ],
)
def test_short_text_named_at_the_end_of_a_sentence(gold: str, pred: str, want: bool) -> None:
    verdict = compare(gold, pred)
    assert (verdict.equal, verdict.path) == (want, "certain"), (gold, pred, verdict)


@pytest.mark.parametrize(
    "pred",
    [
        "The color is not blue.",
        "The color isn't blue",
        "the color is blue or red",
        "the color is red",
        "blue is not the color",
        "the first color is red and the second color of the flag is blue",  # which one is the answer?
    ],
)
def test_short_text_sentences_that_do_not_name_the_answer(pred: str) -> None:
    assert compare("blue", pred).equal is False


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        # the same text up to the case of words, math delimiters and \geq / \ge
        ("all integers k ≥ 2", "All integers $k \\geq 2$.", True),
        ("all integers $n \\leq 5$", "All integers n ≤ 5", True),
        ("all integers K ≥ 2", "All integers $k \\geq 2$.", False),  # k is not K
        # an answer phrase followed by the whole reference as text
        ("all integers k ≥ 2", "Final answer: All integers $k \\geq 2$.", True),
        ("no solution", "The answer is: No solution.", True),
        ("all real numbers", "Answer: all real numbers", True),
        ("all integers k ≥ 2", "Final answer: All integers $k \\geq 3$.", False),
    ],
)
def test_text_answers_up_to_case_and_answer_phrase(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)
