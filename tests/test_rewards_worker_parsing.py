"""The symbolic worker's faster LaTeX parsing (rewards/latex_prediction.py): a first stage with
decisions settled from the tokens, SLL prediction and full LL where SLL always errs, then plain full
LL only after a syntax error. Every parse must be the one latex2sympy makes on its own (so every
verdict stays math-verify's); the real latex2sympy/ANTLR parser runs here, both ways, on invented
constructs, the shared fixtures' real answers and seeded random LaTeX."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from random_text import random_texts
from sympy import srepr

from rewards import latex_prediction
from rewards.latex_prediction import install_two_stage_parsing
from tools.bench.reward import HAND_PAIRS

latex2sympy2 = pytest.importorskip("latex2sympy2_extended.latex2sympy2")
PredictionMode = pytest.importorskip("antlr4.atn.PredictionMode").PredictionMode

CONSTRUCTS = [
    "x^2/4 + y^2/3 = 1",
    "2x+4y-3=0",
    "y=-\\frac{1}{2}x+\\frac{3}{4}",
    "F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}",
    "\\begin{pmatrix}\\frac{1}{3}\\\\ \\frac{1}{5} \\end{pmatrix}",
    "\\begin{pmatrix}\\frac{1}{3\\sqrt[3]{x}^2}&0\\\\-\\sin(x)&0\\end{pmatrix}",
    "z \\in \\left[-\\frac{3}{2}, -1\\right] \\cup \\left[1, \\frac{3}{2}\\right]",
    "1\\leq|z|\\leq \\frac{3}{2}",
    "\\tan^2(y)+1",
    "\\sec^2(y)",
    "10^{\\frac{-5+\\sqrt{13}}{6}}",
    "(2,1),(1,2),(-1,-20),(-20,-1)",
    "\\{1,2,3\\}",
    "(-\\infty, 3] \\cup (4, \\infty)",
    "V_{1}:V_{2}=11:21",
    "a b c",
    "x y^2 z",
    "f(x) g(x)",
    "\\sin x \\cos x",
    "\\left \\lfloor \\frac{2n-1}{5} \\right \\rfloor",
    "\\frac{d}{dx} x^2",
    "\\int_0^1 x dx",
    "\\lim_{x\\to 0} \\frac{\\sin x}{x}",
    "1,000",
    "3!",
    "\\binom{5}{2}",
    "|x|+|y|",
    "e^{i\\pi}",
    "\\log_2 8",
    "x \\le 3",
    "-3 < x \\le 4",
    # the decisions settled from the tokens, each way
    "x = 1, 2",
    "x^2 = 1",
    "x_1^2 = 4, 5",
    "(x, y) = (1, 2)",
    "x + y = 1",
    "xy = 6",
    "a=b=c",
    "x = 3, y = 7",
    "x = 5+5+1 = 7 =11",
    "x=1/3\\approx1.3",
    "A = \\{1, 2\\}",
    "x \\in [0, 1)",
    "c \\in \\left(-\\infty, 1\\right]\\cup[10,+\\infty)",
    "[0,1) \\cup (2,3] \\setminus \\{5/2\\}",
    "\\{-3, 1 \\pm 2i\\}",
    "1, 3 \\pm 4",
    "\\pm 2",
    "(1 \\pm 2, 3)",
    "(1, 2)",
    "(1, 2, 3)",
    "(a+b)",
    "(a+b)/2",
    "[a+b]",
    "\\boxed{1, 2}",
    "\\boxed{x}+1",
    "\\mathbb{R}",
    "\\emptyset",
    "{}",
    "\\{\\}",
    "(1;2)",
    "x^2_1 + 1",
    "x_1^{2} y",
    "x^{2}_{0} - y_{0}^{2}",
    "x^{y_z}",
    "x^y_z",
    "a \\cdot b / c \\cdot d",
    "a/b/c",
    "2(x+1)",
    "f(x) = x^2+1",
    "V(t) = 750(1.5)^t",
    "\\sum_{k=1}^{n} k \\cdot 2",
    "|x|+|y|",
    "[1,2<x]",
]


LETTERS = ["x", "y", "n", "\\alpha", "\\hat{x}", "e", "i", "\\pi"]


def _atom(rng: random.Random, depth: int) -> str:
    """A random LaTeX term (the first element of each choice is what depth 0 allows)."""
    pick = rng.randrange(12 if depth > 0 else 3)
    if pick == 0:
        return rng.choice(LETTERS)
    if pick == 1:
        return rng.choice(["1", "2", "10", "0.5"])
    if pick == 2:
        return rng.choice(LETTERS) + rng.choice(["^2", "_1", "^{n}", "_1^2", "^2_1", "_{i}^{j}"])
    inner = _expr(rng, depth - 1)
    return [
        f"\\frac{{{inner}}}{{{_expr(rng, depth - 1)}}}",
        f"({inner})",
        f"[{inner}]",
        f"\\sqrt{{{inner}}}",
        f"\\sin({inner})",
        f"|{inner}|",
        f"{_atom(rng, depth - 1)}^{{{inner}}}",
        f"f({inner})",
        f"\\boxed{{{inner}}}",
    ][pick - 3]


def _expr(rng: random.Random, depth: int) -> str:
    out = _atom(rng, depth)
    for _ in range(rng.randrange(3)):
        out += rng.choice([" + ", " - ", "\\cdot ", "/", "", " "]) + _atom(rng, depth)
    return out


def _element(rng: random.Random, depth: int) -> str:
    a, b = _expr(rng, depth), _expr(rng, depth)
    return rng.choice(
        [
            a,
            a,
            f"{a} \\pm {b}",
            f"({a}, {b}]",
            f"({a}, {b}, {_expr(rng, depth)})",
            f"\\{{{a}, {b}\\}}",
            f"{a} = {b}",
            f"{a} < {b} \\le {_expr(rng, depth)}",
            f"{a} \\in [{b}, 1)",
        ]
    )


def random_latex(seed: int, count: int) -> list[str]:
    """``count`` random answers built like real ones: lists, relations, intervals, sets, \\pm,
    set operations and scripts, nested up to depth 2."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        depth = rng.randrange(3)
        elements = [_element(rng, depth) for _ in range(rng.choice([1, 1, 2, 3]))]
        text = rng.choice([", ", "; "]).join(elements)
        out.append(
            rng.choice(
                [
                    text,
                    f"x = {text}",
                    f"{elements[0]} \\cup {_element(rng, depth)}",
                    f"(x, y) = {elements[0]}",
                ]
            )
        )
    return out


