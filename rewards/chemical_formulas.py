"""Chemical formulas and reaction equations, as science verifiers label them: ``H₂O`` = ``H2O`` =
``H2O(l)``, ``Fe^{3+}`` = ``Fe3+``, ``2H2 + O2 = 2H2O`` = ``2H_2 + O_2 → 2H_2O`` =
``H2 + 0.5 O2 → H2O``; ``N2 + 3H2 ⇌ 2NH3`` is not ``N2 + 3H2 ⇌ 2NH2``.

latex2sympy reads ``H2O`` as a product of symbols and a reaction as an equation between such
products, so math-verify credits ``H2 - I2 ⇌ 2HI`` for ``H2 + I2 ⇌ 2HI`` (it reads no ``⇌``) and
refuses ``H2O(l)`` for ``H2O``. Here a *species* is a formula of element symbols of the periodic
table (``Ca(OH)2``, ``CH3COOH``), an optional charge (``SO4^{2-}``, ``Na+``), an optional state
(``(s)``, ``(l)``, ``(g)``, ``(aq)``) and a precipitate or gas mark (``↓``, ``↑``), after an
optional coefficient (``2``, ``0.5``). A *reaction* is species joined by `` + `` (a plus with
spaces around it; ``H+`` is a charge) on both sides of one arrow (``→``, ``->``, ``\\rightarrow``,
``⇌``, ``\\rightleftharpoons``, ``=``: verifiers take any of them for any other); a word on a side
(``energy``) is a term of its own.

Two reactions are the same when each side has the same species and all coefficients of one are
one positive multiple of the other's; otherwise they differ. Two single species are credited when
they are the same formula as written (subscripts, carets and braces aside: ``SO4^{2-}`` =
``SO_4^{2-}`` = ``SO42-``), with the same states where both give one; a single species never gets
a "different" here (``NO`` may be the word, ``Co`` cobalt or CO), and nothing else is read.
"""

from __future__ import annotations

import re
from fractions import Fraction

from rewards.exact_numbers import Num, read_number

__all__ = ["chemistry_decide"]

_ELEMENTS = frozenset(
    "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr "
    "Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm "
    "Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No "
    "Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og".split()
)
_MAX_CHARS = 300
_ARROW_RE = re.compile(
    r"\s*(?:→|⟶|⇌|⇋|⇄|->|=|\\(?:rightarrow|longrightarrow|to|rightleftharpoons|leftrightharpoons"
    r"|rightleftarrows)(?![a-zA-Z])|\\xrightarrow\s?\{[^{}]{0,40}\})\s*"
)
_WRAPPER_RE = re.compile(r"\\(?:mathrm|text|rm|ce)\s?\{([^{}]*)\}")
_STATE_RE = re.compile(r"\((?:s|l|g|aq)\)")
_MARKS_RE = re.compile(r"[↓↑]|\\(?:downarrow|uparrow)(?![a-zA-Z])")
_SCRIPT_RE = re.compile(r"[_^{}\s]")
_SPECIES_RE = re.compile(r"(?:[A-Z][a-z]?\d*|\((?:[A-Z][a-z]?\d*)+\)\d*)+(?:\d*[+-])?")
_ELEMENT_RE = re.compile(r"[A-Z][a-z]?")
_COEFFICIENT_RE = re.compile(r"^(\d+(?:\.\d+)?|\\frac\{\d+\}\{\d+\})\s?(?=[A-Z(])")
_WORD_RE = re.compile(r"[a-z]{3,20}|[\u4e00-\u9fff]{1,10}")


def _species(text: str) -> tuple[str, str] | None:
    """A species' formula as one string (scripts dropped: ``SO_4^{2-}`` -> ``SO42-``) and its state
    (``"(aq)"``, or ``""``); None if ``text`` is not a formula of element symbols."""
    s = _MARKS_RE.sub("", text).strip()
    states = _STATE_RE.findall(s)
    s = _SCRIPT_RE.sub("", _STATE_RE.sub("", s))
    if not _SPECIES_RE.fullmatch(s) or any(e not in _ELEMENTS for e in _ELEMENT_RE.findall(s)):
        return None
    return s, "".join(states)


