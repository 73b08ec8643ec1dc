"""Validate a Parquet file against what verl 0.9.1's RLHFDataset and this project's rewards need.

Public API (other tools load this file by path)::

    check_parquet(path, tokenizer_path=None, max_prompt_length=None) -> CheckReport

Errors (the job would fail or train on garbage): unreadable file, missing/ill-typed columns,
empty prompt or message content, unknown roles, empty ground truth, ground truths the rewards
module cannot match even against themselves, prompts over ``max_prompt_length`` tokens.
Warnings: duplicate prompts, missing ``ability``/``extra_info``/``extra_info.index``, a prompt
whose last message is not from the user, non-string ground truths.

Reads the file in record batches, so memory stays bounded; a duplicate check keeps one 64-bit
key per row.
"""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_MAX_LISTED = 10  # examples listed per problem kind
_ROLES = {"system", "user", "assistant", "tool"}


@dataclass
class CheckReport:
    path: str
    rows: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    length_stats: dict[str, int] = field(default_factory=dict)
    data_sources: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors

    def summary(self) -> str:
        lines = [
            f"{self.path}: {self.rows} rows, {len(self.errors)} error(s), {len(self.warnings)} warning(s)"
        ]
        if self.data_sources:
            lines.append(
                "  data_source: " + ", ".join(f"{k}={v}" for k, v in sorted(self.data_sources.items()))
            )
        if self.length_stats:
            lines.append("  prompt tokens: " + ", ".join(f"{k}={v}" for k, v in self.length_stats.items()))
        lines += [f"  ERROR: {e}" for e in self.errors]
        lines += [f"  warning: {w}" for w in self.warnings]
        lines.append("  OK" if self.ok else "  FAILED")
        return "\n".join(lines)


def ground_truth_checker() -> Callable[[str], bool] | None:
    """``gt -> bool``: can the project's reward score a correct answer equal to ``gt``?

    Uses ``rewards.equivalence``. Returns None if the rewards module is not available.
    """
    try:
        from rewards import equivalence  # type: ignore[import-not-found]
    except ImportError:
        return None

    def ok(gt: str) -> bool:
        try:
            extracted = equivalence.extract_answer(f"The final answer is \\boxed{{{gt}}}.")
            if extracted is None:
                return False
            return bool(equivalence.is_equivalent(gt, extracted))
        except Exception:
            return False

    return ok


