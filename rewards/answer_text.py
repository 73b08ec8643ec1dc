"""Answer text at the string level: normalisation, top-level splitting, ``name = value`` sides.

Pure string work with linear regexes on bounded strings; nothing here parses mathematics. Every
other module of the certain path reads answers through :func:`normalize` first.
"""

from __future__ import annotations

import functools
import re
from itertools import accumulate, product

from rewards.extract import _BOX_RE, braced
from rewards.physical_units import braced_units_unbraced

MAX_ANSWER_CHARS = 2000
"""Extracted answers longer than this are compared as text only."""


TEXT_CMD_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|textnormal|mathrm|mathbf|mbox|operatorname|mathit)\s*\{([^{}]*)\}"
)
_SPACING_RE = re.compile(
    r"\\\\|\\[,;:! ]|\\q?quad(?![a-zA-Z])|~"
    r"|\\(?:neg)?(?:thin|med|thick|en)space(?![a-zA-Z])|\\hspace\*? ?\{[^{}]{0,20}\}"
)
_LEFT_RIGHT_RE = re.compile(r"\\(?:left|right|[bB]igg?[lrm]?)(?![a-zA-Z])")
_DEGREE_RE = re.compile(r"\^ ?\{? ?\\circ ?\}?|°|\\degree(?![a-zA-Z])")
_DFRAC_RE = re.compile(r"\\[dt]frac(?![a-zA-Z])")
_TEMPERATURE_WORDS_RE = re.compile(
    r"(?<=\d) ?(?:degrees? )?(?:(Celsius|centigrade)|(Fahrenheit))\b|(?<=\d) ?degrees? ([CF])\b",
    re.IGNORECASE,
)
"""``15 degrees Celsius``, ``59 degrees F``: a temperature, written as ``15^\\circ C`` normalises (``15 C``)."""
_THOUSANDS_BRACE_RE = re.compile(r"(\d)(?:\{,\}|,\\!) ?(?=\d{3}(?!\d))")
# "28 percent", "\\frac12 percent"
_PERCENT_WORD_RE = re.compile(r"([\d}]) ?(?:percent|per ?cent|pct)\b\.?", re.IGNORECASE)
_ORDINAL_RE = re.compile(r"(\d) ?\^? ?\{? ?(?:st|nd|rd|th) ?\}?(?![a-zA-Z])")
_FRAC_DIGITS_RE = re.compile(r"\\frac ?(\d) ?(\d+)")  # "\\frac123" is 1/23 to latex2sympy
_SUP_BEFORE_SUB_RE = re.compile(
    r"(?<![a-zA-Z\\])([a-df-hj-zA-Z]|\\(?:alpha|beta|gamma|delta|theta|lambda|mu|nu|rho|sigma|tau|phi|omega))"
    r" ?\^ ?(\{[^{}]{1,20}\}|[0-9a-zA-Z]) ?_ ?(\{[^{}]{1,20}\}|[0-9a-zA-Z])(?! ?[_^])"
)
"""``v^2_0`` (a superscript written before the subscript) is ``v_0^2``: the same symbol in LaTeX;
the readers of the certain path take a subscript only right after the letter. Not for ``e`` or
``i`` (``e^x_1`` is no subscripted ``e``)."""
_CURRENCY_RE = re.compile(r"\\\$|[$€£¥₹]|\b(?:USD|EUR|GBP)\b")
_WS_RE = re.compile(r"\s+")
_RELATION_WORDS = {
    "\\lt": "<",
    "\\gt": ">",
    "!=": "\\ne ",
    "<=": "\\le ",
    ">=": "\\ge ",
    "\\neq": "\\ne ",
    "\\leqq": "\\le ",
    "\\geqq": "\\ge ",
    "\\leqslant": "\\le ",
    "\\geqslant": "\\ge ",
    "\\land": " and ",
    "\\wedge": " and ",
    "\\&": " and ",
    "\\lor": " or ",
    "\\vee": " or ",
}
"""Spellings of relations, written the one way the certain path and latex2sympy read: latex2sympy
reads ``x \\geqq 0`` (the Japanese school form of ``\\ge``) as ``x \\geq q0``, the letter q times 0.
Logical connectives read as words: ``x=0 \\land y=42`` is two statements, as ``x=0 and y=42`` is."""
_CAPITAL_CONNECTIVE_RE = re.compile(r"(?<=[\w)\]}]) +(AND|OR) +(?=[-+\w(\[{\\])")
"""``AND``, ``OR`` between values in an answer key written in capitals (``-2 + i AND -2 - i``)."""
_RELATION_WORD_RE = re.compile(
    r"\\(?:[lg]t|neq|leqq|geqq|leqslant|geqslant|land|wedge|lor|vee)(?![a-zA-Z])|\\&|!=|<=|>="
)


def _spacing(m: re.Match[str]) -> str:
    return m.group(0) if m.group(0) == "\\\\" else " "  # keep matrix row breaks


def _strip_wrappers(s: str) -> str:
    """Remove surrounding ``$..$``, ``\\(..\\)``, ``\\[..\\]`` and whole-string ``\\boxed{..}``."""
    while True:
        t = s.strip()
        if t.startswith("$$") and t.endswith("$$") and len(t) >= 4 and "$" not in t[2:-2]:
            t = t[2:-2]
        elif t.startswith("$") and t.endswith("$") and len(t) >= 2 and "$" not in t[1:-1]:
            t = t[1:-1]
        elif (t.startswith("\\(") and t.endswith("\\)")) or (t.startswith("\\[") and t.endswith("\\]")):
            t = t[2:-2]
        else:
            m = _BOX_RE.match(t)
            if m and t[m.end() :].lstrip().startswith("{"):
                j = t.index("{", m.end())
                got = braced(t, j, len(t))
                if got is not None and got[1] == len(t):
                    t = got[0]
        t = t.strip()
        if t == s:
            return t
        s = t


_SUPERSCRIPTS = str.maketrans(
    "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b", "0123456789-"
)
_BARE_PI_RE = re.compile(r"(?<![A-Za-z\\])pi(?![A-Za-z])")
_FRAC_GROUPS_RE = re.compile(r"\\frac\s?\{([^{}]{1,80})\}\s?\{([^{}]{1,80})\}")
_THOUSANDS_GROUP_RE = re.compile(r"\s*[1-9]\d{0,2}(?:,\d{3})+\s*")
_SQRT_FRAC_RE = re.compile(r"\\sqrt\s?(\\frac\s?\{[^{}]{1,80}\}\s?\{[^{}]{1,80}\})")
_SIGNED_EXPONENT_RE = re.compile(r"\^\s?([-+](?:\d+(?:\.\d+)?|[a-zA-Z]))")
_PAREN_EXPONENT_RE = re.compile(r"\^\s?\(([^()]{1,80})\)")
_LOG_NAMES_RE = re.compile(r"\\log_\{?e\}?(?![a-zA-Z])|\\lg(?![a-zA-Z])")
_PRIMES_RE = re.compile(r"\^\s?(?:\{\s?((?:\\prime\s?)+)(\^?\{?\d\}?)?\}|\\prime(?![a-zA-Z]))")
"""``^{\\prime\\prime}``, ``^\\prime``; ``^{\\prime2}`` (a prime, then a power: ``x'^2``)."""
_DERIVATIVE_ORDER_RE = re.compile(r"(?<![a-zA-Z\\])([a-zA-Z])\^\{?\(([1-4])\)\}?(?=\s?\()")
_EAST_EUROPEAN_TRIG_RE = re.compile(r"\\(tg|ctg|cotg|arctg)(?![a-zA-Z])")
_EAST_EUROPEAN_TRIG = {"tg": "\\tan", "ctg": "\\cot", "cotg": "\\cot", "arctg": "\\arctan"}
_BARE_FRAC_RE = re.compile(r"(?<![\\A-Za-z])[dt]?frac(?= ?\{)")
"""``frac{1}{5}``: ``\\frac`` that lost its backslash (a JSON or shell escape gone wrong)."""
_CBRT_RE = re.compile(r"\\cbrt\s?(?=\{)")
_THOUSANDS_DOTS_RE = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.,])")
_ABS_RE = re.compile(r"\\abs\s?\{([^{}]{1,200})\}")


