"""An answer followed by the domain where it holds: ``2^n - 1 \\text{ for all } n \\ge 1``.

``2^n - 1 \\quad \\text{for } n \\in \\mathbb{Z}^+``, ``2^n-1, \\text{ where } n \\geq 1``,
``2^n - 1 \\quad (n \\ge 1)`` and ``2^n - 1 for all positive integers n`` state the answer
``2^n - 1`` and say for which ``n``; a reference that is only the formula (or the same formula
with another wording of the domain) is the same answer. Neither reader knows that: math-verify
reads the clause as part of the expression. :func:`without_domain_clause` gives the formula,
which is compared in place of the whole answer; a match credits, no match leaves the pair to the
other rules, so this reading never refuses.

Only a clause at the end, about a letter of the formula, with a condition (a relation, a set, or
a word such as ``integers``) and nothing after it that could be another piece of the answer: a
piecewise answer (``x^2 \\text{ for } x \\ge 0, -x^2 \\text{ for } x < 0``) is not cut.
"""

from __future__ import annotations

import re

from rewards.answer_text import letters, prose_words

__all__ = ["MAX_ANSWER", "formulas_without_domains", "without_domain_clause"]

MAX_ANSWER = 300
"""Longer answers are not read (an answer, not a solution)."""

_SPACING = r"\s|\\q?quad(?![A-Za-z])|\\[ ,;:!]|~"
"""Space in LaTeX: a blank, ``\\quad``, ``\\qquad``, ``\\,`` ``\\;`` ``\\:`` ``\\!`` ``\\ ``, ``~``."""
_SEPARATOR = rf"(?:{_SPACING}|[,;])*"
_FOR = r"(?:for(?:\s+(?:all|every|each|any|some))?|where|with)"
_CLAUSE_RE = re.compile(
    _SEPARATOR
    + r"(?:\\text\s*\{\s*"
    + _FOR
    + r"(?=[\s}])(?P<inside>[^{}]*)\}|(?<![A-Za-z\\])"
    + _FOR
    + r"(?=\s)|(?P<open>\()(?=[^()]*\)\s*\.?\s*$))"
    + r"(?P<cond>.*)$",
    re.DOTALL,
)
"""A separator, then ``\\text{for ...}`` / a plain ``for all`` / ``(``, then the condition."""
_RELATION_RE = re.compile(r"\\(?:geq?|leq?|ne(?:q)?|in|notin|subseteq?)(?![A-Za-z])|[<>=≤≥∈≠]")
_DOMAIN_WORD_RE = re.compile(
    r"\b(?:integers?|naturals?|natural numbers?|reals?|real numbers?|positive|negative|non-?negative|"
    r"non-?positive|odd|even|primes?|values?|all|any|every|each|some)\b",
    re.IGNORECASE,
)
_PIECE_RE = re.compile(
    r"\bfor\b|\bif\b|\botherwise\b|\belse\b|;|\\\\|\\text\s*\{[^}]*\b(?:and|or)\b", re.IGNORECASE
)
"""In a condition: a sign that the answer goes on (another piece, another case)."""
_LETTERS_ONLY_RE = re.compile(r"\s*[A-Za-z](?:\s*,\s*[A-Za-z])*\s*")
"""``for all n``, ``for all x, y``: the domain is everything."""
_MEMBERSHIP_RE = re.compile(
    rf"(?:[,;]|\\q?quad(?![A-Za-z]))(?:{_SPACING})*"
    r"(?P<cond>[a-zA-Z](?:\s*,\s*[a-zA-Z]){0,3}\s*\\in\s*\\mathbb\s*\{?\s*[NZQRC]\s*\}?"
    r"(?:\s*[\^_]\s*(?:\{[^{}]{0,8}\}|[+*0-9]))?)\s*\.?\s*$"
)
"""``, n \\in \\mathbb{N}`` or ``\\quad n \\in \\mathbb{Z}^+`` at the end: no "for" needed."""
_BODY_TAIL_RE = re.compile(rf"(?:{_SPACING}|[,;])+$")
_HINT_RE = re.compile(r"for|where|with|\(|\\in", re.IGNORECASE)
"""Cheap test: without one of these an answer has no clause."""
_DEFINITION_RE = re.compile(r"(?<![<>!\\])=(?!(?:[-\d\s,.]|\\[lc]?dots)*$)")
"""An ``=`` followed by more than numbers and dots (``n = 1, 2, \\ldots`` is a domain)."""


def without_domain_clause(answer: str) -> str | None:
    """``answer`` without a domain clause at its end, or None when it has none (see the module)."""
    split = _domain_clause(answer)
    return None if split is None else split[0]


def _domain_clause(answer: str) -> tuple[str, str] | None:
    """``(formula, condition)`` of an answer that ends in a domain clause, else None."""
    if len(answer) > MAX_ANSWER or not _HINT_RE.search(answer):
        return None
    for m in _CLAUSE_RE.finditer(answer):
        body = _BODY_TAIL_RE.sub("", answer[: m.start()])
        cond = (m.group("inside") or "") + m.group("cond")
        if m.group("open"):
            cond = cond.rstrip().rstrip(".").rstrip()
            if not cond.endswith(")") or m.start() == m.start("open"):
                continue  # "(n \\ge 1)" needs a separator before it: f(n \\ge 1) is no clause
            cond = cond[:-1]
        if _condition(cond, body):
            return body, cond
    m = _MEMBERSHIP_RE.search(answer)
    if m is not None:
        body = _BODY_TAIL_RE.sub("", answer[: m.start()])
        if _condition(m.group("cond"), body):
            return body, m.group("cond")
    return None


def _condition(cond: str, body: str) -> bool:
    """``cond`` states where ``body`` holds: about one of its letters, with a relation or a domain
    word, no other words, no definition (``where b = \\kappa + 1`` gives ``b`` a value), and no
    second piece of an answer; ``body`` is a formula, not a sentence."""
    if not body or body.endswith(("=", "+", "-", "(", "{")) or len(cond) > 100 or _PIECE_RE.search(cond):
        return False
    if not (_RELATION_RE.search(cond) or _DOMAIN_WORD_RE.search(cond) or _LETTERS_ONLY_RE.fullmatch(cond)):
        return False
    bare = _DOMAIN_WORD_RE.sub(" ", re.sub(r"\\mathbb\s*\{?\s*[A-Z]\s*\}?", " ", cond))
    if prose_words(bare) or prose_words(body) > 1 or _DEFINITION_RE.search(bare):
        return False
    named = letters(bare)
    return bool(named) and named <= letters(body)


def formulas_without_domains(gold: str, pred: str) -> tuple[str, str] | None:
    """The two answers without their domain clauses, when one of them has one (or both have the
    same condition, however worded: ``for all r \\ge 1``, ``for every r \\geq 1``); else None."""
    g, p = _domain_clause(gold), _domain_clause(pred)
    if g is None and p is None:
        return None
    if g is not None and p is not None and _condition_key(g[1]) != _condition_key(p[1]):
        return None  # "for n \\ge 1" against "for n \\ge 2": not this rule's to say
    return (gold if g is None else g[0]), (pred if p is None else p[0])


def _condition_key(cond: str) -> str:
    spaced = re.sub(rf"{_SPACING}|\.", "", cond)
    return spaced.replace("\\geq", "\\ge").replace("\\leq", "\\le")
