"""Child process that compares two answers with math-verify (``python -m rewards._symbolic_worker``).

The parent (:mod:`rewards.bounded`) talks to it over stdin/stdout, one JSON object per line:
request ``{"gold": str, "pred": str}``, reply ``{"eq": bool}`` or ``{"error": str}``. The parent
enforces the wall-clock bound by killing this process; nothing here uses ``signal``.

Each side is parsed the way math-verify's own test-suite and RL recipes do it: ``parse(text,
[LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()])``, so a sentence, a
solution with ``\\boxed{}`` or ``$...$`` and a bare number all work. When that finds nothing (a bare
LaTeX answer such as ``\\pi`` outside math mode) the text is parsed again wrapped in ``$...$``.
Then ``verify(gold, pred)``. math-verify's expression extraction hands sympy's ``parse_expr`` only
what its regex admits (digits, ``.``, spaces and ``+ - * × / ^ ( ) ÷``): no names, so no code.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def _load() -> tuple[Any, Any, Any]:
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    config = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]
    return config, parse, verify


_parsed: dict[str, list[Any]] = {}


def _parse(text: str, tools: tuple[Any, Any, Any]) -> list[Any]:
    """Parsed once per text: GRPO scores many responses against the same reference."""
    got = _parsed.get(text)
    if got is None:
        got = _parse_uncached(text, tools)
        if len(_parsed) >= 512:
            _parsed.pop(next(iter(_parsed)))
        _parsed[text] = got
    return got


def _parse_uncached(text: str, tools: tuple[Any, Any, Any]) -> list[Any]:
    config, parse, _verify = tools
    got = parse(text, extraction_config=config, parsing_timeout=None)
    if not got and "$" not in text and "\\(" not in text and "\\[" not in text:
        got = parse(f"${text}$", extraction_config=config, parsing_timeout=None)
    return list(got)


def compare(gold: str, pred: str, tools: tuple[Any, Any, Any]) -> bool:
    gold_parsed = _parse(gold, tools)
    pred_parsed = _parse(pred, tools)
    if not gold_parsed or not pred_parsed:
        return False
    return bool(tools[2](gold_parsed, pred_parsed, timeout_seconds=None))


def main() -> int:
    # Replies go to a private copy of stdout; anything a library prints goes to stderr.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    import logging

    logging.disable(logging.WARNING)  # math-verify warns that its own timeout is off: we bound it
    tools = _load()
    compare("$x^2+\\frac{1}{2}$", "\\boxed{\\frac{2x^2+1}{2}}", tools)  # build the parser now
    out.write('{"ready": true}\n')
    out.flush()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            reply: dict[str, Any] = {"eq": compare(str(request["gold"]), str(request["pred"]), tools)}
        except Exception as exc:  # a comparison that fails is "not equal", never a crash
            reply = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
