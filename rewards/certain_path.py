"""The certain path: a verdict only where it is provable, else None (math-verify decides).

:func:`decide_fast` finds the answer each side gives (a bare answer, a box, a ``####`` line, an
"answer is" phrase), normalises both, and runs the rules of :func:`compare_answers` in order:
identical text, choice letters, yes/no, equations, named values, exact numbers and structures of
them, unions, constants, and expressions that provably vary. See docs/rewards.md for the rules.
"""

from __future__ import annotations

import re
from fractions import Fraction

from rewards.angles import degrees_as_radians, reference_trig_in_degrees, whole_trig_in_degrees
from rewards.answer_text import (
    CHAIN_RE,
    COMMAND_RE,
    MAX_ANSWER_CHARS,
    TEXT_CMD_RE,
    bare_pi_as_constant,
    case_key,
    chain_tail,
    digit_gaps,
    drop_common_name,
    drop_var_lhs,
    expand_independent_signs,
    expand_plus_minus,
    letters,
    normalize,
    prose_words,
    split_top,
    text_key,
    undouble_backslashes,
)
from rewards.answer_values import (
    Seq,
    ambiguous_lists,
    as_union,
    inequality_names,
    is_inequality,
    is_matrix,
    read_value,
    values_equal,
    vector_decide,
)
from rewards.base_numerals import base_numerals_decide
from rewards.chemical_formulas import chemistry_decide
from rewards.choice_letters import choice_letter, choices_decide, chosen_option, concluding_choice
from rewards.clock_times import clock_times_decide
from rewards.const_eval import evaluate_exact, huge_factorial
from rewards.derivative_names import derivatives_decide
from rewards.elementary_identity import proves_same_function
from rewards.equations import (
    computed_value,
    equation_in_unknowns,
    equations_decide,
    equations_of_numbers,
    false_step,
    function_as_y,
    graph_and_function,
    names_differ,
    number_of,
    reversed_chain,
    sides_swapped,
)
from rewards.exact_numbers import Num, nums_equal, read_number, rounded_form
from rewards.expression_lists import lists_decide
from rewards.expressions import (
    complex_constants_decide,
    constant_value,
    constants_decide,
    expressions_decide,
    huge_or_pm_decide,
    is_scalar,
    not_the_constant,
)
from rewards.extract import (
    ANSWER_TAGS,
    CHINESE_ANSWER_MARKS,
    FOREIGN_ANSWER_PHRASES,
    THINK_CLOSE,
    answer_tag,
    box_contents,
    braced,
    extract_answer,
    extract_with_source,
    json_answer_at_end,
    tail,
)
from rewards.formal_identity import read_pair
from rewards.linear_inequalities import inequalities_decide
from rewards.listed_numbers import listed_numbers_credit
from rewards.named_values import (
    BRACKETED_NAME_RE,
    assignments,
    assignments_decide,
    named_rhs,
    rename_variable,
)
from rewards.physical_units import (
    common_unit_dropped,
    quantities_decide,
    spaced_unit_value,
    temperatures_decide,
)
from rewards.plain_syntax import is_known_name, plain_to_latex
from rewards.real_roots import odd_roots_as_real
from rewards.scale_words import scaled_equal
from rewards.set_identities import set_identities_decide
from rewards.set_words import set_words_decide
from rewards.thousands_lists import thousands_list_decide

_NUMBER_AND_WORDS = r"^\s*(-?\d+(?:\.\d+)?)\s+([A-Za-z]{2,}(?:\s+[A-Za-z]{2,}){0,3})"
"""A number, then one to four plain words (``30 pens``, ``1.50 left``, ``26 bits``)."""
_NUMBER_OF_THINGS_RE = re.compile(_NUMBER_AND_WORDS + r"\s*\.?\s*$")
_NUMBER_THEN_CLAUSE_RE = re.compile(
    _NUMBER_AND_WORDS + r"\s+(?:to|that|which|who|you|we|with|from|for|in|on|when|where|if)\s+([^\n]{1,200})$"
)
"""A number, one to four plain words naming what is counted, then a clause about them (``840
ways to select a committee of 2 men and 3 women``): the clause may hold other numbers."""
_HEDGED_CLAUSE_RE = re.compile(
    r"\b(?:but|however|actually|not|only|instead|wrong|incorrect|mistake|or|approximately|about)\b|n't\b",
    re.IGNORECASE,
)
_SCALE_WORD_RE = re.compile(
    r"^(?:hundreds?|thousands?|millions?|billions?|trillions?|percent|pct|dozens?|lakhs?|crores?|k|m|b|bn)\b",
    re.IGNORECASE,
)
"""Words that scale the number before them (``30 thousand``): not a count of things."""


_PLAIN_TEXT_RE = re.compile(r"^[A-Za-z][A-Za-z '\-]*$")
_NAN_RE = re.compile(r"^\s*[-+]?nan\s*$", re.IGNORECASE)
_SET_OPERATION_RE = re.compile(
    r"\\\}\s*(?:[-+*/]|\\(?:setminus|smallsetminus|backslash|times|cap|cup|triangle|ominus|oplus)(?![a-zA-Z]))"
    r"\s*\\\{"
)
"""Two sets with an operation between them (``\\{1,2,3\\} - \\{1,2\\}``, ``\\setminus``, ``\\cap``): an
expression the certain path does not evaluate; read as one list, it was refused against ``\\{3\\}``."""
_YES_NO = {
    "yes": "yes",
    "no": "no",
    "true": "yes",
    "false": "no",
    # Chinese: yes, right, correct, holds / no, wrong, does not hold (a whole answer, not a word in a sentence)
    "是": "yes",
    "是的": "yes",
    "对": "yes",
    "正确": "yes",
    "成立": "yes",
    "否": "no",
    "不是": "no",
    "不对": "no",
    "错误": "no",
    "不成立": "no",
    # German, Polish, Russian, French: yes / no as the first word of an answer ("Nein, das ist
    # nicht möglich.", "Да, получится."); not French "non", the prefix of English "non-negative".
    # "nie" is Polish "no" and German "never": either opens a negative answer
    "ja": "yes",
    "nein": "no",
    "tak": "yes",
    "nie": "no",
    "да": "yes",
    "нет": "no",
    "oui": "yes",
}
_WORD_LETTERS = "A-Za-z\u0400-\u04ff"
"""Latin and Cyrillic letters: the yes/no words are read in both scripts."""
_YES_NO_OPENING_RE = re.compile(rf"^\s*[{_WORD_LETTERS}]+\s*,")
"""A short reference that opens with a word and a comma ("да, верно.", "Ja, das geht."): read as
a yes/no answer when that word is one."""
_YES_NO_LETTERS = {"Y": "yes", "N": "no"}
"""A capital ``Y`` or ``N`` as the whole answer, a dataset's spelling of yes and no (UGMathBench's
true/false questions), read so only against a yes/no word on the other side; inside a list
(``(Y, 1)``) it is not a boolean (that grader's own tests say so)."""
_FIRST_WORD_RE = re.compile(rf"^[^{_WORD_LETTERS}]{{0,3}}([{_WORD_LETTERS}]+)")
"""The first word of an answer, in Latin or Cyrillic letters."""


def _yes_no(s: str) -> str | None:
    whole = _YES_NO.get(s.strip(" .。!！"))
    if whole is not None and not s.isascii():
        return whole  # "正确" against "是"
    m = _FIRST_WORD_RE.match(s)
    if not m:
        return None
    return _YES_NO.get(m.group(1).lower())


def _yes_no_letter_decide(gold: str, pred: str) -> bool | None:
    """``Y`` or ``N`` (:data:`_YES_NO_LETTERS`) against an answer that opens with a yes/no word,
    either way round; None otherwise (``Y`` against ``(Y)`` is a choice)."""
    letter, other = _YES_NO_LETTERS.get(gold.strip()), pred
    if letter is None:
        letter, other = _YES_NO_LETTERS.get(pred.strip()), gold
    if letter is None:
        return None
    word = _yes_no(other)
    return None if word is None else word == letter


_TEXT_WORDS_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|textsf|texttt|textnormal|mbox)\s*\{[^{}]*[A-Za-z]"
)


_NOT_A_NOUN_RE = re.compile(
    r"\b(?:squared|cubed|factorial|over|plus|minus|times|divided|root|roots|power|powers|to|of"
    r"|halves|thirds|quarters|fourths|fifths|sixths|sevenths|eighths|ninths|tenths|hundredths|thousandths)\b",
    re.IGNORECASE,
)
"""Words after a number that change its value (``5 squared``, ``3 halves``, ``2 to the``)."""


def _plain_nouns(words: str) -> bool:
    """Whether the words after a number only name what is counted (``boxes``, ``laps more than
    Quinn``): no word that changes the value, and no function, constant or Greek letter (``5 pi``)."""
    return not _NOT_A_NOUN_RE.search(words) and not any(is_known_name(w.lower()) for w in words.split())


def _names_what_is_counted(words: str) -> bool:
    """Whether the words after a number name what it counts: no scale word (``30 thousand``) and
    only plain nouns (:func:`_plain_nouns`)."""
    return not _SCALE_WORD_RE.search(words) and _plain_nouns(words)


def _same_two_letters(gold: str, pred: str) -> bool:
    """``AB`` against ``BA``, ``x y z`` against ``zxy``: a segment or a product of the same few
    letters (at most six), not two different words."""
    g, p = gold.replace(" ", ""), pred.replace(" ", "")
    return 2 <= len(g) <= 6 and sorted(g) == sorted(p)


_BARE_WORD_RE = re.compile(r"^[A-Za-z][A-Za-z1-9]+$")


def _foreign_word(word: str, other: str) -> bool:
    """``word`` is a bare word (two or more letters, digits but no 0; not a function, constant or
    Greek name) with a letter that ``other`` does not contain anywhere. Read as math, the word is
    the product of its letters and digits, so it varies with that letter and ``other`` does not:
    they are not equal (and not the same text). math-verify in math mode would prove it by
    simplifying a product of one-letter symbols, 50-100 ms for ``AZYUK2A`` against ``2``."""
    if not _BARE_WORD_RE.match(word) or sum(c.isalpha() for c in word) < 2 or is_known_name(word.lower()):
        return False
    return any(c.isalpha() and c not in other for c in word)


def _words(s: str) -> bool:
    """Plain words (two letters or more), where case does not change the answer ("Yes", "blue");
    not two capitals (``AF``: a segment or two points, not the word ``af``)."""
    if len(s) == 2 and s.isupper():
        return False
    return bool(_PLAIN_TEXT_RE.match(s)) and sum(c.isalpha() for c in s) >= 2


_LEADING_RELATION_RE = re.compile(r"(?:\\(?:neq?|leq?|geq?)(?![a-zA-Z])|[<>])")
_ANY_RELATION_RE = re.compile(r"[=<>]|\\(?:neq?|leq?|geq?|approx|sim|equiv|in)(?![a-zA-Z])")