def _frac_without_thousands(m: re.Match[str]) -> str:
    parts = [g.replace(",", "") if _THOUSANDS_GROUP_RE.fullmatch(g) else g for g in m.groups()]
    return f"\\frac{{{parts[0]}}}{{{parts[1]}}}"


def _primes(m: re.Match[str]) -> str:
    primes = "'" * (m.group(1).count("\\prime") if m.group(1) else 1)
    power = m.group(2).strip("^{}") if m.group(2) else ""
    return f"{primes}^{power}" if power else primes


def textbook_spellings(s: str) -> str:
    """Spellings that mean one thing, in the form the parsers read: ``\\frac{945}{16,384}`` (a
    thousands comma in a fraction) -> ``\\frac{945}{16384}``; ``\\sqrt\\frac{3}{5}`` ->
    ``\\sqrt{\\frac{3}{5}}``; ``x^-3`` -> ``x^{-3}``; ``x^(1/2)`` -> ``x^{(1/2)}``; ``\\log_e`` ->
    ``\\ln``, ``\\lg`` -> ``\\log_{10}``; ``\\abs{x}`` -> ``|x|``; ``f^{\\prime\\prime}(x)`` and
    ``f^{(2)}(x)`` -> ``f''(x)``; ``\\tg``, ``\\ctg`` (East European names) -> ``\\tan``, ``\\cot``;
    ``\\cbrt{x}`` -> ``\\sqrt[3]{x}``; ``frac{1}{5}`` -> ``\\frac{1}{5}``; ``1.000.000`` (dots between
    groups of three, two or more of them: not a decimal) -> ``1000000``."""
    if "frac" in s:
        s = _BARE_FRAC_RE.sub(r"\\frac", s)
    if "\\frac" in s:
        s = _FRAC_GROUPS_RE.sub(_frac_without_thousands, s) if "," in s else s
        s = _SQRT_FRAC_RE.sub(r"\\sqrt{\1}", s)
    if "^" in s:
        s = _PAREN_EXPONENT_RE.sub(r"^{(\1)}", _SIGNED_EXPONENT_RE.sub(r"^{\1}", s))
    if "\\l" in s:
        s = _LOG_NAMES_RE.sub(lambda m: "\\ln" if m.group(0).startswith("\\log") else "\\log_{10}", s)
    if "\\abs" in s:
        s = _ABS_RE.sub(r"|\1|", s)
    if "g" in s and "\\" in s:
        s = _EAST_EUROPEAN_TRIG_RE.sub(lambda m: _EAST_EUROPEAN_TRIG[m.group(1)], s)
    if "\\cbrt" in s:
        s = _CBRT_RE.sub(r"\\sqrt[3]", s)
    if s.count(".") >= 2:
        s = _THOUSANDS_DOTS_RE.sub(lambda m: m.group(0).replace(".", ""), s)
    if "\\prime" in s:
        s = _PRIMES_RE.sub(_primes, s)
    if "^" in s and "(" in s:
        s = _DERIVATIVE_ORDER_RE.sub(lambda m: m.group(1) + "'" * int(m.group(2)), s)
    return s


_MIXED_FACTOR_RE = re.compile(
    r"(?<![\w.^_{}\\'])(\d{1,9}) ?\\frac ?\{ ?(\d{1,9}) ?\} ?\{ ?(\d{1,9}) ?\}(?= ?(?:[(A-Za-z^+-]|\\[A-Za-z]))"
)
_MIXED_PLAIN_RE = re.compile(r"(?<![\w.^_{}/\\'])(\d{1,9}) (\d{1,9})/(\d{1,9})(?= ?[+-] ?\d)")
"""``1 1/2 + 1/2``: a mixed number written with a slash, in a sum."""


def mixed_numbers_grouped(s: str) -> str:
    """``2\\frac{1}{2}(4)``, ``2\\frac{1}{2}x``, ``2\\frac{1}{2}^2`` -> ``(2+\\frac{1}{2})(4)``, ...: a
    whole number written just before a proper fraction of whole numbers is a mixed number when a
    factor, a power or a sum follows too, as it is where it stands alone (``2\\frac12``, read by
    :mod:`rewards.exact_numbers`; math-verify reads that one and sums so too, but ``2\\frac12(4)`` as
    ``2 \\cdot \\frac12 \\cdot 4``); ``1 1/2 + 1/2`` too. An improper fraction (``2\\frac{3}{2}``)
    or a number after ``^``, ``_``, a letter or a brace is a factor, as before."""

    def grouped(m: re.Match[str]) -> str:
        num, den = int(m.group(2)), int(m.group(3))
        if not 0 < num < den:
            return m.group(0)
        return f"({m.group(1)}+\\frac{{{num}}}{{{den}}})"

    if "\\frac" in s:
        s = _MIXED_FACTOR_RE.sub(grouped, s)
    if "/" in s and " " in s:
        s = _MIXED_PLAIN_RE.sub(grouped, s)
    return s


_ROOT_SIGN_RE = re.compile(
    r"([\u221a\u221b\u221c])\s*(\d+|[a-zA-Z]|\((?:[^()]|\([^()]{0,40}\)){1,80}\)|\{[^{}]{1,80}\})"
)
"""``√3``, ``√x``, ``√(x+1)``, ``∛8``, ``∜(x+1)``: a root sign and its one-token or bracketed
argument (one level of brackets inside: ``∛(3V/(4π))``)."""
_ROOT_INDEX = {"\u221a": "", "\u221b": "[3]", "\u221c": "[4]"}


def _root_as_sqrt(m: re.Match[str]) -> str:
    """``√3`` as ``\\sqrt{3}``, ``√{3}`` as ``\\sqrt{3}`` (not ``\\sqrt{{3}}``), ``∛8`` as
    ``\\sqrt[3]{8}``; a bracketed argument without its brackets (``∛(27)`` is ``\\sqrt[3]{27}``)."""
    arg = m.group(2)
    if arg[0] in "({":
        arg = arg[1:-1]
    return "\\sqrt" + _ROOT_INDEX[m.group(1)] + "{" + arg + "}"


_SUPERSCRIPT_RE = re.compile("[\u2070\u00b9\u00b2\u00b3\u2074-\u2079\u207b]+")  # "x²", "10⁻³"
_SUBSCRIPT_RE = re.compile("[\u2080-\u2089]+")  # "x₁", "a₁₀"
_SUBSCRIPTS = str.maketrans("\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089", "0123456789")


