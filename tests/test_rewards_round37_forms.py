"""Answer forms found by held-out round 37 (teacher-graded Gaokao 2024 responses; unit-conversion
tests of a Moodle question type) and by label-free checks over the held-out references: an
equation without free symbols (``\\int_0^1 x\\,dx = \\frac12``) has nothing for sympy to solve,
so math-verify's comparison of two equations by their solutions called any two of them equal; a
Chinese response's conclusion or first line names its option (``故选：D．``, ``D\\n【分析】``),
and ``\\rm A`` is ``A``; ``u`` is micro on a keyboard (``1000 um``), ohms take prefixes
(``1 kohm``), a bare ``C`` next to ``mC`` is a coulomb; expressions in named sets compare by
membership tables (``(A \\cup B)'`` = ``A' \\cap B'``)."""

from __future__ import annotations

import pytest

from rewards.choice_letters import concluding_choice
from rewards.equivalence import compare
from rewards.formal_identity import read_pair


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 x\\,dx = \\frac13", False),
        ("$\\int_0^1 x\\,dx = \\frac12$", "The integral is $\\int_0^1 x\\,dx = \\frac{1}{4}$.", False),
        ("\\int_0^{\\pi} \\sin x\\,dx = 2", "\\int_0^{\\pi} \\sin x\\,dx = 3", False),
        ("\\sum_{k=1}^{10} k = 55", "\\sum_{k=1}^{10} k = 56", False),
        ("\\sin(1) = \\frac12", "\\sin(1) = \\frac13", False),
        # the same statement, or the same value on the right, stays credited
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 x\\,dx = 0.5", True),
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_{0}^{1} x dx = \\frac{1}{2}", True),
        ("\\int_0^1 x\\,dx = \\frac12", "\\int_0^1 t\\,dt = \\frac12", True),
        ("\\frac12", "\\int_0^1 x\\,dx = \\frac12", True),
        ("\\frac13", "\\int_0^1 x\\,dx = \\frac12", False),
        # equations in unknowns are still compared by their solutions
        ("x + 1 = 3", "2x = 4", True),
        ("x + 1 = 3", "2x = 6", False),
    ],
)
def test_equations_without_free_symbols(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("由题意，B={1,4,9}，所以补集为{2,3,5}。\n故选：D．", "D"),
        ("可得切线的斜率为2，则面积为1/4．\n故选A．", "A"),
        ("综上，选C。\n\n**答案**\n\nC", "C"),
        ("因此，首项的值是$\\frac{7}{3}$，选项B是正确的。", "B"),
        ("因此，正确答案是选项B，它符合函数的奇偶性。", "B"),
        ("所以，双曲线的离心率是 $2$，对应选项 C.", "C"),
        ("答案是 B. $3 \\sqrt{3} \\pi$。", "B"),
        ("所以正确答案是：\nC. $1 - \\text{i}$", "C"),
        ("故选：$ A $．", "A"),
        ("因此，选择$\\text{C}$。", "C"),
        ("Thus, $A\\cap B=\\{1,2,3,4\\}$.\n\nHence, the correct option is $A$.", "A"),
        # options ruled out, several options, a name: no choice
        ("我们可以排除选项A和D，因为它们在0附近是正的。", None),
        ("故A项不对；B项也不对。", None),
        ("综上所述，正确的选项是C和D。", None),
        ("综上所述，正确答案是：\nC. x = 0 是充分条件。\nD. x = 1 是充分条件。", None),
        ("The final answer is B = 5", None),
        ("答案是 $B=\\{1,2\\}$", None),
    ],
)
def test_the_option_a_conclusion_states(text: str, letter: str | None) -> None:
    assert concluding_choice(text) == letter


