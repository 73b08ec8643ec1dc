"""Multiple-choice answers: an option letter against a letter, the option with its text or value,
a response that opens with the option it chose, or an answer without that letter.

``B`` = ``(B)`` = ``b`` = ``B. Carl has a winning strategy.`` = ``**D) no horizontal asymptotes**``
(for ``D``) = ``The correct answer is (C) III and IV`` (for ``C``) = ``B(6)``; a reference
``C. x = 42`` (the option and its text) against ``C``. A one-letter option against an answer that
holds that letter nowhere (``B`` against ``x = \\pm 2``) is refused: read as maths the letter is a
symbol, and an expression without it never equals it. The letter ``e`` is left out (Euler's
number, nor ``i``). Options run from A to J (MMLU-Pro has ten; lower case only a to e, as ``f``,
``g`` and ``h`` name functions). The option's *value* against a letter (``-12`` for ``B``) needs the question's options:
no verdict here. A response also chooses in its conclusion (``故选：D．``, ``综上，选C。``, ``the correct
option is $A$``, ``The answer is (J).``, ``I choose B``, ``Option B is correct``:
:func:`concluding_choice`) or on a first line of its own (``D\n【分析】...``). Against a reference
that is a letter, the option a conclusion states decides, also after a boxed value (MMLU-Pro's
responses box the value, then name the option) and over the options a response lists first.
"""

from __future__ import annotations

import re

from rewards.extract import extract_answer

_CHOICE_RE = re.compile(r"^(?:\*\*(?=.*\*\*$))?\(?\s?([A-Ja-e])\s?\)?[.:]?(?:\*\*)?$")
_CHOICE_WITH_TEXT_RE = re.compile(r"^(?:\(([A-Ja-e])\)|([A-J])[.:)])\s\S")
_CHOICE_WITH_VALUE_RE = re.compile(r"^([A-J])\s?\([^()]{1,40}\)$")
"""An option letter with the option's value in parentheses (``B(6)``, ``B\\text{（6）}``)."""
_OPTION_SENTENCE_RE = re.compile(
    r"^[\s*#]*(?:(?:the\s+)?(?:correct\s+|final\s+)?(?:answer|option|choice)(?:\s+is)?\s*:?\s*)?\**"
    r"(?:\(([A-J])\)|([A-J])[.:)])\s+\S",
    re.IGNORECASE,
)
"""A response that opens with the option it chose and that option's text (``B. Carl has a winning
strategy.``, ``**D) no horizontal asymptotes**``, ``The correct answer is (C) III and IV``)."""
_LONE_OPTION_LINE_RE = re.compile(r"^\s{0,4}(?:\(([A-J])\)|([A-J]))\s{0,4}\n")
"""A response whose first line is the option it chose (``D\\n【分析】...``, a Chinese key's form)."""


def choice_letter(answer: str) -> str | None:
    """The option letter an answer is (``B``, ``(b)``), in upper case, or None."""
    m = _CHOICE_RE.match(answer)
    return None if m is None else m.group(1).upper()


def choices_decide(gold: str, pred: str) -> bool | None:
    """Two normalised answers of which one is an option letter: the verdict, or None."""
    if (letter := choice_letter(gold)) is not None:
        mp = _CHOICE_RE.match(pred) or _CHOICE_WITH_TEXT_RE.match(pred) or _CHOICE_WITH_VALUE_RE.match(pred)
        if mp:
            return letter == (mp.group(1) or mp.group(2)).upper()
        if (option := concluding_choice(pred)) is not None:
            return letter == option  # a short response "...，故选：D．"
        return False if _letter_absent(letter, pred) else None
    if (letter := choice_letter(pred)) is not None:  # a reference "C. x = 42" against "C"
        mg = _CHOICE_WITH_TEXT_RE.match(gold)
        if mg:
            return (mg.group(1) or mg.group(2)).upper() == letter
        return False if _letter_absent(letter, gold) else None
    return None