_SQRT_PAREN_RE = re.compile(r"\\sqrt ?(?:\[[^\[\]{}()]{1,20}\] ?)?\(")
_MAX_SQRT_GROUP = 200
_PAREN_DEPTH = {"(": 1, ")": -1}


def sqrt_parentheses_as_braces(s: str) -> str:
    """``\\sqrt(2)`` -> ``\\sqrt{2}``, ``\\sqrt[4](16)`` -> ``\\sqrt[4]{16}``: a radicand in parentheses,
    as people type it (latex2sympy reads ``\\sqrt(3)`` as no square root of 3, and math-verify
    refuses it against ``\\sqrt{3}``).
    Left as written when the group is not closed within 200 characters or is followed by ``^`` or
    ``!`` (``\\sqrt(x+1)^2``: the power may be under the root or outside it), and in a text longer
    than an answer (:data:`MAX_ANSWER_CHARS`), so the work stays bounded on model text."""
    if "\\sqrt" not in s or len(s) > MAX_ANSWER_CHARS:
        return s
    chars, pos = list(s), 0
    while True:
        m = _SQRT_PAREN_RE.search(s, pos)
        if m is None:
            return "".join(chars)
        open_at, depth, close_at = m.end() - 1, 0, -1
        for i in range(open_at, min(len(s), open_at + _MAX_SQRT_GROUP)):
            depth += _PAREN_DEPTH.get(s[i], 0)
            if depth == 0:
                close_at = i
                break
        if close_at > 0 and not s[close_at + 1 :].lstrip().startswith(("^", "!")):
            chars[open_at], chars[close_at] = "{", "}"
        pos = open_at + 1


_GROUPED_DIGITS_RE = re.compile(r"(?<![\w.,\\^])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")
"""Digits grouped in threes by commas (``2,304``, ``1,000,000.5``), not part of a name or number."""


def thousands_in_an_equation(s: str) -> str:
    """``36x^2+64y^2=2,304`` -> ``36x^2+64y^2=2304``: in one equation (a single ``=``), digits
    grouped in threes by commas outside brackets are one number, as a bare ``2,304`` is
    (:func:`rewards.exact_numbers.read_number`). Left as written unless every comma outside
    brackets is such a separator (``x=1, y=2,000`` is a list; ``(x,y)=(1,500)`` is a point)."""
    if s.count("=") != 1 or "," not in s or len(s) > MAX_ANSWER_CHARS:
        return s
    parts = split_outside_brackets(s, _SEPARATORS[","])
    top_commas = {end - 1 for end in accumulate(len(p) + 1 for p in parts[:-1])}  # each comma's index
    grouping = {
        m.start() + k for m in _GROUPED_DIGITS_RE.finditer(s) for k, c in enumerate(m.group()) if c == ","
    }
    return "".join(parts) if len(parts) > 1 and top_commas <= grouping else s


_INEQUALITY_MARK_RE = re.compile(r"<|>|\\[lg]eq?(?![a-zA-Z])")
_BETWEEN_SEGMENTS_RE = re.compile(r"\s*[.;]?\s*")
_EQUATION_MARK_RE = re.compile(r"(?<![<>!])=")


def joined_inequality_segments(s: str) -> str:
    """``$x < -2$. $1 < x$`` (or with only a space or ``;`` between) as ``$x < -2$, $1 < x$``: math
    segments that are each an inequality, with no words between them, are one list, as they are
    with commas (then :mod:`rewards.answer_values` reads a list of inequalities in one variable).
    Anything else comes back unchanged."""
    parts = s.split("$")
    if len(parts) < 5 or len(parts) % 2 == 0 or parts[0].strip() or parts[-1].strip() not in ("", "."):
        return s
    segments, between = parts[1::2], parts[2:-1:2]
    if not all(_INEQUALITY_MARK_RE.search(seg) and not _EQUATION_MARK_RE.search(seg) for seg in segments):
        return s
    if not all(_BETWEEN_SEGMENTS_RE.fullmatch(sep) for sep in between):
        return s
    return "$" + "$, $".join(segments) + "$"


def bare_pi_as_constant(s: str) -> str:
    """``pi`` written without its backslash in a LaTeX answer (``2pi``, ``\\frac{pi}{3}``) as
    ``\\pi``: the constant, as calculator syntax reads it (latex2sympy would read the product
    ``p i``); not inside a word (``api``)."""
    return _BARE_PI_RE.sub(r"\\pi ", s) if "pi" in s else s


def normalize(ans: str) -> str:
    """Canonical surface form of an answer string (pure string work, no parsing). Remembered for
    answers up to :data:`MAX_ANSWER_CHARS` (the last :data:`NORMALIZED_KEPT`): a comparison
    normalizes each side more than once, and GRPO compares many responses with one reference."""
    if len(ans) > MAX_ANSWER_CHARS:
        return _normalize(ans)
    return _normalized(ans)


NORMALIZED_KEPT = 8192


def in_math_mode(s: str) -> str:
    """``s`` between dollars, as math-verify reads inline math. A text that ends in a backslash gets
    a space before the closing dollar: ``\\$`` is an escaped dollar, and math-verify's pattern for
    boxed inline math then backtracks over the unclosed text in cubic time (7 s on a degenerate
    rollout of 4,000 characters of ``\\boxed{}. \\``, cut after a backslash)."""
    return f"${s} $" if s.endswith("\\") else f"${s}$"


_INLINE_MATH_MARK_RE = re.compile(r"(?<!\\)\\[()]")
"""``\\(`` and ``\\)`` (not a row break ``\\\\`` before ``(``): inline math delimiters."""


GREEK_LOWERCASE = tuple(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau "
    "upsilon phi chi psi omega".split()
)
"""The Greek letters' names, small (``omicron`` has no LaTeX command but is a name in calculator
syntax)."""
GREEK_VARIANTS = tuple("varepsilon vartheta varpi varrho varsigma varphi".split())
"""LaTeX's variant forms of small Greek letters (``\\varphi``)."""
GREEK_CAPITALS = tuple("Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega".split())
"""The capital Greek letters that LaTeX has a command for (the others are Latin capitals)."""


def greek_names(*, pi: bool, variants: bool, capitals: bool) -> frozenset[str]:
    """Greek letter names, the one list every reader builds its own from: with or without the
    three spellings of pi (``pi``, ``varpi``, ``Pi``: the constant for some readers, a name for
    others), LaTeX's variant forms and the capitals."""
    names = set(GREEK_LOWERCASE)
    if variants:
        names.update(GREEK_VARIANTS)
    if capitals:
        names.update(GREEK_CAPITALS)
    if not pi:
        names -= {"pi", "varpi", "Pi"}
    return frozenset(names)


