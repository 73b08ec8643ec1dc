"""Final-answer extraction from model text, in bounded linear time.

Every scan here is either a plain ``str`` search or a regex without nested or adjacent ambiguous
quantifiers, and it looks only at the last :data:`SCAN_CHARS` characters of a response (a final
answer is at its end): a 100k-character adversarial response costs what a short one does.
"""

from __future__ import annotations

import json
import re

SCAN_CHARS = 16_000
"""Only this many trailing characters of a response are searched for its final answer."""

THINK_CLOSE = "</think>"
ANSWER_OPEN, ANSWER_CLOSE = "<answer>", "</answer>"
"""The answer tags of R1-Zero-style templates (``<think>...</think> <answer>...</answer>``)."""
_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![a-zA-Z])")
_MAX_BOXED = 8
_MAX_BRACED = 4_000
_LIST_GLUE_RE = re.compile(
    r"^(?:\s|\$|,|;|\\[()\[\]]|\\q?quad|\\text\{ ?(?:and|or) ?\}|\band\b|\bor\b|\\[,;! ]|\b[a-zA-Z]_?\d? ?=)*$"
)
_WORDY_GLUE_RE = re.compile(r"^[ ,]*[A-Za-z]{1,12}(?: [A-Za-z]{1,12})?,? (?:and|or) ?$")
CHINESE_ANSWER_MARKS = ("【答案】", "答案：", "答案:")
"""Chinese marks of a final answer, as GAOKAO-Bench's template writes them (``【答案】14π<eoa>``):
answer phrases here, and anchors for the certain path."""
FOREIGN_ANSWER_PHRASES = (
    "答案是",  # Chinese
    "die antwort ist",  # German
    "die antwort lautet",
    "antwort:",
    "la respuesta es",  # Spanish
    "respuesta:",
    "la réponse est",  # French
    "réponse :",
    "réponse:",
    "a resposta é",  # Portuguese
    "la risposta è",  # Italian
    "ответ:",  # Russian
    "ответ —",
    "答えは",  # Japanese
    "정답은",  # Korean
    "답은",
    "คำตอบคือ",  # Thai
    "jibu ni",  # Swahili
    "উত্তর হল",  # Bengali
    "উত্তর",
    "సమాధానం",  # Telugu
    "உத்தரம்",  # Tamil
    "பதில்:",
    "ಉತ್ತರ",  # Kannada
    "उत्तर है",  # Hindi, Marathi
    "उत्तर:",
    "الإجابة هي",  # Arabic
    "الجواب هو",
    "پاسخ:",  # Persian
    "jibu:",  # Swahili
    "jawaban:",  # Indonesian
    "câu trả lời là",  # Vietnamese
    "đáp án:",
    "jawabannya adalah",  # Indonesian
    "cevap:",  # Turkish
)
"""The phrase "the answer is" in the languages of MGSM and other multilingual sets (lower case)."""
_PHRASES = (
    "final answer",
    "the answer is",
    "answer:",
    "answer =",
    "answer=",
    *CHINESE_ANSWER_MARKS,
    *FOREIGN_ANSWER_PHRASES,
)
"""Answer phrases (``答案是``, "the answer is", is a phrase but no anchor: it also opens prose)."""
_END_OF_ANSWER = ("<eoa>", "<eoe>", "です", "でした", "입니다", "।", "॥")
"""Where an answer ends: GAOKAO-Bench's end-of-answer tokens, the Japanese and Korean copulas
after an answer phrase (``答えは 3 です。``), the danda that ends a sentence in Bengali and Hindi
(``উত্তর 6।``)."""
_SENTENCE_END_RE = re.compile(r"[.;]\s|\.$|!(?:\s|$)|,\s+(?:which|so|because|since|and|as)\b")
"""Where a sentence ends after an answer phrase. Outside math mode a "!" there is punctuation
("The answer is 5!"), never a factorial."""
_PHRASE_LEAD_RE = re.compile(r"^[A-Za-z ,:;\-]*$")
_LATER_VALUE_RE = re.compile(r"[\d$]")


_CLOSING = {"{": "}", "(": ")"}


