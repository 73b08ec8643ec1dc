"""Sets given by an index over a few integers are written out as their elements before either
reader compares (rewards.index_sets): a maths competition's checker labels
``\\{0\\} \\cup \\{e^{k\\pi i/3} : k = 0, …, 5\\}`` equal to its seven elements; math-verify reads
the builder as a condition and refuses."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.index_sets import MAX_ELEMENTS, index_sets_written_out

ROOTS = "\\{0\\}\\cup\\{e^{k\\pi i/3}:k=0,1,2,3,4,5\\}"
ELEMENTS = "\\{0,1,e^{i\\pi/3},e^{i2\\pi/3},-1,e^{i4\\pi/3},e^{i5\\pi/3}\\}"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("\\{2k+1 : 0 \\le k < 4, k \\in \\mathbb Z\\}", "\\{2{(0)}+1, 2{(1)}+1, 2{(2)}+1, 2{(3)}+1\\}"),
        ("\\{2k : k \\in \\mathbb{N}, 1 \\le k \\le 2\\}", "\\{2{(1)}, 2{(2)}\\}"),
        ("\\{k^2 : k \\in \\{1,2,3\\}\\}", "\\{{(1)}^2, {(2)}^2, {(3)}^2\\}"),
        ("\\{ik \\mid k = 1, 3, \\ldots, 7\\}", "\\{i{(1)}, i{(3)}, i{(5)}, i{(7)}\\}"),  # "ik": i times k
        ("\\{1\\} \\cup \\{2k : k = 1, 2\\}", "\\{1, 2{(1)}, 2{(2)}\\}"),
        ("\\{\\sin k : k=1,2\\}", "\\{\\sin {(1)}, \\sin {(2)}\\}"),  # the k of \\sin is not the index
        # left as written: a condition, an infinite index, a range too long, no index in the term
        ("\\{x : x > 0\\}", None),
        ("\\{x \\mid -1 < x < 1\\}", None),  # bounds on a letter not declared an integer: an interval
        ("\\{x^n : n \\in \\mathbb Z_{\\ge 0}\\}", None),
        (f"\\{{k : 1 \\le k \\le {MAX_ELEMENTS + 1}, k \\in \\mathbb Z\\}}", None),
        ("\\{2 : k = 1, 2\\}", None),
        ("\\{k : k = 1, \\ldots\\}", None),
        ("\\{0\\} \\cup \\{1\\}", None),  # no builder: the union stays for the other rules
    ],
)
def test_index_sets_written_out(text: str, want: str | None) -> None:
    assert index_sets_written_out(text) == (text if want is None else want)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        (ELEMENTS, ROOTS, True),
        (ROOTS, ELEMENTS, True),
        (
            "\\boxed{0,1,e^{i\\frac{\\pi}{3}},e^{i\\frac{2\\pi}{3}},-1,e^{i\\frac{4\\pi}{3}},e^{i\\frac{5\\pi}{3}}}",
            ROOTS,
            True,
        ),
        ("\\{0,2\\}\\cup\\{e^{k\\pi i/3}:k=0,1,2,3,4,5\\}", ROOTS, False),  # was credited
        (ELEMENTS, "\\{0\\}\\cup\\{e^{k\\pi i/3}:k=0,1,2,3,4\\}", False),
        ("\\{1,3,5,7\\}", "\\{2k+1 : k = 0, 1, 2, 3\\}", True),
        ("\\{1,3,5,9\\}", "\\{2k+1 : k = 0, 1, \\dots, 3\\}", False),
        ("(-1,1)", "\\{x \\mid -1<x<1\\}", True),
    ],
)
def test_a_builder_against_its_elements(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want