_GREEK_COMMANDS = {
    "\u03b1": "\\alpha",
    "\u03b2": "\\beta",
    "\u03b3": "\\gamma",
    "\u03b4": "\\delta",
    "\u03b5": "\\epsilon",
    "\u03b6": "\\zeta",
    "\u03b7": "\\eta",
    "\u03b8": "\\theta",
    "\u03b9": "\\iota",
    "\u03ba": "\\kappa",
    "\u03bb": "\\lambda",
    "\u03bc": "\\mu",
    "\u03bd": "\\nu",
    "\u03be": "\\xi",
    "\u03c0": "\\pi",
    "\u03c1": "\\rho",
    "\u03c2": "\\sigma",
    "\u03c3": "\\sigma",
    "\u03c4": "\\tau",
    "\u03c5": "\\upsilon",
    "\u03c6": "\\phi",
    "\u03c7": "\\chi",
    "\u03c8": "\\psi",
    "\u03c9": "\\omega",
    "\u0393": "\\Gamma",
    "\u0394": "\\Delta",
    "\u0398": "\\Theta",
    "\u039b": "\\Lambda",
    "\u039e": "\\Xi",
    "\u03a0": "\\Pi",
    "\u03a3": "\\Sigma",
    "\u03a5": "\\Upsilon",
    "\u03a6": "\\Phi",
    "\u03a8": "\\Psi",
    "\u03a9": "\\Omega",
    "\u03d1": "\\theta",
    "\u03d5": "\\phi",
    "\u03f5": "\\epsilon",
}
"""Unicode Greek letters as LaTeX commands (``θ`` as ``\\theta``); ``ϕ``/``φ`` are both ``\\phi``."""
_GREEK_CHAR_RE = re.compile("(?<![\u0370-\u03ff])([" + "".join(_GREEK_COMMANDS) + "])(?![\u0370-\u03ff])")
"""A Greek letter standing alone (not in a Greek word: ``οδος`` stays text)."""


def greek_as_commands(s: str) -> str:
    """Each unicode Greek letter that stands alone as its LaTeX command (``2θ`` as ``2\\theta ``)."""
    return _GREEK_CHAR_RE.sub(lambda m: _GREEK_COMMANDS[m.group(1)] + " ", s)


_VULGAR_FRACTIONS = {
    "\u00bd": (1, 2),
    "\u2153": (1, 3),
    "\u2154": (2, 3),
    "\u00bc": (1, 4),
    "\u00be": (3, 4),
    "\u2155": (1, 5),
    "\u2156": (2, 5),
    "\u2157": (3, 5),
    "\u2158": (4, 5),
    "\u2159": (1, 6),
    "\u215a": (5, 6),
    "\u2150": (1, 7),
    "\u215b": (1, 8),
    "\u215c": (3, 8),
    "\u215d": (5, 8),
    "\u215e": (7, 8),
    "\u2151": (1, 9),
    "\u2152": (1, 10),
}
"""``½`` and the other one-character fractions (``1½`` then reads as the mixed number ``1\\frac{1}{2}``)."""
_EXCLAIMED_WORD_RE = re.compile(r"[A-Za-z]{3}!+$")
_UNICODE_SYMBOLS = str.maketrans(
    {
        "\u2212": "-",  # minus sign
        "\u2044": "/",  # fraction slash ("π⁄4")
        "\u2215": "/",  # division slash
        "\u2013": "-",  # en dash
        "\u00d7": "\\times ",
        "\u00b7": "\\cdot ",
        "\u22c5": "\\cdot ",
        "\u00f7": "\\div ",
        "\u00b1": "\\pm ",
        "\u2213": "\\mp ",
        "\u2264": "\\le ",
        "\u2265": "\\ge ",
        "\u2260": "\\ne ",
        "\u2248": "\\approx ",
        "\u03c0": "\\pi ",
        "\u221e": "\\infty ",
        "\u2208": "\\in ",
        "\u2209": "\\notin ",
        "\u222a": "\\cup ",
        "\u2229": "\\cap ",
        "\u2205": "\\emptyset ",
        "\u211d": "\\mathbb{R}",
        "\u3001": ",",  # CJK enumeration comma
        "\uff0c": ",",  # fullwidth comma, semicolon, colon, parentheses
        "\uff1b": ";",
        "\uff1a": ":",
        "\uff08": "(",
        "\uff09": ")",
        "\u6216": " or ",  # Chinese "or"
        "\uff01": "!",
        "\uff0e": ".",  # fullwidth full stop, signs and digits (an IME left on: "１．５")
        "\uff0b": "+",
        "\uff0d": "-",
        "\uff1d": "=",
        "\uff0f": "/",
        **{chr(0xFF10 + d): str(d) for d in range(10)},
        **{char: f"\\frac{{{num}}}{{{den}}}" for char, (num, den) in _VULGAR_FRACTIONS.items()},
    }
)
"""Unicode math symbols as their LaTeX commands (a model or a web form writes ``x ∈ [-2, 5]``), and
the punctuation of Chinese answers as ASCII (``x=2 或 x=3``, ``1、[-1,1]``)."""


_CHINESE_MATH = {
    "\u5927\u4e8e\u7b49\u4e8e": " \\ge ",  # 大于等于
    "\u5c0f\u4e8e\u7b49\u4e8e": " \\le ",  # 小于等于
    "\u4e0d\u7b49\u4e8e": " \\ne ",  # 不等于
    "\u5927\u4e8e": " > ",  # 大于
    "\u5c0f\u4e8e": " < ",  # 小于
    "\u5c5e\u4e8e": " \\in ",  # 属于
    "\u6216\u8005": " or ",  # 或者
    "\u5e76\u4e14": " and ",  # 并且
    "\u4e14": " and ",  # 且
    "\u5168\u4f53\u5b9e\u6570": "\\mathbb{R}",  # 全体实数
    "\u5b9e\u6570\u96c6": "\\mathbb{R}",  # 实数集
    "\u7a7a\u96c6": "\\emptyset",  # 空集
    "\u65e0\u5b9e\u6570\u89e3": "\\emptyset",  # 无实数解
    "\u65e0\u89e3": "\\emptyset",  # 无解
    "\u6839\u53f7": "\u221a",  # 根号: a root sign, as √
    "\ub610\ub294": " or ",  # Korean 또는
    "\ud639\uc740": " or ",  # Korean 혹은
    "\u307e\u305f\u306f": " or ",  # Japanese または
}
"""Chinese words of relations and sets, as the certain path reads them (``x大于等于3`` is ``x \\ge 3``,
``空集`` the empty set, ``根号2`` the root sign), and "or" in Korean and Japanese (``x=2 또는 x=3``)."""
_CHINESE_MATH_RE = re.compile("|".join(sorted(_CHINESE_MATH, key=len, reverse=True)))
_CHINESE_UNITS = {
    "平方厘米": "cm^2",
    "平方米": "m^2",
    "立方厘米": "cm^3",
    "立方米": "m^3",
    "千米": "km",
    "公里": "km",
    "厘米": "cm",
    "毫米": "mm",
    "米": "m",
    "千克": "kg",
    "公斤": "kg",
    "毫克": "mg",
    "克": "g",
    "毫升": "ml",
    "升": "L",
    "小时": "h",
    "分钟": "min",
    "秒": "s",
    "米/秒": "m/s",
    "千米/时": "km/h",
    "千米/小时": "km/h",
    "焦耳": "J",
    "焦": "J",
    "千焦": "kJ",
    "千瓦": "kW",
    "瓦": "W",
    "牛顿": "N",
    "牛": "N",
    "伏特": "V",
    "伏": "V",
    "安培": "A",
    "帕斯卡": "Pa",
    "千帕": "kPa",
    "帕": "Pa",
    "赫兹": "Hz",
}
"""Units in Chinese after a number (``40厘米`` is ``40 cm``, ``0.4米`` is ``0.4 m``), for the
quantities of the certain path; not one followed by more Chinese (``5米长``: a phrase)."""
_CHINESE_UNIT_RE = re.compile(
    r"(?<=\d) ?(" + "|".join(sorted(_CHINESE_UNITS, key=len, reverse=True)) + r")(?![\u4e00-\u9fff])"
)
_CJK_RE = re.compile("[\u4e00-\u9fff\u3040-\u309f\uac00-\ud7af]")  # Han, hiragana, Hangul


