"""Input readers (JSONL/JSON/Parquet/CSV files, Hugging Face hub datasets) and per-source row parsers.

Readers stream: JSONL line by line, Parquet and CSV as Arrow record batches, hub datasets as
batches of the memory-mapped Arrow cache. A plain ``.json`` file holding one array is the only
input read whole. Every record carries a location (``file:line N`` or ``file row N``) so an
error names it.
"""

from __future__ import annotations

import json
import os
import re
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pyarrow as pa

BATCH = 4096
FILE_SUFFIXES = (".jsonl", ".json", ".parquet", ".csv", ".ndjson")
_HUB_NAME = re.compile(r"^[A-Za-z0-9][\w.-]*(/[\w.-]+)?$")


class PrepError(Exception):
    """A user-facing error: the message names the file, line/row, field, and the fix."""


class BadRow(Exception):
    """One input row cannot be used; ``--skip-bad`` counts it instead of failing."""

    def __init__(self, location: str, message: str) -> None:
        super().__init__(f"{location}: {message}")
        self.location = location
        self.message = message


@dataclass
class Example:
    """A parsed row: the problem, its ground truth, and source fields for ``extra_info``."""

    question: str
    ground_truth: str
    extra: dict[str, Any] = field(default_factory=dict)


# A record is (location, dict) or (location, BadRow) for a line that could not be read at all.
Record = tuple[str, dict[str, Any] | BadRow]


@dataclass
class InputSpec:
    text: str  # what the user passed
    hub_config: str | None = None
    hub_split: str = "train"

    @property
    def path(self) -> Path:
        return Path(self.text)

    @property
    def is_hub(self) -> bool:
        p = self.path
        if p.exists() or p.suffix.lower() in FILE_SUFFIXES or self.text.startswith((".", "/", "~")):
            return False
        return bool(_HUB_NAME.match(self.text))


def describe_input(spec: InputSpec) -> dict[str, Any]:
    """What the manifest records about an input (a content hash for files)."""
    from dataprep.schema import file_sha256

    if spec.is_hub:
        reason = _offline_reason()
        if reason is not None:
            raise PrepError(_hub_help(spec, reason))
        return {"hub": spec.text, "config": spec.hub_config, "split": spec.hub_split}
    _validate_file(spec.path)
    return {"path": spec.text, "bytes": spec.path.stat().st_size, "sha256": file_sha256(spec.path)}


def _offline_reason() -> str | None:
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        if os.environ.get(var, "").strip().lower() in ("1", "true", "yes", "on"):
            return f"{var}={os.environ[var]} is set"
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    parsed = urlparse(endpoint)
    host = parsed.hostname or "huggingface.co"
    port = parsed.port or (443 if parsed.scheme != "http" else 80)
    try:
        with socket.create_connection((host, port), timeout=5):
            return None
    except OSError as exc:
        return f"cannot reach {host}:{port} ({exc.__class__.__name__}: {exc})"


def _hub_help(spec: InputSpec, reason: str) -> str:
    cfg = f", {spec.hub_config!r}" if spec.hub_config else ""
    return (
        f"{spec.text!r} is not a local file, so it was taken as a Hugging Face hub dataset, "
        f"but the hub cannot be used: {reason}.\n"
        "Pass a local file instead (JSONL, JSON, Parquet or CSV), e.g. export it on a machine with internet:\n"
        f'  python -c "import datasets; datasets.load_dataset({spec.text!r}{cfg}, split={spec.hub_split!r})'
        f".to_json('{spec.text.replace('/', '_')}_{spec.hub_split}.jsonl')\"\n"
        "then copy it here and run with --input /path/to/that.jsonl"
    )


def _iter_hub(spec: InputSpec) -> Iterator[list[Record]]:
    reason = _offline_reason()
    if reason is not None:
        raise PrepError(_hub_help(spec, reason))
    import datasets

    try:
        ds = datasets.load_dataset(spec.text, spec.hub_config, split=spec.hub_split)
    except Exception as exc:  # datasets raises many types (missing config, auth, network)
        raise PrepError(_hub_help(spec, f"{type(exc).__name__}: {exc}")) from exc
    row = 0
    for batch in ds.iter(batch_size=BATCH):
        keys = list(batch)
        n = len(batch[keys[0]]) if keys else 0
        out: list[Record] = []
        for i in range(n):
            out.append((f"{spec.text}[{spec.hub_split}] row {row}", {k: batch[k][i] for k in keys}))
            row += 1
        yield out


