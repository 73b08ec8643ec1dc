"""Answer forms found by held-out round 43 (multiple-choice benchmarks' graded responses, option-letter
extractors' test tables, financial QA): a reference that is an option letter is decided by the option
the response's conclusion states in English (``The answer is (J).``, ``I choose B``, ``Option B is
correct``), even after a boxed value, and a response's own option list does not count as its choice;
numbers written with a scale word (``1.5 million``) are their value. Every example here is written
for this file, not taken from an evaluation set."""

from __future__ import annotations

import pytest

from rewards.certain_path import decide_fast
from rewards.choice_letters import choice_letter, concluding_choice
from rewards.equivalence import compare
from rewards.scale_words import scaled_value

STEPS = "First, 3x + 2 = 11, so 3x = 9 and x = 3.\n\n"


def _assert_verdict(gold: str, pred: str, equal: bool | None) -> None:
    """``equal`` is the verdict; None: nothing is read, so the certain path does not credit it."""
    if equal is None:
        assert decide_fast(gold, pred) is not True
    else:
        assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        # an English choice phrase at the end of a response
        ("C", STEPS + "The correct answer is (C).", True),
        ("C", STEPS + "The correct answer is (D).", False),
        ("J", STEPS + "The answer is (J).", True),
        ("I", STEPS + "Thus, the answer is (I).", True),
        ("I", STEPS + "The answer is I.", True),
        ("E", STEPS + "So the answer is E.", True),
        ("H", STEPS + "The correct answer is (H) True, True.", True),
        ("D", STEPS + "Hence, the best answer is: ( D ).", True),
        ("B", "I choose B", True),
        ("B", "I would pick b", True),
        ("A", "Between A and C, I choose A.", True),
        ("B", "Answer - b", True),
        ("B", "My answer: B", True),
        ("B", "Option B is correct because the slope is negative.", True),
        ("B", "Looking at the options, B is the best.", True),
        ("C", "The best choice is option C", True),
        ("A", "Option A", True),
        ("B", "Therefore: B", True),
        ("B", "B:", True),
        ("B", "**B**", True),
        ("A", "the answer is \\(A\\).", True),
        # the conclusion's option wins over a boxed value and over the options listed first
        ("J", STEPS + "\\[ \\boxed{205} \\]\n\nThe answer is (J).", True),
        ("G", STEPS + "The answer is \\( \\boxed{0.4772} \\).\n\nThe answer is (G).", True),
        ("A", STEPS + "The answer is \\( \\boxed{3} \\).\n\nThe answer is (B).", False),
        ("B", "\nA. 1\nB. 2\nC. 3\nD. 4\nTherefore: B", True),
        ("A", "\nA. 1\nB. 2\nC. 3\nD. 4\nTherefore: B", False),
        ("A", "Among A through E, the answer is D.\n\nThe tree is 23 metres tall.", False),
        # no choice: several letters, a hedge, a name, a pronoun, an article
        ("A", "Among A through E, the answer is A, B, C, D, or E.", None),
        ("B", "The answer is (A) or (B)", False),
        ("D", "so D is the midpoint. Then the area is 5.", None),
        ("B", "Therefore, B and C are congruent.", None),
        ("A", "Answer: A = 5", None),
        ("I", "So I think the answer is 12.", None),
        ("A", "the answer is a rational number", None),
        ("C", "The answer is not C but D.", None),
    ],
)
def test_english_conclusion_states_the_option(gold: str, pred: str, equal: bool | None) -> None:
    _assert_verdict(gold, pred, equal)


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("The answer is (J).", "J"),
        ("Therefore, the best answer is: (c).", "C"),
        ("We choose D!", "D"),
        ("A or B? I choose A", "A"),
        ("A and B are both possible, but A is correct", "A"),
        ("The answer is A but maybe B", "A"),
        ("I think it might be A or B", None),
        ("I don't know the answer", None),
        ("B is not correct; the answer is (C).", "C"),
        ("the correct answer is (D), not option C", "D"),
        ("The answer is " * 5000 + "(B).", "B"),  # only the conclusion is read
    ],
)
def test_concluding_choice(text: str, option: str | None) -> None:
    assert concluding_choice(text) == option


