"""Angles in degrees on the certain path (rewards/angles.py): a number with a degree sign is the
radian value it names (math-verify reads ``\\cos 60^\\circ`` as the cosine of 60 radians), a
reference that applies trigonometry to whole multiples of 15 is in degrees, and the second reading
only ever grants credit. Plus short text answers that a short sentence names at its end."""

from __future__ import annotations

import pytest
from random_text import random_texts

from rewards.angles import degrees_as_radians, reference_trig_in_degrees, whole_trig_in_degrees
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("\\cos 60^\\circ", "\\cos \\frac{\\pi}{3}"),
        ("\\sin(30^{\\circ})", "\\sin(\\frac{\\pi}{6})"),
        ("22.5°", "\\frac{\\pi}{8}"),
        ("180\\degree", "\\pi"),
        ("120 ^ { \\circ }", "\\frac{2\\pi}{3}"),
        ("0^\\circ", "0"),
        ("-45^\\circ", "-\\frac{\\pi}{4}"),
        ("25^\\circ C", "25^\\circ C"),  # a temperature
        ("25^{\\circ}\\text{F}", "25^{\\circ}\\text{F}"),
        ("30^\\circ 15'", "30^\\circ 15'"),  # degrees and minutes are not read
        ("x^2", "x^2"),
    ],
)
def test_degrees_as_radians(text: str, want: str) -> None:
    assert degrees_as_radians(text) == want


def test_text_without_degrees_is_the_same_object() -> None:
    text = "\\frac{\\pi}{3}"
    assert degrees_as_radians(text) is text


@pytest.mark.parametrize(
    ("gold", "want"),
    [
        ("\\cos(60)", "\\cos(\\frac{\\pi}{3})"),
        ("\\sin 90 + 1", "\\sin(\\frac{\\pi}{2}) + 1"),
        ("\\tan{45}", "\\tan(\\frac{\\pi}{4})"),
        ("\\sin(1)", None),  # not a multiple of 15: radians
        ("\\cos(0)", None),
        ("\\cos(720)", None),
        ("\\cos(60) + x", None),  # a variable: not a table value
        ("\\cos(60) \\pi", None),
        ("\\cos(60) + \\sin(x)", None),  # another argument that is not a whole number
        ("\\cos(60.5)", None),
        ("\\frac12", None),
    ],
)
def test_reference_trig_in_degrees(gold: str, want: str | None) -> None:
    assert reference_trig_in_degrees(gold) == want


def test_prediction_trig_in_degrees() -> None:
    assert (
        whole_trig_in_degrees("\\sin(30) + \\cos 7") == "\\sin(\\frac{\\pi}{6}) + \\cos(\\frac{7\\pi}{180})"
    )
    assert whole_trig_in_degrees("\\sin(x)") == "\\sin(x)"


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("\\cos 60^\\circ", "\\frac12", True),  # math-verify: cos(60 radians), refused
        ("\\cos(60^{\\circ})", "0.5", True),
        ("\\sin^2 30^\\circ + \\cos^2 30^\\circ", "1", True),
        ("45^\\circ", "\\frac{\\pi}{4}", True),  # the same angle
        ("\\frac{\\pi}{4}", "45°", True),
        ("180^\\circ", "\\pi", True),
        ("\\sin(90^{\\circ}-x)", "\\cos(x)", True),
        ("\\sin(x+30^\\circ)", "\\frac{\\sqrt3}{2}\\sin x + \\frac12\\cos x", True),
        ("30^\\circ", "30", True),  # the unit-dropping rule, as before
        ("\\cos 60^\\circ", "\\cos 60", True),  # as math-verify credits it: both read alike
        ("45^\\circ", "\\frac{\\pi}{3}", False),
        ("\\cos 60^\\circ", "0.51", False),
        ("cos(60)", "1/2", True),  # a reference in degrees (WeBWorK's degree context)
        ("cos(60)", "sin(30)", True),
        ("sin(90)", "1", True),
        ("cos(90)", "0", True),
        ("\\sin(1)", "0.84", False),  # radians; a decimal must carry the digits
        ("cos(60)", "-0.952", False),
    ],
)
def test_angle_verdicts(gold: str, pred: str, want: bool) -> None:
    verdict = compare(gold, pred)
    assert verdict.equal is want, (gold, pred, verdict)
    if want:  # the degree reading grants credit on the certain path; a refusal may need the worker
        assert verdict.path == "certain", (gold, pred, verdict)


def test_degrees_in_the_worker() -> None:
    # not proved by the certain path: the worker compares the pair again with degrees in radians
    assert compare("\\tan 15^\\circ", "2-\\sqrt3").equal is True
    assert compare("\\tan 15^\\circ", "2+\\sqrt3").equal is False


def test_random_degree_text_never_raises() -> None:
    pieces = "1 15 60 0.5 ^ \\circ ° \\degree { } ( ) \\cos \\sin x C ' - + \\pi".split()
    pieces.append(" ")
    for text in random_texts(pieces, seed=15, count=20_000, longest=10):
        assert isinstance(degrees_as_radians(text), str)
        assert isinstance(whole_trig_in_degrees(text), str)
        got = reference_trig_in_degrees(text)
        assert got is None or isinstance(got, str)
