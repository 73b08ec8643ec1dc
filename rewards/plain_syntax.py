"""Answers written in calculator or sympy syntax, rewritten as LaTeX.

Datasets built with sympy or a CAS store references such as ``sqrt(2)/2``, ``pi/4``, ``x**2 + 1``,
``2*exp(-x)`` or ``5*sin(pi*x/5)``. As LaTeX, ``pi`` is ``p i`` and ``**`` is not an operator, so
math-verify refuses ``\\frac{\\pi}{4}`` against ``pi/4``, or credits ``13\\pi R^{3}`` for
``13*pi*R^2`` by reading only the leading ``13`` of both. :func:`plain_to_latex` rewrites such a
bare answer token by token (``**`` to ``^``, ``sqrt(u)`` to ``\\sqrt{u}``, ``exp(u)`` to ``e^{u}``,
``factorial(u)`` to ``(u)!``, ``sin(`` to ``\\sin(``, ``pi`` to ``\\pi``, ``oo`` to ``\\infty``, ``*`` to
``\\cdot``, a parenthesised or multi-digit exponent into braces, sympy's ``Matrix([[1, 2]])`` into a
``pmatrix`` ``Eq(a, b)`` and ``a == b`` into ``a = b``), and returns None for anything else: text with
LaTeX commands or ``$``, a word that is not a known function or constant (``dog``,
``eval``), unbalanced parentheses. Nothing is evaluated; answers over 300 characters are left
alone, so the work per answer is bounded.
"""

from __future__ import annotations

import re

from rewards.answer_text import greek_names, split_top
from rewards.extract import braced

MAX_PLAIN_CHARS = 300
"""Longer answers are not rewritten."""

_FUNCTIONS = {
    **{
        f: f"\\{f}"
        for f in "sin cos tan sec csc cot sinh cosh tanh coth sech csch arcsin arccos arctan ln log".split()
    },
    "asin": "\\arcsin",
    "acos": "\\arccos",
    "atan": "\\arctan",
    **{
        f"{prefix}{f}": f"\\arc{f}"  # acot(x), arsinh(x): \\arccot(x), \\arcsinh(x), which latex2sympy reads
        for f in "sec csc cot sinh cosh tanh".split()
        for prefix in (("a", "arc", "ar") if f.endswith("h") else ("a", "arc"))
    },
    **{
        f"{prefix}{f}": f"\\{f}^{{-1}}"  # acoth(x): \\coth^{-1}(x), spelled atanh(1/x) for latex2sympy
        for f in "coth sech csch".split()
        for prefix in ("a", "arc", "ar")
    },
    "cosec": "\\csc",
    "cosech": "\\csch",
    "tg": "\\tan",  # the names used in Russian and other East European textbooks
    "ctg": "\\cot",
    "cotg": "\\cot",
    "arctg": "\\arctan",
    "max": "\\max",
    "min": "\\min",
    "gcd": "\\gcd",
}
_CONSTANTS = {"pi": "\\pi", "oo": "\\infty", "inf": "\\infty", "infinity": "\\infty", "infty": "\\infty"}
_GREEK = greek_names(pi=False, variants=False, capitals=True)
"""Greek letters by name, and the capitals that have a LaTeX command (``Delta`` as ``\\Delta``; not
``Pi``, which is pi in some calculator syntaxes)."""


_GREEK_COMMAND_RE = re.compile(rf"\\({'|'.join(sorted(_GREEK))})(?![a-zA-Z]) ?")
"""A Greek letter's LaTeX command, read as its name in calculator syntax."""


_CALLS = (
    "sqrt",
    "cbrt",
    "exp",
    "abs",
    "factorial",
    "fact",
    "floor",
    "ceil",
    "ceiling",
    "binomial",
    "binom",
    "nCr",
)
"""Calls rewritten with their argument (``sqrt(u)`` to ``\\sqrt{u}``, ``cbrt(u)`` to
``\\sqrt[3]{u}``, ``factorial(u)`` to ``(u)!``, ``floor(u)`` to ``\\lfloor u \\rfloor``,
``binomial(n, k)`` and ``nCr(n, k)`` to ``\\binom{n}{k}``), not by name."""


_CAPITALISED_RE = re.compile(
    r"(?<![A-Za-z\\])(?:[A-Z][a-z]{1,8}|[A-Z]{2,9})(?=\()|(?<![A-Za-z\\])(?:Pi|PI)(?![A-Za-z])"
)
"""A capitalised call (``Sin(``, ``SQRT(``) or ``Pi``: the names some calculators and Mathematica write."""


def _lower_known_name(m: re.Match[str]) -> str:
    word = m.group()
    return word.lower() if is_known_name(word.lower()) else word