_ZERO_SUBSCRIPT_RE = re.compile(r"(?<![\\A-Za-z.])([A-DF-HJ-Za-df-hj-z])0(?![0-9.,])")
"""A letter with a zero glued after it (``v0``, ``x0``, ``T0``; not ``e0``, ``i0``, ``10``, ``a0.5``)."""


def zero_subscripts_as_latex(text: str) -> str:
    """``v0`` as ``v_{0}``: plain text writes an initial value so (``v = v0 + at``), and latex2sympy
    reads it as ``v`` times 0, so ``x0 + 5`` equalled ``5`` and ``v0 + at`` was not ``v_0 + at``.
    A product with zero is never written so."""
    return _ZERO_SUBSCRIPT_RE.sub(r"\1_{0}", text) if "0" in text else text


def unicode_scripts_as_latex(s: str) -> str:
    """``a² + b²`` -> ``a^{2} + b^{2}``, ``10⁻³`` -> ``10^{-3}``, ``v₀`` -> ``v_{0}``: Unicode
    superscript and subscript digits as LaTeX, for both readers (math-verify reads ``a² + 2ab``
    as the number 2, the only run its expression extraction admits)."""
    s = _SUPERSCRIPT_RE.sub(lambda m: "^{" + m.group(0).translate(_SUPERSCRIPTS) + "}", s)
    return _SUBSCRIPT_RE.sub(lambda m: "_{" + m.group(0).translate(_SUBSCRIPTS) + "}", s)


def _temperature_scale(m: re.Match[str]) -> str:
    return " F" if m.group(2) or (m.group(3) or "").upper() == "F" else " C"


_FONT_SWITCH_RE = re.compile(r"\\(?:rm|bf|it|sf|tt)(?![a-zA-Z]) ?")
"""Plain TeX's font switches (``\\rm A``, ``{\\rm d}x``, ``5+\\rm i``): a style, not a symbol."""


def _normalize(ans: str) -> str:
    s = _strip_wrappers(ans)
    if "\\(" in s or "\\)" in s:  # "\\(a = 1\\), \\(b = 2\\)": one answer, as "$a = 1$, $b = 2$" is
        s = _INLINE_MATH_MARK_RE.sub(" ", s)
    s = _WS_RE.sub(" ", s)
    if _CJK_RE.search(s):
        s = _CHINESE_MATH_RE.sub(lambda m: _CHINESE_MATH[m.group(0)], s)
        s = _CHINESE_UNIT_RE.sub(lambda m: f" {_CHINESE_UNITS[m.group(1)]}", s)
    s = s.translate(_UNICODE_SYMBOLS)
    s = greek_as_commands(s)
    s = _ROOT_SIGN_RE.sub(_root_as_sqrt, s)
    s = unicode_scripts_as_latex(s)
    s = s.replace("\\displaystyle", " ").replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    s = s.replace("\\nthroot[", "\\sqrt[")  # the nthroot package's \nthroot[3]{8}
    s = braced_units_unbraced(s)  # "6840{ft}^2": the unit, not (f t)^2
    s = _FONT_SWITCH_RE.sub(" ", s)
    s = s.replace("\\cfrac", "\\frac").replace("\\leqslant", "\\le").replace("\\geqslant", "\\ge")
    s = _RELATION_WORD_RE.sub(lambda m: _RELATION_WORDS[m.group(0)], s)
    s = _CAPITAL_CONNECTIVE_RE.sub(lambda m: f" {m.group(1).lower()} ", s)
    s = _DFRAC_RE.sub(r"\\frac", s)
    for _ in range(3):
        new = TEXT_CMD_RE.sub(r" \1 ", s)
        if new == s:
            break
        s = new
    s = _WS_RE.sub(" ", _LEFT_RIGHT_RE.sub("", s))
    s = sqrt_parentheses_as_braces(s)
    s = textbook_spellings(s)
    s = _DEGREE_RE.sub("", s)
    s = _TEMPERATURE_WORDS_RE.sub(_temperature_scale, s)
    s = _ORDINAL_RE.sub(r"\1", s)
    s = _SUP_BEFORE_SUB_RE.sub(r"\1_\3^\2", s)
    s = _FRAC_DIGITS_RE.sub(r"\\frac{\1}{\2}", s)
    s = mixed_numbers_grouped(s)
    s = _THOUSANDS_BRACE_RE.sub(r"\1", s)
    s = s.replace("\\%", "%").replace("\\!", "")
    s = _PERCENT_WORD_RE.sub(r"\1%", s)
    if " ou " in s:
        s = s.replace(" ou ", " or ")  # French and Portuguese "or": "x=2 ou x=-2"
    if s.count("$") >= 4:
        s = joined_inequality_segments(s)
    s = _CURRENCY_RE.sub("", s)
    s = _SPACING_RE.sub(_spacing, s)
    s = thousands_in_an_equation(_WS_RE.sub(" ", s).strip())
    while s.endswith((".", "。")) and not s.endswith(".."):
        s = s[:-1].rstrip()
    if s.endswith("!") and _EXCLAIMED_WORD_RE.search(s):
        s = s.rstrip("!").rstrip()  # "Cell Wall!"; not "n!" nor "5!" (factorials)
    if s.endswith("\\") and not s.endswith("\\\\"):
        s = s[:-1].rstrip()  # a lone backslash at the end (185\\) means nothing; a row break is two
    return _strip_wrappers(s)


_normalized = functools.lru_cache(maxsize=NORMALIZED_KEPT)(_normalize)


VAR_LHS_RE = re.compile(
    r"^\s*(?:[a-zA-Z](?:_\{?\w+\}?)?|\\[a-zA-Z]+(?:_\{?\w+\}?)?|[a-zA-Z]\(\w\)"
    r"|(?:m\s?)?\\(?:angle|measuredangle)\s?(?:\{[A-Z]{1,3}\}|[A-Z]{1,3})"
    r"|\\(?:sin|cos|tan|cot|sec|csc)(?:\^\{?2\}?)?\s?(?:[a-zA-Z]|\\[a-zA-Z]+|\{[a-zA-Z]\}|\([a-zA-Z]\)"
    r"|\\angle\s?(?:\{[A-Z]{1,3}\}|[A-Z]{1,3})))\s*$"
)
"""A left side that names the value on the right: a variable, a command (``\\theta``), ``f(x)``, an
angle (``\\angle A``, ``m\\angle ABC``) or a trigonometric function of one (``\\tan A``,
``\\cos \\angle B``, ``\\sin^2 x``): math-verify too reads ``\\tan A = 2`` as the value 2."""
_LABEL_RE = re.compile(r"^(?:[A-Za-z][A-Za-z ]{1,30}:\s?|[A-Za-z]:\s)")  # "Max: 3", not "A:B=1"


