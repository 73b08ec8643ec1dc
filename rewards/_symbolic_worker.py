"""Child process that compares two answers with math-verify (``python -m rewards._symbolic_worker``).

The parent (:mod:`rewards.bounded`) talks to it over stdin/stdout, one JSON object per line:
request ``{"gold": str, "pred": str}``, reply ``{"eq": bool}`` or ``{"error": str}``. The parent
enforces the wall-clock bound by killing this process; nothing here uses ``signal``. On Linux it
is forked by :mod:`rewards._worker_zygote`, which runs :func:`serve` with the tools it loaded.
After IDLE_AFTER_S without a request, it compares :data:`WARM_UP_PAIRS` (from "ready" on) and,
after its first request, parses answers of common shapes (:mod:`rewards.idle_warm_up`) so that
latex2sympy's parser learns them.

Each side is parsed the way math-verify's own test-suite and RL recipes do it: ``parse(text,
[LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()])``, so a sentence, a
solution with ``\\boxed{}`` or ``$...$`` and a bare number all work. When that finds nothing (a bare
LaTeX answer such as ``\\pi`` outside math mode) the text is parsed again wrapped in ``$...$``,
unless it is prose (three or more words outside math and commands): math-verify finds no answer
in such a sentence, and in math mode its words would read as products of one-letter symbols
(``The answer is !!!x!!!`` -> ``T*h*e*...``), slow to compare and never the answer.
``\\coth``, ``\\sech`` and ``\\csch`` are spelled as reciprocals first
(:func:`rewards.plain_syntax.spell_reciprocal_hyperbolics`): latex2sympy reads ``\\coth(x)`` as
``cot(h(x))``. Then ``verify(gold, pred)``. math-verify's expression extraction hands sympy's
``parse_expr`` only what its regex admits (digits, ``.``, spaces and ``+ - * × / ^ ( ) ÷``): no names, so no code.

Speed: latex2sympy's ANTLR parser predicts faster (:mod:`rewards.latex_prediction`: two-stage
SLL/LL parsing and decisions settled from the tokens), always to the parse latex2sympy makes on
its own, so every verdict is math-verify's; it builds number literals without sympy's expression
parser (:mod:`rewards.number_literals`: the same numbers, 0.3 ms less each).
math-verify's comparison of two parsed expressions is remembered per structurally identical pair
(:func:`install_comparison_memo`): the prepared form of a pair that math-verify refused is
compared again, and often reads to the same expressions (sympy's ``solve`` of two equations then
ran twice, about a second each). sympy's ``solve`` of an equation is remembered too
(:func:`install_solve_memo`): GRPO compares many answers with one reference. Two elementary
expressions whose difference is clearly nonzero at one point skip sympy's ``simplify``
(:mod:`rewards.numeric_screen`), which could not make that difference zero. Two equations that
math-verify calls equal only because neither has a real solution are equal only when proportional
(:mod:`rewards.equations_without_solutions`). Before ``verify``, the parsed answers are rewritten
where sympy would be slow or wrong (:mod:`rewards.parsed_rewrites`: finite sums written out,
derivatives of plain symbols as symbols, bound variables renamed in order).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rewards.answer_text import COMMAND_RE, in_math_mode, prose_words
from rewards.constant_sets import install_constant_set_screen
from rewards.equations_without_solutions import install_no_solution_rule
from rewards.idle_warm_up import WARM_UP_TEXTS
from rewards.latex_prediction import install_two_stage_parsing
from rewards.library_hooks import hook_grader
from rewards.line_pipe import LineReader
from rewards.number_literals import install_number_literals
from rewards.numeric_screen import install_equation_screen, install_numeric_screen
from rewards.parsed_rewrites import (
    canonical_bound_names,
    differential_equation_against_value,
    expand_finite_sums,
    has_extreme_power,
    opaque_derivatives,
    small_factorials_evaluated,
)
from rewards.plain_syntax import spell_reciprocal_hyperbolics
from rewards.time_budget import OverBudget

MEMO_SIZE = 1024
"""Entries each of the worker's memos keeps (:func:`install_comparison_memo`,
:func:`install_solve_memo`)."""


def _structural_key(gold: Any, pred: Any, rest: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """A key that is equal only for structurally identical arguments (``srepr`` writes every
    node, with each Float's precision); None where the structure does not say everything:
    latex2sympy keeps the written order of an ``And``/``Or`` in an attribute
    (``_unsorted_args``) that math-verify reads and ``srepr`` does not print."""
    import sympy
    from sympy.logic.boolalg import BooleanFunction

    for expr in (gold, pred):
        if not isinstance(expr, sympy.Basic):
            return None
        for node in sympy.preorder_traversal(expr):
            if isinstance(node, BooleanFunction) or hasattr(node, "_unsorted_args"):
                return None
    return (sympy.srepr(gold), sympy.srepr(pred), *rest)


def _remembering(compute: Callable[..., Any], size: int, key_of: Callable[..., Any]) -> Callable[..., Any]:
    """``compute`` with its results remembered per ``key_of(*args, **kwargs)`` (least recently
    used first out, ``size`` kept). A key of None, or one that cannot be made, computes afresh;
    an exception is not remembered, but running past a time budget is (:class:`OverBudget`,
    raised again at once for the same key: the same structure would overrun again)."""
    memo: OrderedDict[Any, Any] = OrderedDict()

    def remembered(*args: Any, **kwargs: Any) -> Any:
        try:
            key = key_of(*args, **kwargs)
        except Exception:  # a form that does not print: computed as it is
            key = None
        if key is None:
            return compute(*args, **kwargs)
        if key in memo:
            memo.move_to_end(key)
            if memo[key] is _OVER_BUDGET:
                raise OverBudget
            return memo[key]
        try:
            value = memo[key] = compute(*args, **kwargs)
        except OverBudget:
            memo[key] = _OVER_BUDGET
            raise
        finally:
            if len(memo) > size:
                memo.popitem(last=False)
        return value

    return remembered


_OVER_BUDGET = object()
"""A memo's entry for a computation that ran past its time budget."""


def install_comparison_memo(size: int = MEMO_SIZE) -> Callable[[], None] | None:
    """Remember math-verify's ``sympy_expr_eq`` verdict per structurally identical pair of parsed
    expressions. A pair is compared a second time when the certain path's prepared form of the
    answers (``\\left(`` as ``(``, ``\\dfrac`` as ``\\frac``) reads to the same expressions as the
    text did: sympy's ``solve`` of two equations takes about a second, and the answer is the one
    it gave the first time (the comparison runs without a timeout here and is deterministic).
    Returns a function that restores the original, or None when math-verify lacks the hook."""

    def remembered(original: Callable[..., Any]) -> Callable[..., Any]:
        def compare(gold: Any, pred: Any, *args: Any, **kwargs: Any) -> bool:
            return bool(original(gold, pred, *args, **kwargs))

        def key_of(gold: Any, pred: Any, *args: Any, **kwargs: Any) -> tuple[Any, ...] | None:
            return _structural_key(gold, pred, (*args, *sorted(kwargs.items())))

        return _remembering(compare, size, key_of)

    return hook_grader("sympy_expr_eq", "memo", remembered)


def install_solve_memo(size: int = MEMO_SIZE) -> Callable[[], None] | None:
    """Remember sympy's ``solve`` of a structurally identical equation for the same unknowns, as
    math-verify calls it to compare two equations (``solve(eq, eq.free_symbols)`` on each side):
    GRPO compares many responses with one reference, and an equation's solutions take sympy
    10 ms to a second each time. The results are the same lists (a copy of each, so no caller
    sees another's changes). Returns a function that restores the original, or None when
    math-verify lacks the hook."""

    def remembered(original: Callable[..., Any]) -> Callable[..., Any]:
        memo = _remembering(original, size, _solve_key)

        def solve(*args: Any, **kwargs: Any) -> Any:
            got = memo(*args, **kwargs)
            if isinstance(got, list):
                return [dict(item) if isinstance(item, dict) else item for item in got]
            return got

        return solve

    return hook_grader("solve", "memo", remembered)


def _solve_key(equation: Any, symbols: Any = None, *rest: Any, **kwargs: Any) -> tuple[Any, ...] | None:
    """``solve``'s arguments as a key: the equation's structure and the unknowns' (sorted: a set
    has no order); None for any other call."""
    import sympy

    if rest or kwargs or not isinstance(symbols, set | frozenset):
        return None
    if not all(isinstance(s, sympy.Symbol) for s in symbols):
        return None
    key = _structural_key(equation, sympy.Integer(0), ())
    return None if key is None else (key[0], tuple(sorted(sympy.srepr(s) for s in symbols)))


LAZY_MODULES = (
    "sympy.tensor.tensor",  # Add.flatten's first call imports it, and it sympy.combinatorics
    "sympy.physics.units",
    "sympy.physics.matrices",
    "sympy.sets.handlers.functions",
    "sympy.sets.handlers.issubset",
    "sympy.sets.setexpr",
    "sympy.assumptions.wrapper",
    "antlr4.LL1Analyzer",
)
"""Modules sympy, latex2sympy and ANTLR import on first use inside a comparison (the same list over
every evaluation set; about 0.1 s). The zygote loads them once it is idle
(:mod:`rewards._worker_zygote`), so that a worker it forks later (a replacement after a timeout)
shares them instead of importing them again on its first answer with a unit or a sum."""


def import_lazy_modules() -> None:
    import importlib

    for name in LAZY_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:  # another sympy or ANTLR version: that module is loaded when used
            continue


def _load() -> tuple[Any, Any, Any]:
    install_two_stage_parsing()
    install_number_literals()
    install_comparison_memo()
    install_solve_memo()
    install_numeric_screen()
    install_equation_screen()
    install_constant_set_screen()
    install_no_solution_rule()
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    config = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]
    return config, parse, verify


