"""Prompt templates: a problem text -> a verl chat prompt ``[{"role", "content"}, ...]``.

Built-ins (``--prompt-template NAME``):

- ``gsm8k``: one user message asking for step-by-step reasoning and the final number after
  ``####`` (what ``rewards``' GSM8K scorer reads).
- ``phi4-reasoning``: a system message asking for the reasoning inside ``<think>...</think>``
  and the final answer in ``\\boxed{}`` after it; the problem is the user message.
- ``boxed``: one user message asking for the final answer in ``\\boxed{}`` (no system message).
- ``plain``: the problem text alone.

A template file (``--prompt-template FILE``) is JSON ``{"system": "...", "user": "...{question}..."}``
(``system`` optional), or any other text file whose whole content is the user message. The
placeholder ``{question}`` is replaced literally (braces elsewhere, e.g. LaTeX, are left alone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

PLACEHOLDER = "{question}"


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    user: str
    system: str | None = None

    def render(self, question: str) -> list[dict[str, str]]:
        messages = []
        if self.system:
            messages.append({"role": "system", "content": self.system})
        messages.append({"role": "user", "content": self.user.replace(PLACEHOLDER, question)})
        return messages

    def describe(self) -> dict[str, str | None]:
        return {"name": self.name, "system": self.system, "user": self.user}


BUILTIN: dict[str, PromptTemplate] = {
    "gsm8k": PromptTemplate(
        name="gsm8k",
        user=(
            PLACEHOLDER + "\n\nSolve this step by step. When you are done, write the final numeric answer "
            'on its own line after "####", for example: #### 42'
        ),
    ),
    "phi4-reasoning": PromptTemplate(
        name="phi4-reasoning",
        system=(
            "You are a careful problem solver. Before answering, think the problem through in detail "
            "inside <think> and </think> tags: explore approaches, check your steps, and correct mistakes. "
            "After </think>, give a short, clear solution and state the final answer inside \\boxed{}."
        ),
        user=PLACEHOLDER,
    ),
    "boxed": PromptTemplate(
        name="boxed",
        user=PLACEHOLDER + "\n\nReason step by step and give your final answer inside \\boxed{}.",
    ),
    "plain": PromptTemplate(name="plain", user=PLACEHOLDER),
}

DEFAULT_FOR_SOURCE = {
    "gsm8k": "gsm8k",
    "omni-math": "phi4-reasoning",
    "custom": "boxed",
    "synthetic": "gsm8k",
}


class TemplateError(ValueError):
    pass


def load_template(spec: str) -> PromptTemplate:
    """A built-in name or a template file (see the module docstring)."""
    if spec in BUILTIN:
        return BUILTIN[spec]
    path = Path(spec)
    if not path.is_file():
        raise TemplateError(
            f"--prompt-template {spec!r}: not a built-in ({', '.join(sorted(BUILTIN))}) and no such file"
        )
    text = path.read_text(encoding="utf-8")
    system: str | None = None
    user = text
    if path.suffix.lower() == ".json":
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TemplateError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
        if not isinstance(obj, dict) or not isinstance(obj.get("user"), str):
            raise TemplateError(f'{path}: expected {{"system": "...", "user": "...{PLACEHOLDER}..."}}')
        unknown = sorted(set(obj) - {"system", "user"})
        if unknown:
            raise TemplateError(f"{path}: unknown key(s) {unknown}; allowed: 'system', 'user'")
        system = obj.get("system")
        if system is not None and not isinstance(system, str):
            raise TemplateError(f"{path}: 'system' must be a string")
        user = obj["user"]
    if PLACEHOLDER not in user:
        raise TemplateError(f"{path}: the user message must contain the placeholder {PLACEHOLDER}")
    return PromptTemplate(name=str(path), user=user, system=system or None)