def _iter_jsonl(path: Path) -> Iterator[list[Record]]:
    out: list[Record] = []
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            loc = f"{path}:line {lineno}"
            try:
                obj = json.loads(raw.decode("utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                out.append(
                    (loc, BadRow(loc, f"broken JSON ({exc}); fix or delete the line, or pass --skip-bad"))
                )
            else:
                if isinstance(obj, dict):
                    out.append((loc, obj))
                else:
                    out.append((loc, BadRow(loc, f"expected a JSON object, got {type(obj).__name__}")))
            if len(out) >= BATCH:
                yield out
                out = []
    if out:
        yield out


def _iter_json(path: Path) -> Iterator[list[Record]]:
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
    except json.JSONDecodeError as exc:
        # Maybe it is JSON Lines with a .json suffix.
        with open(path, "rb") as f:
            first = f.readline()
            second = f.readline()
        if second.strip():
            try:
                json.loads(first)
                yield from _iter_jsonl(path)
                return
            except json.JSONDecodeError:
                pass
        raise PrepError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    if isinstance(obj, dict):
        # {"data": [...]} style, or a single record.
        lists = [v for v in obj.values() if isinstance(v, list) and v and all(isinstance(r, dict) for r in v)]
        obj = lists[0] if len(lists) == 1 else [obj]
    if not isinstance(obj, list):
        raise PrepError(f"{path}: expected a JSON array of objects (or JSON Lines), got {type(obj).__name__}")
    for start in range(0, len(obj), BATCH):
        out: list[Record] = []
        for i, rec in enumerate(obj[start : start + BATCH], start=start):
            loc = f"{path} item {i}"
            out.append((loc, rec if isinstance(rec, dict) else BadRow(loc, "expected a JSON object")))
        yield out


def _iter_arrow_batches(path: Path, batches: Iterator[pa.RecordBatch]) -> Iterator[list[Record]]:
    row = 0
    for batch in batches:
        out: list[Record] = []
        for rec in batch.to_pylist():
            out.append((f"{path} row {row}", rec))
            row += 1
        yield out


def _iter_parquet(path: Path) -> Iterator[list[Record]]:
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path, pre_buffer=False)  # no read-ahead: memory stays flat on big files
    except Exception as exc:
        raise PrepError(f"{path}: not a readable Parquet file ({type(exc).__name__}: {exc})") from exc
    yield from _iter_arrow_batches(path, pf.iter_batches(batch_size=BATCH, use_threads=False))


def _iter_csv(path: Path) -> Iterator[list[Record]]:
    import pyarrow.csv as pcsv

    try:
        reader = pcsv.open_csv(
            path,
            read_options=pcsv.ReadOptions(block_size=1 << 22),
            convert_options=pcsv.ConvertOptions(strings_can_be_null=False),
        )
    except pa.ArrowInvalid as exc:
        raise PrepError(f"{path}: cannot read as CSV: {exc}") from exc

    def batches() -> Iterator[pa.RecordBatch]:
        while True:
            try:
                yield reader.read_next_batch()
            except StopIteration:
                return
            except pa.ArrowInvalid as exc:
                raise PrepError(f"{path}: malformed CSV: {exc}") from exc

    yield from _iter_arrow_batches(path, batches())


_READERS: dict[str, Callable[[Path], Iterator[list[Record]]]] = {
    ".jsonl": _iter_jsonl,
    ".ndjson": _iter_jsonl,
    ".json": _iter_json,
    ".parquet": _iter_parquet,
    ".csv": _iter_csv,
}


def _validate_file(path: Path) -> None:
    if not path.is_file():
        raise PrepError(f"{path}: no such file (and not a hub dataset name like 'openai/gsm8k')")
    if path.stat().st_size == 0:
        raise PrepError(f"{path}: the file is empty")
    if path.suffix.lower() not in _READERS:
        raise PrepError(
            f"{path}: unsupported file type {path.suffix.lower()!r}; use one of {', '.join(sorted(_READERS))}"
        )


