"""Answers in calculator or sympy syntax (rewards/plain_syntax.py); extreme powers and finite sums
in the symbolic worker (rewards/_symbolic_worker.py). Examples invented; the real latex2sympy/sympy run here."""

from __future__ import annotations

import pytest
from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

from rewards.answer_text import normalize
from rewards.equivalence import compare, decide_fast
from rewards.parsed_rewrites import MAX_EXPANDED_TERMS, expand_finite_sums, has_extreme_power
from rewards.plain_syntax import plain_to_latex, spell_reciprocal_hyperbolics


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("sqrt(2)/2", "\\sqrt{2}/2"),
        ("x**2 + 1", "x^{2} + 1"),
        ("24 + 6cos(4)", "24 + 6\\cos (4)"),  # a function right after a number
        ("24 + 6cos 4", "24 + 6\\cos 4"),
        ("2*exp(-x)", "2 \\cdot e^{-x}"),
        ("pi/4", "\\pi /4"),
        ("5*sin(pi*x/5)", "5 \\cdot \\sin (\\pi \\cdot x/5)"),
        ("e^(-8*x)", "e^{-8 \\cdot x}"),
        ("abs(x-1)", "|x-1|"),
        ("(-infinity,5)", "(-\\infty ,5)"),
        ("theta/2", "\\theta /2"),
        ("x**-2", "x^{-2}"),
        ("x**-2.5", "x^{-2.5}"),
        ("Matrix([[1, 2], [3, 4]])", "\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix}"),  # sympy's printing
        ("Matrix([[sqrt(2)], [pi]])", "\\begin{pmatrix}\\sqrt{2} \\\\ \\pi\\end{pmatrix}"),
        ("Eq(x**2/4 + y**2/3, 1)", "x^{2}/4 + y^{2}/3 = 1"),  # sympy's equation
        ("sin^2(x)+cos^2(x)", "\\sin ^{2}(x)+\\cos ^{2}(x)"),  # a function's power
        ("1/sin x", "1/\\sin x"),  # a function of a bare letter
        ("3^-x", "3^{-x}"),
        ("1+cosec(3*x)", "1+\\csc (3 \\cdot x)"),
        ("f(x) = ln|x|+c", "f(x) = \\ln |x|+c"),
        ("factorial(n)/factorial(n + 1)", "n!/(n + 1)!"),  # sympy's factorial
        ("2*factorial(5)", "2 \\cdot 5!"),
        ("arcsin (1/x)", "\\arcsin (1/x)"),
        ("coth x", "\\coth x"),  # the reciprocal hyperbolic functions
        ("sech^2(x)", "\\sech ^{2}(x)"),
        ("1+cosech(3*x)", "1+\\csch (3 \\cdot x)"),
        ("cos^2 x+sin^2 x", "\\cos ^{2} x+\\sin ^{2} x"),  # a power on the name, bare argument
        ("sin^n(x)", "\\sin ^{n}(x)"),
        ("cos^(-1)(x)", "\\cos ^{-1}(x)"),  # the inverse function
        ("tan^-1 x", "\\tan ^{-1} x"),
        ("log_2(8)", "\\log_{2}(8)"),  # a logarithm's base
        ("log_10(x)*2", "\\log_{10}(x) \\cdot 2"),
        ("cbrt(x)", "\\sqrt[3]{x}"),
    ],
)
def test_rewrites_calculator_syntax(text: str, latex: str) -> None:
    assert plain_to_latex(text) == latex