def compare_answers(gold: str, pred: str, text_words: bool = False) -> bool | None:
    """True/False when the answer is certain, None when math-verify must decide. ``text_words``:
    a side had words in ``\\text{}`` (normalised to plain letters here), which math-verify reads
    as units or text, not as variables: then no verdict rests on those letters being variables."""
    if _NAN_RE.match(gold) or _NAN_RE.match(pred):
        return False  # "not a number" equals nothing, itself included
    if (
        text_key(gold) == text_key(pred)
        and digit_gaps(gold) == digit_gaps(pred)
        and (case_key(gold) == case_key(pred) or (_words(gold) and _words(pred)))
    ):
        return True  # the same text; case counts only in math ("x" is not "X", "\\Delta" not "\\delta")
    same = set_identities_decide(gold, pred)
    if same is not None:
        return same  # "(A \\cup B)'" against "A' \\cap B'": membership tables
    same = chemistry_decide(gold, pred)
    if same is not None:
        return same  # "2H2 + O2 = 2H2O" against "H2 + 0.5 O2 → H2O": one reaction
    if _SET_OPERATION_RE.search(gold) or _SET_OPERATION_RE.search(pred):
        return None
    lead_g, lead_p = bool(_LEADING_RELATION_RE.match(gold)), bool(_LEADING_RELATION_RE.match(pred))
    if lead_g != lead_p and not _ANY_RELATION_RE.search(pred if lead_g else gold):
        return False  # "\\ne 5" or "< 5" against "5": a relation to the value is not the value
    same = base_numerals_decide(gold, pred)
    if same is not None:
        return same  # "10001_2" against "101_4": the values
    same = choices_decide(gold, pred)
    if same is not None:
        return same  # "B" against "(b)", "B. Carl has a winning strategy." or "x = \\pm 2"
    yn = _YES_NO.get(text_key(gold))
    if yn is None and _YES_NO_OPENING_RE.match(gold) and not re.search(r"\d", gold):
        yn = _yes_no(gold)  # "да, верно." ("yes, right"), "Oui, c'est possible.": the opening word
    if yn is not None:
        got = _yes_no(pred)
        if got is not None:
            return got == yn
    same = quantities_decide(gold, pred)
    if same is None:
        same = temperatures_decide(gold, pred)
    if same is None:
        same = clock_times_decide(gold, pred)  # "2:35 P.M." against "2:35 A.M."
    if same is not None:
        return same  # "1 J" against "0.001 kJ" or "1 N \\cdot m"; "9.8 N" against "9.8 m"; "15 C" not "15 F"
    unnamed = drop_common_name(gold, pred) if "\\pm" in gold + pred or "\\mp" in gold + pred else None
    if unnamed is not None:
        ng, np_ = common_unit_dropped(*unnamed)  # "(9.81 \\pm 0.01) m/s^2": the unit of both values
        eg, ep = _expanded_as_latex(expand_plus_minus(ng)), _expanded_as_latex(expand_plus_minus(np_))
        if eg is not None or ep is not None:
            same = compare_answers(eg or ng, ep or np_, text_words)
            one = (eg is None and len(split_top(ng)) == 1) or (ep is None and len(split_top(np_)) == 1)
            if same or (same is False and not one):
                return same  # "x = 3 \\pm 1" against "x = 2, 4": the two values each sign gives
            # "\\pm 2" against "2" (one of the values): huge_or_pm_decide, else math-verify's convention
        ig, ip = (
            _expanded_as_latex(expand_independent_signs(ng)),
            _expanded_as_latex(expand_independent_signs(np_)),
        )
        if (ig is not None or ip is not None) and compare_answers(ig or ng, ip or np_, text_words):
            return True  # "1 \\pm 2 \\pm 3" against "6, 0, 2, -4": every choice of signs
    if reversed_chain(gold, pred):
        return True  # "2 \\ne 3" against "3 \\ne 2", "1 < x < 2" against "2 > x > 1": one statement
    if "=" in gold and "=" in pred:
        values = equations_of_numbers(gold, pred)
        if values is not None:
            if sides_swapped(gold, pred):
                return True  # "2=3" against "3=2": one statement
            return compare_answers(*values, text_words)  # "2+2=4" against "4=4": the values stated
        same = derivatives_decide(gold, pred, lambda g, p: compare_answers(g, p, text_words))
        if same is not None:
            return same  # "f''(x) = 6x" against "\\frac{d^2y}{dx^2} = 6x": the same derivative
        same = None if text_words else equations_decide(gold, pred)
        if same is not None:
            return same  # the same equation up to a nonzero factor, or two different lines
        sides = graph_and_function(gold, pred)
        if sides is not None and compare_answers(*sides, text_words) is True:
            return True  # "y = 2x + 3" is the graph of "f(x) = 2x + 3"
        sides = function_as_y(gold, pred)
        if sides is not None and not text_words and equations_decide(*sides) is True:
            return True  # "y - 4 = 2(t+1)" against "y(t) - 4 = 2(t+1)"
        if names_differ(gold, pred):
            return None  # "x = 1" against "y = 1", "x=5, x=6" against "y=5, y=6": the name counts
    if ("=" in gold + pred or ":" in gold + pred) and (
        assignments(gold) is not None or assignments(pred) is not None
    ):
        return assignments_decide(gold, pred, compare_answers)  # named values: by name, or math-verify
    if not text_words:
        same = inequalities_decide(gold, pred)
        if same is not None:
            return same  # "2x < 4" against "x < 2", "-4 < 2x-8 \\le 10" against "(2, 9]": the same set
    names_g = inequality_names(gold)
    names_p = inequality_names(pred) if names_g is not None else None
    if names_g is not None and names_p is not None and names_g != names_p:
        return None  # "x > 5" against "y > 5" or "X > 5": the same set, another name (math-verify)
    vg = read_value(gold)
    if vg is None:  # a reference written as a number word ("eleven"); a prediction's is not read
        vg = read_number(drop_var_lhs(gold), words=True)  # ("two" for 2: math-verify, SkyRL)
    vp = read_value(pred, decimal_comma=isinstance(vg, Num))
    if isinstance(vp, Num) and not isinstance(vg, Num):
        vg = read_value(gold, decimal_comma=True)  # "1,22" against one number: a decimal comma
    if isinstance(vg, Seq) and isinstance(vp, Seq) and "U" in (vg.open, vp.open):
        ug, up = as_union(vg), as_union(vp)  # unions of intervals: the same set, in any order
        return None if ug is None or up is None else values_equal(ug, up)
    if vg is not None and vp is not None:
        if is_matrix(vg) != is_matrix(vp):
            return vector_decide(vg, vp)  # a column vector against a tuple or list
        if ambiguous_lists(vg, vp):
            return None
        same = values_equal(vg, vp)
        if isinstance(vg, Seq) and isinstance(vp, Seq):
            # both lists; when each is also one number with a decimal comma ("1,5" and "1,50": two
            # numbers each, or 1.5 twice; "0,111" and "-0,111"), a verdict only where both readings
            # agree. Against a list not written so ("1, 3", "Minimum: 1, Maximum: 3") it is a list.
            alt_g, alt_p = read_value(gold, decimal_comma=True), read_value(pred, decimal_comma=True)
            if isinstance(alt_g, Num) and isinstance(alt_p, Num) and values_equal(alt_g, alt_p) != same:
                return None
        return same
    if vg is None or vp is None:
        same = lists_decide(gold, pred, lambda g, p: compare_answers(g, p, text_words))
        if same is not None:
            return same  # "(3, \\frac{\\pi}{2})" against "(3, \\pi/2)", item by item
    if _PLAIN_TEXT_RE.match(gold) and _PLAIN_TEXT_RE.match(pred) and not _same_two_letters(gold, pred):
        return False  # two different plain words/phrases
    if not text_words and "=" not in pred and is_scalar(pred, vp) and equation_in_unknowns(gold):
        return False  # "a + z = 0" is an equation, not the value 0
    if is_scalar(gold, vg) and is_inequality(pred) or is_scalar(pred, vp) and is_inequality(gold):
        return False  # a number against "x \\ge 5" or "2 < x < 5" (math-verify: never equal)
    if (vg is None) != (vp is None):
        number, other = (vp, gold) if vg is None else (vg, pred)
        if isinstance(number, Num) and number.digits is None and not number.percent:
            exact = constant_value(other)
            if isinstance(exact, Fraction):
                return exact == number.value  # "3 1/2" against "(2+\\frac12) + 1": exact values
    if vg is None or vp is None:
        got = complex_constants_decide(gold, pred)
        if got is None:
            got = constants_decide(gold, pred)
        if got is None:
            got = huge_or_pm_decide(gold, pred)
        if got is not None:
            return got
    if isinstance(vg, Num) and not re.search(r"[\d\\^_/*+()=<>\[\]{}-]", pred):
        return False  # a number against words without any digit or math
    if isinstance(vg, Num) and (counted := _NUMBER_OF_THINGS_RE.match(pred)):
        if not _SCALE_WORD_RE.search(counted.group(2)):
            same = compare_answers(gold, counted.group(1))
            if same is False and not _NOT_A_NOUN_RE.search(counted.group(2)):
                return False  # "31" against "30 pens": another number, whatever the words name
            if same and _plain_nouns(counted.group(2)):
                return True  # "8" against "8 boxes": the number, of things the words name
    if isinstance(vp, Num) and (counted := _NUMBER_OF_THINGS_RE.match(gold)):
        if _names_what_is_counted(counted.group(2)):
            if compare_answers(counted.group(1), pred) is True:
                return True  # "8 boxes" against "8"
    if text_words:
        return None  # "\\frac13 \\text{x}": a unit to math-verify, not the variable x
    if _foreign_word(pred, gold) or _foreign_word(gold, pred):
        return False  # "AZYUK2A" against "2", "dog" against "13\\pi R^2"
    g_const = isinstance(vg, Num) or (vg is None and constant_value(gold) is not None)
    p_const = isinstance(vp, Num) or (vp is None and constant_value(pred) is not None)
    if (g_const and not_the_constant(gold, pred)) or (p_const and not_the_constant(pred, gold)):
        return False  # a number against an expression that varies, or is another constant
    if vg is None and vp is None:
        return expressions_decide(gold, pred)
    if g_const or p_const:
        # "1" against "\\frac{a}{b}\\cdot\\frac{b}{a}" or "\\sin^2 x+\\cos^2 x"
        return proves_same_function(read_pair(gold, pred))
    return None


def prepare_pair(gold: str, pred: str) -> tuple[str, str]:
    """Both answers normalised, the prediction's function argument renamed to the reference's, a
    prediction's chain ``x = 5+5+1 = 11`` cut to its last side, a reference that names its value
    (``y = x^2+1``) cut to the value when the prediction is bare, and answers in calculator or
    sympy syntax (``sqrt(2)/2``, ``x**2``) rewritten as LaTeX."""
    ng, np_ = normalize(gold), normalize(pred)
    ng, np_ = _without_part_label(ng, np_), _without_part_label(np_, ng)
    ng, np_ = _x_as_times(ng, np_), _x_as_times(np_, ng)
    np_ = rename_variable(ng, np_)
    if "=" not in ng and not CHAIN_RE.search(ng):
        got = chain_tail(np_)
        if got is None and BRACKETED_NAME_RE.match(np_.partition("=")[0].strip()):
            got = named_rhs(np_)  # "\\lVert T \\rVert = \\frac12" against "\\frac12": the norm's value
        if got is not None and not false_step(np_):  # not "7+1 = 42" as 42
            np_ = got
    elif "=" not in np_ and not CHAIN_RE.search(np_):
        got = named_rhs(ng)  # a reference that names its value, against a bare expression
        if got is not None:
            ng = got
    ng, np_ = _as_latex(ng), _as_latex(np_)
    return _braces_as_set(ng, np_), _braces_as_set(np_, ng)


_PART_LABEL_RE = re.compile(r"\((?:[a-h]|i{1,3}|iv|vi{0,3})\)\s*")
"""A question part's label at the start of an answer: ``(a)``, ``(ii)``."""


def _without_part_label(s: str, other: str) -> str:
    """``s`` without the part label it opens with (``(a) 5`` as ``5``), when the rest has no letter
    (``(a) 5`` is no product 5a) and ``other`` opens with no label."""
    label = _PART_LABEL_RE.match(s)
    if label is None or _PART_LABEL_RE.match(other):
        return s
    rest = s[label.end() :]
    return rest if rest and not letters(rest) else s


_SPACED_X_RE = re.compile(r"(?<=[\d}])\s+[xX]\s+(?=\d)")
"""A spaced ``x`` between two numbers (``2^3 x 3``): the times sign typed as a letter."""


def _x_as_times(s: str, other: str) -> str:
    """``s`` with each spaced ``x`` between numbers as ``\\times`` (``2^2 X 3^2``), when ``x`` is
    its only letter and ``other`` has no ``x`` but such times signs: then it cannot be the variable."""
    if (
        not _SPACED_X_RE.search(s)
        or letters(s) - {"x", "X"}
        or letters(_SPACED_X_RE.sub(" ", other)) & {"x", "X"}
    ):
        return s
    return _SPACED_X_RE.sub(lambda _: " \\times ", s)


def _braces_as_set(s: str, other: str) -> str:
    """``{3}`` -> ``\\{3\\}`` when the other answer is a set written ``\\{...\\}``: a model's
    plain-text set, not a LaTeX group."""
    if not (other.startswith("\\{") and other.endswith("\\}")):
        return s
    if not (s.startswith("{") and s.endswith("}")):
        return s
    group = braced(s, 0)
    return f"\\{{{group[0]}\\}}" if group is not None and group[1] == len(s) else s


def _expanded_as_latex(s: str | None) -> str | None:
    """A text with its ``\\pm`` written out, in LaTeX: ``1 \\pm sqrt(2)`` was no calculator
    syntax before (``\\pm``) and is after (``1 + sqrt(2), 1 - sqrt(2)``)."""
    return None if s is None else _as_latex(s)


def _as_latex(s: str) -> str:
    """An answer in calculator or sympy syntax rewritten as LaTeX; a LaTeX answer with ``pi``
    for ``\\pi`` (``2pi``)."""
    latex = plain_to_latex(s)
    return latex if latex is not None else bare_pi_as_constant(s)


_CJK_PROSE_RE = re.compile("[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]")
_CJK_PROSE_CHARS = 20
"""Han, kana or Hangul characters outside math that, with a full stop or a line break, make a
text prose (a Chinese solution), not a bare answer (``等边三角形``, ``存在，且唯一``)."""


def _is_sentence(s: str) -> bool:
    outside = re.sub(r"\$[^$]*\$", " ", s[:MAX_ANSWER_CHARS])
    outside = COMMAND_RE.sub(" ", TEXT_CMD_RE.sub(" ", outside))
    if len(_CJK_PROSE_RE.findall(outside)) >= _CJK_PROSE_CHARS and (
        "。" in outside or "\n" in outside.strip()
    ):
        return True
    if prose_words(outside) < 3:
        return False
    return plain_to_latex(s) is None  # "omega*sin(omega*t)": calculator syntax, not prose


def _has_anchor(text: str) -> bool:
    """Whether ``text`` marks its answer: a box, a ``</think>``, an answer tag, a ``####`` line or a
    Chinese answer mark (``【答案】``, ``答案：``)."""
    return any(mark in text for mark in _ANCHORS)


_ANCHORS = (
    "\\boxed",
    "\\fbox",
    THINK_CLOSE,
    *(close for _, close in ANSWER_TAGS),
    "####",
    *CHINESE_ANSWER_MARKS,
)


def answer_and_trust(text: str) -> tuple[str | None, bool]:
    """:func:`answer_of` and whether it came from a box, a ``####`` line or a bare answer (True)
    or from an "answer is ..." phrase in prose (False: good enough to credit, not to refuse)."""
    if _has_anchor(text):
        got, source = extract_with_source(text)
        if source == "boxed" and text.count("\\boxed") + text.count("\\fbox") > 1:
            # several boxes: the extraction may have kept only some (prose between them)
            return got, False
        if source == "tag" and (_answer_tags(tail(text)) > 1 or got is None or _is_sentence(got)):
            return got, False  # several tags, or a sentence in the tag: the answer is not certain
        return got, source in ("boxed", "tag", "hash")
    stated = json_answer_at_end(text)
    if stated is not None:
        return stated, not _is_sentence(stated)  # {"reasoning": "...", "answer": 22} ends the text
    got, how = _read_answer(text)
    if how == "bare" and _MARKUP_RE.search(text):
        return got, False  # "<result>6</result>", "6 <end>": markup around the answer, not an answer
    return got, how == "bare" or (how == "phrase" and got is not None and _final_number_phrase(text, got))


_MARKUP_RE = re.compile(r"</?[A-Za-z][A-Za-z0-9_]{0,30}>")
"""An XML or HTML tag (``<result>``, ``</b>``)."""


def _answer_tags(text: str) -> int:
    """How many answer tags of the kind that closes last ``text`` opens."""
    tag = answer_tag(text)
    return 0 if tag is None else text.count(tag[0])


_PLAIN_NUMBER_RE = re.compile(r"-?(?:\d{1,3}(?:[ ,]\d{3})+|\d+)(?:[.,]\d+)?")
"""One number: digits, thousands grouped by commas or spaces, a decimal point or comma; not a list."""
_MATH_MARKS = ("$", "\\(", "\\[", "\\begin", "\\frac")
_TRAILING_RE = re.compile(r"(?:\s|[.。!！।॥]|です|でした|입니다)*$")


def _final_number_phrase(text: str, answer: str) -> bool:
    """Whether a plain-text response (no math mode) ends with an answer phrase that gives the
    number ``answer`` (``... The answer is 18.``, ``... Die Antwort ist 540.``, ``答えは44です。``):
    nothing follows but punctuation, so the number is the response's own final answer as surely as
    a box is, and every reader of the text reads that number. ``answer`` was read from the text's
    answer phrase (not past a word of approximation: ``approximately 5``). An option letter
    (``... The answer is (B).``) is such an answer too."""
    if len(answer) > 40 or any(m in text for m in _MATH_MARKS):
        return False
    if not _PLAIN_NUMBER_RE.fullmatch(answer) and choice_letter(answer) is None:
        return False
    end = _TRAILING_RE.search(text, max(0, len(text) - 200))
    return end is not None and text[: end.start()].endswith(answer)


def answer_of(text: str) -> str | None:
    """The answer a side gives: its boxed / ``####`` / "answer is" answer, the text itself when it
    is a bare answer, or None (a sentence without anchors: math-verify's extraction decides)."""
    return _read_answer(text)[0]


def _read_answer(text: str) -> tuple[str | None, str]:
    """:func:`answer_of`, and how it was read: ``anchor`` (a box, tag, ``####`` line...), ``phrase``
    (an answer phrase in prose), ``approx`` (past a word of approximation) or ``bare`` (the text)."""
    if _has_anchor(text):
        return extract_answer(text), "anchor"
    if len(text) > MAX_ANSWER_CHARS:
        return extract_answer(text), "phrase"
    shown = _SHOW_THAT_RE.match(text)
    if shown:
        return shown.group(shown.lastindex or 0).strip(), "phrase"  # the one delimiter that matched
    if (
        _is_sentence(text)
        or _ANSWER_PHRASE_RE.match(text)
        or _LATER_ANSWER_PHRASE_RE.search(text)
        or _JSON_ANSWER_RE.search(text)
        or _has_foreign_phrase(text)
    ):
        got = extract_answer(text)
        return (got if got is not None and not _is_sentence(got) else None), "phrase"
    approx = _APPROX_WORD_RE.match(text)
    if approx:
        return text[approx.end() :], "approx"  # credit only, as from an answer phrase
    return text, "bare"


def _has_foreign_phrase(text: str) -> bool:
    low = text.lower()
    return any(phrase in low for phrase in FOREIGN_ANSWER_PHRASES)


_SHOW_THAT_RE = re.compile(
    r"^\s*(?:show|prove|verify|check) that\s+"
    r"(?:\$\$([^$]{1,400})\$\$|\$([^$]{1,400})\$|\\\((.{1,400}?)\\\)|\\\[(.{1,400}?)\\\])\s*\.?\s*$",
    re.IGNORECASE | re.DOTALL,
)
"""A reference that is a statement to prove about one formula ("Prove that $|AB| = 7$.", as
PutnamBench's solutions are written): its answer is the formula, read as from an answer phrase."""
_ANSWER_PHRASE_RE = re.compile(r"^\s*(?:final answer|the answer is|answer)\b", re.IGNORECASE)
"""A short text that opens with an answer phrase ("Answer: 162x^4"): its answer is what follows."""
_LATER_ANSWER_PHRASE_RE = re.compile(
    r"[.\n][ \t]*(?:final answer|the answer is|answer)[ \t]*:", re.IGNORECASE
)
"""An answer phrase after a sentence's end or a line break ("9:30 + 2:45 = 12:15. Answer: 12:15")."""
_JSON_ANSWER_RE = re.compile(r'"(?:final_)?answer"\s*:', re.IGNORECASE)
"""A JSON answer key (``{"answer": "22"}``): its value is the answer, read as from a phrase."""
_APPROX_WORD_RE = re.compile(
    r"^\s*(?:approximately|approx\.?|roughly|about|around|nearly|circa)\s+(?=[-+$\\\d.(])", re.IGNORECASE
)
"""A short answer that opens with a word of approximation ("roughly 7.55N", "about 3 cm"): the
answer is what follows. math-verify reads the number after the word; in math mode the word would
be a product of letters."""


_ARROW_RE = re.compile(r"\\(?:overrightarrow|vec|vv)\s*\{([^{}]{1,20})\}")


def _same_but_for_arrows(g: str, p: str) -> bool:
    """One answer writes vectors with arrows (``\\overrightarrow{AB}``, ``\\vec{AB}``) and the
    other is the same text without any: the same vectors, named by their points."""
    arrows_g, arrows_p = bool(_ARROW_RE.search(g)), bool(_ARROW_RE.search(p))
    if arrows_g == arrows_p:
        return False
    bare_g, bare_p = _ARROW_RE.sub(r"\1", g), _ARROW_RE.sub(r"\1", p)
    return text_key(bare_g) == text_key(bare_p) and digit_gaps(bare_g) == digit_gaps(bare_p)


def decide_fast(gold: str, pred: str) -> bool | None:
    """The certain path's verdict for two answers (or texts), or None if math-verify is needed."""
    verdict = _decide(gold, pred)
    return None if verdict is _APART else verdict  # type: ignore[return-value]


def decide_or_apart(gold: str, pred: str) -> tuple[bool | None, bool]:
    """:func:`decide_fast`'s verdict, and whether the answers read from the two texts are
    certainly different although one was read from prose (verdict None: math-verify's own
    reading of the texts decides; math-verify given the two answers read would refuse them)."""
    verdict = _decide(gold, pred)
    if verdict is _APART:
        return None, True
    return verdict, False  # type: ignore[return-value]


_APART = object()
"""What :func:`_decide` returns for answers read from prose that certainly differ."""


def _same_phrase(gold: str, answer: str) -> bool:
    """Whether a reference that reads as a phrase (``swing dance class``, no answer of its own) is
    the text of the answer a response gives (``\\boxed{\\text{Swing Dance Class}}``, an answer tag,
    "The final answer is ..."): an answer read from prose is good enough to credit."""
    return text_key(normalize(gold)) == text_key(normalize(answer))


def _decide(gold: str, pred: str) -> bool | None | object:
    if gold.strip() == pred.strip():
        return True  # the same text gives the same answer, whatever it is
    gold, pred = undouble_backslashes(gold), undouble_backslashes(pred)
    (g, g_sure), (p, p_sure) = answer_and_trust(gold), answer_and_trust(pred)
    letter = None if g is None else choice_letter(normalize(g))
    if letter is not None:
        own = choice_letter(normalize(p)) if p is not None and p_sure else None  # "\\boxed{B}"
        option = own or concluding_choice(pred)
        if option is not None:
            return letter == option  # "\\boxed{205} ... The answer is (J).": the option it chose
    same = set_words_decide(g or gold, p or pred)
    if same is not None:
        return same  # "no solution" against "\\varnothing"; "all real numbers" against "\\mathbb{R}"
    if g is not None and p is not None and _same_but_for_arrows(g, p):
        return True  # "\\overrightarrow{AB} + \\overrightarrow{CD}" against "AB + CD"
    if g is None or p is None:
        if same_text(gold, pred) or (g is None and p is not None and _same_phrase(gold, p)):
            return True  # the same text; a phrase as the reference, the response's answer
        return _sentence_rules(gold, pred)
    if len(g) > MAX_ANSWER_CHARS or len(p) > MAX_ANSWER_CHARS:
        return text_key(g) == text_key(p) or None
    ng, np_ = prepare_pair(g, p)
    if not ng or not np_:
        return None
    if disowned(p) and not disowned(g):
        return False  # "42\\text{ wrong}", "42\\text{ maybe 7}": the text takes the value back
    bare_gold = "=" not in ng and not CHAIN_RE.search(ng)
    if false_step(np_) and (bare_gold or not false_step(ng)):
        return False  # "7+1 = 42" or "x = 0 = 42" states something false; it does not give 42
    text_words = bool(_TEXT_WORDS_RE.search(g) or _TEXT_WORDS_RE.search(p))
    if " or " in ng and any(compare_answers(a, np_, text_words) is True for a in _one_value_two_ways(ng)):
        return True  # a reference "2/3 or 0.67" names one value two ways: either is the answer
    verdict = _yes_no_letter_decide(ng, np_)  # "Y" against "yes" or "True"; not inside a list
    if verdict is None:
        verdict = _huge_factorials(ng, np_)
    if verdict is None:
        verdict = compare_answers(ng, np_, text_words)
    if verdict is not True and _equal_but_for_a_constant_of_integration(ng, np_, text_words):
        return True  # "6\\sinh x + 12x" against "12x + 6\\sinh x + C": the general antiderivative
    if verdict is not True and scaled_equal(ng, np_):
        return True  # "1500000" against "1.5 million": the value the scale word gives
    if verdict is not True and _equal_in_radians(g, p, ng, np_, text_words):
        return True  # "\\cos 60^\\circ" against "\\frac12"; "30^\\circ" against "\\frac{\\pi}{6}"
    if verdict is not True and _equal_as_real_roots(ng, np_, text_words):
        return True  # "(-5)^{1/3}" against "-1.709975946": the real cube root
    if verdict is not True and same_text(gold, pred):
        return True  # "all integers k \\ge 2" against "Final answer: All integers $k \\geq 2$."
    if verdict is not True and bare_gold:
        value = computed_value(np_)  # a reference value against "\\log_2(8) = 3"
        if value is not None and compare_answers(ng, value, text_words) is True:
            return True
    if verdict is not True and thousands_list_decide(ng, np_, lambda a, b: compare_answers(a, b, text_words)):
        return True  # "750,000, 350,000" against "750000, 350000": thousands commas in a list
    if verdict is not True:
        without_unit = _compared_without_a_unit_power(ng, np_, text_words)
        if without_unit is not None:
            return without_unit  # "4\\sqrt{3}cm^{2}" against "4\\sqrt3": math-verify reads c*m^2
    if verdict is not True and _equal_but_for_a_spaced_unit(ng, np_):
        return True  # "0.17" against "0.17 V", "-120" against "-120 m/(min^2)": the value with its unit
    if verdict is False and _equal_but_for_a_unit_letter(ng, np_, text_words):
        return None  # "\\sqrt{2} m" against "\\sqrt{2}": math-verify reads "m" as metres
    if verdict is False and not (g_sure and p_sure):
        if g_sure and bare_gold and " or " not in ng and len(split_top(ng)) == 1 and _hedged(np_):
            return False  # "The answer is 5 or 6.": a hedge between values is not the value
        if g_sure and _every_box_differs(g, pred, True, text_words):
            return False
        if p_sure and _every_box_differs(p, gold, False, text_words):
            return False
        return _APART  # an answer read from prose may be the wrong phrase: math-verify decides
    return verdict


_DISOWNING_RE = re.compile(
    r"(?<![A-Za-z])(?:wrong|false|incorrect|isn't|not ?(?:correct|right|true|valid|\d))(?![A-Za-z])"
    r"|[\u2717\u2718\u274c\U0001f6ab\u2260]|\u9519|\u4e0d\u5bf9|\u4e0d\u662f",
    re.IGNORECASE,
)
"""Words and marks that take a value back: "wrong", "is false", "not correct", "not 7", ✗, ❌, 🚫,
≠, 错 (wrong), 不对 (not right), 不是 (is not)."""
_HEDGE_RE = re.compile(r"(?<![A-Za-z])(?:maybe|perhaps|possibly|unless|or)(?![A-Za-z])|\u6216", re.IGNORECASE)
"""Words that offer another value, when the text has one: "maybe 7", "(or 7)", "unless 7", 或 (or)."""


_OR_RE = re.compile(r"\s+or\s+")


def _hedged(answer: str) -> bool:
    """Whether an answer read from prose offers another value (``5 or 6``, ``maybe 7``); not an
    amount restated as a percent (``108, or 1.75%``: an increase of $108, or 1.75 %)."""
    if not _HEDGE_RE.search(answer):
        return False
    parts = [part.strip(" ,.") for part in _OR_RE.split(answer)]
    return not (len(parts) == 2 and sum(part.endswith("%") for part in parts) == 1)


def disowned(answer: str) -> bool:
    """Whether an answer that starts with math (a digit before its first text) has text that takes
    its value back or hedges it (``42\\text{ is false}``, ``42\\text{ maybe 7}``): no value to
    credit. A unit (``42\\text{ apples}``) is not such a text."""
    if "{" not in answer:
        return False
    first = TEXT_CMD_RE.search(answer)
    if first is None or not any(c.isdigit() for c in answer[: first.start()]):
        return False
    for m in TEXT_CMD_RE.finditer(answer):
        words = m.group(1).replace("\\!", "").replace("\\ ", " ").replace("\\,", " ")
        if _DISOWNING_RE.search(words) or (_HEDGE_RE.search(words) and any(c.isdigit() for c in words)):
            return True  # not "x < -1 \\text{ or } x > 1", nor "\\text{otherwise}" in a piecewise answer
    return False


def _one_value_two_ways(s: str) -> list[str]:
    """``2/3 or 0.67`` -> ``["2/3", "0.67"]``: a reference that gives one value in two forms (each
    equal to the other by the certain path, in one direction at least); else ``[]`` (``x=2 or x=3``
    gives two values: both are the answer)."""
    parts = [part.strip() for part in s.split(" or ")]
    if len(parts) != 2 or not all(parts) or any("," in part for part in parts):
        return []
    a, b = parts
    if compare_answers(a, b) is True or compare_answers(b, a) is True:
        return parts
    na, nb = number_of(a), number_of(b)
    return (
        parts if na is not None and nb is not None and (rounded_form(na, nb) or rounded_form(nb, na)) else []
    )


_TAIL_CHARS = 24
"""How far from its end an answer is searched for a unit or a constant of integration: those
patterns start at any space of a run, so a search over the whole answer would be quadratic."""


def _without_tail(s: str, tail_re: re.Pattern[str]) -> str:
    """``s`` without the match of ``tail_re`` (a pattern anchored at the end) that starts in its
    last :data:`_TAIL_CHARS` characters."""
    tail = tail_re.search(s, max(0, len(s) - _TAIL_CHARS))
    return s if tail is None else s[: tail.start()]


_UNIT_TAIL_RE = re.compile(
    r"(?<=[\d}\s])\s*(?:m|s|t|h|c|l|g|d|cm|mm|km|kg|gm|mg|ml|lt|dm|ft|hr|yr|lb|cc|mt|st|rd)\s*$"
)
"""A short unit at the end after a number, a brace or a space (``\\frac{1}{2}m``, ``\\sqrt{2} m``):
math-verify's normalisation drops these (its unit list), and reads only the value."""


def _equal_but_for_a_unit_letter(gold: str, pred: str, text_words: bool) -> bool:
    """Whether one answer is the other, a number without letters, with a short unit at its end."""
    if text_words:
        return False  # units in \\text{}: the certain path's own unit rules decided
    tg, tp = _without_tail(gold, _UNIT_TAIL_RE), _without_tail(pred, _UNIT_TAIL_RE)
    if (tg == gold) == (tp == pred) or not tg.strip() or not tp.strip():
        return False  # no unit, or one on each side
    bare = gold if tg == gold else pred
    if re.search(r"[A-Za-z]", COMMAND_RE.sub(" ", bare)):
        return False  # "2x" against "2x m": a letter may be a variable
    return compare_answers(tg, tp, text_words) is True