def iter_records(spec: InputSpec) -> Iterator[list[Record]]:
    """Batches of (location, record) from a file or hub dataset; raises PrepError on unusable input."""
    if spec.is_hub:
        yield from _iter_hub(spec)
        return
    path = spec.path
    _validate_file(path)
    yield from _READERS[path.suffix.lower()](path)


def total_rows_hint(spec: InputSpec) -> tuple[int | None, str]:
    """(total, unit) for a progress bar: Parquet row count, else None."""
    if not spec.is_hub and spec.path.suffix.lower() == ".parquet" and spec.path.is_file():
        import pyarrow.parquet as pq

        try:
            return pq.ParquetFile(spec.path).metadata.num_rows, "rows"
        except Exception:
            return None, "rows"
    return None, "rows"


# ---------------------------------------------------------------------------------------------
# Row parsers


def _get(rec: dict[str, Any], key: str, loc: str) -> Any:
    """``rec[key]``; a dotted key reads nested dicts (``extra_info.question``)."""
    cur: Any = rec
    for part in key.split("."):
        if not isinstance(cur, dict) or part not in cur:
            have = ", ".join(sorted(map(str, rec))) if isinstance(rec, dict) else "-"
            raise BadRow(loc, f"missing field '{key}' (the row has: {have})")
        cur = cur[part]
    return cur


def _text(rec: dict[str, Any], key: str, loc: str) -> str:
    val = _get(rec, key, loc)
    if isinstance(val, bool) or val is None:
        raise BadRow(loc, f"field '{key}' is {val!r}, expected text")
    if isinstance(val, int | float):
        return number_text(val)
    if not isinstance(val, str):
        raise BadRow(loc, f"field '{key}' has type {type(val).__name__}, expected text")
    if not val.strip():
        raise BadRow(loc, f"field '{key}' is empty")
    return val


def number_text(val: float) -> str:
    if isinstance(val, float) and val.is_integer():
        return str(int(val))
    return str(val)


_GSM8K_NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)$")


def gsm8k_final_answer(solution: str) -> str | None:
    """The number after the last ``####``, commas (and a leading ``$``) removed; None if absent/not numeric."""
    if "####" not in solution:
        return None
    tail = solution.rsplit("####", 1)[1].strip().replace(",", "")
    tail = tail.removeprefix("$").strip()
    return tail if _GSM8K_NUMBER.match(tail) else None


def last_boxed(text: str) -> str | None:
    """Content of the last ``\\boxed{...}`` (or ``\\fbox{...}``), braces balanced; None if absent."""
    start = max(text.rfind("\\boxed{"), text.rfind("\\fbox{"))
    if start < 0:
        return None
    i = text.index("{", start) + 1
    depth = 1
    for j in range(i, len(text)):
        c = text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[i:j].strip() or None
    return None


def parse_gsm8k(rec: dict[str, Any], loc: str) -> Example:
    question = _text(rec, "question", loc)
    answer = _text(rec, "answer", loc)
    gt = gsm8k_final_answer(answer)
    if gt is None:
        tail = answer.rsplit("####", 1)[1].strip()[:40] if "####" in answer else None
        what = f"'#### {tail}' is not a number" if tail is not None else "has no '#### <number>' final line"
        raise BadRow(loc, f"field 'answer' {what}")
    return Example(question=question, ground_truth=gt, extra={"question": question, "answer": answer})