@pytest.mark.parametrize(
    "text",
    [
        "x+1",
        "3/4",
        "\\frac{\\pi}{4}",
        "$x*y$",
        "dog",
        "Matrix([1, 2])",
        "eval(chr(112))",
        "sqrt(2",
        "",
        "the tan man",
        "log_(2)(8)",  # a base in parentheses: not read
        "sin^2",  # a power on a name applied to nothing
    ],
)
def test_leaves_other_text_alone(text: str) -> None:
    assert plain_to_latex(text) is None  # LaTeX, prose, unknown words, unbalanced: not rewritten


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("-pi*2*9^2", "-162\\pi", True),
        ("1/2", "sin(pi/6)", True),
        ("x**6", "(x^2)^3", True),
        ("1/sqrt(3)", "\\frac{\\sqrt{3}}{3}", True),
        ("13*pi*R^2", "13 \\pi R^{3}", False),  # math-verify reads only the leading 13 of both
        ("0.5*ln(7+x^4)+C", "\\frac{1}{3} \\ln(7 + x^4) + C", False),
        ("cos(x)", "\\sin(x)", False),
        ("\\begin{pmatrix} 1 & 2 \\end{pmatrix}", "Matrix([[1, 2]])", True),
        ("\\begin{pmatrix}9&9\\end{pmatrix}", "Matrix([[1, 2]])", False),
        ("Eq(x**2/4 + y**2/3, 1)", "\\boxed{\\frac{x^2}{4}+\\frac{y^2}{3}=1}", True),
        ("1/sin x", "csc x", True),
        ("x/x", "sin^2(x)+cos^2(x)", True),  # equal wherever both are defined
        ("y = x/x", "y = sin^2(x)+cos^2(x)", True),
        ("y = sin(x)", "y = sin(x + 2pi)", True),
        ("sin^2(x)", "1+cos^2(x)", False),
        ("1/tanh x", "coth x", True),  # math-verify: False (c*o*t*h*x)
        ("1/sinh x", "csch x", True),
        ("1/cosh x", "sech x", True),
        ("1+csch(3*x)", "1+cosech(3*x)", True),
        ("\\coth^2 x - 1", "\\csch^2 x", True),
        ("1 - \\tanh^2 x", "\\sech^2 x", True),
        ("\\coth(x)", "\\frac{e^{2x}+1}{e^{2x}-1}", True),
        ("\\sech x", "\\csch x", False),
        ("coth(x)", "cot(x)", False),
        ("1/tanh x", "\\coth(2x)", False),
        ("1", "cos^2 x+sin^2 x", True),
        ("sin(x)^2", "sin^2 x", True),
        ("sin^2 x", "cos^2 x", False),
        ("3", "log_2(8)", True),
        ("3", "log_2(9)", False),
        ("5", "log_10(100000)", True),
        ("x^(1/3)", "cbrt(x)", True),
        ("$24+6\\cos(4)$", "24 + 6cos(4)", True),
        ("$24+6\\cos(4)$", "24 + 6cos(5)", False),
    ],
)
def test_calculator_syntax_on_the_certain_path(gold: str, pred: str, want: bool) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("13*pi*R^2", "13 \\pi R^{2}"),
        ("7*z-cos(z)+11", "7z - \\cos z + 11"),
        ("pi/4", "\\frac{\\pi}{4}"),
        ("2**100", "2^{100}"),
        ("1/(n + 1)", "factorial(n)/factorial(n + 1)"),  # before: f*a*c*t*o*r*i*a*l, not equal
        ("arccos(x)", "cos^(-1)(x)"),  # before: c*o*s^(-1)*x
        ("sin(x)^n", "sin^n(x)"),
        ("log(b)/log(a)", "log_a(b)"),
    ],
)
def test_calculator_syntax_reaches_math_verify_as_latex(gold: str, pred: str) -> None:
    assert compare(gold, pred).equal


def test_different_sympy_equations_are_not_equal() -> None:
    assert not compare("Eq(x**2/4 + y**2/3, 1)", "\\boxed{Eq(x**2/16 + y**2/12, 1)}").equal