def split_outside_brackets(s: str, at: re.Pattern[str]) -> list[str]:
    """``s`` split at the matches of ``at`` that lie outside ``()``, ``[]`` and ``{}`` (``\\{``
    and ``\\}`` count as brackets too); the parts are not stripped."""
    depth, cut, parts = 0, 0, []
    matches = {m.start(): m.end() for m in at.finditer(s)}
    for i, c in enumerate(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and i in matches and i >= cut:
            parts.append(s[cut:i])
            cut = matches[i]
    parts.append(s[cut:])
    return parts


_SEPARATORS = {",;": re.compile("[,;]"), ",": re.compile(",")}


def closing_parenthesis(text: str, start: int, limit: int | None = None) -> int | None:
    """Index of the ``)`` that closes the ``(`` at ``start``, counting every kind of bracket
    (None when another kind closes it, or nothing within ``limit`` characters)."""
    depth = 0
    end = len(text) if limit is None else min(len(text), start + limit)
    for i in range(start, end):
        c = text[i]
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
            if depth == 0:
                return i if c == ")" else None
    return None


def split_top(s: str, seps: str = ",;") -> list[str]:
    """``s`` split at the separators ``seps`` outside brackets, each part stripped."""
    at = _SEPARATORS.get(seps) or re.compile(f"[{re.escape(seps)}]")
    return [p.strip() for p in split_outside_brackets(s, at)]


RELATION_OPS = ("\\le", "\\ge", "<", ">", "\\ne", "\\neq", "\\leq", "\\geq")


_IN_SET_RE = re.compile(r"^[a-zA-Z] ?\\in ?([(\[].*[)\]])$")


_NUMBER_LHS_RE = re.compile(r"^\s*-?(?:\d+(?:\.\d+)?|\\frac\{\d+\}\{\d+\})\s*$")


def drop_var_lhs(s: str) -> str:
    """``x = 3`` (or ``3 = x``) -> ``3`` when the other side is a single variable name;
    ``Max: 3`` -> ``3``."""
    s = _LABEL_RE.sub("", s, count=1) if ":" in s[:32] else s
    m = _IN_SET_RE.match(s)
    if m:
        return m.group(1)
    if "=" not in s or any(op in s for op in RELATION_OPS):
        return s
    if len(split_top(s)) > 1:  # a list "x=1, y=2": each item is handled on its own
        return s
    lhs, _, rhs = s.partition("=")
    if rhs.strip() and "=" not in rhs and VAR_LHS_RE.match(lhs):
        return rhs.strip()
    if _NUMBER_LHS_RE.match(lhs) and "=" not in rhs and VAR_LHS_RE.match(rhs):
        return lhs.strip()  # "2 = x": the value written first
    return s


CHAIN_RE = re.compile(r"=|\\cong(?![a-zA-Z])|\\approx(?![a-zA-Z])|\\equiv(?![a-zA-Z])")


def split_chain(s: str) -> list[str]:
    """``s`` split at the ``=``, ``\\approx``, ``\\cong`` and ``\\equiv`` outside braces and
    brackets: the ``=`` of ``\\sum_{k=1}^{n}`` or ``f(x=1)`` does not end a side."""
    return split_outside_brackets(s, CHAIN_RE)


_CONNECTIVE_RE = re.compile(r"(?<![A-Za-z])(?:and|or)(?![A-Za-z])")
"""A connective between two statements; normalisation spells ``\\land``, ``\\wedge``, ``\\&``, ``\\lor``
and ``\\vee`` as these words."""


def chain_tail(s: str) -> str | None:
    """Last side of a prediction written as a chain ``a = b = c`` or ``x \\approx 11``, or None."""
    if any(op in s for op in RELATION_OPS) or len(split_top(s)) > 1:
        return None
    if "\\approx" in s:  # "x = 1/3 \approx 0.33": the exact value, unless only a name precedes
        head, _, approx = s.partition("\\approx")
        if not head.strip() or VAR_LHS_RE.match(head):
            return approx.strip() or None
        s = head.strip()
        if "=" not in s:
            return s
    parts = split_chain(s)
    if len(parts) < 2 or not parts[-1].strip():
        return None
    if len(parts) >= 3 and any(_CONNECTIVE_RE.search(p) or len(split_top(p)) > 1 for p in parts[1:-1]):
        return None  # "x=0 \\land y=42": two statements, not a chain that ends in 42
    if len(parts) >= 3 or not re.search(r"[A-Za-z]", parts[0]) or VAR_LHS_RE.match(parts[0]):
        return parts[-1].strip()
    return None


def spaceless(s: str) -> str:
    return _WS_RE.sub("", s)


_LONG_RELATION_RE = re.compile(r"\\(le|ge|ne)q(?![a-zA-Z])")


def text_key(s: str) -> str:
    """``s`` without spaces, in lower case, with ``\\leq``/``\\geq``/``\\neq`` as ``\\le``/``\\ge``/``\\ne``:
    two texts with the same key are the same text."""
    return _LONG_RELATION_RE.sub(r"\\\1", spaceless(s)).lower()


_WORD_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z][a-z]{2,}(?![A-Za-z])")


def case_key(s: str) -> str:
    """:func:`text_key` with only words in lower case (three letters or more, at most the first
    capital: "All", "integers"); other letters keep their case ("k", "AB", "ABC")."""
    return _LONG_RELATION_RE.sub(r"\\\1", spaceless(_WORD_RE.sub(lambda m: m.group(0).lower(), s)))


DECIMAL_LITERAL_RE = re.compile(r"\d\.\d")


COMMAND_RE = re.compile(r"\\[a-zA-Z]+")


def letters(s: str) -> set[str]:
    """The letters of ``s`` outside LaTeX command names (``\\frac{a}{b}`` -> ``{a, b}``)."""
    return set(re.findall(r"[A-Za-z]", COMMAND_RE.sub(" ", s)))


_LETTER_TOKEN_RE = re.compile(r"\\[A-Za-z]+|[A-Za-z]")


def rename_letters(s: str, names: dict[str, str]) -> str:
    """``s`` with each letter outside LaTeX command names that ``names`` maps replaced
    (``{"k": "2"}``: ``\\sin k`` -> ``\\sin 2``, the k of ``\\sin`` kept)."""
    return _LETTER_TOKEN_RE.sub(lambda t: names.get(t.group(0), t.group(0)), s)


_NUMBER_GAP = (
    r"(?:\s|[\"'`\u2019]|\\[,;:! ]"
    r"|\\(?:q?quad|(?:neg)?(?:thin|med|thick)space|hfill?|[lc]?dots|text\{\s*\})(?![a-zA-Z]))+"
)
_JUXTAPOSED_RE = re.compile(r"\d" + _NUMBER_GAP + r"(?=\d)")
_SPACED_THOUSANDS_RE = re.compile(r"(?<![\d.])\d{1,3}(?:(?:\s|\\[,;: ]|\\thinspace)\d{3})+(?:\.\d+)?(?!\d)")


def juxtaposed_numbers(s: str) -> bool:
    """Whether ``s`` has two numbers with only spacing, quotes or dots between them (``0 42``,
    ``0\\,42``, ``0"42``, ``0\\ldots42``): two answers, or a number and junk. math-verify reads
    ``0 42`` as a mixed number (0 + 42), so an answer phrase ``x=0 42`` cut to ``0 42`` would be
    credited for 42. Digits in groups of three (``1 000 000``) are one number."""
    return bool(_JUXTAPOSED_RE.search(_SPACED_THOUSANDS_RE.sub("#", s)))