def braced(text: str, start: int, limit: int = _MAX_BRACED) -> tuple[str, int] | None:
    """Content of the group opening at ``text[start]`` (``{`` or ``(``) and the index after it;
    escaped characters (``\\{``, ``\\(``) do not count."""
    opening = text[start]
    closing = _CLOSING[opening]
    depth = 0
    i = start
    n = min(len(text), start + limit)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            i += 2
            continue
        if c == opening:
            depth += 1
        elif c == closing:
            depth -= 1
            if depth == 0:
                return text[start + 1 : i], i + 1
        i += 1
    return None


def _boxed_items(text: str) -> list[tuple[int, int, str]]:
    """(start, end, content) of the last few well-formed ``\\boxed``/``\\fbox`` groups, in order."""
    found: list[tuple[int, int, str]] = []
    pos = len(text)
    for _ in range(2 * _MAX_BOXED):
        if len(found) >= _MAX_BOXED:
            break
        a = text.rfind("\\boxed", 0, pos)
        b = text.rfind("\\fbox", 0, pos)
        start = max(a, b)
        if start < 0:
            break
        pos = start
        m = _BOX_RE.match(text, start)
        if m is None:
            continue
        j = m.end()
        while j < len(text) and text[j] in " \t":
            j += 1
        if j < len(text) and text[j] == "{":
            got = braced(text, j)
            if got is not None and got[0].strip():
                found.append((start, got[1], got[0].strip()))
        elif j > m.end():  # "\boxed 5": one token up to whitespace or '$'
            end = j
            while end < len(text) and end - j < 200 and not text[end].isspace() and text[end] != "$":
                end += 1
            if end > j:
                found.append((start, end, text[j:end]))
    found.reverse()
    return found


def box_contents(text: str) -> list[str] | None:
    """Every ``\\boxed``/``\\fbox`` content at the end of ``text`` (after the last ``</think>``),
    in order; None when there may be more than the :data:`_MAX_BOXED` scanned."""
    items = _boxed_items(tail(text))
    return None if len(items) >= _MAX_BOXED else [content for _, _, content in items]


def boxed_answer(text: str) -> str | None:
    """The last ``\\boxed{}``; several boxes joined only by separators form one list ``a, b``."""
    items = _boxed_items(text)
    if not items:
        return None
    answer = [items[-1]]
    for item in reversed(items[:-1]):
        if item[1] > answer[0][0]:
            break  # a box around the later one (\boxed{\[\boxed{x}\]}): the inner answer stands
        glue = text[item[1] : answer[0][0]]
        if len(glue) <= 60 and (_LIST_GLUE_RE.match(glue) or _WORDY_GLUE_RE.match(glue)):
            answer.insert(0, item)
        else:
            break
    return ", ".join(content for _, _, content in answer)


def _clean_phrase(ans: str) -> str:
    """The answer part of an "answer is ..." capture (up to the end of its math or sentence)."""
    ans = ans.replace("\\$", " ").strip().lstrip(":：").strip()  # "\$18": a dollar sign, not math mode
    # (a space: "0\$42" is two numbers, not 042)
    if not ans.startswith("$"):
        m = _SENTENCE_END_RE.search(ans)
        if m and "$" not in ans[: m.start()]:
            ans = ans[: m.start()]
    if ans.startswith("$"):
        body = ans.lstrip("$")
        end = body.find("$")
        ans = body[:end] if end >= 0 else body
    elif "$" in ans:
        before, _, after = ans.partition("$")
        if _PHRASE_LEAD_RE.match(before):  # "of $6+1=7$": the first math segment
            end = after.find("$")
            ans = after[:end] if end >= 0 else after
            rest = after[end + 1 :] if end >= 0 else ""
            cut = _SENTENCE_END_RE.search(rest)
            if _LATER_VALUE_RE.search(rest[: cut.start()] if cut else rest):
                return ""  # "the largest $n$ is 34": the math names a quantity; a value follows
        else:  # "r=\frac{\pi}{2}$, which ...": the capture began inside math mode
            ans = before
    ans = ans.strip()
    while ans.endswith((".", "。")):
        ans = ans[:-1].rstrip()
    return ans


ANSWER_TAGS = ((ANSWER_OPEN, ANSWER_CLOSE), ("<final>", "</final>"), ("<final_answer>", "</final_answer>"))
"""The tags a response may put its answer in: ``<answer>`` (R1-style prompts), ``<final>``,
``<final_answer>``."""


def answer_tag(text: str) -> tuple[str, str] | None:
    """The (opening, closing) answer tag that closes last in ``text``, or None."""
    ends = [(text.rfind(close), (open_, close)) for open_, close in ANSWER_TAGS]
    end, tag = max(ends)
    return tag if end >= 0 else None


def tag_answer(text: str) -> str | None:
    """The content of the last ``<answer>...</answer>`` (or ``<final>``, ``<final_answer>``: an
    "answer is ..." phrase inside it cut to its answer), or None. Plain ``rfind``: linear however
    many tags the text has."""
    tag = answer_tag(text)
    if tag is None:
        return None
    open_, close = tag
    end = text.rfind(close)
    start = text.rfind(open_, 0, end)
    if start < 0:
        return None
    content = text[start + len(open_) : end].strip()
    if not content:
        return None
    return _phrase_answer(content) or content


def _hash_answer(text: str) -> str | None:
    at = text.rfind("####")
    if at < 0:
        return None
    line = text[at + 4 :].split("\n", 1)[0].strip()
    number = _HASH_NUMBER_THEN_WORDS_RE.match(line)
    if number and not _MIXED_UNITS_RE.match(line):
        return number.group(1)  # "#### 23 pounds of stuffing for 4 beds": GSM8K's number
    return _clean_phrase(line[:500]) or None


_HASH_NUMBER_THEN_WORDS_RE = re.compile(
    r"(\$?-?\d[\d,]*(?:\.\d+)?)[ \t]+(?!(?:percent|pct)\b)[A-Za-z][A-Za-z'-]+(?:[ \t]+[^\s=+*/^<>]+){2}"
)
"""A ``####`` line that is a number, then a sentence (``23 pounds of stuffing to make 4 beds``):
GSM8K's answer is the number; a number with one unit word (``23 pounds``) is read as before."""
_MIXED_UNITS_RE = re.compile(r"\S+[ \t]+[A-Za-z]+,?[ \t]+(?:and[ \t]+)?\d")
"""``3 hours and 20 minutes``, ``5 feet 3 inches``: one quantity in two units, not a number."""


def _phrase_answer(text: str) -> str | None:
    low = text.lower()
    best = -1
    best_len = 0
    for phrase in _PHRASES:
        at = low.rfind(phrase)
        if at > best:
            best, best_len = at, len(phrase)
    for key in ('"answer', '"final_answer'):  # {"reasoning": "...", "answer": "22"}: the JSON value
        at = low.rfind(key)
        if at >= 0 and at >= best - 1:
            value = _json_value(text, at + len(key))
            if value is not None:
                return value
    if best < 0:
        return None
    rest = text[best + best_len :]
    rest = rest.lstrip(" \t")
    if rest[:2].lower() in ("is", "wa"):  # "final answer is/was"
        rest = rest[3:] if rest[:3].lower() == "was" else rest[2:]
    line = rest.split("\n", 1)[0]
    if not line.strip():  # "Final answer:\n$...$": the next line
        parts = rest.strip().split("\n", 1)
        line = parts[0] if parts else ""
    for token in _END_OF_ANSWER:
        line = line.split(token, 1)[0]
    ans = _clean_phrase(line[:500])
    return ans or None


_JSON_VALUE_RE = re.compile(
    r'"\s*:\s*(?:"((?:[^"\\\n]|\\.){0,500})"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*[,}\n])'
)
"""After an ``"answer`` key: its JSON string (escapes kept for :func:`json.loads`) or number."""


def _json_value(text: str, key_end: int) -> str | None:
    """The value of the JSON key that ends at ``key_end`` (``"answer": "\\frac{1}{2}"`` ->
    ``\frac{1}{2}``; ``"answer": 42,`` -> ``42``), or None when it is not a string or number."""
    m = _JSON_VALUE_RE.match(text, key_end)
    if m is None:
        return None
    if m.group(2) is not None:
        return m.group(2)
    try:
        value = json.loads(f'"{m.group(1)}"')
    except ValueError:
        return None
    return value.strip() or None


_JSON_END_RE = re.compile(r'[\s"}`]*$')