def is_known_name(word: str) -> bool:
    """Whether ``word`` names a function, a constant or a Greek letter in calculator syntax."""
    return word in _FUNCTIONS or word in _CONSTANTS or word in _GREEK or word in _CALLS


_TOKEN_RE = re.compile(r"\s+|\*\*|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+|[A-Za-z]+|.")
_ALLOWED_RE = re.compile(r"^[A-Za-z0-9 .,+\-*/^()\[\]{}=<>|_']*$")
_MARKER_RE = re.compile(
    rf"\*|\^\(|\^-[A-Za-z]|\b(?:pi|oo|inf|infinity|{'|'.join(_CALLS)}|{'|'.join(sorted(_GREEK))})\b|\b[a-z]{{2,6}}\("
    rf"|(?<![A-Za-z])(?:{'|'.join(sorted(_FUNCTIONS))})(?:\^(?:-?\d+|[A-Za-z]|\(-?\d+\)))?(?: ?\(|\|| {{1,2}}(?:[A-Za-z]|\d+)\b)"
    r"|\blog_(?:\d+|[A-Za-z])\(|\bAbs\(|(?<![A-Za-z])C\(\s*\d"
)
"""What calculator syntax has and LaTeX does not: ``*``, ``^(``, ``^-x``, a name written out,
a call ``f(``, a function with a power (``sin^2(x)``, ``sin^2 x``, ``sin^n(x)``, ``cos^(-1)(x)``),
of a bare letter or number (``csc x``) or of ``|x|``, a logarithm with a base (``log_2(8)``),
sympy's ``Abs(``."""


