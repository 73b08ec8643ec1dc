"""Answer forms found by held-out round 29 (judged evaluation outputs: GSM-Plus, MathOdyssey,
TheoremQA, ConceptMath): a ``####`` line that goes on as a sentence, an option letter with the
option's text, a JSON or Python list in square brackets."""

from __future__ import annotations

import pytest

from rewards.certain_path import decide_or_apart
from rewards.equivalence import Verdict, compare
from rewards.extract import extract_answer, json_answer_at_end


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("8 + 15 = 23\n\nTherefore, Mark needs #### 23 pounds of stuffing to make 4 beds.", "23"),
        ("Alicia spends #### 235.00 on dry-cleaning in 5 weeks.", "235.00"),
        ("#### $1,200 in total for the trip", "$1,200"),
        ("#### 23 pounds", "23 pounds"),  # one unit word: read as before
        ("#### 10 percent of the total cost", "10 percent of the total cost"),
        ("#### 2 x + 3", "2 x + 3"),
        ("#### 3 hours and 20 minutes", "3 hours and 20 minutes"),  # one quantity in two units
        ("#### 5 feet 3 inches long", "5 feet 3 inches long"),
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


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ('{"reasoning": "We add them.", "answer": "22" }', "22"),
        ('```json\n{\n    "answer": 474574\n}\n```', "474574"),
        ('{"answer": "-\\\\frac{8}{3}"}', "-\\frac{8}{3}"),  # JSON escapes read
        ('{"final_answer": "12"}', "12"),
        ('"answer": "5"} and then the answer is 7', "7"),  # a later phrase wins
        ('{"answer": {"x": 1}}', None),  # not a string or number
    ],
)
def test_json_answer_key(text: str, answer: str | None) -> None:
    assert extract_answer(text) == answer


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("22", '{"answer": "22"}', True),
        ("22", '{"answer": 22}', True),
        ("23", '{"answer": "22"}', False),
        ("22", '{"reasoning": "We add the two numbers and get the total.", "answer": "22" }', True),
        ("\\frac{1}{2}", '{"reasoning": "We halve it.", "answer": "\\\\frac{1}{2}"}', True),
    ],
)
def test_json_answers(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "verdict", "apart"),
    [
        # read from prose and certainly different: math-verify's own reading of the texts still
        # decides, but math-verify is not asked again about the two answers read
        ("31", "The answer is $30$.", None, True),
        ("x^2", "The answer is \\sin x.", None, True),
        ("31", "The answer is 31.", True, False),
        ("31", "The answer is 30.", False, False),  # a plain-text response that ends with its number
        ("\\boxed{31}", "\\boxed{30}", False, False),  # both boxed: refused for certain
        ("31", "So the answer is 30 pens, I think.", None, False),  # "30 pens, I think": not read
    ],
)
def test_answers_read_from_prose_that_differ(gold: str, pred: str, verdict: bool | None, apart: bool) -> None:
    assert decide_or_apart(gold, pred) == (verdict, apart)


@pytest.mark.parametrize(
    ("gold", "pred", "equal", "path"),
    [
        # a one-letter option against an answer without that letter: refused for certain
        ("$B$", "x = \\pm 2, x = \\pm \\sqrt{6}", False, "certain"),
        ("C", "2x - 2", False, "certain"),
        ("A", "(3 - x) / z", False, "certain"),
        ("C", "-\\frac{1}{4}\\ln|x|+C", False, "symbolic"),  # the letter is there: math-verify decides
        ("a", "2a", False, "certain"),
        # a number against another number of things
        ("31", "\\boxed{30 pens}", False, "certain"),
        ("3", "1.50 left", False, "certain"),
        ("3.7", "26 bits", False, "certain"),
        ("31", "31 pens", True, "certain"),  # the number, of things the words name
        ("30000", "30 thousand", True, "certain"),  # a scale word: its value (rewards/scale_words.py)
    ],
)
def test_letters_and_counted_things(gold: str, pred: str, equal: bool, path: str) -> None:
    got = compare(gold, pred)
    assert (got.equal, got.path) == (equal, path)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ('{"reasoning": "x", "answer": "22" }', "22"),
        ('```json\n{"answer": 474574\n}\n```', "474574"),
        ('{"Answer": -6.0}', "-6.0"),
        ('{"answer": "5", "note": "x"}', None),  # another key follows: not the text's end
        ('{"answer": 5, "n": 2}', None),
        ('"answer": "22" } and more text', None),
        ("answer: 5", None),
    ],
)
def test_json_answer_that_ends_the_text(text: str, answer: str | None) -> None:
    assert json_answer_at_end(text) == answer


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("13", '{"reasoning": "We count them all.", "answer": 10}', False),
        ("10", '{"reasoning": "We count them all.", "answer": 10}', True),
        ("B", '{"answer": "16.91 cm"}', False),
    ],
)
def test_json_answer_at_the_end_is_certain(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred) == Verdict(equal, "certain")