class _Collector:
    """Counts problems of one kind and keeps the first few examples."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.count = 0
        self.examples: list[str] = []

    def add(self, example: str) -> None:
        self.count += 1
        if len(self.examples) < _MAX_LISTED:
            self.examples.append(example)

    def render(self) -> str | None:
        if not self.count:
            return None
        more = f" (first {len(self.examples)} shown)" if self.count > len(self.examples) else ""
        return f"{self.message}: {self.count} row(s){more}: " + "; ".join(self.examples)


def _type_problems(schema: Any) -> tuple[list[str], list[str]]:
    import pyarrow as pa

    errors: list[str] = []
    warnings: list[str] = []
    names = set(schema.names)
    for col in ("data_source", "prompt", "reward_model"):
        if col not in names:
            errors.append(f"missing column '{col}' (verl's RLHFDataset and reward loop need it)")
    for col in ("ability", "extra_info"):
        if col not in names:
            warnings.append(f"missing column '{col}' (verl's own datasets carry it)")
    if (
        "data_source" in names
        and not pa.types.is_string(schema.field("data_source").type)
        and not (pa.types.is_large_string(schema.field("data_source").type))
    ):
        errors.append(f"column 'data_source' has type {schema.field('data_source').type}, expected string")
    if "prompt" in names:
        t = schema.field("prompt").type
        ok = (pa.types.is_list(t) or pa.types.is_large_list(t)) and pa.types.is_struct(t.value_type)
        if ok:
            sub = {t.value_type.field(i).name for i in range(t.value_type.num_fields)}
            ok = {"role", "content"} <= sub
        if not ok:
            errors.append(
                f"column 'prompt' has type {t}, expected list<struct<role: string, content: string>> "
                "(a chat: [{'role': 'user', 'content': ...}]); a plain string prompt is not what "
                "RLHFDataset passes to apply_chat_template"
            )
    if "reward_model" in names:
        t = schema.field("reward_model").type
        if not pa.types.is_struct(t) or t.get_field_index("ground_truth") < 0:
            errors.append(f"column 'reward_model' has type {t}, expected struct with a 'ground_truth' field")
    if "extra_info" in names:
        t = schema.field("extra_info").type
        if not pa.types.is_struct(t):
            warnings.append(f"column 'extra_info' has type {t}, expected a struct (dict)")
        elif t.get_field_index("index") < 0:
            warnings.append("extra_info has no 'index' field (verl reports index 0 for every row)")
    return errors, warnings


def check_parquet(
    path: str | Path, tokenizer_path: str | None = None, max_prompt_length: int | None = None
) -> CheckReport:
    """Validate one Parquet file; never raises for bad data (problems go into the report)."""
    import pyarrow.parquet as pq

    p = Path(path)
    report = CheckReport(path=str(p))
    if not p.is_file():
        report.errors.append(f"no such file: {p}")
        return report
    try:
        pf = pq.ParquetFile(p, pre_buffer=False)  # no read-ahead: memory stays flat
    except Exception as exc:  # pyarrow raises several types for a non-Parquet file
        report.errors.append(f"not a readable Parquet file ({type(exc).__name__}: {exc})")
        return report
    schema = pf.schema_arrow
    type_errors, type_warnings = _type_problems(schema)
    report.errors += type_errors
    report.warnings += type_warnings
    if type_errors:
        report.rows = pf.metadata.num_rows
        return report

    tokenizer = None
    tokens = None
    hist = None
    if tokenizer_path is not None:
        from dataprep import tokens

        try:
            tokenizer = tokens.load_tokenizer(tokenizer_path)
        except SystemExit as exc:
            report.errors.append(str(exc).removeprefix("error: "))
            return report
        hist = tokens.LengthHistogram()
    gt_ok = ground_truth_checker()
    if gt_ok is None:
        report.warnings.append(
            "rewards.equivalence not importable: ground truths were not checked (run from the repo root)"
        )

    empty_prompt = _Collector("empty prompt (no messages)")
    bad_role = _Collector("message role not one of system/user/assistant/tool")
    empty_content = _Collector("empty message content")
    last_not_user = _Collector("last prompt message is not from the user")
    empty_gt = _Collector("empty or missing reward_model.ground_truth")
    nonstr_gt = _Collector("reward_model.ground_truth is not a string (rewards compare strings)")
    bad_gt = _Collector("ground truth the rewards module cannot match even against itself")
    overlong = _Collector(f"prompt longer than max_prompt_length={max_prompt_length} tokens")
    dupes = _Collector("duplicate prompt (same messages as an earlier row)")
    no_source = _Collector("empty data_source")
    seen: dict[int, int] = {}
    row = 0
    for batch in pf.iter_batches(batch_size=4096, use_threads=False):
        cols = batch.to_pydict()
        prompts = cols["prompt"]
        batch_rows: list[Any] = []
        batch_idx: list[int] = []
        for i, prompt in enumerate(prompts):
            r = row + i
            src = cols["data_source"][i]
            report.data_sources[str(src)] = report.data_sources.get(str(src), 0) + 1
            if not src:
                no_source.add(f"row {r}")
            if not prompt:
                empty_prompt.add(f"row {r}")
            else:
                for j, msg in enumerate(prompt):
                    if (msg or {}).get("role") not in _ROLES:
                        bad_role.add(f"row {r} message {j} role={(msg or {}).get('role')!r}")
                    content = (msg or {}).get("content")
                    if not isinstance(content, str) or not content.strip():
                        empty_content.add(f"row {r} message {j}")
                if (prompt[-1] or {}).get("role") != "user":
                    last_not_user.add(f"row {r}")
                key = hashlib.blake2b(
                    "\x00".join(f"{m.get('role')}\x01{m.get('content')}" for m in prompt if m).encode(),
                    digest_size=8,
                ).digest()
                k = int.from_bytes(key, "little")
                if k in seen:
                    dupes.add(f"row {r} repeats row {seen[k]}")
                else:
                    seen[k] = r
                batch_rows.append(prompt)
                batch_idx.append(r)
            rm = cols["reward_model"][i] or {}
            gt = rm.get("ground_truth")
            if gt is None or (isinstance(gt, str) and not gt.strip()):
                empty_gt.add(f"row {r}")
            elif not isinstance(gt, str):
                nonstr_gt.add(f"row {r} ground_truth={gt!r}")
            elif gt_ok is not None and not gt_ok(gt):
                bad_gt.add(f"row {r} ground_truth={gt!r}")
        if tokenizer is not None and tokens is not None and hist is not None:
            lengths = tokens.prompt_lengths(tokenizer, batch_rows)
            hist.add(lengths)
            if max_prompt_length is not None:
                for r, n in zip(batch_idx, lengths, strict=True):
                    if n > max_prompt_length:
                        overlong.add(f"row {r}: {n} tokens")
        row += batch.num_rows
    report.rows = row
    if row == 0:
        report.errors.append("the file has no rows")
    for c in (no_source, empty_prompt, bad_role, empty_content, empty_gt, bad_gt, overlong):
        msg = c.render()
        if msg:
            report.errors.append(msg)
    for c in (last_not_user, nonstr_gt, dupes):
        msg = c.render()
        if msg:
            report.warnings.append(msg)
    if hist is not None:
        report.length_stats = hist.stats()
    return report
