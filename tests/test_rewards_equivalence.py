"""Answer extraction and equivalence (rewards/equivalence.py), table-driven."""

from __future__ import annotations

import threading
import time

import pytest

from rewards.bounded import get_pool
from rewards.equivalence import decide_fast, extract_answer, is_equivalent, normalize

EXTRACT_CASES = [
    ("so we get \\boxed{42}.", "42"),
    ("first \\boxed{1} then \\boxed{\\frac{1}{2}}", "\\frac{1}{2}"),
    ("nested \\boxed{\\frac{\\sqrt{3}}{2}} end", "\\frac{\\sqrt{3}}{2}"),
    ("the value is $\\boxed 7$", "7"),
    ("\\fbox{x+1}", "x+1"),
    ("Natalia sold 48/2 = 24 clips.\n#### 72", "72"),
    ("Thus the answer is 3.5. Next we", "3.5"),
    ("So the answer is 5!", "5"),  # prose: "!" ends the sentence, it is not 5! = 120
    ("So the answer is 5! Great.", "5"),
    ("So the answer is $5!$.", "5!"),  # in math mode it is the factorial
    ("Final Answer: $x=2$.", "x=2"),
    ("so the answer is of $6+1=7$ indeed", "6+1=7"),
    ("Final Answer: The largest $k$ is 12.", None),  # $k$ names the quantity, the value follows
    ("so the final answer is: the area of $T$ is $40$.", None),
    ("<think>maybe \\boxed{1}</think> The answer is \\boxed{2}", "2"),
    # nothing after </think> gives an answer (a summary cut off by the length limit): the thinking's
    # last box, as math-verify and verl's default math reward (the last box of the whole text) read it
    ("<think>I think \\boxed{1}</think> no answer here", "1"),
    ("<think>I think \\boxed{1}</think> The answer is 2.", "2"),
    ("<think>no box</think> cut off", None),
    ("no answer at all", None),
    ("", None),
    ("unclosed \\boxed{12", None),
    ("<think>2+2 is 4</think> <answer>4</answer>", "4"),  # R1-Zero template
    ("<think>..</think><answer>The answer is 84.</answer>", "84"),
    ("<answer>\\boxed{7}</answer>", "7"),
    ("\\boxed{<answer>7</answer>}", "7"),
    ("<answer>1</answer> then <answer>2</answer>", "2"),  # the last tag
    ("<answer></answer> 5", None),
    ("<answer>3", None),  # unclosed
    ("Some reasoning.\nAnswer: \\$18", "18"),  # a dollar sign, not math mode
]


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("\\boxed{84}", "<answer>84</answer>", True),
        ("\\boxed{\\frac{1}{2}}", "<answer>0.5</answer>", True),
        ("84", "<think>maybe 12</think>\n<answer> 84 </answer>", True),
        ("\\boxed{100}", "<answer>42</answer>", False),  # a tag is an answer, not an inequality
        ("42", "<answer>42</answer> Some text <answer>100</answer>", None),  # which tag? math-verify
        ("5", "<answer>We add the two and get seven apples</answer>", None),  # prose: math-verify
    ],
)
def test_answer_tags_are_answers(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(("text", "expected"), EXTRACT_CASES)
def test_extract_answer(text: str, expected: str | None) -> None:
    assert extract_answer(text) == expected


EQUIVALENT = [
    ("18", "18.0"),
    ("18", "18.00"),
    ("\\frac12", "0.5"),
    ("\\dfrac{1}{2}", "\\tfrac{1}{2}"),
    ("1/2", "0.5"),
    ("3\\frac{1}{2}", "3.5"),
    ("3 1/2", "7/2"),
    ("1,000", "1000"),
    ("1{,}000", "1000"),
    ("1.5\\times10^{3}", "1500"),
    ("2.5e-3", "0.0025"),
    ("-\\frac{3}{4}", "-0.75"),
    ("\u22125", "-5"),
    ("50\\%", "50"),
    ("50\\%", "0.5"),
    ("0.12", "12\\%"),
    ("$\\boxed{7}$", "7"),
    ("\\(7\\)", "\\[7\\]"),
    ("\\text{7}", "7"),
    ("10^\\circ", "10"),
    ("10^{\\circ}", "10"),
    ("5\\text{ cm}^2", "5"),
    ("\\$1,000", "1000 dollars"),
    ("x=3", "3"),
    ("3", "x = 3"),
    ("7", "6+1=7"),
    ("x=1, y=2", "y=2, x=1"),
    ("x=1, y=2", "(1, 2)"),
    ("\\{1,2,3\\}", "\\{3,1,2\\}"),
    ("1, 2, 3", "3, 2, 1"),
    ("(1,2]", "(1, 2]"),
    ("(-\\infty, 3]", "(-\\infty,3]"),
    ("[0, \\infty)", "\\left[0,\\infty\\right)"),
    ("B", "(b)"),
    ("\\text{(C)}", "C"),
    ("Monday", "monday "),
    ("\\text{Yes}", "yes"),
    ("\\frac{1}{3}", "0.3333333333"),
    ("\\frac{1}{12}", "0.0833333333333333"),
    ("\\frac{1}{3}", "0.3333333"),
    ("\\pi", "3.14159265"),
    # symbolic path (bounded worker)
    ("2\\sqrt{3}", "\\sqrt{12}"),
    ("\\sqrt{2}/2", "\\frac{1}{\\sqrt{2}}"),
    ("\\pi", "3.1415926536"),
    ("\\frac{x+1}{2}", "0.5x+0.5"),
    ("x^2-1", "(x-1)(x+1)"),
    ("x \\le 3", "x\\leq 3"),
    ("x>3", "3<x"),
    ("y=2x+3", "2x+3"),
    ("2^{10}", "1024"),
    ("\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}", "\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}"),
]

NOT_EQUIVALENT = [
    ("18", "19"),
    ("1000000", "1000001"),
    ("4", "4.0001"),
    ("\\frac{1}{3}", "0.33"),
    ("\\frac{1}{3}", "0.33333"),
    ("\\pi", "3.14159"),
    ("(1, 2)", "(2, 1)"),
    ("(1,2)", "[1,2]"),
    ("x=2, y=1", "(1, 2)"),
    ("\\{1,2\\}", "(1,2)"),
    ("\\{1,2\\}", "\\{1,2,3\\}"),
    ("-5", "5"),
    ("B", "C"),
    ("Yes", "No"),
    ("3", "3x"),
    ("2\\sqrt{3}", "\\sqrt{13}"),
    ("x^2-1", "(x-1)^2"),
    ("x \\le 3", "x < 3"),
    ("7", ""),
    ("", "7"),
]


@pytest.mark.parametrize(("gold", "pred"), EQUIVALENT)
def test_equivalent(gold: str, pred: str) -> None:
    assert is_equivalent(gold, pred, timeout_s=30.0), (gold, pred)


@pytest.mark.parametrize(("gold", "pred"), NOT_EQUIVALENT)
def test_not_equivalent(gold: str, pred: str) -> None:
    assert not is_equivalent(gold, pred, timeout_s=30.0), (gold, pred)


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("18", "18.0"),
        ("\\frac12", "0.5"),
        ("1,000", "1000"),
        ("\\{1,2\\}", "\\{2,1\\}"),
        ("50\\%", "0.5"),
        ("A", "(a)"),
        ("5\\text{ cm}^2", "5"),  # a unit with its power (normalised to "5 cm ^2")
        ("6 \\text{ m}^{2}", "6"),
        ("\\frac{v^2_0}{g}", "\\frac{v_0^2}{g}"),  # a superscript before the subscript: the same symbol
        ("\\omega^{2}_{0} t", "t\\omega_0^2"),
    ],
)
def test_fast_path_decides_simple_forms_without_worker(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is True


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("2\\sqrt{3}", "\\sqrt{12}", True),
        ("\\frac{\\pi}{4}", "\\frac{1}{4}\\pi", True),
        ("\\sqrt{2}/2", "\\frac{1}{\\sqrt{2}}", True),
        ("2^{10}", "1024", True),
        ("4\\sqrt{2}", "5.65685", False),
        ("4\\sqrt{2}", "5.656854", True),
        ("4\\sqrt{2}", "5.656854249", True),
        ("4\\sqrt{2}", "5.66", False),
        ("5.66", "4\\sqrt{2}", False),
        ("7", "1+\\frac{\\sqrt{3}}{3}", False),
        ("n^{2}+n+1", "7", False),
        ("3", "3x", False),
    ],
)
def test_closed_form_constants_are_decided_without_worker(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want
    assert is_equivalent(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("2", "AZYUK2A", False),  # a word with a letter the reference lacks
        ("13\\pi R^2", "dog", False),
        ("\\frac{\\pi}{4}", "pi", False),
        ("x \\cdot y \\cdot z", "xyz", None),  # every letter is in the reference: a product
        ("2ab", "ba", None),
        ("\\sqrt{2}", "sqrt", None),  # a function name is not a word of letters
        ("0", "A0B", None),  # a digit 0 makes the product 0
    ],
)
def test_bare_words_against_math(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("|x|", "\\sqrt{x^2}"),
        ("e^{23110}", "e^{23110}+1"),
        ("\\frac{n(n+1)}{2}", "\\sum_{k=1}^{n} k"),
        ("\\log_2 x", "\\frac{\\ln x}{\\ln 2}"),
    ],
)
def test_fast_path_defers_symbolic_forms(gold: str, pred: str) -> None:
    assert decide_fast(gold, pred) is None