_parsed: dict[str, list[Any]] = {}


def _parse(text: str, tools: tuple[Any, Any, Any]) -> list[Any]:
    """Parsed once per text: GRPO scores many responses against the same reference."""
    got = _parsed.get(text)
    if got is None:
        got = _parse_uncached(text, tools)
        if len(_parsed) >= 512:
            _parsed.pop(next(iter(_parsed)))
        _parsed[text] = got
    return got


PROSE_WORDS = 3
"""A text with this many words (:func:`rewards.answer_text.prose_words`, outside LaTeX commands)
is prose."""


def is_prose(text: str) -> bool:
    """Whether ``text`` (with no math mode) reads as a sentence rather than a bare answer."""
    return prose_words(COMMAND_RE.sub(" ", text[:4000])) >= PROSE_WORDS


_TEXT_SUBSCRIPT_RE = re.compile(
    r"_(?:\{\\(?:text|mathrm|textrm|rm)\s*\{([A-Za-z][A-Za-z0-9 ]{0,30})\}\}|\\text\{([A-Za-z][A-Za-z0-9 ]{0,30})\})"
)
"""A subscript in text mode (``\\lambda_{\\text{red}}``, ``v_\\text{max}``)."""


_SYMBOL_SUBSCRIPT_RE = re.compile(
    r"_(?:\{\s*\\(odot|oplus|otimes|star|ast|circ|bullet|perp|parallel|dagger|ddagger|max|min|sun|earth)\s*\}"
    r"|\\(odot|oplus|otimes|star|ast|circ|bullet|perp|parallel|dagger|ddagger|max|min|sun|earth)(?![A-Za-z]))"
)
"""A subscript that is one symbol command latex2sympy does not read there (``M_{\\odot}``, the
Sun's mass; ``v_{\\perp}``, ``L_\\star``, ``T_{\\max}``)."""