def _equal_but_for_a_spaced_unit(gold: str, pred: str) -> bool:
    """Whether one answer is a number without letters and the other the same number (by the
    numeric rule, the reference first), a space and a unit of the table in
    :mod:`rewards.physical_units` (``0.17 V``, ``12 N``, ``-120 m/(min^2)``): a unit the question's
    number leaves out. Credit only; a product with a variable is written without the space."""
    for bare, other in ((gold, pred), (pred, gold)):
        if re.search(r"[A-Za-z]", COMMAND_RE.sub(" ", bare)):
            continue
        number, with_unit = read_number(bare), spaced_unit_value(other)
        if number is not None and with_unit is not None:
            return nums_equal(number, with_unit) if bare is gold else nums_equal(with_unit, number)
    return False


_INTEGRATION_CONSTANT_RE = re.compile(r"\+\s*[Cc](?:_\{?[0-9]\}?)?\s*$")
"""A constant of integration that ends an antiderivative: ``+ C``, ``+c``, ``+ C_1``."""


def _equal_but_for_a_constant_of_integration(gold: str, pred: str, text_words: bool) -> bool:
    """Whether the prediction is the reference plus a constant of integration that the reference
    does not name (``12x + 6\\sinh(x) + C`` against ``6\\sinh(x) + 12x``): the general
    antiderivative of which the reference, a function, is one. Credit only, and not the other way:
    a reference with ``+ C`` asks for it."""
    rest = _without_tail(pred, _INTEGRATION_CONSTANT_RE)
    named = letters(gold)
    if rest == pred or text_words or not named or {"C", "c"} & named:
        return False  # a number has no antiderivative's constant: "5 + C" is no value
    return bool(rest.strip()) and compare_answers(gold, rest, text_words) is True


_UNIT_POWER_TAIL_RE = re.compile(r"(?<=[\d}\s])\s*(?:mm|cm|dm|km|m|ft|in)\s*\^\s*(?:[23]|\{\s*[23]\s*\})\s*$")
"""A unit of area or volume at the end after a number, a brace or a space (``4\\sqrt{3}cm^{2}``)."""


def _compared_without_a_unit_power(gold: str, pred: str, text_words: bool) -> bool | None:
    """The verdict on two answers where one is a value with a unit of area or volume at its end and
    neither has a letter but for that unit (``4\\sqrt{3}cm^{2}`` against ``4\\sqrt3``), or None:
    math-verify reads the unit as a product of letters (``4\\sqrt{3} c m^2``), so such a pair is
    decided here, on the values."""
    if text_words:
        return None  # units in \\text{}: the certain path's own unit rules decided
    tg, tp = _without_tail(gold, _UNIT_POWER_TAIL_RE), _without_tail(pred, _UNIT_POWER_TAIL_RE)
    if (tg == gold) == (tp == pred) or not tg.strip() or not tp.strip() or letters(tg) or letters(tp):
        return None  # no unit, one on each side, or a letter that may be a variable
    return compare_answers(tg, tp, text_words)


_PHRASE_HEAD_RE = re.compile(r"^\s*(?:final answer|the answer is|answer)\s*[:：]?\s*", re.IGNORECASE)


_ARTICLE_RE = re.compile(r"^\s*(?:the|an?)\s+(?=[A-Za-z]{3,})", re.IGNORECASE)
"""An article that opens a text answer ("The Nile", "an ellipse"): a word the answer can go without."""


SAME_TEXT_CHARS = 200
"""Texts longer than this are not compared as texts by :func:`same_text` (a short answer is)."""


_PLAIN_WORD_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")


def _words_of(s: str) -> set[str]:
    return {w.lower() for w in _PLAIN_WORD_RE.findall(s)}


def _same_key(a: str, b: str) -> bool:
    """Words in both, the same words, then :func:`text_key` and :func:`case_key` equal (normalised;
    a final period dropped)."""
    words = _words_of(a)
    if not words or words != _words_of(b):
        return False  # cheap: most pairs are numbers or differ in a word
    na, nb = normalize(a), normalize(b)
    ka, kb = text_key(na).rstrip("."), text_key(nb).rstrip(".")
    return ka == kb and len(ka) > 1 and case_key(na).rstrip(".") == case_key(nb).rstrip(".")


def same_text(gold: str, pred: str) -> bool:
    """Whether the two answers, with words in them, are the same text up to the case of words,
    spaces, math delimiters and a final period, either of them perhaps after "Final answer:" (or
    "Answer:", "The answer is"): credit only. The answer read from such a phrase is its math
    (``k \\ge 2``), which a reference written in words (``all integers k \\ge 2``) does not match,
    and math-verify finds no answer in a sentence at all."""
    if len(gold) > SAME_TEXT_CHARS or len(pred) > SAME_TEXT_CHARS:
        return False
    if _same_key(gold, pred):
        return True
    for text, other in ((pred, gold), (gold, pred)):
        head = _PHRASE_HEAD_RE.match(text)
        if head and _same_key(text[head.end() :], other):
            return True
        article = _ARTICLE_RE.match(text)
        if article and not _ARTICLE_RE.match(other) and _same_key(text[article.end() :], other):
            return True  # "The Nile." against "nile"
    return False


def _huge_factorials(ng: str, np_: str) -> bool | None:
    """A factorial too large to compute (:func:`rewards.const_eval.huge_factorial`: ``1000!``,
    ``(10^6)!``) against a constant the certain path can evaluate (different) or against another
    such factorial (equal when ``n`` is); ``ng``, ``np_``: the pair prepared."""
    fg, fp = huge_factorial(ng), huge_factorial(np_)
    if fg is None and fp is None:
        rg, rp = _reciprocal_of_huge_factorial(ng), _reciprocal_of_huge_factorial(np_)
        return rg == rp if rg is not None and rp is not None else None  # 1/2004! is not 1/2005!
    if fg is not None and fp is not None:
        return fg == fp
    return False if evaluate_exact(np_ if fp is None else ng) is not None else None


_RECIPROCAL_RE = re.compile(r"^(?:\\frac ?\{ ?1 ?\} ?\{(.+)\}|1 ?/ ?(.+))$")


def _reciprocal_of_huge_factorial(s: str) -> int | None:
    """``n`` when ``s`` is ``\\frac{1}{n!}`` or ``1/n!`` of a factorial too large to compute;
    math-verify compares two such values as floats, both 0, and called them equal."""
    m = _RECIPROCAL_RE.match(s)
    return None if m is None else huge_factorial((m.group(1) or m.group(2)).strip())


def _equal_in_radians(gold: str, pred: str, ng: str, np_: str, text_words: bool) -> bool:
    """Equal once every number in degrees is written in radians (:mod:`rewards.angles`):
    ``60^\\circ`` anywhere, or a reference's ``\\cos(60)`` (``ng``, ``np_``: the pair prepared)."""
    rg, rp = degrees_as_radians(gold), degrees_as_radians(pred)
    if rg is not gold or rp is not pred:
        ng, np_ = prepare_pair(rg, rp)
        return bool(ng and np_) and compare_answers(ng, np_, text_words) is True
    rg = reference_trig_in_degrees(ng)
    return rg is not None and compare_answers(rg, whole_trig_in_degrees(np_), text_words) is True


def _equal_as_real_roots(ng: str, np_: str, text_words: bool) -> bool:
    """Equal once every odd root of a negative number is its real root (:mod:`rewards.real_roots`;
    ``ng``, ``np_``: the pair prepared)."""
    rg, rp = odd_roots_as_real(ng), odd_roots_as_real(np_)
    return (rg is not ng or rp is not np_) and compare_answers(rg, rp, text_words) is True