def json_answer_at_end(text: str) -> str | None:
    """The value of a JSON ``"answer"`` (or ``"final_answer"``) key that ends the text (only
    closing quotes, braces, backticks and spaces after it: ``{"reasoning": "...", "answer": 22}``),
    or None. Such a response states its answer as plainly as a box does."""
    end = text[-SCAN_CHARS:]
    low = end.lower()
    at = max(low.rfind('"answer"'), low.rfind('"final_answer"'))
    if at < 0:
        return None
    key_end = at + (len('"answer') if low.startswith('"answer"', at) else len('"final_answer'))
    m = _JSON_VALUE_RE.match(end, key_end)
    if m is None or not _JSON_END_RE.match(end, m.end() if m.group(2) is None else m.end(2)):
        return None
    return _json_value(end, key_end)


_BLANKS_RE = re.compile(r"[ \t]{2,}")
_NEWLINES_RE = re.compile(r"\n(?:[ \t]*\n)+")
VERIFY_CHARS = 4_000
"""How much of a response's end math-verify sees (its extraction regexes are not linear)."""


_ESCAPED_CURRENCY_RE = re.compile(r"(?<![\d\\])\\\$(?= ?\d)")
"""A currency sign written ``\\$`` before a number, not after a digit (``0\\$42`` is two numbers)."""


def verify_text(text: str) -> str:
    """The end of a response for math-verify: whitespace runs squeezed, at most VERIFY_CHARS, a
    currency sign written ``\\$`` before a number dropped (``The total cost is \\$18.90.``: math-verify reads
    nothing in it, and 18.90 without it)."""
    text = _ESCAPED_CURRENCY_RE.sub("", tail(text))
    text = _NEWLINES_RE.sub("\n\n", _BLANKS_RE.sub(" ", text))
    return text[-VERIFY_CHARS:]


def tail(text: str) -> str:
    """The part of a response that can hold its final answer (after ``</think>``, bounded). When
    the part after ``</think>`` gives no answer (no box, tag, ``####`` line or answer phrase: a
    summary cut off by the length limit) and the thinking boxed one, from that last box on
    (``**Final Answer** \\boxed{33} </think> Given the system...``), as math-verify and graders
    that read the whole response find it."""
    text = text[-4 * SCAN_CHARS :]
    cut = text.rfind(THINK_CLOSE)
    if cut >= 0:
        after = text[cut + len(THINK_CLOSE) :]
        box = max(text.rfind("\\boxed", 0, cut), text.rfind("\\fbox", 0, cut))
        text = text[box:] if box >= 0 and _gives_no_answer(after[-SCAN_CHARS:]) else after
    return text[-SCAN_CHARS:]


def _gives_no_answer(text: str) -> bool:
    return (
        "\\boxed" not in text
        and "\\fbox" not in text
        and tag_answer(text) is None
        and _hash_answer(text) is None
        and _phrase_answer(text) is None
    )


def extract_with_source(text: str) -> tuple[str | None, str]:
    """:func:`extract_answer` and where it came from: ``boxed``, ``tag``, ``hash``, ``phrase`` or ``""``."""
    if not isinstance(text, str) or not text:
        return None, ""
    text = tail(text)
    boxed = boxed_answer(text)
    if boxed is not None:
        last_box = max(text.rfind("\\boxed"), text.rfind("\\fbox"))
        phrase_at = text.lower().rfind("final answer")
        if phrase_at > last_box:  # "... \boxed{255} ... Final Answer: the final answer is $10,455$"
            later = _phrase_answer(text[phrase_at:])
            if later is not None:
                return later, "phrase"
        if ANSWER_CLOSE in boxed:  # \boxed{<answer>84</answer>}
            boxed = tag_answer(boxed) or boxed
        return boxed, "boxed"
    got = tag_answer(text)
    if got is not None:
        return got, "tag"
    got = _hash_answer(text)
    if got is not None:
        return got, "hash"
    got = _phrase_answer(text)
    return (got, "phrase") if got is not None else (None, "")


def extract_answer(text: str) -> str | None:
    """The final answer of a solution, or None.

    Looks only at the end of the text after the last ``</think>`` (from the thinking's last box on
    when nothing after ``</think>`` answers: :func:`tail`). Order: the last ``\\boxed{...}``
    (nested braces, ``\\boxed x``, ``\\fbox``; boxes joined by commas/"and" are one list) unless a
    "final answer ..." phrase follows it, else the last ``<answer>...</answer>``, else the last
    ``#### N`` line, else a JSON ``"answer"`` key's value or the last "final answer ..." / "the
    answer is ..." phrase (in the languages of :data:`FOREIGN_ANSWER_PHRASES` too), whichever is later.
    """
    return extract_with_source(text)[0]