def plain_subscripts(text: str) -> str:
    """``\\lambda_{\\text{red}}`` as ``\\lambda_{red}``: math-verify's extraction stops inside a
    text-mode subscript after some letters (it reads ``\\lambda_{\\text{red}}/\\sqrt{2}`` as the
    string ``\\lambda_{``, equal to any other answer that begins the same way); the name is the same.
    A subscript that is one symbol command (``M_{\\odot}``) is its name (``M_{odot}``): latex2sympy
    reads the whole answer as a string otherwise."""
    if "_" not in text:
        return text
    text = _TEXT_SUBSCRIPT_RE.sub(lambda m: "_{" + (m.group(1) or m.group(2)).replace(" ", "") + "}", text)
    return _SYMBOL_SUBSCRIPT_RE.sub(lambda m: "_{" + (m.group(1) or m.group(2)) + "}", text)


_DELIMITER_SIZE_RE = re.compile(r"\\[bB]igg?[lrm]?(?![a-zA-Z])")
"""A delimiter's size (``\\bigl(``, ``\\Biggr]``, ``\\big|``), which latex2sympy does not read."""


def plain_delimiters(text: str) -> str:
    """``\\cos\\biggl(x\\biggr)`` as ``\\cos(x)``: a size command only scales the delimiter after it,
    and latex2sympy reads the whole answer as a string with it."""
    return _DELIMITER_SIZE_RE.sub("", text) if "\\big" in text or "\\Big" in text else text