def _every_box_differs(answer: str, text: str, answer_is_gold: bool, text_words: bool) -> bool:
    """``text`` has several boxes and ``answer`` provably differs from each of them and from the
    list of them all, whichever of those math-verify's extraction would take."""
    if text.count("\\boxed") + text.count("\\fbox") < 2:
        return False
    boxes = box_contents(text)
    if boxes is None or len(boxes) < 2:
        return False
    if len(set(boxes)) == 1:  # the same answer boxed twice
        boxes = boxes[:1]
    candidates = [*boxes, ", ".join(boxes)] if len(boxes) > 1 else boxes
    n_answer = normalize(answer)
    if (
        is_scalar(n_answer, read_value(n_answer))
        and compare_answers(normalize(boxes[0]), normalize(boxes[-1])) is False
    ):
        candidates.pop()  # a list with two different items is not one number
    for box in candidates:
        ng, np_ = prepare_pair(answer, box) if answer_is_gold else prepare_pair(box, answer)
        if not ng or not np_ or compare_answers(ng, np_, text_words) is not False:
            return False
    return True


_COPULA = r"(?:is|are|was|were)"
_COPULA_ANSWER_RE = re.compile(
    rf"^[A-Za-z][A-Za-z ',]{{0,80}}? {_COPULA}:? (?:the |a |an )?([A-Za-z][A-Za-z '\-]{{0,40}}?) ?[.!]?$",
    re.IGNORECASE,
)
"""A short sentence that ends by naming its answer: "the color is blue", "The winner was Alice."."""
_NEGATION_RE = re.compile(r"\b(?:not|no|never|neither|nor|none|cannot)\b|n't\b", re.IGNORECASE)
_COPULA_RE = re.compile(rf"\b{_COPULA}\b", re.IGNORECASE)
_MAX_WORD_ANSWER = 3  # words in a short-text answer


def _named_at_end(text: str) -> str | None:
    """The words a short sentence without negation names at its end after its one "is", "are",
    "was" or "were" (``the color is blue`` -> ``blue``; not ``the first is red and the second is
    blue``), or None."""
    s = normalize(text) if len(text) <= 160 else ""
    m = _COPULA_ANSWER_RE.match(s)
    if m is None or _NEGATION_RE.search(s) or len(_COPULA_RE.findall(s)) != 1:
        return None
    return m.group(1)


def _sentence_rules(gold: str, pred: str) -> bool | None:
    """Yes/no and short-text answers against a sentence (``No`` vs ``No, there is none.``,
    ``blue`` vs ``The color is blue.``: credit only, the sentence must end with the answer)."""
    for short, text in ((gold, pred), (pred, gold)):
        a = answer_of(short)
        word = None if a is None else normalize(a)
        letter = None if word is None else choice_letter(word)
        if letter is not None and (option := chosen_option(text, response=text is pred)) is not None:
            return letter == option
        yn = None if word is None else _YES_NO.get(text_key(word)) or _YES_NO_LETTERS.get(word)
        if yn is not None:
            got = _yes_no(normalize(tail(text)).lstrip("*# "))
            if got is not None:
                return got == yn
        if word and _PLAIN_TEXT_RE.match(word) and len(word.split()) <= _MAX_WORD_ANSWER:
            named = _named_at_end(text)
            if named is not None and text_key(named) == text_key(word):
                return True
        elif a is not None and (math := _math_named_at_end(text)) is not None:
            pair = (a, math) if short is gold else (math, a)
            if compare_answers(*prepare_pair(*pair)) is True:
                return True  # "[50, 100]" against "The interval ... is [50, 100].": credit only
    counted = _NUMBER_THEN_CLAUSE_RE.match(pred)
    if counted and read_value(gold) is not None and _counted_in_clause(gold, counted):
        return True  # "840" against "840 ways to select a committee of 2 men and 3 women": credit only
    a = answer_of(pred)
    if a is not None and listed_numbers_credit(gold, a):
        return True  # "Die Zahl ist 522, 552 oder 576." against "\\boxed{576, 522, 552}": credit only
    a = answer_of(gold)
    value = None if a is None else _math_named_at_end(last_sentence(pred))
    if a is not None and value is not None and compare_answers(*prepare_pair(a, value)) is True:
        return True  # "...\n\nTherefore, Adam's final score was 50 points.": credit only
    return None


def _counted_in_clause(gold: str, counted: re.Match[str]) -> bool:
    """Whether the number that opens a prediction (:data:`_NUMBER_THEN_CLAUSE_RE`) is the
    reference's, the words after it only name what is counted (not ``2 times 420``, ``5 squared``
    nor a scale word), and the clause takes nothing back (``but only 420 are valid``)."""
    return (
        _names_what_is_counted(counted.group(2))
        and not _HEDGED_CLAUSE_RE.search(counted.group(3))
        and compare_answers(*prepare_pair(gold, counted.group(1))) is True
    )


_END_TOKEN_RE = re.compile(r"(?:\s*(?:</s>|<\|endoftext\|>|<\|im_end\|>|<\|eot_id\|>|<eos>))+\s*$")
"""End-of-sequence tokens a log may keep after a response (``</s>``, ``<|im_end|>``)."""
_SENTENCE_START_RE = re.compile(r"(?:^|\n|(?<=[.!?])\s+)(?=[A-Z])")
LAST_SENTENCE_CHARS = 240
"""A response's conclusion is looked for in its last characters."""


def last_sentence(response: str) -> str:
    """The last sentence of a response's last line, without end-of-sequence tokens
    (``... = 50 points.\n\nTherefore, Adam's final score was 50 points.</s>`` -> ``Therefore, Adam's
    final score was 50 points.``); a sentence starts at a capital letter after a line break or
    after ``.``, ``!``, ``?`` and a space (``0.5`` is no break)."""
    end = response[-LAST_SENTENCE_CHARS:]
    end = _END_TOKEN_RE.sub("", end.rstrip()) if "<" in end else end.rstrip()
    starts = [m.start() for m in _SENTENCE_START_RE.finditer(end)]
    return end[starts[-1] :].strip() if starts else ""


_MATH_AT_END_RE = re.compile(
    rf"^[A-Za-z](?:[^\n.$]|\.\d){{0,160}}? {_COPULA}:? ((?:[-+(\[{{\\\u2212\u2013\u00b1\u221a\u03c0\u221e]|\d)[^\n$]{{0,80}}?)\s*[.!]?$",
    re.IGNORECASE,
)
"""A one-sentence text that ends by naming a value after its verb ("The interval where the curve
is highest is [50, 100].", "The value at t=50 is 1.5e3.")."""
_WORD_RE = re.compile(r"[A-Za-z]{2,}")


def _math_named_at_end(text: str) -> str | None:
    """The value a short sentence without negation names at its end after its one "is", "are",
    "was" or "were", when that value is maths (no word of two letters or more outside LaTeX
    commands: ``[50, 100]``, ``\\frac{1}{2}``, ``2x``; not ``1/2 of the total``), or None."""
    m = _MATH_AT_END_RE.match(text) if len(text) <= 240 else None
    if m is None or _NEGATION_RE.search(text) or len(_COPULA_RE.findall(text)) != 1:
        return None
    value = m.group(1).strip()
    if _NUMBER_OF_THINGS_RE.match(value):
        return value  # "50 points": a number of things, compared as the number
    return None if _WORD_RE.search(COMMAND_RE.sub(" ", value)) else value