@pytest.mark.parametrize(
    ("text", "extreme"),
    [
        ("$2^{2^{100}}$", True),
        ("$[2^{\\frac{1}{2^{1000}}}, \\infty)$", True),
        ("$2^{100000}$", False),  # a written integer exponent: sympy computes it
        ("$x^{10^{7}}$", False),  # a variable's power is not evaluated
        ("$10^{-30}$", False),
    ],
)
def test_extreme_powers_are_found(text: str, extreme: bool) -> None:
    config = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]
    assert has_extreme_power(list(parse(text, extraction_config=config, parsing_timeout=None))) is extreme


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("x+1", "2^{2^{100}}", False),
        ("[1,+\\infty)", "[2^{\\frac{1}{2^{1000}}}, \\infty)", False),
        ("$2^{2^{100}}$", "The answer is $2^{2^{100}}$.", True),
    ],
)
def test_extreme_powers_get_a_verdict_not_a_timeout(gold: str, pred: str, equal: bool) -> None:
    verdict = compare(gold, pred, timeout_s=3.0)  # sympy's simplify of these runs for minutes
    assert (verdict.equal, verdict.verified) == (equal, True)


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        # math-verify's own evaluation of these runs past its 5 s timeout ("different")
        ("2^{1000}", "\\sum_{k=0}^{1000} \\binom{1000}{k}", True),
        ("(2+\\sqrt{3})^{40}", "$\\sum_{k=0}^{40} \\binom{40}{k} 2^{40-k} (\\sqrt{3})^k$", True),
        ("13", "so \\[ x - 1 = \\sum_{k=0}^{800} \\binom{800}{k} 2^{800-k} (\\sqrt{3})^k - 1 \\]", False),
        ("\\frac{1001}{1}", "$\\prod_{k=1}^{1000} \\left(1+\\frac{1}{k}\\right)$", True),
        ("\\frac{50}{51}", "$\\sum_{k=1}^{50} \\frac{1}{k(k+1)}$", True),
    ],
)
def test_finite_sums_are_written_out_within_the_bound(gold: str, pred: str, equal: bool) -> None:
    verdict = compare(gold, pred, timeout_s=3.0)
    assert (verdict.equal, verdict.verified) == (equal, True)


def _parsed(text: str) -> list[object]:
    config = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]
    return list(parse(text, extraction_config=config, parsing_timeout=None))


def test_sum_expansion_keeps_closed_forms_and_refuses_long_ranges() -> None:
    import sympy

    polynomial = _parsed("$\\sum_{k=1}^{100000} k^2$")  # sympy's closed form: left as it is
    assert expand_finite_sums(polynomial) == polynomial
    symbolic = _parsed("$\\sum_{k=1}^{n} \\frac{1}{k}$")
    assert expand_finite_sums(symbolic) == symbolic
    reversed_limits = _parsed("$\\sum_{k=5}^{1} 2^{k}$")  # sympy's convention decides
    assert expand_finite_sums(reversed_limits) == reversed_limits
    short = expand_finite_sums(_parsed("$\\sum_{k=0}^{3} 2^{k}$"))
    assert short is not None and short[0] == sympy.Integer(15)
    assert (
        expand_finite_sums(_parsed(f"$\\sum_{{k=1}}^{{{MAX_EXPANDED_TERMS + 1}}} \\frac{{1}}{{k}}$")) is None
    )