_PRIMED_LETTER_RE = re.compile(r"(?<![\\A-Za-z])([A-Za-z])(''?|\^\{?\\prime\}?)(?!\s*[(\[{'^_])")
"""A one-letter symbol with one or two primes (``d'``, ``x''``, ``d^{\\prime}``), not a function's
derivative (``f'(x)``) nor a primed name with more after it."""


def primed_symbols(text: str) -> str:
    """``d'`` as ``d_{prime}`` (``x''`` as ``x_{primeprime}``): latex2sympy drops a prime, so
    ``(d' - d)`` read as 0 and ``\\frac{\\pi r^2 (d' - d) V^2}{2d^2}`` equalled the same over
    ``2d^3``; a primed symbol is another symbol, the same in both answers."""
    if "'" not in text and "\\prime" not in text:
        return text
    return _PRIMED_LETTER_RE.sub(
        lambda m: m.group(1) + ("_{primeprime}" if m.group(2) == "''" else "_{prime}"), text
    )


def cut_extraction(parsed: list[Any]) -> bool:
    """Whether math-verify's reading is only a string whose braces do not close (``\\lambda_{``):
    its extraction stopped inside the answer, and two answers cut at the same place would compare
    equal as strings whatever followed."""
    return (
        bool(parsed)
        and all(isinstance(x, str) for x in parsed)
        and any(x.count("{") != x.count("}") for x in parsed)
    )


def _parse_uncached(text: str, tools: tuple[Any, Any, Any]) -> list[Any]:
    config, parse, _verify = tools
    text = spell_reciprocal_hyperbolics(
        plain_subscripts(plain_delimiters(primed_symbols(text)))
    )  # \coth(x): not cot(h(x))
    got = parse(text, extraction_config=config, parsing_timeout=None)
    if not got and "$" not in text and "\\(" not in text and "\\[" not in text and not is_prose(text):
        got = parse(in_math_mode(text), extraction_config=config, parsing_timeout=None)
    return list(got)


def _same_form(gold: list[Any], pred: list[Any]) -> bool:
    """Whether a parsed item of each side is the same expression, compared structurally (no
    evaluation, no printing: printing a sum orders its terms by evaluating it)."""
    return any(a == b for a in gold for b in pred)