_KEYED_RESPONSE = (
    "D\n【分析】本题考查集合的运算，先求出集合B中的元素，再求交集，最后根据补集的定义写出运算结果。\n"
    "【详解】由题意，$A=\\{1,2,3,4,5,9\\}$，$B=\\{x \\mid \\sqrt{x} \\in A\\}=\\{1,4,9,16,25,81\\}$，"
    "所以$A \\cap B=\\{1,4,9\\}$，则$\\complement_A(A \\cap B)=\\{2,3,5\\}$。"
)
"""A response in a Chinese answer key's form: the option on the first line, then the analysis."""


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("$ \\text{D}$", "由题意，$B=\\{1,4,9\\}$，则$C_{A}(A∩B)=\\{2，3，5\\}$\n故选：D．", True),
        ("$ \\text{B}$", "由题意，$B=\\{1,4,9\\}$，则$C_{A}(A∩B)=\\{2，3，5\\}$\n故选：D．", False),
        ("$  \\rm A$", "所以 $ A\\cap B=\\{1,2,3,4\\} $．\n 故选：$ A $．", True),
        ("C", "因此，$x$的值为2，选项C是正确的。", True),
        ("D", "因此，$x$的值为2，选项C是正确的。", False),
        ("C", "综上所述，正确的选项是C和D。", False),
        ("$  \\rm A$", "A", True),  # plain TeX's font switch
        ("$  \\rm A$", "B", False),
        ("5+\\rm i", "5+i", True),
        ("$ \\text{D}$", _KEYED_RESPONSE, True),
        ("$ \\text{C}$", _KEYED_RESPONSE, False),
    ],
)
def test_chinese_conclusions_against_an_option_letter(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("1 mm", "1000 um", True),
        ("1 ug", "0.001 mg", True),
        ("1 ms", "1000 us", True),
        ("1 N", "1000000 uN", True),
        ("1 uF", "1000 nF", True),
        ("1 m g/us", "1000 mm kg ms^-1", True),
        ("3 mm", "300 um", False),
        ("1000 ohm", "1 kohm", True),
        ("1000 ohm", "1000000 mohm", True),
        ("5 \\text{ ohms}", "5 \\Omega", True),
        ("2 kiloohms", "2000 ohms", True),
        ("5 hectometers", "500 m", True),
        ("1 C", "1000 mC", True),  # a coulomb: the other side writes millicoulombs
        ("1 C", "0.001 kC", True),
        ("1 uF", "0.000001 F", True),
        ("1 uF", "0.00001 F", False),
        ("1 C", "100 mC", False),
        ("25 C", "77 F", True),  # temperatures where no side has a prefix
        ("25 C", "25 mC", False),
    ],
)
def test_micro_as_u_ohms_and_coulombs(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("A \\cup B", "B \\cup A", True),
        ("A \\cap B", "A \\cup B", False),
        ("(A \\cup B)'", "A' \\cap B'", True),  # De Morgan
        ("(A \\cup B)'", "A' \\cup B'", False),
        ("\\overline{A \\cap B}", "\\overline{A} \\cup \\overline{B}", True),
        ("\\bar{A} \\cap \\bar{B}", "\\overline{A \\cup B}", True),
        ("A \\setminus B", "A \\cap B^c", True),
        ("A \\setminus B", "B \\setminus A", False),
        ("A \\cap (B \\cup C)", "(A \\cap B) \\cup (A \\cap C)", True),
        ("A \\cap (B \\cup C)", "(A \\cap B) \\cup C", False),
        ("A", "A \\cup (A \\cap B)", True),  # absorption
        ("A \\cup A'", "B' \\cup B", True),  # the universe, both
        ("A \\cap A^{c}", "\\varnothing", True),
        ("A \\triangle B", "(A \\setminus B) \\cup (B \\setminus A)", True),
        ("A_1 \\cup A_2", "A_2 \\cup A_1", True),
        ("A ∩ B", "B ∩ A", True),
        ("$A \\cup B$", "The answer is $B \\cup A$.", True),
        ("A \\cup B \\cap C", "(A \\cup B) \\cap C", False),  # no agreed grouping: not credited
    ],
)
def test_expressions_in_named_sets(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        (
            "\\left(\\delta - \\frac{1}{4}\\right)^2 = \\frac{1}{4} \\left(\\epsilon^2 - \\mu^2\\right)",
            "\\left(\\delta - \\frac{4}{1}\\right)^2 = \\frac{1}{4} \\left(\\epsilon^2 - \\mu^2\\right)",
            False,
        ),
        (
            "\\left(\\delta - \\frac{1}{4}\\right)^2 = \\frac{1}{4} \\left(\\epsilon^2 - \\mu^2\\right)",
            "\\left(\\delta - 0.25\\right)^2 = \\frac{1}{4} \\left(\\epsilon^2 - \\mu^2\\right)",
            True,
        ),
        ("\\alpha + 1 = 3", "2", False),  # an equation in alpha, not the value 3
        ("2+2=4", "1+3=4", True),  # equations between numbers: the value each states
        ("3", "\\log_2 8 = 3", True),
    ],
)
def test_greek_letters_are_names_in_equations(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("H2O", "H₂O", True),
        ("H2SO4", "H_2SO_4", True),
        ("H2O", "H2O(l)", True),  # a state on one side only
        ("H2O(l)", "H2O(g)", False),  # water is not steam
        ("Fe^{3+}", "Fe3+", True),
        ("SO4^2-", "SO_4^{2-}", True),
        ("Ca(OH)2", "Ca(OH)₂", True),
        ("2H2 + O2 = 2H2O", "2H_2 + O_2 → 2H_2O", True),
        ("2H2 + O2 = 2H2O", "H2 + 0.5 O2 → H2O", True),  # one reaction, halved
        ("CH4 + 2O2 = CO2 + 2H2O", "CH4 + O2 → CO2 + 2H2O", False),  # not balanced the same
        ("N2 + 3H2 ⇌ 2NH3", "N2 + 3H2 ⇌ 2NH2", False),
        ("NaCl + AgNO3 = AgCl + NaNO3", "NaCl(aq) + AgNO3 → AgCl↓ + NaNO3", True),
        ("CaCO3 = CaO + CO2", "CaCO3(s) → CaO(s) + CO2(g)", True),
        ("H2O → H+ + OH-", "H2O ⇌ H+ + OH-", True),
        ("2H2 + O2 → 2H2O", "2H2O → 2H2 + O2", False),  # the reverse reaction
        ("B + C = N", "N = B + C", True),  # letters of maths, not boron and carbon
    ],
)
def test_chemical_formulas_and_reactions(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("0.001 mol/L", "1 mM", True),
        ("1e-9 mol/L", "1 nM", True),
        ("0.5 M", "500 mM", True),  # a bare M is molar next to millimolar
        ("0.5 M", "50 mM", False),
        ("4.184 kJ/mol", "1 kcal/mol", True),
        ("0.133322 kPa", "1 mmHg", True),
        ("760 torr", "1 atm", True),
        ("5 MJ", "5000 kJ", True),  # M still the mega prefix
    ],
)
def test_molar_calories_and_pressures(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("v = v0 + at", "v = v₀ + at", True),
        ("v_0 + at", "v0 + at", True),
        ("x_0 + 5", "x0 + 5", True),
        ("5", "x0 + 5", False),  # latex2sympy read x0 as x times 0
        ("2x_0", "2x0", True),
        ("10", "10.0", True),  # numbers keep their zeros
        ("e^0", "1", True),
    ],
)
def test_a_zero_glued_to_a_letter_is_a_subscript(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("\\frac{1}{2}\\tau(0)", "2\\tau(0)", False),  # a function's value, not tau times 0
        ("\\frac{1}{2}f(0)", "2f(0)", False),
        ("I(0)", "0", False),
        ("\\frac12 f(0)", "0.5f(0)", True),
        ("2f(1)", "f(1)+f(1)", True),
        ("x(x+1)", "x^2+x", True),  # a product: latex2sympy reads it so too
    ],
)
def test_a_name_applied_to_a_number_is_a_function_value(gold: str, pred: str, equal: bool) -> None:
    assert compare(gold, pred).equal is equal


@pytest.mark.parametrize("text", ["2f(2", "\\tau(", "f(-", "x(0", "f(-1"])
def test_a_name_before_an_unclosed_bracket_is_read_without_error(text: str) -> None:
    """An answer cut off after a name and a bracket (``2f(2``) gets a verdict, no exception."""
    read_pair(text, "2f(2)")  # raised IndexError when the name was the last but two tokens
    assert compare("2f(2)", text).equal is False