def test_a_term_free_of_the_index_gives_the_closed_form() -> None:
    import sympy

    # latex2sympy reads F_{n-k-1} as one symbol: the term does not depend on k
    (fib,) = [
        e
        for e in expand_finite_sums(_parsed("$\\sum_{k=0}^{n-1} F_k F_{n-k-1}$")) or []
        if isinstance(e, sympy.Basic)
    ]
    assert not fib.has(sympy.Sum)
    n = next(s for s in fib.free_symbols if s.name == "n")
    assert sympy.expand(fib - fib.subs(n, 0)) != 0  # the count n is in it
    (power,) = [
        e for e in expand_finite_sums(_parsed("$\\prod_{j=1}^{m} 2$")) or [] if isinstance(e, sympy.Basic)
    ]
    assert not power.has(sympy.Product) and power.is_Pow
    c, k = sympy.symbols("c k")
    assert expand_finite_sums([sympy.Sum(c, (k, 5, 2))]) == [-2 * c]  # Karr's convention, as sympy's doit
    assert sympy.Sum(c, (k, 5, 2)).doit() == -2 * c


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("$F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}$", "$F_n = \\sum_{k=0}^{n-1} F_{n-k-1} F_k$", True),
        ("$F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}$", "$F_n = \\sum_{k=0}^{n-2} F_k F_{n-k-2}$", False),
        ("$\\sum_{k=1}^{n} 3$", "$3n$", True),
        ("$\\sum_{k=1}^{n} 3$", "$3n+3$", False),
        ("$\\prod_{k=1}^{n} 2$", "$2^n$", True),
    ],
)
def test_sums_of_a_term_free_of_the_index(gold: str, pred: str, equal: bool) -> None:
    verdict = compare(gold, pred, timeout_s=5.0)
    assert (verdict.equal, verdict.verified) == (equal, True)


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("1", "\\sum_{k=1}^{50} \\frac{1}{k(k+1)}"),  # the "= 1" of the index is not the answer
        ("3", "\\prod_{j=3}^{5} j"),
        ("0", "\\sum_{n=0}^{4} n"),
    ],
)
def test_an_index_range_is_not_a_chain_of_equalities(gold: str, pred: str) -> None:
    assert not compare(gold, pred, timeout_s=3.0).equal


@pytest.mark.parametrize(
    ("latex", "spelled", "sympy_text"),
    [
        ("\\coth(x)", "\\frac{1}{\\tanh (x)}", "coth(x)"),
        ("1+\\csch 3x", "1+\\frac{1}{\\sinh 3x}", "csch(3*x) + 1"),
        ("\\sech^2(x) + \\tanh^2 x", "\\frac{1}{\\cosh^2 (x)} + \\tanh^2 x", "sech(x)**2 + tanh(x)**2"),
        ("\\coth{2x}", "\\frac{1}{\\tanh {2x}}", "coth(2*x)"),
    ],
)
def test_reciprocal_hyperbolics_reach_latex2sympy_as_reciprocals(
    latex: str, spelled: str, sympy_text: str
) -> None:
    # latex2sympy reads \coth(x) as cot(h(x)); the spelled form is the function itself
    import sympy
    from latex2sympy2_extended import latex2sympy

    assert latex2sympy(latex) != latex2sympy(spelled)
    assert spell_reciprocal_hyperbolics(latex) == spelled
    got = latex2sympy(spelled)
    want = sympy.sympify(sympy_text)  # our own test text, not model output
    assert sympy.simplify((got - want).rewrite(sympy.exp)) == 0


@pytest.mark.parametrize(
    ("latex", "spelled", "sympy_text"),
    [
        ("\\coth^{-1}(x)", "\\tanh^{-1}\\left(\\frac{1}{(x)}\\right)", "acoth(x)"),
        ("\\sech^{-1} 2x", "\\cosh^{-1}\\left(\\frac{1}{2x}\\right)", "asech(2*x)"),
        ("\\csch^{-1}{x}", "\\sinh^{-1}\\left(\\frac{1}{{x}}\\right)", "acsch(x)"),
    ],
)
def test_inverse_reciprocal_hyperbolics_reach_latex2sympy_as_inverses_at_the_reciprocal(
    latex: str, spelled: str, sympy_text: str
) -> None:
    # latex2sympy reads \coth^{-1}(x) as cot(1/h(x)); acoth(u) = atanh(1/u), asech(u) = acosh(1/u),
    # acsch(u) = asinh(1/u): the same functions (sympy's simplify does not prove it, so at points)
    import sympy
    from latex2sympy2_extended import latex2sympy

    assert spell_reciprocal_hyperbolics(latex) == spelled
    got, want = latex2sympy(spelled), sympy.sympify(sympy_text)  # our own test text
    (x,) = got.free_symbols | want.free_symbols  # the same plain symbol on both sides
    for point in (sympy.Rational(7, 3), sympy.Rational(-5, 2), sympy.Rational(1, 3), 2 * sympy.I / 3 + 1):
        assert abs(complex((got - want).subs(x, point).evalf())) < 1e-12