def _group_end(tokens: list[str], open_at: int) -> int | None:
    """Index of the ``)`` that closes the ``(`` at ``open_at``."""
    depth = 0
    for i in range(open_at, len(tokens)):
        if tokens[i] == "(":
            depth += 1
        elif tokens[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


def _group(tokens: list[str], open_at: int) -> tuple[str, int] | None:
    """The parenthesised group opening at ``open_at`` rewritten as LaTeX (without its
    parentheses), and the index after its ``)``; None if it does not close or does not rewrite."""
    end = _group_end(tokens, open_at)
    if end is None:
        return None
    inner = _rewrite(tokens[open_at + 1 : end])
    return None if inner is None else (inner, end + 1)


def _call(name: str, inner: str) -> str | None:
    if name in ("factorial", "fact"):  # a letter or a whole number needs no parentheses: n!, 5!
        return f"{inner}!" if _is_letter(inner) or inner.isdigit() else f"({inner})!"
    if name in ("binomial", "binom", "nCr"):  # sympy's binomial(n, k), a calculator's nCr(n, k)
        args = split_top(inner, ",")
        return f"\\binom{{{args[0].strip()}}}{{{args[1].strip()}}}" if len(args) == 2 else None
    if "," in inner:
        return None
    return {
        "floor": f"\\lfloor {inner} \\rfloor",
        "ceil": f"\\lceil {inner} \\rceil",
        "ceiling": f"\\lceil {inner} \\rceil",
        "sqrt": f"\\sqrt{{{inner}}}",
        "cbrt": f"\\sqrt[3]{{{inner}}}",
        "exp": f"e^{{{inner}}}",
        "abs": f"|{inner}|",
    }[name]


_WHOLE_NUMBER_TERM_RE = re.compile(r"^\s*\d+(?:\s*[-+*]\s*\d+)*\s*$")


def _counted_choice(tokens: list[str], open_at: int) -> tuple[str, int] | None:
    """``C(52,5)``, ``C(52-5, 2)`` as ``\\binom{52}{5}`` and the index after it: two arguments of
    whole numbers and ``+ - *`` only (``C(x, 2)`` or a point ``C(1.5, 2)`` stays as it is)."""
    group = _group(tokens, open_at)
    if group is None:
        return None
    args = split_top(group[0], ",")
    if len(args) != 2 or not all(_WHOLE_NUMBER_TERM_RE.match(a) for a in args):
        return None
    binom = _call("binom", group[0])
    return None if binom is None else (binom, group[1])


def _is_letter(tok: str) -> bool:
    return len(tok) == 1 and tok.isalpha()


def _applied(tokens: list[str], at: int) -> bool:
    """Whether the function name at ``at`` is applied: ``sin(``, ``csc x``, ``ln 2``,
    ``arcsin (u)``, ``ln|x|``, also with a power on the name (``sin^2(``, ``sin^2 x``,
    ``sin^n(x)``, ``cos^(-1)(x)``) or, for ``log``, a base (``log_2(8)``)."""
    if tokens[at + 1 : at + 2] in (["^"], ["**"]) or (tokens[at] == "log" and _simple_base(tokens, at + 1)):
        after = _power_end(tokens, at + 1)
        if after is None:
            return False
        at = after - 1  # the name with its power or base is applied as the name alone would be
    nxt = tokens[at + 1 : at + 3]
    if nxt[:1] in (["("], ["|"]) or nxt == [" ", "("]:
        return True
    return len(nxt) == 2 and nxt[0] == " " and (nxt[1].isdigit() or _is_letter(nxt[1]))


def _simple_base(tokens: list[str], at: int) -> bool:
    """``_`` at ``at`` followed by a whole number or a letter: a logarithm's base (``log_2``)."""
    return (
        tokens[at : at + 1] == ["_"]
        and at + 1 < len(tokens)
        and (tokens[at + 1].isdigit() or _is_letter(tokens[at + 1]))
    )


def _power_end(tokens: list[str], at: int) -> int | None:
    """The index after the power (or base) that starts with the ``^`` (``_``) at ``at``: a whole
    number, a letter, a negative whole number (``^-1``), or a parenthesised group."""
    t = tokens[at + 1] if at + 1 < len(tokens) else ""
    if t.isdigit() or _is_letter(t):
        return at + 2
    if t == "-" and at + 2 < len(tokens) and tokens[at + 2].isdigit():
        return at + 3
    if t == "(":
        end = _group_end(tokens, at + 1)
        return None if end is None else end + 1
    return None


def _rewrite(tokens: list[str]) -> str | None:
    """The tokens as LaTeX, or None at the first word that is neither a function, a constant nor a
    Greek letter (then the text is not calculator syntax)."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = "abs" if tokens[i] == "Abs" else tokens[i]  # sympy prints |x| as Abs(x)
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if tok == "C" and nxt == "(" and (binom := _counted_choice(tokens, i + 1)) is not None:
            out.append(binom[0])  # WeBWorK's C(52,5): n choose k
            i = binom[1]
            continue
        if tok in _CALLS and nxt == "(":
            group = _group(tokens, i + 1)
            if group is None:
                return None
            inner, i = group
            call = _call(tok, inner)
            if call is None:
                return None
            out.append(call)
            continue
        if tok in ("^", "**"):
            if nxt == "(":
                group = _group(tokens, i + 1)
                if group is None:
                    return None
                inner, i = group
                out.append(f"^{{{inner}}}")
                continue
            if (
                nxt == "-"
                and i + 2 < len(tokens)
                and (tokens[i + 2][:1].isdigit() or _is_letter(tokens[i + 2]))
            ):
                out.append(f"^{{-{tokens[i + 2]}}}")
                i += 3
                continue
            if nxt[:1].isalnum():
                word = _rewrite([nxt])
                if word is None:
                    return None
                out.append(f"^{{{word}}}")
                i += 2
                continue
            out.append("^")
            i += 1
            continue
        if tok[:1].isalpha() and len(tok) > 1:
            if tok == "log" and _simple_base(tokens, i + 1) and _applied(tokens, i):  # log_2(8): a base
                base = tokens[i + 2]
                out.append(f"\\log_{{{base}}}")
                i += 3
                continue
            if tok in _FUNCTIONS and _applied(tokens, i):
                out.append(_FUNCTIONS[tok])
            elif tok in _CONSTANTS:
                out.append(_CONSTANTS[tok])
            elif tok in _GREEK:
                out.append(f"\\{tok}")
            else:
                return None  # a word: not calculator syntax
            out.append(" ")
        elif tok == "*":
            out.append(" \\cdot ")
        else:
            out.append(tok)
        i += 1
    return "".join(out).strip()


_MATRIX_RE = re.compile(r"^Matrix\(\[(\[[^\[\]]*\](?:, ?\[[^\[\]]*\])*)\]\)$")
_ROW_RE = re.compile(r"\[([^\[\]]*)\]")


def _sympy_matrix(s: str) -> str | None:
    """``Matrix([[1, 2], [3, 4]])`` (sympy's printing) as ``\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix}``."""
    m = _MATRIX_RE.match(s)
    if not m:
        return None
    rows = []
    for row in _ROW_RE.findall(m.group(1)):
        cells = [c.strip() for c in row.split(",")]
        if not all(cells):
            return None
        rows.append(" & ".join(plain_to_latex(c) or c for c in cells))
    return "\\begin{pmatrix}" + " \\\\ ".join(rows) + "\\end{pmatrix}"


def plain_to_latex(text: str) -> str | None:
    """``text`` rewritten as LaTeX when it is a bare answer in calculator/sympy syntax, else None.

    >>> plain_to_latex("sqrt(2)/2")
    '\\\\sqrt{2}/2'
    >>> plain_to_latex("x**2 + 1")
    'x^{2} + 1'
    """
    s = text.strip()
    if len(s) <= MAX_PLAIN_CHARS and _CAPITALISED_RE.search(s):  # Sin(Pi), Sqrt(2): Mathematica's names
        s = _CAPITALISED_RE.sub(_lower_known_name, s)
    if "\u03c0" in s and len(s) <= MAX_PLAIN_CHARS:  # "π / (2 * sqrt(2))": the letter as the name
        s = " ".join(s.replace("\u03c0", " pi ").split())
    if "\\" in s and len(s) <= MAX_PLAIN_CHARS:  # "sin(\\theta )": a unicode letter normalised to LaTeX
        s = _GREEK_COMMAND_RE.sub(r"\1", s)
    if s.startswith("Matrix(") and len(s) <= MAX_PLAIN_CHARS:
        return _sympy_matrix(s)
    if s.startswith("Eq(") and s.endswith(")") and len(s) <= MAX_PLAIN_CHARS and _ALLOWED_RE.match(s):
        sides = split_top(s[3:-1], ",")  # sympy's Eq(lhs, rhs)
        if len(sides) != 2:
            return None
        lhs, rhs = (plain_to_latex(x) or x for x in sides)
        return f"{lhs} = {rhs}"
    if s.count("==") == 1 and s.count("=") == 2 and len(s) <= MAX_PLAIN_CHARS:
        lhs, rhs = (x.strip() for x in s.split("=="))  # Python's / sympy's equality
        return f"{plain_to_latex(lhs) or lhs} = {plain_to_latex(rhs) or rhs}" if lhs and rhs else None
    if not s or len(s) > MAX_PLAIN_CHARS or not _ALLOWED_RE.match(s) or not _MARKER_RE.search(s):
        return None
    tokens = [t if not t.isspace() else " " for t in _TOKEN_RE.findall(s)]
    if tokens.count("(") != tokens.count(")"):
        return None
    got = _rewrite(tokens)
    return None if got is None or got == s else re.sub(r" {2,}", " ", got)


_RECIPROCAL_OF = {"coth": "\\tanh", "sech": "\\cosh", "csch": "\\sinh"}
_RECIPROCAL_RE = re.compile(r"\\(coth|sech|csch)(?![a-zA-Z])")
_POWER_RE = re.compile(r" ?\^(?:\d|\{\d{1,2}\})")
"""A whole positive power only: ``\\sech^{-1}`` is the inverse function, not a reciprocal."""
_INVERSE_RE = re.compile(r" ?\^(?:-1|\{-1\})")
"""The inverse function (``\\coth^{-1}``): ``\\tanh^{-1}`` of the reciprocal of its argument."""
_BARE_ARG_RE = re.compile(r" ?(?:\d*[A-Za-z]|\d+(?:\.\d+)?)(?![A-Za-z\d])")


def spell_reciprocal_hyperbolics(text: str) -> str:
    """``\\coth``, ``\\sech`` and ``\\csch`` applied to an argument, written as ``\\frac{1}{\\tanh ...}``
    and kin: latex2sympy reads ``\\coth(x)`` as ``cot(h(x))`` and ``\\sech x`` as ``sec(h x)``.
    The inverse function (``\\coth^{-1}(u)``) is written as the inverse of the reciprocal's partner at
    ``1/u`` (``\\tanh^{-1}(\\frac{1}{(u)})``: the same function, ``acoth(u) = atanh(1/u)``). A name
    whose argument is not ``(...)``, ``{...}``, a number or a letter, or with another power, is left
    as it is."""
    if "\\" not in text or not _RECIPROCAL_RE.search(text):
        return text
    out: list[str] = []
    pos = 0
    for m in _RECIPROCAL_RE.finditer(text):
        if m.start() < pos:
            continue
        at = m.end()
        inverse = _INVERSE_RE.match(text, at)
        power = None if inverse else _POWER_RE.match(text, at)
        script = inverse or power
        if script:
            at = script.end()
        while at < len(text) and text[at] == " ":
            at += 1
        end: int | None = None
        if at < len(text) and text[at] in "({":
            group = braced(text, at, MAX_PLAIN_CHARS)
            end = group[1] if group else None
        else:
            bare = _BARE_ARG_RE.match(text, at)
            end = bare.end() if bare else None
        if end is None:
            continue
        name = _RECIPROCAL_OF[m.group(1)]
        out.append(text[pos : m.start()])
        if inverse:  # acoth(u) = atanh(1/u), asech(u) = acosh(1/u), acsch(u) = asinh(1/u)
            out.append(f"{name}^{{-1}}\\left(\\frac{{1}}{{{text[at:end].strip()}}}\\right)")
        else:
            out.append(
                f"\\frac{{1}}{{{name}{power.group(0).strip() if power else ''} {text[at:end].strip()}}}"
            )
        pos = end
    out.append(text[pos:])
    return "".join(out)
