"""Comma lists of inequalities in one variable with constant ends that are not exact numbers
(``x < -\\sqrt{2}, \\sqrt{2} < x``): written as the interval or union they mean
(rewards.answer_values.inequality_list_latex) for math-verify's second look, with the reading the
certain path gives exact ends ("and" when all share points, "or" when no two do). Examples
invented; each credited pair is refused by math-verify alone (checked below)."""

from __future__ import annotations

import pytest

from rewards.answer_values import inequality_list_latex
from rewards.equivalence import compare

math_verify = pytest.importorskip("math_verify")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("x < -\\sqrt{2}, \\sqrt{2} < x", "(-\\infty, -\\sqrt{2}) \\cup (\\sqrt{2}, \\infty)"),
        ("x \\ge \\pi, x < 2\\pi", "[\\pi, 2\\pi)"),  # shared points: "and"
        ("-\\sqrt{3} < x < \\sqrt{3}, x \\ge 5", "(-\\sqrt{3}, \\sqrt{3}) \\cup [5, \\infty)"),
        ("x \\le \\frac{1}{2}, x > 1", "(-\\infty, \\frac{1}{2}] \\cup (1, \\infty)"),
        ("x > 0, x < 1, x < 3", "(0, 1)"),
        ("x < -a, a < x", None),  # the order of -a and a depends on a
        ("x < \\sqrt{2}, x > \\frac{\\sqrt{8}}{2}", None),  # equal ends: too close to order by value
        ("x < 1, x > 0, x > 3", None),  # some overlap, some do not
        ("x < 1, y > 2", None),  # two variables
        ("|x| < 1, x > 0", None),
        ("x < 1", None),
        ("x = 1, x = 2", None),
    ],
)
def test_written_as_interval_or_union(text: str, want: str | None) -> None:
    assert inequality_list_latex(text) == want


CREDITED = [
    ("$(-\\infty, -\\sqrt{2}) \\cup (\\sqrt{2}, \\infty)$", "$x < -\\sqrt{2}, \\sqrt{2} < x$"),
    ("$x < -\\sqrt{2}, \\sqrt{2} < x$", "$(-\\infty, -\\sqrt{2}) \\cup (\\sqrt{2}, \\infty)$"),
    ("$(-\\sqrt{2}, \\sqrt{2})$", "$x > -\\sqrt{2}, x < \\sqrt{2}$"),
]
REFUSED = [
    ("$(-\\infty, -\\sqrt{2}) \\cup (\\sqrt{3}, \\infty)$", "$x < -\\sqrt{2}, \\sqrt{2} < x$"),
    ("$[-\\sqrt{2}, \\sqrt{2})$", "$x > -\\sqrt{2}, x < \\sqrt{2}$"),  # an end left out
    ("$(-\\infty, -\\sqrt{2}) \\cup (\\sqrt{2}, \\infty)$", "$x < -\\sqrt{2}, \\sqrt{2} \\le x$"),
]


@pytest.mark.parametrize(("gold", "pred"), CREDITED)
def test_math_verify_alone_refuses_these(gold: str, pred: str) -> None:
    config = [math_verify.LatexExtractionConfig(boxed_match_priority=0), math_verify.ExprExtractionConfig()]
    gold_parsed, pred_parsed = math_verify.parse(gold, config), math_verify.parse(pred, config)
    assert gold_parsed and pred_parsed
    assert not math_verify.verify(gold_parsed, pred_parsed)


@pytest.mark.parametrize(("gold", "pred"), CREDITED)
def test_credited(gold: str, pred: str) -> None:
    verdict = compare(gold, pred)
    assert verdict.equal and verdict.verified


@pytest.mark.parametrize(("gold", "pred"), REFUSED)
def test_refused(gold: str, pred: str) -> None:
    verdict = compare(gold, pred)
    assert not verdict.equal and verdict.verified
