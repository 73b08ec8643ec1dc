"""Answer forms found by held-out round 30 (reasoning models' judged outputs, MGSM-style responses
in ten languages): a box inside the thinking when nothing after ``</think>`` gives an answer,
"the answer is" in other languages, words in other scripts, a plain-text response that ends with
its number, and math-verify's readings cut inside a text-mode subscript."""

from __future__ import annotations

import pytest

from rewards._symbolic_worker import cut_extraction, plain_subscripts
from rewards.answer_text import prose_words
from rewards.certain_path import answer_and_trust
from rewards.equivalence import Verdict, compare
from rewards.extract import extract_answer

_CUT_SUMMARY = (
    "<think>So m = 25 and n = 8.\n\n**Final Answer**\n\\boxed{33}\n</think>\n\n"
    "Given the system, we compute \\( 4 \\left(-\\frac{7}{24}\\right) + 3"
)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (_CUT_SUMMARY, "33"),
        ("<think>try \\boxed{5}</think> The answer is 6.", "6"),  # the part after </think> answers
        ("<think>try \\boxed{5}</think> So \\boxed{6}", "6"),
        ("<think>no box here</think> cut off", None),
        ("青い糸 2 巻 + 白い糸 1 巻 = 3 巻が必要になります。答えは 3 です。", "3"),
        ("... also insgesamt 9 x 60 = 540 Meter pro Woche. Die Antwort ist 540.", "540"),
        ("Par conséquent, Josh a réalisé un bénéfice de 195 000 $. La réponse est 195 000.", "195 000"),
        ("... = 3 мотка пряжи. Ответ: 10 000.", "10 000"),
        ("... 60 - 40 = 20 ถ้วยในมื้อสุดท้ายของวัน คำตอบคือ 20.", "20"),
        ("... = 540 metros por semana. La respuesta es 540.", "540"),
        ("... 정답은 12입니다.", "12"),
    ],
)
def test_answers_in_thinking_and_other_languages(text: str, answer: str | None) -> None:
    assert extract_answer(text) == answer


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("La réponse est 195 000.", 3),  # accented Latin
        ("Ответ: это число", 3),  # Cyrillic
        ("講堂に残っている生徒の総数は 280 人になります。", 2),  # kana and kanji runs
        ("十五只", 1),
        ("\\alpha + \\beta", 0),
        ("αβ + πr", 0),  # Greek letters are maths
        ("The answer is 5.", 3),
    ],
)
def test_words_in_other_scripts(text: str, words: int) -> None:
    assert prose_words(text) == words


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("We add 3 and 4 to get 7 in all. The answer is 7.", ("7", True)),
        ("答えは44です。", ("44", True)),
        ("Die Antwort ist 540.", ("540", True)),
        ("The answer is 7. Let me check that again: 8", ("7", False)),  # more text follows
        ("The answer is $7$.", ("7", False)),  # math mode: math-verify may read another part
        ("So the answer is 7 apples.", ("7 apples", False)),
        ("approximately 5", ("5", False)),  # a word of approximation, not an answer phrase
        ("So the answer is 1, 2, 3.", ("1, 2, 3", False)),  # a list: math-verify may read one of them
        ("Ответ: 10 000.", ("10 000", True)),
        ("Die Antwort ist 1,5.", ("1,5", True)),
    ],
)
def test_a_plain_text_response_that_ends_with_its_number(text: str, read: tuple[str, bool]) -> None:
    assert answer_and_trust(text) == read


@pytest.mark.parametrize(
    ("gold", "pred", "verdict"),
    [
        ("33", _CUT_SUMMARY, Verdict(True, "certain")),
        ("34", _CUT_SUMMARY, Verdict(False, "certain")),
        ("3", "... = 3 巻が必要になります。答えは 3 です。", Verdict(True, "certain")),
        ("4", "... = 3 巻が必要になります。答えは 3 です。", Verdict(False, "certain")),
        ("195000", "La réponse est 195 000.", Verdict(True, "certain")),
        ("540", "Die Antwort ist 540.", Verdict(True, "certain")),
        ("541", "Die Antwort ist 540.", Verdict(False, "certain")),
        # math-verify reads a text-mode subscript cut short (the string "\\lambda_{") on both
        # sides and called them equal; the subscript is read as a name now
        (
            "\\lambda_{\\text{red}}/\\sqrt{2}",
            "\\boxed{\\lambda_{\\text{red}} \\sqrt{2+\\sqrt{2}}}",
            Verdict(False, "symbolic"),
        ),
        (
            "\\lambda_{\\text{red}}/\\sqrt{2}",
            "\\boxed{\\frac{\\lambda_{\\text{red}}}{\\sqrt{2}}}",
            Verdict(True, "symbolic"),
        ),
        ("v_\\text{max}/2", "\\boxed{\\frac{v_{\\text{max}}}{2}}", Verdict(True, "symbolic")),
    ],
)
def test_round30_pairs(gold: str, pred: str, verdict: Verdict) -> None:
    assert compare(gold, pred) == verdict


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("\\lambda_{\\text{red}}/\\sqrt{2}", "\\lambda_{red}/\\sqrt{2}"),
        ("v_\\text{max}", "v_{max}"),
        ("E_{\\mathrm{kin}} = 5", "E_{kin} = 5"),
        ("x_{1}", "x_{1}"),
        ("\\text{red}", "\\text{red}"),
    ],
)
def test_text_subscripts_written_plain(text: str, plain: str) -> None:
    assert plain_subscripts(text) == plain


def test_a_reading_cut_inside_braces() -> None:
    assert cut_extraction(["\\lambda_{"])
    assert not cut_extraction(["\\text{Yes}"])
    assert not cut_extraction([])
    assert not cut_extraction([1, "\\lambda_{"])  # a parsed value: math-verify compares values


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("B", "\\boxed{B\\text{（6）}}", True),  # an option letter with the option's value
        ("B", "\\boxed{B (6)}", True),
        ("C", "\\boxed{B (6)}", False),
    ],
)
def test_option_letter_with_its_value(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred) == Verdict(equal, "certain")