_DIGIT_GAP_RE = re.compile(r"(?<=\d) +(?=\d)")


def digit_gaps(s: str) -> list[int]:
    """Where ``s`` has a space between two digits, as offsets in ``s`` without spaces; digits in
    groups of three (``1 000``) are one number. Two texts equal but for their spaces are one text
    only if these agree: ``1 1/2`` (a mixed number) is not ``11/2``, nor ``3 8`` the number 38."""
    s = _SPACED_THOUSANDS_RE.sub(lambda m: m.group(0).replace(" ", ""), s) if " " in s else s
    gaps, spaces, seen = [], 0, 0
    for m in _DIGIT_GAP_RE.finditer(s):
        spaces += s.count(" ", seen, m.start())
        seen = m.start()
        gaps.append(m.start() - spaces)
    return gaps


_LETTER = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"  # Latin with accents (réponse, Größe)
    "\u0400-\u04ff"  # Cyrillic
    "\u0590-\u05ff\u0600-\u06ff"  # Hebrew, Arabic
    "\u0900-\u09ff\u0c00-\u0c7f\u0e00-\u0e7f"  # Devanagari, Bengali, Telugu, Thai
    "\u3000-\u30ff\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef"  # CJK, kana, Hangul, their punctuation
)
"""Letters of words in the scripts of multilingual maths sets; not Greek, whose letters are maths."""
_PROSE_WORD_RE = re.compile(f"[{_LETTER}]{{2,}}(?:['-][{_LETTER}]+)*")
_AROUND_WORD = ".,;:!?()[]\"'"
_OPERATOR_TOKEN_RE = re.compile(r"[-+*/=^<>]+")


def prose_words(text: str) -> int:
    """How many words of a sentence ``text`` has: tokens between spaces made of two or more
    letters (an apostrophe or hyphen inside), punctuation around them aside ("The answer is 5."
    has three). Letters written together with digits and operators are a product, not words:
    ``2x^2+xy+6xz+3yz`` has none, where counting runs of letters found three. A token with an
    operator on each side (or an operator and the text's end) is a product of letters:
    ``ac + ad + bc + bd`` has none."""
    tokens = text.split()
    last = len(tokens) - 1
    count = 0
    for i, token in enumerate(tokens):
        if not _PROSE_WORD_RE.fullmatch(token.strip(_AROUND_WORD)):
            continue
        before = i == 0 or _OPERATOR_TOKEN_RE.fullmatch(tokens[i - 1]) is not None
        after = i == last or _OPERATOR_TOKEN_RE.fullmatch(tokens[i + 1]) is not None
        if not (before and after) or (i == 0 and i == last):
            count += 1
    return count


_DOUBLED_CMD_RE = re.compile(
    r"(?<!\\)\\\\(?:frac|dfrac|tfrac|sqrt|left|right|boxed|le|ge|leq|geq|ne|neq|pi|cdot|times|in|"
    r"infty|pm|cup|cap|text|mathrm|begin|end)(?![a-zA-Z])"
)
_SINGLE_CMD_RE = re.compile(r"(?<!\\)\\[a-zA-Z]")


def undouble_backslashes(text: str) -> str:
    """``$\\\\frac{1}{2}$`` (text escaped twice, as a JSON or Python string literal) -> ``$\\frac{1}{2}$``.

    Only when the text has a common command written with two backslashes (``\\\\frac``, which as
    LaTeX would be a row break followed by the word "frac") and no command with one: then
    each ``\\\\`` stands for one backslash (a row break ``\\\\`` of such text is four). A command
    right after a row break (``1\\\\\\frac12``, three backslashes) counts as neither, so normal
    LaTeX is left alone. Used by the certain path only; math-verify gets the text as written."""
    if "\\\\" not in text or not _DOUBLED_CMD_RE.search(text) or _SINGLE_CMD_RE.search(text):
        return text
    return text.replace("\\\\", "\\")


_MARKDOWN_BOLD_RE = re.compile(r"(?<![\w)\]}*])\*\*(?=[^\s*])([^*\n]{1,500}?)(?<=[^\s*])\*\*(?![\w(\[{*])")


def markdown_bold_removed(text: str) -> str:
    """``**15**`` -> ``15``, ``The answer is **x + 1**.`` -> ``The answer is x + 1.``: markdown bold
    around an answer (chat models write it). A power in calculator syntax stays (``x**2``,
    ``(x+1)**2``: a name or a bracket before the stars)."""
    return _MARKDOWN_BOLD_RE.sub(r"\1", text) if "**" in text else text


_DECORATION_RE = re.compile(
    r"\\(?:textcolor|color) ?\{[a-zA-Z!0-9]{1,30}\} ?|\\(?:underline|uline)(?![a-zA-Z]) ?"
)


_CODE_SPAN_RE = re.compile(r"(?<!`)`([^`\n]{1,200})`(?!`)")


def decorations_removed(text: str) -> str:
    """``\\boxed{\\color{red}{5}}``, ``\\textcolor{blue}{42}`` and ``\\underline{5}`` without
    their colour or underline, which says nothing about the value (math-verify reads none of
    the three); ``\u2212`` (the Unicode minus sign) as ``-`` for both readers ("The result is
    \u22123.5"); a markdown code span as its text (``4/7`` between backticks)."""
    if "\u2212" in text:
        text = text.replace("\u2212", "-")
    if "`" in text:
        text = _CODE_SPAN_RE.sub(r"\1", text)  # markdown code: "`4/7`"
    if "color" not in text and "line" not in text:
        return text
    return _DECORATION_RE.sub("", text)


_LAYOUT_RE = re.compile(
    r"\\(?:noindent|indent|newline|linebreak|par|medskip|smallskip|bigskip|hfill|vfill|centering"
    r"|clearpage|newpage)(?![a-zA-Z])|\\[vh]space\*? ?\{[^{}]{0,20}\}"
)
_TRAILING_BREAKS_RE = re.compile(r"(?:\s*\\\\)+\s*$")
_LAYOUT_TAIL_CHARS = 200
"""Line breaks that end an answer are looked for in its last characters (the pattern is anchored at
the end; a search over a long text would try every start)."""


def layout_removed(text: str) -> str:
    """An answer without paragraph layout: ``\\noindent``, ``\\newline``, ``\\medskip``,
    ``\\vspace{2mm}`` and line breaks ``\\\\`` that end the text (MathOdyssey's references
    end ``16 \\\\ \\noindent``): a page's layout, not part of the value. A ``\\\\`` inside
    the text (a matrix's rows) stays."""
    if "\\" not in text:
        return text
    if "space" in text or any(
        w in text for w in ("indent", "newline", "linebreak", "\\par", "skip", "fill", "page")
    ):
        text = _LAYOUT_RE.sub(" ", text)
    head, end = text[:-_LAYOUT_TAIL_CHARS], text[-_LAYOUT_TAIL_CHARS:]
    if "\\\\" in end:
        text = head + _TRAILING_BREAKS_RE.sub("", end)
    return text.rstrip()


_VARIANT_LETTERS = "|".join([v.removeprefix("var") for v in GREEK_VARIANTS if v != "varpi"] + ["kappa"])
"""The letters whose variant glyph is the letter (``\\varpi`` is not: ``\\pi`` is the constant)."""
_GREEK_VARIANT_RE = re.compile(rf"\\var({_VARIANT_LETTERS})(?![a-zA-Z])")
_GREEK_PLAIN_RE = re.compile(rf"\\({_VARIANT_LETTERS})(?![a-zA-Z])")


