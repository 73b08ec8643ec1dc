"""Child process that compares two answers symbolically (run as ``python -m rewards._symbolic_worker``).

The parent (:mod:`rewards.bounded`) talks to it over stdin/stdout, one JSON object per line:
request ``{"gold": str, "pred": str}``, reply ``{"eq": bool}`` or ``{"error": str}``.
The parent enforces the wall-clock bound by killing this process; nothing here uses
``signal``. Parsing uses math-verify's LaTeX extraction only (latex2sympy2_extended, a real
LaTeX parser); its ``ExprExtractionConfig`` is not used because it goes through sympy's
``parse_expr``, which evaluates the text.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def _load() -> tuple[Any, Any, Any]:
    from math_verify import LatexExtractionConfig, parse, verify

    return LatexExtractionConfig, parse, verify


def _compare(gold: str, pred: str, tools: tuple[Any, Any, Any]) -> bool:
    latex_config_cls, parse, verify = tools
    config = [latex_config_cls(boxed_match_priority=0)]
    gold_parsed = parse(f"${gold}$", extraction_config=config, parsing_timeout=None)
    pred_parsed = parse(f"${pred}$", extraction_config=config, parsing_timeout=None)
    if not gold_parsed or not pred_parsed:
        return False
    return bool(verify(gold_parsed, pred_parsed, timeout_seconds=None))


def main() -> int:
    # Replies go to a private copy of stdout; anything a library prints goes to stderr.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    tools = _load()
    _compare("x^2+\\frac{1}{2}", "\\frac{2x^2+1}{2}", tools)  # build the parser now, not on the first request
    out.write('{"ready": true}\n')
    out.flush()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            reply: dict[str, Any] = {"eq": _compare(str(request["gold"]), str(request["pred"]), tools)}
        except Exception as exc:  # a comparison that fails is "not equivalent", never a crash
            reply = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
