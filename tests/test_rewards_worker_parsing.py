"""The symbolic worker's two-stage LaTeX parsing (rewards/_symbolic_worker.py): SLL prediction first,
full LL only after a syntax error. Every parse must be the one latex2sympy makes on its own (so every
verdict stays math-verify's); the real latex2sympy/ANTLR parser runs here, both ways."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sympy import srepr

from rewards._symbolic_worker import install_two_stage_parsing
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
]


def _corpus() -> list[str]:
    seen: dict[str, None] = {}
    for g, p, _ in HAND_PAIRS:
        seen[g] = None
        seen[p] = None
    for s in CONSTRUCTS:
        seen[s] = None
    return list(seen)


def _parse(s: str) -> str:
    try:
        return srepr(latex2sympy2.latex2sympy(s))
    except Exception as exc:  # the same failure both ways is part of "the same parse"
        return f"error {type(exc).__name__}"


@pytest.fixture
def two_stage() -> Iterator[Callable[[], None]]:
    restore = install_two_stage_parsing()
    assert restore is not None, "latex2sympy/antlr4 hooks missing: the worker would parse with full LL"
    try:
        yield restore
    finally:
        restore()


def test_two_stage_parses_are_latex2sympys_own(two_stage: Callable[[], None]) -> None:
    corpus = _corpus()
    two_stage()  # plain latex2sympy first
    plain = {s: _parse(s) for s in corpus}
    assert install_two_stage_parsing() is not None
    fast = {s: _parse(s) for s in corpus}
    differ = [s for s in corpus if plain[s] != fast[s]]
    assert not differ, differ
    assert sum(not v.startswith("error") for v in plain.values()) > len(corpus) // 2


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