def parse_omni_math(rec: dict[str, Any], loc: str) -> Example:
    problem = _text(rec, "problem", loc)
    answer = _text(rec, "answer", loc).strip()
    diff = _get(rec, "difficulty", loc)
    try:
        difficulty = float(diff)
    except (TypeError, ValueError):
        raise BadRow(loc, f"field 'difficulty' is {diff!r}, expected a number") from None
    domain_val = rec.get("domain") or []
    if isinstance(domain_val, str):
        domain_val = [domain_val]
    if not isinstance(domain_val, list) or not all(isinstance(d, str) for d in domain_val):
        raise BadRow(loc, f"field 'domain' is {domain_val!r}, expected a list of strings")
    source = rec.get("source")
    solution = rec.get("solution")
    return Example(
        question=problem,
        ground_truth=answer,
        extra={
            "problem": problem,
            "answer": answer,
            "solution": solution if isinstance(solution, str) else "",
            "difficulty": difficulty,
            "domain": list(domain_val),
            "source": source if isinstance(source, str) else "",
        },
    )


@dataclass
class CustomRule:
    question_field: str
    answer_field: str
    extract: str = "none"  # none | gsm8k | boxed | regex:PATTERN
    keep_fields: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.extract.startswith("regex:"):
            try:
                pat = re.compile(self.extract.removeprefix("regex:"))
            except re.error as exc:
                raise PrepError(f"--answer-extract {self.extract!r}: invalid regex: {exc}") from exc
            if pat.groups < 1:
                raise PrepError(f"--answer-extract {self.extract!r}: the regex needs one capture group")
            self._regex: re.Pattern[str] | None = pat
        elif self.extract in ("none", "gsm8k", "boxed"):
            self._regex = None
        else:
            raise PrepError(f"--answer-extract {self.extract!r}: use none, gsm8k, boxed or regex:PATTERN")

    def parse(self, rec: dict[str, Any], loc: str) -> Example:
        question = _text(rec, self.question_field, loc)
        raw = _text(rec, self.answer_field, loc)
        if self.extract == "none":
            gt: str | None = raw.strip()
        elif self.extract == "gsm8k":
            gt = gsm8k_final_answer(raw)
        elif self.extract == "boxed":
            gt = last_boxed(raw)
        else:
            assert self._regex is not None
            matches = list(self._regex.finditer(raw))
            gt = matches[-1].group(1).strip() if matches else None
        if not gt:
            raise BadRow(
                loc,
                f"field '{self.answer_field}': --answer-extract {self.extract} found no answer in {raw[:60]!r}",
            )
        extra: dict[str, Any] = {"question": question, "answer": raw}
        for key in self.keep_fields:
            val = _get(rec, key, loc)
            extra[key] = val if isinstance(val, str) else json.dumps(val, sort_keys=True, ensure_ascii=False)
        return Example(question=question, ground_truth=gt, extra=extra)


def extra_fields_for(source: str, keep_fields: tuple[str, ...] = ()) -> list[tuple[str, pa.DataType]]:
    """The source fields each source keeps in ``extra_info`` (fixed types: one Parquet schema)."""
    if source == "omni-math":
        return [
            ("problem", pa.string()),
            ("answer", pa.string()),
            ("solution", pa.string()),
            ("difficulty", pa.float64()),
            ("domain", pa.list_(pa.string())),
            ("source", pa.string()),
        ]
    fields: list[tuple[str, pa.DataType]] = [("question", pa.string()), ("answer", pa.string())]
    fields += [(k, pa.string()) for k in keep_fields if k not in ("question", "answer", "split", "index")]
    return fields


def read_problem_keys(path: Path, key_fn: Callable[[str], int]) -> tuple[set[int], int]:
    """Normalised-problem keys of a benchmark/test file (any supported format) for decontamination.

    The problem is the first of ``question``, ``problem``, ``extra_info.question``,
    ``extra_info.problem`` found in the row.
    """
    keys: set[int] = set()
    rows = 0
    candidates = ("question", "problem", "extra_info.question", "extra_info.problem")
    for batch in iter_records(InputSpec(str(path))):
        for loc, rec in batch:
            if isinstance(rec, BadRow):
                raise PrepError(f"--decontaminate-against: {rec}")
            text = None
            for c in candidates:
                try:
                    val = _get(rec, c, loc)
                except BadRow:
                    continue
                if isinstance(val, str) and val.strip():
                    text = val
                    break
            if text is None:
                raise PrepError(
                    f"--decontaminate-against {loc}: no problem text (looked for {', '.join(candidates)})"
                )
            keys.add(key_fn(text))
            rows += 1
    return keys, rows
