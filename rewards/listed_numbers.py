"""A reference sentence that lists its answer's numbers: "Die Zahl kann eine der sechs Zahlen 522,
552, 582, 516, 546 oder 576 sein und keine andere." (an olympiad's official answer) against a
response that answers ``\\boxed{516, 522, 546, 552, 576, 582}``.

The sentence is read only when it is plain prose (no LaTeX, no ``$``), holds exactly one list of
two whole numbers or more (joined by commas or by "and"/"or" in English, German, French, Spanish,
Italian, Portuguese, Polish, Czech or Dutch) and no other digit, and no word of exception,
negation or range comes before the list ("all n except 1, 2 and 3", "not 4 or 5", "between 3 and
7"). A response whose answer is the same numbers, in any order, is credited; nothing is refused
here.
"""

from __future__ import annotations

import re
from fractions import Fraction

from rewards.answer_text import split_top
from rewards.exact_numbers import read_number

_NUMBER = r"-?\d+"
_CONJUNCTIONS = r"(?:and|or|und|oder|et|ou|y|o|e|i|lub|albo|nebo|en)"
_JOIN = rf"(?:\s*,\s*(?:{_CONJUNCTIONS}\s+)?|\s+{_CONJUNCTIONS}\s+)"
_LIST_RE = re.compile(rf"(?<![\w.,-]){_NUMBER}(?:{_JOIN}{_NUMBER}){{1,30}}(?!\w|[.,]\d)")
_DIGIT_RE = re.compile(r"\d")
_BEFORE_LIST_RE = re.compile(
    r"\b(?:except|excluding|other than|but|not|no|none|neither|nor|never|between|from|than|unless"
    r"|least|most|more|less|greater|smaller|up to"
    r"|außer|ausgenommen|ohne|nicht|kein|keine|keiner|zwischen|als"
    r"|sauf|pas|aucun|aucune|entre|que"
    r"|excepto|salvo|menos|ningún|ninguna"
    r"|tranne|eccetto|nessun|nessuna|tra|fra"
    r"|exceto|nenhum|nenhuma"
    r"|oprócz|poza|nie|żaden|żadna|między"
    r"|kromě|mimo|ne|žádné|mezi"
    r"|behalve|niet|geen|tussen|dan)\b",
    re.IGNORECASE,
)
_MAX_SENTENCE_CHARS = 400


def numbers_listed(sentence: str) -> list[Fraction] | None:
    """The numbers of the one list a plain sentence gives as its answer (module docstring), or
    None."""
    if len(sentence) > _MAX_SENTENCE_CHARS or "$" in sentence or "\\" in sentence:
        return None
    found = list(_LIST_RE.finditer(sentence))
    if len(found) != 1:
        return None
    m = found[0]
    if _DIGIT_RE.search(sentence[: m.start()] + sentence[m.end() :]):
        return None  # another number in the sentence: the list may not be the answer
    if _BEFORE_LIST_RE.search(sentence[: m.start()]):
        return None  # "all n except 1, 2 and 3", "between 3 and 7"
    return sorted(Fraction(int(x)) for x in re.findall(_NUMBER, m.group(0)))


def listed_numbers_credit(sentence: str, answer: str) -> bool:
    """Whether ``answer`` (a response's answer: numbers separated by commas) gives exactly the
    numbers that ``sentence`` lists, in any order."""
    listed = numbers_listed(sentence)
    if listed is None:
        return False
    items = split_top(answer.replace("\\{", "").replace("\\}", "").strip().strip("{}()[]"), ",")
    values = [read_number(item) for item in items]  # split_top strips each item
    if len(values) != len(listed) or any(v is None or v.digits is not None for v in values):
        return False  # a decimal in the response is compared by the numeric rules, not here
    return sorted(v.value for v in values if v is not None) == listed