PIECES = ["x", "2", "(", ")", "[", "]", "\\{", "\\}", "{", "}", ",", ";", "=", "<", "+", "^", "_", "\\pm"]
PIECES += ["\\in", "\\cup", "\\frac{1}{2}", "\\sqrt{", "|", "\\mathbb{R}", "\\boxed{", "\\cdot", "/"]


def _corpus(fixtures: Path) -> list[str]:
    seen: dict[str, None] = {}
    for g, p, _ in HAND_PAIRS:
        seen[g] = None
        seen[p] = None
    for s in CONSTRUCTS:
        seen[s] = None
    for line in (fixtures / "omni_math_sample.jsonl").read_text(encoding="utf-8").splitlines():
        seen[json.loads(line)["answer"]] = None
    for s in random_latex(seed=14, count=150):
        seen[s] = None
    for s in random_texts(PIECES, seed=14, count=150, longest=10):
        seen[s] = None
    return list(seen)


def _parse(s: str) -> str:
    try:
        return srepr(latex2sympy2.latex2sympy(s))
    except Exception:  # a failure both ways is part of "the same parse" (latex2sympy's exception
        return "error"  # type for some texts depends on what it parsed before)


@pytest.fixture
def two_stage() -> Iterator[Callable[[], None]]:
    restore = install_two_stage_parsing()
    assert restore is not None, "latex2sympy/antlr4 hooks missing: the worker would parse with full LL"
    try:
        yield restore
    finally:
        restore()


def parses_with_and_without(
    restore: Callable[[], None], install: Callable[[], object], corpus: list[str]
) -> tuple[dict[str, str], list[str]]:
    """latex2sympy's parse of each text without a hook (``restore`` takes it out), and the texts
    it parses differently once ``install`` has put the hook back."""
    restore()
    plain = {s: _parse(s) for s in corpus}
    assert install() is not None
    return plain, [s for s in corpus if _parse(s) != plain[s]]


def test_fast_parses_are_latex2sympys_own(two_stage: Callable[[], None], shared_fixtures: Path) -> None:
    corpus = _corpus(shared_fixtures)
    plain, differ = parses_with_and_without(two_stage, install_two_stage_parsing, corpus)
    assert not differ, differ
    assert sum(not v.startswith("error") for v in plain.values()) > len(corpus) // 2


def test_shortcuts_are_built_for_the_installed_grammar() -> None:
    """The pinned latex2sympy has the rules and alternatives the proofs are about; a version that
    does not would silently parse at the old speed (then this fails and the module needs a look)."""
    parser = latex2sympy2._Latex2Sympy().create_parser("x")
    shortcuts = latex_prediction._shortcuts_for(parser)
    assert shortcuts is not None
    assert shortcuts.precedence_loops, "no left-recursive loop decisions found"
    comma = parser.symbolicNames.index("COMMA")
    assert comma in shortcuts.elements[min(shortcuts.elements)][0]  # FOLLOW(element)