def _term(text: str) -> tuple[Fraction, str, str] | None:
    """A coefficient, formula and state (``0.5 O2`` -> ``(1/2, "O2", "")``); a word (``energy``)
    is a term of its own with coefficient 1."""
    s = text.strip()
    coefficient = Fraction(1)
    m = _COEFFICIENT_RE.match(s)
    if m:
        n = read_number(m.group(1))
        if not isinstance(n, Num) or n.value <= 0:
            return None
        coefficient, s = n.value, s[m.end() :]
    if _WORD_RE.fullmatch(s):
        return coefficient, s, ""
    got = _species(s)
    return None if got is None else (coefficient, *got)


def _side(text: str) -> dict[tuple[str, str], Fraction] | None:
    terms: dict[tuple[str, str], Fraction] = {}
    for part in re.split(r"\s\+\s", text):
        term = _term(part)
        if term is None:
            return None
        coefficient, formula, state = term
        terms[formula, state] = terms.get((formula, state), Fraction(0)) + coefficient
    return terms


def _reaction(text: str) -> tuple[dict[tuple[str, str], Fraction], ...] | None:
    """The two sides of a reaction (species and state -> coefficient), or None."""
    s = _WRAPPER_RE.sub(r"\1", _WRAPPER_RE.sub(r"\1", text)).strip().strip("$").strip()
    arrows = _ARROW_RE.findall(s)
    parts = _ARROW_RE.split(s)
    if len(parts) != 2 or not all(p.strip() for p in parts):
        return None
    left, right = _side(parts[0]), _side(parts[1])
    if left is None or right is None:
        return None
    if arrows[0].strip() == "=" and not any(_chemical(formula) for formula, _ in (*left, *right)):
        return None  # "B + C = N": an equation in three letters, not boron and carbon
    return left, right


def _without_states(side: dict[tuple[str, str], Fraction]) -> dict[tuple[str, str], Fraction]:
    out: dict[tuple[str, str], Fraction] = {}
    for (formula, _), coefficient in side.items():
        out[formula, ""] = out.get((formula, ""), Fraction(0)) + coefficient
    return out


def _same_reaction(
    g: tuple[dict[tuple[str, str], Fraction], ...], p: tuple[dict[tuple[str, str], Fraction], ...]
) -> bool:
    if any(not all(state for _, state in side) for side in (*g, *p)):
        g = tuple(_without_states(side) for side in g)  # "NaCl(aq) + AgNO3 -> AgCl↓ + NaNO3"
        p = tuple(_without_states(side) for side in p)
    if any(set(a) != set(b) for a, b in zip(g, p, strict=True)):
        return False
    ratios = {p_side[key] / g_side[key] for g_side, p_side in zip(g, p, strict=True) for key in g_side}
    return len(ratios) == 1


def chemistry_decide(gold: str, pred: str) -> bool | None:
    """Two reactions: the same or not (see the module); two species: True when the same formula,
    else None; anything else: None."""
    if len(gold) > _MAX_CHARS or len(pred) > _MAX_CHARS:
        return None
    rg, rp = _reaction(gold), _reaction(pred)
    if rg is not None and rp is not None:
        return _same_reaction(rg, rp)
    if rg is not None or rp is not None:
        return None
    sg = _species(_WRAPPER_RE.sub(r"\1", gold).strip().strip("$"))
    sp = _species(_WRAPPER_RE.sub(r"\1", pred).strip().strip("$"))
    if sg is None or sp is None or sg[0] != sp[0] or not _chemical(sg[0]):
        return None
    return True if (sg[1] == sp[1] or not sg[1] or not sp[1]) else None


def _chemical(formula: str) -> bool:
    """Whether a formula is surely chemistry, not letters of maths or a word: it has a digit, a
    charge or a two-letter element symbol (``H2O``, ``Na+``, ``NaCl``; not ``BC`` or ``NO``)."""
    return bool(re.search(r"\d|[+-]$|[A-Z][a-z]", formula))