def test_normalize_strips_wrappers() -> None:
    assert normalize("$\\boxed{\\dfrac{1}{2}}$.") == "\\frac{1}{2}"
    assert normalize("\\left( 1,2 \\right)") == "( 1,2 )"
    # a matrix row break survives; only spacing commands become spaces
    assert normalize("\\begin{pmatrix}2\\\\ 3\\end{pmatrix}") == "\\begin{pmatrix}2\\\\ 3\\end{pmatrix}"
    assert normalize("1\\,000\\;m") == "1 000 m"


def test_normalize_remembers_answers_not_long_texts() -> None:
    """normalize is remembered per answer (each comparison normalizes each side more than once);
    a text longer than an answer is normalized afresh, so model texts do not fill the memo."""
    from rewards import answer_text

    answer_text._normalized.cache_clear()
    assert normalize("\\dfrac{1}{2}") == normalize("\\dfrac{1}{2}") == answer_text._normalize("\\dfrac{1}{2}")
    info = answer_text._normalized.cache_info()
    assert (info.hits, info.currsize) == (1, 1)
    long_text = "The answer is \\dfrac{1}{2}. " * 200
    assert normalize(long_text) == answer_text._normalize(long_text)
    assert answer_text._normalized.cache_info().currsize == 1


def test_bad_types_are_not_equivalent() -> None:
    assert not is_equivalent(None, "1")  # type: ignore[arg-type]
    assert not is_equivalent("1", b"1")  # type: ignore[arg-type]


def test_pathological_latex_is_stopped_by_the_bound() -> None:
    get_pool().warm_up()
    timeouts_before = get_pool().timeouts
    start = time.monotonic()
    assert not is_equivalent("(1+i)^{20000}", "3", timeout_s=1.0)  # sympy expands it for a minute
    elapsed = time.monotonic() - start
    assert elapsed < 10.0
    assert get_pool().timeouts == timeouts_before + 1
    # the pool recovers: a fresh worker answers the next symbolic question
    assert is_equivalent("2\\sqrt{2}", "\\sqrt{8}", timeout_s=30.0)


def test_concurrent_calls_agree_with_sequential_ones() -> None:
    pairs = [(g, p, True) for g, p in EQUIVALENT[::3]] + [(g, p, False) for g, p in NOT_EQUIVALENT[::3]]
    results: dict[int, bool] = {}
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for i, (g, p, _) in enumerate(pairs):
                if i % 4 == k:
                    results[i] = is_equivalent(g, p, timeout_s=30.0)
        except BaseException as exc:  # surfaced by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [results[i] for i in range(len(pairs))] == [want for _, _, want in pairs]