_OPTION = r"\$?\s?(?:\\text\{\s?|\\mathrm\{\s?|\\rm\s?)?[A-H](?![A-Za-z])"
_LETTER = (
    r"\$?\s?(?:\\text\{\s?|\\mathrm\{\s?|\\rm\s?)?([A-H])(?![A-Za-z_^]|\s?=|\}?\$?\s?(?:和|与|、|或|,|，|\sand\s|\sor\s)"
    + _OPTION
    + ")"
)
"""An option letter that is not a name (``B = 5``) nor the first of several (``C和D``)."""
_ANOTHER_OPTION_LINE_RE = re.compile(r"\n[\s*#]*\(?([A-H])[.．、:)]")
_CHINESE_CHOICE_RE = re.compile(
    r"(?:[故应即，,。：:\s]|所以|因此|综上|最终)选(?:择)?[\s：:]{0,4}"
    + _LETTER
    + r"|答案(?:是|为|选|应选)[\s：:]{0,4}(?:选项)?[\s：:]{0,2}"
    + _LETTER
    + r"|(?:正确|对应)(?:的)?(?:选项|答案)?(?:是|为)?[\s：:]{0,4}(?:选项)?[\s：:]{0,2}"
    + _LETTER
    + r"|选项[\s：:]{0,2}"
    + _LETTER
    + r"\$?\s?(?:是|为)?(?:正确|对)"
)
"""How a response's conclusion states the option it chose (``故选：D．``, ``综上，选C。``, ``答案是 B.
$3\\sqrt{3}\\pi$``, ``选项D是正确的``, ``正确答案是选项B``, ``对应选项B``), not an option it rules out
(``排除选项A和D``, ``故A项不对``)."""
_SEVERAL = r"\s?(?:,|/|\sand\s|\sor\s)\s?\(?[A-J]\)?(?![A-Za-z])"
"""After an option letter, another one: the first of several (``A, B, C, D, or E``; ``(A) or (B)``)."""
_EN_LETTER = (
    r"(?:\(\s?([A-Ja-j])\s?\)(?!" + _SEVERAL + r")"
    r"|(?:\$|\\\()?\s?(?:\\text(?:bf)?\{\s?|\\mathrm\{\s?)?([A-H])\}?(?:\$|\s?\\\))?(?![A-Za-z_^]|\s?=|"
    + _SEVERAL
    + r")"
    r"|([IJ])(?=[.!)]?\s*$|[.!,;]\s)"
    r"|([a-e])(?=[.!]?\s*$))"
)
"""An option letter after an English choice phrase: in parentheses (any of ``(A)`` to ``(J)``, also
in lower case), bare ``A`` to ``H`` not as a name (``B = 5``) nor the first of several, ``I`` or
``J`` (a pronoun or a numeral otherwise) and lower-case ``a`` to ``e`` (an article otherwise) only
where a sentence ends."""
_EN_CHOICE_RE = re.compile(
    r"(?i:(?<![A-Za-z])(?:(?:(?:correct|right|final|best)\s)?(?:answer|option|choice)\s(?:is|would\sbe|should\sbe)"
    r"|answer\s?[:：\-–]|(?:choose|chose|pick|select|prefer|go\swith))"
    r"\s?:?\s?(?:option\s|choice\s)?)"
    + _EN_LETTER
    + r"|(?i:(?<![A-Za-z])(?:therefore|thus|hence|so)\s?[:,]?\s?)"
    + _EN_LETTER
    + r"(?=\s?[.!]?\s*$)"
)
"""How an English conclusion states the option it chose: ``The answer is (J).``, ``the best answer
is: ( C )``, ``Answer: (D) 24``, ``Answer - b``, ``I choose A``; ``Therefore: B`` at the end."""
_EN_CORRECT_OPTION_RE = re.compile(
    r"(?<![A-Za-z'’])(?i:(?:option|choice)\s)?"
    + _EN_LETTER
    + r"(?i:\s(?:is|would\sbe)\s(?:the\s)?(?:correct|right|best))(?![A-Za-z])"
    r"|^\s*(?i:option|choice)\s" + _EN_LETTER + r"\s*\.?\s*$"
)
"""An option a conclusion calls correct (``B is correct``, ``Option B is the best``) or names alone
(``Option B``): read only where no choice phrase is."""
_CONCLUSION_CHARS = 400
"""A choice statement is looked for only in a response's last characters (its conclusion)."""


def chosen_option(text: str, response: bool = True) -> str | None:
    """The option letter a response opens with, or that its answer phrase gives with the option's
    text (``Therefore, the answer is (a) Baire category theorem.``), in upper case; or None. Of a
    ``response`` also the option its first line is alone (``D\\n【分析】...``) or its conclusion
    states (the last of :data:`_CHINESE_CHOICE_RE` or :data:`_EN_CHOICE_RE`; ``故选：D．``); a reference's reasoning after
    its letter is left to math-verify (CHOICE, docs/rewards.md)."""
    m = _OPTION_SENTENCE_RE.match(text) or (_LONE_OPTION_LINE_RE.match(text) if response else None)
    if m is None:
        phrase = extract_answer(text)
        m = None if phrase is None else _OPTION_SENTENCE_RE.match(phrase)
    if m is not None:
        return (m.group(1) or m.group(2)).upper()
    return concluding_choice(text) if response else None


def concluding_choice(text: str) -> str | None:
    """The option letter the last choice statement in ``text``'s conclusion gives, or None."""
    tail = text[-_CONCLUSION_CHARS:]
    stated = [*_CHINESE_CHOICE_RE.finditer(tail), *_EN_CHOICE_RE.finditer(tail)]
    matches = stated or list(_EN_CORRECT_OPTION_RE.finditer(tail))
    last = max(matches, key=lambda m: m.start(), default=None)
    if last is None:
        return None
    letter = next(g for g in last.groups() if g).upper()
    others = {m.group(1) for m in _ANOTHER_OPTION_LINE_RE.finditer(tail, last.end())} - {letter}
    return None if others else letter  # "正确答案是：\nC. ...\nD. ...": two options


def _letter_absent(letter: str, other: str) -> bool:
    """Whether a one-letter answer (not ``e``, Euler's number, nor ``i``, the imaginary unit) cannot
    equal ``other``: ``other`` holds that letter nowhere, in either case, not even inside a command
    name."""
    return letter not in "eEiI" and letter.lower() not in other.lower()