@pytest.mark.parametrize(
    "text",
    [
        "x^2+y^2=1",
        "\\log(x^2)",
        "f(x)=x^2+1",
        "x = 1, 2",
        "a=b=c",
        "x = 3, y = 7",
        "\\{-3, 1 \\pm 2i\\}",
        "(1, 2]",
        "(1, 2, 3)",
        "x \\in [0,1) \\cup (2,3]",
        "\\frac{1}{2} \\cdot \\sqrt{3} / 4",
        "x^{2}_{0}+1",
        "x_{0}^{2}+1",
        "(x+1)^2 = 9",
    ],
)
def test_first_stage_parses_common_answers_without_the_full_ll_retry(
    two_stage: Callable[[], None], text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The speed depends on the first stage succeeding: plain SLL erred on every letter with a
    superscript (a third of all texts), and a guess the tokens do not support costs a retry."""
    retries: list[bool] = []
    real = latex_prediction._predict_with_shortcuts

    def record(parser: object, shortcuts: object, first_stage: bool, *modes: object) -> None:
        retries.append(not first_stage)
        real(parser, shortcuts, first_stage, *modes)  # type: ignore[arg-type]

    monkeypatch.setattr(latex_prediction, "_predict_with_shortcuts", record)
    assert not _parse(text).startswith("error")
    assert retries and not any(retries)  # latex2sympy may parse parts of a text again


@pytest.mark.parametrize(
    ("text", "rule", "alternatives"),
    [
        # 1 set_elements_relation (x = 1, 2), 2 set_elements, 3 set_relation (with = or a set)
        ("x = 1, 2", "math", (1, 2, 3)),
        ("x + y = 1", "math", (2, 3)),  # + outside brackets: not x = ...
        ("a = b = c", "math", (2, 3)),  # a second = : not a list of values after x =
        ("(x+1)^2 = 9", "math", (2, 3)),  # a bracketed head takes no scripts
        ("x^2 + 1", "math", (2,)),
        ("[0,1) \\cup (2,3]", "math", (3,)),  # \\cup: only a set relation
        # 1 plus_minus_expr, 2 set_atom, 3 relation
        ("1 \\pm 2, 3", "element", (1, 3)),
        ("1, 3 \\pm 4", "element", (3,)),  # the \\pm is in the next element
        ("(a+b)/2", "element", (3,)),  # a group followed by / is no set
        ("(a+b), 2", "element", (2, 3)),
        # 1 interval, 2 literal_set, 3 ordered_tuple, 4 finite_set
        ("(1, 2)", "set_atom", (1, 3)),
        ("(1, 2, 3)", "set_atom", (3,)),
        ("\\{1\\}", "set_atom", (4,)),
    ],
)
def test_alternatives_the_tokens_leave(text: str, rule: str, alternatives: tuple[int, ...]) -> None:
    parser = latex2sympy2._Latex2Sympy().create_parser(text)
    shortcuts = latex_prediction._shortcuts_for(parser)
    assert shortcuts is not None
    decision = {"math": shortcuts.math, "set_atom": shortcuts.set_atom, "element": min(shortcuts.elements)}[
        rule
    ]
    tokens = latex_prediction._Tokens(parser._input, shortcuts.openers, shortcuts.closers)
    assert shortcuts.possible(tokens, 0, decision, lambda p: True) == alternatives


def test_parser_predicts_with_sll_first(two_stage: Callable[[], None]) -> None:
    parser = latex2sympy2._Latex2Sympy().create_parser("x^2+\\frac{1}{2}")
    parser.math()
    assert parser._interp.predictionMode == PredictionMode.SLL


def test_syntax_errors_still_raise_after_the_full_ll_retry(two_stage: Callable[[], None]) -> None:
    with pytest.raises(Exception, match="expected|understand"):
        latex2sympy2._Latex2Sympy().parse("\\frac{1}{")


def test_installing_twice_is_a_no_op(two_stage: Callable[[], None]) -> None:
    assert install_two_stage_parsing() is None


def _tools() -> tuple[object, object, object]:
    """math-verify's parse/verify with the worker's extraction config (no parser patching here)."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    return [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()], parse, verify


@pytest.mark.parametrize(
    "text",
    [
        "The answer is !!!invalid!!!",
        "so we get nothing useful here at all",
        "Hence the value cannot be determined ?!",
    ],
)
def test_prose_without_an_answer_is_not_parsed_as_math(text: str) -> None:
    """A sentence where math-verify finds no answer stays answerless in the worker: wrapped in
    ``$...$`` its words would parse as products of one-letter symbols (slow, never the answer)."""
    from rewards._symbolic_worker import _parse_uncached

    tools = _tools()
    assert tools[1](text, tools[0]) == []  # math-verify's own reading
    assert _parse_uncached(text, tools) == []  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "value"), [("\\pi", "pi"), ("\\frac{1}{2}", "1/2"), ("58 square units", "58")]
)
def test_bare_answers_outside_math_mode_still_parse(text: str, value: str) -> None:
    from sympy import sympify

    from rewards._symbolic_worker import _parse_uncached

    got = _parse_uncached(text, _tools())  # type: ignore[arg-type]
    assert got and got[0] == sympify(value)