def compare(gold: str, pred: str, tools: tuple[Any, Any, Any]) -> bool:
    gold_parsed = _parse(gold, tools)
    pred_parsed = _parse(pred, tools)
    if not gold_parsed or not pred_parsed:
        return False
    if cut_extraction(gold_parsed) or cut_extraction(pred_parsed):
        return False  # "\\lambda_{" against "\\lambda_{": two readings cut short, not two answers
    if has_extreme_power(gold_parsed) or has_extreme_power(pred_parsed):
        return _same_form(gold_parsed, pred_parsed)
    gold_expanded, pred_expanded = expand_finite_sums(gold_parsed), expand_finite_sums(pred_parsed)
    if gold_expanded is None or pred_expanded is None:
        return _same_form(gold_parsed, pred_parsed)
    if differential_equation_against_value(gold_expanded, pred_expanded):
        return False
    gold_expanded, pred_expanded = opaque_derivatives(gold_expanded), opaque_derivatives(pred_expanded)
    gold_expanded = small_factorials_evaluated(gold_expanded)
    pred_expanded = small_factorials_evaluated(pred_expanded)
    gold_expanded, pred_expanded = canonical_bound_names(gold_expanded), canonical_bound_names(pred_expanded)
    if tools[2](gold_expanded, pred_expanded, timeout_seconds=None):
        return True
    shared = with_shared_symbols(gold_expanded, pred_expanded)
    return shared is not None and bool(tools[2](*shared, timeout_seconds=None))


def _free_symbols(parsed: list[Any]) -> set[Any]:
    found: set[Any] = set()
    for item in parsed:
        free = getattr(item, "free_symbols", None)
        if isinstance(free, set | frozenset):
            found |= free
    return found


def with_shared_symbols(gold: list[Any], pred: list[Any]) -> tuple[list[Any], list[Any]] | None:
    """Both sides with one plain symbol per name and a free ``i`` read as the imaginary unit; None
    when that changes nothing (no free ``i``, no name with two symbols).

    latex2sympy makes every symbol of an answer that mentions ``i`` (even as a sum's index) a
    non-real one, and the other answer's real: ``\\sum_{i=1}^{n} i`` against ``\\frac{n(n+1)}{2}``
    compares two different ``n``, and math-verify says "different". It also reads a free ``i`` as a
    variable, refusing ``e^{i\\pi}`` for ``-1`` and ``e^{i\\theta}+e^{-i\\theta}`` for ``2\\cos\\theta``.
    :func:`compare` asks again with these sides when the first answer is "different", so this only
    adds credit: plain symbols are complex, and what holds for complex values holds for real ones;
    a variable named ``i`` would need a pred equal to the gold only through ``i^2 = -1`` to be
    credited wrongly. A bound ``i`` stays an index."""
    import sympy

    free = {s for s in _free_symbols(gold) | _free_symbols(pred) if isinstance(s, sympy.Symbol)}
    names = [s.name for s in free]
    if "i" not in names and len(set(names)) == len(names):
        return None
    renamed = {s: sympy.I if s.name == "i" else sympy.Symbol(s.name) for s in free}

    def read(parsed: list[Any]) -> list[Any]:
        return [item.xreplace(renamed) if hasattr(item, "xreplace") else item for item in parsed]

    return read(gold), read(pred)


WARM_UP_PAIRS: tuple[tuple[str, str], ...] = (
    ("$x^2+\\frac{1}{2}$", "\\boxed{\\frac{2x^2+1}{2}}"),  # builds latex2sympy's parser
    ("5", "$h(u_k(t))$"),  # simplify with undefined functions
    ("$y=3$", "$3=y$"),  # solve
    ("$\\log_3 9$", "$2$"),  # logarithms
    ("$e^{2i\\pi}$", "$-2$"),  # complex exponentials
    ("$\\cos^2 t+\\sin^2 t$", "$2$"),  # trigonometric simplification
    ("$\\sum_{j=1}^m j^2$", "$m^3$"),  # symbolic sums
    ("$2101_4$", "$2101$"),  # subscripted numbers
    ("$\\frac{AB}{CD}=\\frac{2}{\\sqrt{5}}$", "$\\frac{2}{\\sqrt{5}}$"),  # labelled values
    ("$(0,3]$", "$[0,3)$"),  # intervals
    ("$\\{3,4\\}$", "$\\{4,3\\}$"),  # sets
    ("$\\begin{pmatrix}2&0\\\\1&3\\end{pmatrix}$", "$\\begin{pmatrix}2&0\\\\1&4\\end{pmatrix}$"),  # matrices
    ("$t>1$", "$1<t$"),  # relations
)
"""Compared once by every worker after it says it is ready, one pair at a time while it is idle:
sympy and math-verify load much of their code on first use (the first undefined function to
simplify, the first logarithm, the first sum: 20-110 ms each, 3-5 ms later), which the first calls
of a run would otherwise pay. Not before "ready": the first caller of a fresh process would then
wait for all of them (0.5 s) instead of only for what its own pair needs. Invented pairs, one per
kind of answer."""

