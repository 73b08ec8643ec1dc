"""Answer forms found by held-out round 46 (physics qualifying-exam answers judged by a model):
LaTeX's variant glyphs of a Greek letter (``\\varepsilon``, ``\\varphi``, ``\\vartheta``) name the
same letter as the plain command, unless one answer uses both as two names; ``\\varpi`` is not
``\\pi``. Every example here is written for this file, not taken from an evaluation set."""

from __future__ import annotations

import pytest

from rewards.answer_text import greek_variants_as_plain
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("\\varepsilon_0 E^2 / 2", "\\frac{\\epsilon_0 E^2}{2}", True),
        ("\\frac{Q}{4\\pi\\epsilon_0 r^2}", "\\boxed{\\frac{Q}{4 \\pi \\varepsilon_0 r^2}}", True),
        ("\\varphi + 1", "1 + \\phi", True),
        ("\\cos\\vartheta", "\\cos \\theta", True),
        ("\\varrho g h", "\\rho g h", True),
        ("\\varphi + 1", "1 + \\psi", False),
        ("\\varepsilon_0", "\\epsilon_1", False),
        ("\\phi + \\varphi", "2\\phi", False),  # one answer with both glyphs: two names
        ("\\varpi", "\\pi", False),  # \pi is the constant
    ],
)
def test_greek_variant_glyphs_are_one_letter(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("\\varepsilon_0", "\\epsilon_0"),
        ("\\varphi(x) = \\vartheta", "\\phi(x) = \\theta"),
        ("\\phi - \\varphi", "\\phi - \\varphi"),
        ("\\phi - \\varphi + \\vartheta", "\\phi - \\varphi + \\theta"),
        ("\\varpi + \\varsigma", "\\varpi + \\sigma"),
        ("\\varphiup", "\\varphiup"),  # not a command this rule knows
        ("no variants here", "no variants here"),
    ],
)
def test_greek_variants_written_as_plain(text: str, written: str) -> None:
    assert greek_variants_as_plain(text) == written