def greek_variants_as_plain(text: str) -> str:
    """``\\varepsilon``, ``\\vartheta``, ``\\varphi``, ``\\varrho``, ``\\varsigma`` and ``\\varkappa``
    as the plain letter: two glyphs of one letter (``\\varepsilon_0`` is ``\\epsilon_0``; math-verify
    reads them as different names). Not where the text also has the plain letter, as two names,
    nor ``\\varpi``, which would become the constant."""
    if "\\var" not in text:
        return text
    plain = set(_GREEK_PLAIN_RE.findall(text))
    return _GREEK_VARIANT_RE.sub(lambda m: m.group(0) if m.group(1) in plain else f"\\{m.group(1)}", text)


_VECTOR_MARKS = ("\\vec", "\\vv", "\\bm", "\\boldsymbol", "\\mathbf", "\\overrightarrow")
_VECTOR_LETTER_RE = re.compile(
    "(?:" + "|".join(re.escape(mark) for mark in _VECTOR_MARKS) + ")"
    r"(?![a-zA-Z]) ?(?:\{ ?([a-zA-Z]) ?\}|([a-zA-Z])(?![a-zA-Z]))"
)


_COMBINING_ARROW_LETTER_RE = re.compile(r"([a-zA-Z])[\u20d6\u20d7\u20e1\u20d1]")
"""A letter under a Unicode combining arrow or harpoon (``F⃗``, U+20D7; ``ma⃗`` is ``m`` times ``a⃗``)."""


def plain_vector_letters(text: str) -> str:
    """``\\vec{a}``, ``\\vec a``, ``\\mathbf{a}``, ``\\boldsymbol{a}``, ``\\bm{a}``, ``a⃗`` -> ``a``: a
    vector named by one letter is that letter, however it is decorated (math-verify reads
    ``\\vec{a}`` as a symbol ``vec{a}``, ``\\vec a`` not at all, and ``F⃗ = ma⃗`` as no answer). A
    name of several letters keeps its arrow: as plain letters ``AB`` would be the product ``A B``,
    equal to ``BA``."""
    if any(arrow in text for arrow in "\u20d6\u20d7\u20e1\u20d1"):
        text = _COMBINING_ARROW_LETTER_RE.sub(r"\1", text)
    if not any(mark in text for mark in _VECTOR_MARKS):
        return text
    return _VECTOR_LETTER_RE.sub(_vector_letter, text)


def _vector_letter(m: re.Match[str]) -> str:
    letter = m.group(1) or m.group(2)
    before = m.string[m.start() - 1 : m.start()]
    return f" {letter}" if before.isalpha() else letter  # "\cdot\vec{w}": not the command \cdotw


_PLUS_MINUS_TOKEN_RE = re.compile(r"\\(?:pm|mp)(?![a-zA-Z])")
_NAME_PREFIX_RE = re.compile(r"^(([a-zA-Z](?:_\{?\w{1,3}\}?)?)\s?=\s?)")


def _name_prefix(s: str) -> re.Match[str] | None:
    """``x = `` at the start of ``s`` (group 1 the prefix, group 2 the name) when ``s`` has no
    other ``=``; else None."""
    m = _NAME_PREFIX_RE.match(s)
    return m if m and s.count("=") == 1 else None


def drop_common_name(gold: str, pred: str) -> tuple[str, str] | None:
    """``x = 2, 4`` and ``x = 3 \\pm 1`` -> ``2, 4`` and ``3 \\pm 1``: both answers without the
    ``name =`` they both start with (one ``=`` each); None when they name different things
    (``x = \\pm 3``, ``y = \\pm 3``); else both unchanged."""
    mg, mp = _name_prefix(gold), _name_prefix(pred)
    if not mg or not mp:
        return gold, pred
    if mg.group(2) != mp.group(2):
        return None
    return gold[mg.end() :], pred[mp.end() :]


def _named_items(s: str) -> tuple[str, list[str]]:
    """``x = 3 \\pm 1, 5`` -> (``x = ``, [``3 \\pm 1``, ``5``]): the ``name =`` it starts with, if
    any, and the items of the rest."""
    m = _name_prefix(s)
    if m:
        return m.group(1), split_top(s[m.end() :])
    return "", split_top(s)


MAX_SIGN_MARKS = 4
"""At most this many ``\\pm`` in one item are written out independently (16 values)."""


def expand_independent_signs(s: str) -> str | None:
    """``1 \\pm 2 \\pm 3`` -> ``1 + 2 + 3, 1 + 2 - 3, 1 - 2 + 3, 1 - 2 - 3``: each item of a
    normalised list with two to ``MAX_SIGN_MARKS`` ``\\pm`` (and no ``\\mp``, which couples signs)
    written out with every sign chosen on its own; None when no item has two. Only a match is
    taken from this reading (the text does not say the signs are independent), so a caller
    credits on it and never refuses."""
    prefix, items = _named_items(s)
    out: list[str] = []
    expanded = False
    for item in items:
        marks = list(_PLUS_MINUS_TOKEN_RE.finditer(item))
        if len(marks) < 2:
            out.append(item)
            continue
        if (
            len(marks) > MAX_SIGN_MARKS
            or any(mk.group(0) != "\\pm" for mk in marks)
            or "=" in item
            or any(op in item for op in RELATION_OPS)
        ):
            return None
        pieces = _PLUS_MINUS_TOKEN_RE.split(item)
        for signs in product("+-", repeat=len(marks)):
            text = pieces[0]
            for sign, piece in zip(signs, pieces[1:], strict=True):
                text = text.rstrip()
                lead = not text or text[-1] in "({["  # "\\pm 1 \\pm 1": the first sign stands alone
                text += ("" if sign == "+" else "-") if lead else f" {sign} "
                text += piece.lstrip()
            out.append(text.strip())
        expanded = True
    return prefix + ", ".join(out) if expanded else None


def expand_plus_minus(s: str) -> str | None:
    """``3 \\pm 1`` -> ``3 + 1, 3 - 1``; ``\\frac{1 \\mp \\sqrt{97}}{12}`` -> both signs; ``x = 3 \\pm 1``
    -> ``x = 3 + 1, 3 - 1``: each item of a normalised list with one ``\\pm`` or ``\\mp`` written out
    as the two values it stands for (a leading one as ``c`` and ``-c``), or None when no item has
    one. Items with two or more are None: ``a \\pm b \\mp c`` couples its signs by convention, a
    list of four values (``1 \\pm 2 \\pm 3``) does not, and the text does not say which is meant."""
    prefix, items = _named_items(s)
    out: list[str] = []
    for item in items:
        marks = list(_PLUS_MINUS_TOKEN_RE.finditer(item))
        if len(marks) > 1:
            return None
        if not marks:
            out.append(item)
            continue
        mark = marks[0]
        head, tail = item[: mark.start()].rstrip(), item[mark.end() :].lstrip()
        if not tail or "=" in item or any(op in item for op in RELATION_OPS):
            return None
        plus = f"{head} + {tail}" if head else tail
        out.extend((plus, f"{head} - {tail}" if head else f"-{tail}"))
    if len(out) == len(items):
        return None
    return prefix + ", ".join(out)