IDLE_AFTER_S = 0.05
"""A worker does its idle work (:data:`WARM_UP_PAIRS`, then :mod:`rewards.idle_warm_up`'s texts)
only after this long without a request, so a caller sending requests one after another is not
held up by it; a request that arrives during that work waits for at most the item running."""


@dataclass
class WarmUp:
    """What a worker still has to warm up, next item last: :data:`WARM_UP_PAIRS` (from "ready"
    on) and the parser's texts (:mod:`rewards.idle_warm_up`; only after a first request, so a
    worker nobody uses spends nothing on them)."""

    pairs: list[tuple[str, str]] = field(default_factory=lambda: list(reversed(WARM_UP_PAIRS)))
    texts: list[str] = field(default_factory=lambda: list(reversed(WARM_UP_TEXTS)))

    def left(self, texts_too: bool) -> bool:
        return bool(self.pairs or (texts_too and self.texts))

    def step(self, tools: tuple[Any, Any, Any], texts_too: bool) -> None:
        """Does the next item, if one is left."""
        if self.pairs:
            warm_up_compare(*self.pairs.pop(), tools)
        elif texts_too and self.texts:
            warm_up_parse(self.texts.pop(), tools)


def main() -> int:
    import logging

    logging.disable(logging.WARNING)  # math-verify warns that its own timeout is off: we bound it
    out = _private_stdout()
    return serve(_load(), WarmUp(), out)


def _private_stdout() -> Any:
    """Replies go to a private copy of stdout (fd 1); anything a library prints goes to stderr."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    return out


def serve(tools: tuple[Any, Any, Any], warm_up: WarmUp, out: Any) -> int:
    """Says ready, then answers requests from stdin until it closes. Idle work (``warm_up``) is
    done one item at a time once no request has come for IDLE_AFTER_S, so a caller that sends
    one request after another never waits for it."""
    out.write('{"ready": true}\n')
    out.flush()
    requests = LineReader(0)  # stdin
    answered = False
    last_request = time.monotonic()
    while True:
        wait = max(0.0, last_request + IDLE_AFTER_S - time.monotonic()) if warm_up.left(answered) else None
        try:
            line = requests.line(wait)
        except EOFError:
            return 0
        if line is None:  # no request for IDLE_AFTER_S, idle work left: do one item of it
            warm_up.step(tools, answered)
            continue
        try:
            request = json.loads(line)
            reply: dict[str, Any] = {"eq": compare(str(request["gold"]), str(request["pred"]), tools)}
        except Exception as exc:  # a comparison that fails is "not equal", never a crash
            reply = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        out.write(json.dumps(reply) + "\n")
        out.flush()
        last_request = time.monotonic()
        answered = True


def warm_up_compare(gold: str, pred: str, tools: tuple[Any, Any, Any]) -> None:
    """Compare a warm-up pair for the code it loads; the verdict is not kept and a failure is
    ignored (it only leaves that code cold)."""
    try:
        compare(gold, pred, tools)
    except Exception:
        return


def warm_up_parse(text: str, tools: tuple[Any, Any, Any]) -> None:
    """Parse ``text`` as a comparison would, for what it teaches latex2sympy's parser
    (:mod:`rewards.idle_warm_up`); the result is not kept and a failure is ignored."""
    try:
        _parse_uncached(text, tools)
    except Exception:  # a warm-up text the parser refuses only teaches it less
        return


if __name__ == "__main__":
    raise SystemExit(main())
