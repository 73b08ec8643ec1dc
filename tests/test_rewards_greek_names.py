"""Greek letters are one list (``rewards.answer_text.greek_names``) that every reader builds its
own from, so no reader misses a name another knows: ``\\varrho`` and ``\\varsigma`` were names to
the equation readers but not to the exact identity reader, which left such answers to sympy."""

from __future__ import annotations

import pytest

from rewards.answer_text import GREEK_CAPITALS, GREEK_LOWERCASE, GREEK_VARIANTS, greek_names
from rewards.equivalence import compare

NAMES = sorted(greek_names(pi=False, variants=True, capitals=True) - {"omicron"})


def test_the_three_spellings_of_pi_go_together() -> None:
    without = greek_names(pi=False, variants=True, capitals=True)
    assert not {"pi", "varpi", "Pi"} & without
    assert {"pi", "varpi", "Pi"} <= greek_names(pi=True, variants=True, capitals=True)
    assert greek_names(pi=True, variants=False, capitals=False) == frozenset(GREEK_LOWERCASE)
    assert len(GREEK_LOWERCASE) == 24 and "varrho" in GREEK_VARIANTS and "Delta" in GREEK_CAPITALS


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("2\\{n}", "\\{n}+\\{n}", True),
        ("\\sin\\{n}", "\\sin(\\{n})", True),
        ("\\{n}^2-1", "(\\{n}-1)(\\{n}+1)", True),
        ("\\cos\\{n}", "\\cos 2\\{n}", False),
        ("3\\{n}", "\\{n}+2", False),
    ],
)
def test_every_greek_name_is_a_variable_to_the_exact_reader(
    name: str, gold: str, pred: str, equal: bool
) -> None:
    verdict = compare(gold.replace("{n}", name), pred.replace("{n}", name))
    assert (verdict.equal, verdict.path) == (equal, "certain")