@pytest.mark.parametrize(
    ("answer", "letter"),
    [("B", "B"), ("(b)", "B"), ("B.", "B"), ("B:", "B"), ("**B**", "B"), ("**B", None), ("B::", None)],
)
def test_choice_letter_forms(answer: str, letter: str | None) -> None:
    assert choice_letter(answer) == letter


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("1500000", "1.5 million", True),
        ("1500000", "\\$1.5 million", True),
        ("1.5 million", "1500000", True),
        ("\\$1,500,000", "\\$1.5 million", True),
        ("2000000000", "2 billion", True),
        ("1500", "1.5 thousand dollars", True),
        ("1500000", "\\boxed{1.5 \\text{ million}}", True),
        ("1500000", "1.5 millions", True),
        ("1600000", "1.5 million", False),
        ("1500001", "1.5 million", False),
    ],
)
def test_scale_words(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


def test_scale_words_read_the_value() -> None:
    assert scaled_value("2.5 billion") == 2_500_000_000
    assert scaled_value("3 lakh") == 300_000
    assert scaled_value("-4.2 million") == -4_200_000
    assert scaled_value("12% million") is None
    assert scaled_value("a million") is None


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        # a binary float printed in full by a program: the shorter decimal it is
        ("561", "560.9999999999999", True),
        ("64", "63.999999999999986", True),
        ("1", "0.9999999999999939", True),
        ("-19.4", "-19.400000000000006", True),
        ("0.76", "0.7600000000000051", True),
        ("0.3", "0.30000000000000004", True),
        # digits a writer chose stay as written
        ("1", "0.99999999999999", False),
        ("\\pi", "3.141592653589793", True),  # sixteen digits of pi: the exact value rounded
        ("0.38", "0.38025641025641027", False),
        ("1.000001", "1.000002", False),
    ],
)
def test_binary_floats_printed_in_full(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


def test_an_amount_restated_as_a_percent_is_no_hedge() -> None:
    text = "The revenue rose from $6,160 to $6,268.\n\n**Answer:** The revenue increased by $108, or 1.75%."
    assert decide_fast("108", text) is not False  # math-verify reads 108: not refused as a hedge
    assert compare("108", text).equal
    assert compare("5", "The answer is 5 or 6.").equal is False


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        # a response's last sentence names its value after its one verb: credit only
        ("50", "He scored 25 + 25 = 50 points.\n\nTherefore, his final score was 50 points.</s>", True),
        ("2.5", "We get 3.5 and then 2.5.\nThe value is 2.5.<|im_end|>", True),
        (
            "5\\sqrt{3}",
            "√75 = √25 × √3 = 5√3\n\nSo, the simplified form of the square root of 75 is 5√3.",
            True,
        ),
        ("51", "He scored 25 + 25 = 50 points.\n\nTherefore, his final score was 50 points.", False),
        ("12", "The total is 5 + 7 = 12.\n\nThe answer is not 12.", None),  # a negation: no reading
        ("12", "First 12 apples. The second box is 12 and the third is 7.", None),  # two verbs
    ],
)
def test_last_sentence_names_the_value(gold: str, pred: str, equal: bool | None) -> None:
    _assert_verdict(gold, pred, equal)


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        # <final> and <final_answer> tags hold the answer, as <answer> does
        ("6", "6\n\n<final>6</final>", True),
        ("1/2", "Explanation: the result is 1/2. <final>1/2</final>", True),
        ("(ax+by+ay-bx)(ax+by-ay+bx)", "<final>\\( (a(x-y)+b(x+y))\\,(a(x+y)-b(x-y)) \\)</final>", True),
        ("7", "<final_answer>7</final_answer>", True),
        ("7", "<final>7</final> ... <answer>8</answer>", False),  # the tag that closes last
        ("5", "6\n\n<final>6</final>", False),
    ],
)
def test_final_tags(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize("pred", ["<result>6</result>", "6\n<solution>6</solution>", "6 <end>", "9</final>"])
def test_markup_is_no_bare_answer(pred: str) -> None:
    assert decide_fast("6", pred) is None  # not refused for certain: math-verify reads the text


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("f^{-1}(x) = 10^x", "f^{-1}(y) = 10^y", True),  # an inverse's argument renamed
        ("f'(x)=2x", "f'(t)=2t", True),
        ("f_1(x)=x+1", "f_1(u)=u+1", True),
        ("f^{-1}(x) = 10^x", "f^{-1}(y) = 10^x", False),
        ("f^{-1}(x) = 10^x", "f(y) = 10^y", False),  # another function
    ],
)
def test_renamed_argument_of_a_named_function(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
