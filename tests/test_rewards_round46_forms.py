"""Answer forms found by held-out round 46 (physics qualifying-exam answers judged by a model,
verifier benchmarks): LaTeX's variant glyphs of a Greek letter (``\\varepsilon``, ``\\varphi``,
``\\vartheta``) name the same letter as the plain command, unless one answer uses both as two
names; ``\\varpi`` is not ``\\pi``. A formula followed by the domain where it holds
(``2^n - 1 \\text{ for all } n \\ge 1``) states the formula. Every example here is written for this
file, not taken from an evaluation set."""

from __future__ import annotations

import pytest

from rewards.answer_text import greek_variants_as_plain
from rewards.domain_clauses import formulas_without_domains, without_domain_clause
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


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("2^n - 1", "\\boxed{2^n - 1 \\text{ for all } n \\ge 1}", True),
        ("2^n - 1", "2^n - 1 \\quad \\text{for } n \\in \\mathbb{Z}^+", True),
        ("2^n - 1", "\\boxed{2^n - 1, \\text{ where } n \\geq 1}", True),
        ("2^n - 1", "\\boxed{2^n - 1 \\quad (n \\geq 1)}", True),
        ("2^n - 1", "2^n - 1 for all positive integers n", True),
        ("n^2", "\\boxed{a_n = n^2, \\quad n \\in \\mathbb{N}}", True),
        ("\\frac{1}{x}", "\\boxed{\\frac{1}{x} \\quad (x \\neq 0)}", True),
        ("f(x) = 0", "\\boxed{f(x) = 0 \\text{ for all } x \\in \\mathbb{R}}", True),
        ("2^n - 1 \\text{ for } n \\ge 1", "\\boxed{2^n - 1}", True),
        ("a_r = 2r \\quad\\text{for all}\\ r \\geq 1", "a_r = 2r \\text{ for every } r \\ge 1", True),
        ("2^n - 1 \\text{ for } n \\ge 1", "2^n - 1 \\text{ for all } n \\geq 1", True),
        # not a domain clause, or not the same formula
        ("2^n", "\\boxed{2^n - 1 \\quad (n \\geq 1)}", False),
        ("3", "\\boxed{3 \\quad (n \\ge 1)}", False),  # n is not in the answer
        ("3", "\\boxed{x = 3 \\text{ for } a = 2}", False),  # a parameter's value, not a domain
        ("x^2", "\\boxed{x^2 \\text{ for } x \\ge 0, -x^2 \\text{ for } x < 0}", False),  # piecewise
        ("2^n - 1 \\text{ for } n \\ge 1", "2^n - 1 \\text{ for } n \\ge 2", False),  # two domains
    ],
)
def test_formula_with_its_domain_is_the_formula(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("answer", "formula"),
    [
        ("2^n - 1 \\text{ for all } n \\ge 1", "2^n - 1"),
        ("x+1 \\text{ for every real } x", "x+1"),
        ("\\frac{n(n+1)}{2} \\text{ for all } n", "\\frac{n(n+1)}{2}"),
        ("a_n = n^2, n \\in \\mathbb{N}_{\\ge 1}", "a_n = n^2"),
        ("f(n \\ge 1)", None),  # a call, not a clause
        ("x = 2 \\text{ with multiplicity } 2", None),  # no condition on x
        ("x^2 \\text{ for } x \\ge 0 \\text{ and } 0 \\text{ otherwise}", None),
        ("n + 1 \\text{ if } n \\ge 1", None),  # "if" opens a case
        ("k_c = 2 \\text{ where } b = \\kappa + 1", None),  # a definition, not a domain
        ("She spent $60 on jeans and a bag for $20, so she has 100 - 60 = 40 left.", None),  # prose
        ("a_n = n^2 \\text{ for } n = 1, 2, 3, \\ldots", "a_n = n^2"),
        ("5", None),
    ],
)
def test_domain_clause_is_cut_from_the_formula(answer: str, formula: str | None) -> None:
    assert without_domain_clause(answer) == formula


def test_two_domain_clauses_must_state_one_condition() -> None:
    assert formulas_without_domains("n^2 \\text{ for } n \\ge 1", "n^2 \\quad (n \\geq 1)") == ("n^2", "n^2")
    assert formulas_without_domains("n^2 \\text{ for } n \\ge 1", "n^2 \\quad (n > 1)") is None
    assert formulas_without_domains("n^2", "n^2") is None