@pytest.mark.parametrize(
    "latex", ["\\coth", "\\cothx", "\\csch \\left(x\\right)", "x + 1", "\\sech^{-2}(x)", "\\coth^{n} x"]
)
def test_reciprocal_hyperbolics_without_a_plain_argument_are_left(latex: str) -> None:
    assert spell_reciprocal_hyperbolics(latex) == latex


def test_reciprocal_hyperbolics_in_the_worker() -> None:
    gold, pred = "\\coth(\\sqrt{x}) + \\int_0^1 t\\,dt", "\\frac{1}{\\tanh(\\sqrt{x})} + \\frac{1}{2}"
    assert decide_fast(gold, pred) is None
    assert compare(gold, pred, 30.0).equal


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        # "pi" without its backslash inside math is the constant, not the product p i
        ("$2\\pi$", "$2pi$", True),
        ("$\\frac{\\pi}{3}$", "$\\frac{pi}{3}$", True),
        ("$x = \\frac{\\pi}{2}$", "$x = pi/2$", True),
        ("$2\\pi$", "$3pi$", False),
        ("$2\\pi$", "$2pi r$", False),
        ("$api$", "$a \\pi$", None),  # inside a word: left alone
        ("$p_i$", "$\\pi$", None),
    ],
)
def test_pi_without_its_backslash(gold: str, pred: str, want: bool | None) -> None:
    assert decide_fast(gold, pred) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        # a unicode Greek letter is its LaTeX command, in LaTeX and in calculator syntax
        ("\\theta", "θ", True),
        ("2\\alpha", "α+α", True),
        ("sin(theta) + cos(phi)", "sin(θ) + cos(φ)", True),
        ("epsilon_0*mu_0", "ε_0*μ_0", True),
        ("upsilon", "υ", True),
        ("\\Delta", "Δ", True),
        ("sin(theta) + cos(phi)", "sin(θ) + cos(θ)", False),
        ("\\Delta", "δ", False),  # another letter, as \\Delta against \\delta
        ("Δx", "\\delta x", False),
        # capitals by name in calculator syntax (those with a LaTeX command)
        ("Gamma", "Γ", True),
        ("Lambda*x + mu*y", "Λ*x + μ*y", True),
        ("Delta*x", "δ*x", False),  # Delta is not delta
        ("Omega", "ω", False),
    ],
)
def test_unicode_greek_letters(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)


def test_greek_words_stay_text() -> None:
    assert normalize("οδος σοφια") == "οδος σοφια"  # letters in a word are not commands
    assert normalize("2θx") == "2\\theta x"
    assert compare("οδος", "σοφια").equal is False


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        # inverse functions by name (a, arc, ar prefixes) and as a power -1
        ("acot(x)", "arccot(x)", True),
        ("cot^(-1)(x)", "acot(x)", True),
        ("sec^(-1)(x)", "arcsec(x)", True),
        ("sinh^(-1)(x)", "asinh(x)", True),
        ("acosh(x)", "arcosh(x)", True),
        ("coth^(-1)(x)", "acoth(x)", True),  # spelled atanh(1/x): latex2sympy misreads \\coth
        ("acsch(x)", "asinh(1/x)", True),
        ("acoth(x)", "atanh(x)", False),
        ("acot(x)", "atan(x)", False),
        # a power on a function's name with ** (sympy-style), sympy's Abs
        ("sec(x)**12", "sec**12(x)", True),
        ("asinh(x)**13", "asinh**13(x)", True),
        ("sin(x)**2", "sin**3(x)", False),
        ("Abs(x)+y", "|x|+y", True),
        ("Abs(x)+y", "|x|-y", False),
        # sympy's binomial/floor/ceiling, a calculator's nCr
        ("nCr(8,3)", "56", True),
        ("binomial(n, k)", "nCr(n,k)", True),
        ("binom(8,3)", "55", False),
        ("floor(17.8)", "17", True),
        ("ceiling(-17.8)", "-17", True),
        ("floor(17.8)", "18", False),
    ],
)
def test_inverse_function_names_powers_and_calls(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)
