"""Answer forms found by held-out round 46 (physics qualifying-exam answers judged by a model,
verifier benchmarks): LaTeX's variant glyphs of a Greek letter (``\\varepsilon``, ``\\varphi``,
``\\vartheta``) name the same letter as the plain command, unless one answer uses both as two
names; ``\\varpi`` is not ``\\pi``. A formula followed by the domain where it holds
(``2^n - 1 \\text{ for all } n \\ge 1``) states the formula. Round 47 (a data-analysis benchmark):
named results ``name: value`` answered ``@name[value]`` are compared by name. Every example here is
written for this file, not taken from an evaluation set."""

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


# -- named results (round 47: a data-analysis benchmark's "@name[value]" answers) ------------------


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("mean_price: 12.50", "The mean is computed below.\n\n@mean_price[12.5]", True),
        ("ratio: 0.25, trend: increasing", "@trend[increasing]\n@ratio[0.250]", True),
        ("ratio: 0.25, trend: increasing", "@trend[decreasing]\n@ratio[0.25]", False),
        ("ratio: 0.25, trend: increasing", "@ratio[0.26] @trend[increasing]", False),
        ("ratio: 0.25", "@ratio[0.25] @median[3.0] @count[17]", True),  # more results than asked
        ("ratio: 0.25, count: 17", "@ratio[0.25]", False),  # a result is missing
        ("low: 3, high: 9", "@low 3, @high 9", True),
        ("low: 3, high: 9", "- **@low**: `3`\n- **@high**: `9`", True),
        ("low_total: 40, high_total: 7", "@low_total40\n@high_total7", True),  # glued
        ("low_total: 40, high_total: 7", "@low_total40\n@high_total8", False),
        ("counts: 12, 30", "@counts[12, 30]", True),
        ("x2: 5, x: 7", "@x2[5] @x[7]", True),
        ("ratio: 0.25", "@ratio_std[0.25]", False),  # another name
        ("ratio: 0.25", "First @ratio[0.3], then corrected: @ratio[0.25]", True),  # the last one
    ],
)
def test_named_results_are_compared_by_name(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


def test_named_results_reading() -> None:
    from rewards.named_results import named_values_of, result_pairs, stated_value

    assert named_values_of("mean: 3.5, sd: 1.2, groups: 1, 2, 3") == [
        ("mean", "3.5"),
        ("sd", "1.2"),
        ("groups", "1, 2, 3"),
    ]
    assert named_values_of("@mean[3.5] @sd[1.2]") == [("mean", "3.5"), ("sd", "1.2")]
    assert named_values_of("The mean: 3.5") is None  # not wholly named values
    assert named_values_of("a: 1, a: 2") is None  # one name twice
    assert stated_value("@count: 73 rows were removed", "count") == ("73", False)  # words after: not firm
    assert stated_value("@count[73]", "count") == ("73", True)
    assert stated_value("no results here", "count") is None
    assert result_pairs("mean: 3.5", "mean = 3.5") is None  # no "@" in the response


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("\\max(t_A, t_B) + k - 1", "max(t_A, t_B) + k - 1", True),  # calculator syntax
        ("\\min(a, b)", "min(a,b)", True),
        ("\\min(a, b)", "max(a,b)", False),
        ("6", "gcd(12, 18)", True),
        ("8!^2", "1,625,702,400", True),  # (8!)^2: the factorial binds tighter
        ("8!^2", "8", False),
    ],
)
def test_round47_plain_functions_and_factorial_powers(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("1e-5", "\\boxed{10^{-5}}", True),  # round 48: read as e - 5, it was refused
        ("1e-5", "\\boxed{10^{-4}}", False),
        ("3e8", "3 \\times 10^{8}", True),
        ("e - 5", "1e-5", False),
    ],
)
def test_round48_e_notation_against_a_power_of_ten(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal
