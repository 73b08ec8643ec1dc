#!/usr/bin/env python3
"""Prepare math datasets as verl 0.9.1 Parquet (train.parquet, test.parquet, manifest.json).

    python -m dataprep gsm8k     --input train.jsonl [--test-input test.jsonl] --output DIR
    python -m dataprep omni-math --input omni.jsonl --min-difficulty 5 --output DIR
    python -m dataprep custom    --input FILE|HUB_NAME --question-field q --answer-field a \\
                                     --data-source NAME --output DIR
    python -m dataprep check     DIR/train.parquet [--tokenizer PATH --max-prompt-length N]
    python -m dataprep synthetic --output DIR --n 512 [--seed 0]

Steps, in order (the manifest counts rows after each): read -> parse (bad rows fail, or are
counted with --skip-bad) -> filters -> --dedup -> --decontaminate-against -> prompt length
(--tokenizer/--max-prompt-length) -> split (--test-input, or --test-size with --seed).
Outputs are written in a hidden temp folder inside DIR and renamed into place at the end; the
same arguments and inputs give byte-identical train.parquet, test.parquet and manifest.json
(the manifest holds input hashes, never the time). See docs/data.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from dataprep import schema as schema_mod
from dataprep import sources as src
from dataprep import templates as tmpl

SOURCES = ("gsm8k", "omni-math", "custom")
DATA_SOURCE = {"gsm8k": "openai/gsm8k", "omni-math": "omni_math", "synthetic": "synthetic/gsm8k"}
MAX_BAD_LISTED = 1000


@dataclass
class Options:
    source: str
    data_source: str
    output: Path
    template: tmpl.PromptTemplate
    parse: Callable[[dict[str, Any], str], src.Example]
    extra_fields: list[tuple[str, pa.DataType]]
    seed: int = 0
    test_size: float | int | None = 0.1
    limit: int | None = None
    dedup: bool = False
    decontaminate_against: list[Path] = field(default_factory=list)
    tokenizer: str | None = None
    max_prompt_length: int | None = None
    on_overlong: str = "drop"
    chat_template_kwargs: dict[str, Any] = field(default_factory=dict)
    skip_bad: bool = False
    min_difficulty: float | None = None
    max_difficulty: float | None = None
    domains: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # what the manifest records as options


class _Progress:
    """A tqdm bar that appears only when reading takes more than two seconds."""

    def __init__(self, desc: str, total: int | None) -> None:
        from tqdm import tqdm

        self.bar = tqdm(desc=desc, total=total, unit=" rows", delay=2.0, mininterval=1.0, file=sys.stderr)

    def update(self, n: int) -> None:
        self.bar.update(n)

    def close(self) -> None:
        self.bar.close()


class _Sink:
    """Buffers kept rows, applies the prompt-length step per batch, writes Arrow batches."""

    def __init__(self, prep: Preparer, writer: pq.ParquetWriter, split: str, prefix: str = "") -> None:
        self.prep = prep
        self.count_key = prefix + "after_length_filter"
        prep.counts.setdefault(self.count_key, 0)
        self.writer = writer
        self.split = split  # "" for the staging file (split assigned later)
        self.rows: list[tuple[str, src.Example, list[dict[str, str]]]] = []
        self.written = 0

    def add(self, loc: str, ex: src.Example) -> None:
        self.rows.append((loc, ex, self.prep.opts.template.render(ex.question)))
        if len(self.rows) >= schema_mod.ROW_GROUP_SIZE:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        rows = self.prep.length_step(self.rows)
        self.rows = []
        self.prep._bump(self.count_key, len(rows))
        if not rows:
            return
        o = self.prep.opts
        n = len(rows)
        extra_cols: dict[str, list[Any]] = {
            "split": [self.split] * n,
            "index": list(range(self.written, self.written + n)) if self.split else [-1] * n,
        }
        for name, _ in o.extra_fields:
            extra_cols[name] = [ex.extra.get(name) for _, ex, _ in rows]
        ei_type = schema_mod.extra_info_type(o.extra_fields)
        extra = pa.StructArray.from_arrays(
            [pa.array(extra_cols[f.name], type=f.type) for f in ei_type], fields=list(ei_type)
        )
        gts = pa.array([ex.ground_truth for _, ex, _ in rows], type=pa.string())
        reward = pa.StructArray.from_arrays(
            [pa.array(["rule"] * n, type=pa.string()), gts], fields=list(schema_mod.REWARD_MODEL_TYPE)
        )
        table = pa.Table.from_arrays(
            [
                pa.array([o.data_source] * n, type=pa.string()),
                pa.array([p for _, _, p in rows], type=schema_mod.PROMPT_TYPE),
                pa.array(["math"] * n, type=pa.string()),
                reward,
                extra,
            ],
            schema=self.prep.schema,
        )
        self.writer.write_table(table, row_group_size=schema_mod.ROW_GROUP_SIZE)
        self.written += n


class Preparer:
    def __init__(self, opts: Options) -> None:
        self.opts = opts
        self.schema = schema_mod.row_schema(opts.extra_fields)
        self.counts: dict[str, int] = {}
        self.bad: list[str] = []
        self.bad_count = 0
        self.overlong_dropped = 0
        self.tokenizer: Any = None
        self.hist: Any = None
        self.tokens: Any = None

    # -- steps ---------------------------------------------------------------------------
    def _bump(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def _bad_row(self, err: src.BadRow) -> None:
        if not self.opts.skip_bad:
            raise src.PrepError(
                f"{err}\n(pass --skip-bad to drop such rows; they are listed in manifest.json)"
            )
        self.bad_count += 1
        if len(self.bad) < MAX_BAD_LISTED:
            self.bad.append(str(err))

    def _passes_filters(self, ex: src.Example) -> bool:
        o = self.opts
        if o.min_difficulty is not None and not ex.extra.get("difficulty", 0.0) >= o.min_difficulty:
            return False
        if o.max_difficulty is not None and not ex.extra.get("difficulty", 0.0) <= o.max_difficulty:
            return False
        if o.domains:
            doms = [d.casefold() for d in ex.extra.get("domain", [])]
            if not any(want.casefold() in d for want in o.domains for d in doms):
                return False
        return True

    def length_step(
        self, rows: list[tuple[str, src.Example, list[dict[str, str]]]]
    ) -> list[tuple[str, src.Example, list[dict[str, str]]]]:
        if self.tokenizer is None:
            return rows
        lengths = self.tokens.prompt_lengths(
            self.tokenizer, [p for _, _, p in rows], self.opts.chat_template_kwargs
        )
        self.hist.add(lengths)
        limit = self.opts.max_prompt_length
        if limit is None:
            return rows
        kept = []
        for row, n in zip(rows, lengths, strict=True):
            if n <= limit:
                kept.append(row)
            elif self.opts.on_overlong == "fail":
                raise src.PrepError(
                    f"{row[0]}: prompt is {n} tokens after the chat template, over --max-prompt-length "
                    f"{limit}. Raise the limit (and data.max_prompt_length), or pass --on-overlong drop"
                )
            else:
                self.overlong_dropped += 1
        return kept

    def stream(
        self,
        batches: Iterator[list[src.Record]],
        sink: _Sink,
        *,
        desc: str,
        total: int | None,
        limit: int | None,
        exclude: set[int] | None,
        prefix: str = "",
        collect_keys: bool = False,
    ) -> set[int]:
        """Read -> parse -> filter -> dedup -> decontaminate -> sink. Returns the kept problem keys
        (when ``collect_keys``: the test input's keys decontaminate the training rows)."""
        need_keys = self.opts.dedup or exclude is not None or collect_keys
        has_filters = (
            self.opts.min_difficulty is not None or self.opts.max_difficulty is not None or self.opts.domains
        )
        dedup = self.opts.dedup
        parse = self.opts.parse
        seen: set[int] = set()
        kept_keys: set[int] = set()
        n_read = n_parsed = n_filtered = n_dedup = n_decontam = 0
        progress = _Progress(desc, total)
        try:
            for batch in batches:
                if limit is not None and n_read + len(batch) > limit:
                    batch = batch[: max(0, limit - n_read)]
                n_read += len(batch)
                progress.update(len(batch))
                for loc, rec in batch:
                    if isinstance(rec, src.BadRow):
                        self._bad_row(rec)
                        continue
                    try:
                        ex = parse(rec, loc)
                    except src.BadRow as err:
                        self._bad_row(err)
                        continue
                    n_parsed += 1
                    if has_filters and not self._passes_filters(ex):
                        continue
                    n_filtered += 1
                    key = schema_mod.problem_key(ex.question) if need_keys else 0
                    if dedup:
                        if key in seen:
                            continue
                        seen.add(key)
                    n_dedup += 1
                    if exclude is not None and key in exclude:
                        continue
                    n_decontam += 1
                    if collect_keys:
                        kept_keys.add(key)
                    sink.add(loc, ex)
                if limit is not None and n_read >= limit:
                    break
            sink.flush()
        finally:
            progress.close()
        for step, n in zip(STEPS, (n_read, n_parsed, n_filtered, n_dedup, n_decontam), strict=False):
            self._bump(prefix + step, n)
        if self.counts.get(prefix + "read", 0) == 0:
            raise src.PrepError(f"{desc}: no rows in the input")
        for step in STEPS:
            self.counts.setdefault(prefix + step, 0)
        return kept_keys


STEPS = ("read", "parsed", "after_filters", "after_dedup", "after_decontamination", "after_length_filter")


def _ordered_counts(counts: dict[str, int]) -> dict[str, int]:
    """Counts in pipeline order: the main input's steps, then the test input's (if any)."""
    out = {s: counts[s] for s in STEPS if s in counts}
    out.update({f"test_input.{s}": counts[f"test_input.{s}"] for s in STEPS if f"test_input.{s}" in counts})
    return out


def _dropped(counts: dict[str, int], prefix: str = "") -> dict[str, int]:
    """Rows each step removed (bad rows are counted by the parse step)."""
    c = [counts.get(prefix + s, 0) for s in STEPS]
    names = ("bad_rows", "filters", "dedup", "decontamination", "overlong")
    return {name: c[i] - c[i + 1] for i, name in enumerate(names)}


def _test_mask(n: int, test_size: float | int, seed: int) -> Any:
    import numpy as np

    k = int(test_size) if isinstance(test_size, int) else int(round(test_size * n))
    if k > n:
        raise src.PrepError(f"--test-size {test_size}: only {n} rows are left after the filters")
    mask = np.zeros(n, dtype=bool)
    if k:
        mask[np.random.default_rng(seed).choice(n, size=k, replace=False)] = True
    return mask


def _with_split(batch: pa.RecordBatch, split: str, start: int) -> pa.RecordBatch:
    n = batch.num_rows
    ei = batch.column("extra_info")
    arrays = []
    for i, f in enumerate(ei.type):
        if f.name == "split":
            arrays.append(pa.array([split] * n, type=pa.string()))
        elif f.name == "index":
            arrays.append(pa.array(range(start, start + n), type=pa.int64()))
        else:
            arrays.append(ei.field(i))
    new_ei = pa.StructArray.from_arrays(arrays, fields=list(ei.type))
    cols = [new_ei if name == "extra_info" else batch.column(name) for name in batch.schema.names]
    return pa.RecordBatch.from_arrays(cols, schema=batch.schema)


class _GroupedWriter:
    """Collects record batches and writes them in row groups of ROW_GROUP_SIZE rows."""

    def __init__(self, writer: pq.ParquetWriter, split: str) -> None:
        self.writer = writer
        self.split = split
        self.pending: list[pa.RecordBatch] = []
        self.pending_rows = 0
        self.written = 0

    def add(self, batch: pa.RecordBatch) -> None:
        if batch.num_rows:
            self.pending.append(batch)
            self.pending_rows += batch.num_rows
        if self.pending_rows >= schema_mod.ROW_GROUP_SIZE:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        table = pa.Table.from_batches(self.pending).combine_chunks()
        self.pending, self.pending_rows = [], 0
        for b in table.to_batches(max_chunksize=schema_mod.ROW_GROUP_SIZE):
            self.writer.write_batch(_with_split(b, self.split, self.written))
            self.written += b.num_rows


def _split_staging(
    staging: Path, train_w: pq.ParquetWriter, test_w: pq.ParquetWriter, mask: Any
) -> tuple[int, int]:
    pf = pq.ParquetFile(staging, pre_buffer=False)  # no read-ahead: memory stays flat
    train, test = _GroupedWriter(train_w, "train"), _GroupedWriter(test_w, "test")
    pos = 0
    for batch in pf.iter_batches(batch_size=schema_mod.ROW_GROUP_SIZE, use_threads=False):
        m = pa.array(mask[pos : pos + batch.num_rows])
        pos += batch.num_rows
        test.add(batch.filter(m))
        train.add(batch.filter(pc.invert(m)))
    train.flush()
    test.flush()
    return train.written, test.written


def run(
    opts: Options,
    main_batches: Iterator[list[src.Record]],
    main_desc: dict[str, Any],
    *,
    main_total: int | None = None,
    test_batches: Iterator[list[src.Record]] | None = None,
    test_desc: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the whole preparation; returns the manifest (also written to DIR/manifest.json)."""
    prep = Preparer(opts)
    if opts.tokenizer is not None:
        from dataprep import tokens as prep_tokens

        prep.tokens = prep_tokens
        prep.tokenizer = prep_tokens.load_tokenizer(opts.tokenizer)
        prep.hist = prep_tokens.LengthHistogram()
    elif opts.max_prompt_length is not None:
        raise src.PrepError(
            "--max-prompt-length needs --tokenizer PATH (lengths are counted after the chat template)"
        )

    exclude: set[int] | None = None
    decontam: list[dict[str, Any]] = []
    if opts.decontaminate_against:
        exclude = set()
        for path in opts.decontaminate_against:
            keys, rows = src.read_problem_keys(path, schema_mod.problem_key)
            exclude |= keys
            decontam.append({"path": str(path), "rows": rows, "sha256": schema_mod.file_sha256(path)})

    out = opts.output
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".prepare-tmp-", dir=out))
    try:
        train_p, test_p = tmp / "train.parquet", tmp / "test.parquet"
        train_w = pq.ParquetWriter(train_p, prep.schema, **schema_mod.WRITER_KW)
        test_w = pq.ParquetWriter(test_p, prep.schema, **schema_mod.WRITER_KW)
        try:
            if test_batches is not None:
                test_sink = _Sink(prep, test_w, "test", prefix="test_input.")
                test_keys = prep.stream(
                    test_batches, test_sink, desc=str((test_desc or {}).get("path", "test input")),
                    total=None, limit=None, exclude=None, prefix="test_input.", collect_keys=True,
                )  # fmt: skip
                if exclude is None:
                    exclude = set()
                exclude |= test_keys
                train_sink = _Sink(prep, train_w, "train")
                prep.stream(
                    main_batches, train_sink, desc=str(main_desc.get("path", main_desc.get("hub", "input"))),
                    total=main_total, limit=opts.limit, exclude=exclude,
                )  # fmt: skip
                n_train, n_test = train_sink.written, test_sink.written
            else:
                staging = tmp / "staging.parquet"
                with pq.ParquetWriter(staging, prep.schema, **schema_mod.WRITER_KW) as st_w:
                    st_sink = _Sink(prep, st_w, "")
                    prep.stream(
                        main_batches, st_sink, desc=str(main_desc.get("path", main_desc.get("hub", "input"))),
                        total=main_total, limit=opts.limit, exclude=exclude,
                    )  # fmt: skip
                    kept = st_sink.written
                mask = _test_mask(kept, opts.test_size or 0, opts.seed)
                n_train, n_test = _split_staging(staging, train_w, test_w, mask)
                staging.unlink()
        finally:
            train_w.close()
            test_w.close()
        if n_train == 0:
            raise src.PrepError(
                f"no training rows left; counts per step: {json.dumps(_ordered_counts(prep.counts))}. "
                "Check the filters, --limit, --test-size and the input file."
            )
        manifest: dict[str, Any] = {
            "tool": "dataprep/prepare.py",
            "tool_version": schema_mod.TOOL_VERSION,
            "pyarrow_version": pa.__version__,
            "source": opts.source,
            "data_source": opts.data_source,
            "input": main_desc,
            "test_input": test_desc,
            "decontaminate_against": decontam,
            "options": opts.settings,
            "seed": opts.seed,
            "prompt_template": opts.template.describe(),
            "counts": _ordered_counts(prep.counts),
            "dropped": _dropped(prep.counts),
            "splits": {"train": n_train, "test": n_test},
            "bad_rows": {"count": prep.bad_count, "listed": prep.bad, "listed_max": MAX_BAD_LISTED},
            "prompt_length": None,
            "outputs": {
                "train.parquet": {"rows": n_train, "sha256": schema_mod.file_sha256(train_p)},
                "test.parquet": {"rows": n_test, "sha256": schema_mod.file_sha256(test_p)},
            },
        }
        if prep.tokenizer is not None:
            manifest["prompt_length"] = {
                "tokenizer": opts.tokenizer,
                "chat_template_kwargs": opts.chat_template_kwargs,
                "max_prompt_length": opts.max_prompt_length,
                "on_overlong": opts.on_overlong,
                "dropped_overlong": prep.overlong_dropped,
                "tokens": prep.hist.stats(),
            }
        (tmp / "manifest.json").write_text(
            json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        for name in ("train.parquet", "test.parquet", "manifest.json"):
            (tmp / name).replace(out / name)
        return manifest
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# CLI


def _test_size(text: str) -> float | int:
    try:
        if any(c in text for c in ".eE"):
            val = float(text)
            if not 0.0 <= val < 1.0:
                raise ValueError
            return val
        n = int(text)
        if n < 0:
            raise ValueError
        return n
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a row count (e.g. 500) or a fraction in [0, 1) (e.g. 0.05)"
        ) from None


def _add_common(p: argparse.ArgumentParser, *, with_input: bool = True) -> None:
    if with_input:
        p.add_argument("--input", required=True, help="a JSONL/JSON/Parquet/CSV file, or a hub dataset name")
        p.add_argument(
            "--test-input",
            help="the test split from a separate file/hub dataset (then --test-size is unused)",
        )
        p.add_argument("--hub-config", help="hub dataset config name (gsm8k: 'main')")
        p.add_argument("--hub-split", default="train", help="hub split of --input (default: train)")
        p.add_argument("--hub-test-split", default="test", help="hub split of --test-input (default: test)")
    p.add_argument(
        "--output", required=True, type=Path, help="output folder (train/test.parquet, manifest.json)"
    )
    p.add_argument("--prompt-template", help=f"built-in ({', '.join(tmpl.BUILTIN)}) or a template file")
    p.add_argument(
        "--test-size", type=_test_size, default=None, help="rows (N) or FRACTION for test (default 0.1)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the test split (default 0)")
    p.add_argument("--limit", type=int, default=None, help="read at most N input rows")
    p.add_argument("--dedup", action="store_true", help="drop rows whose normalised problem was seen before")
    p.add_argument("--decontaminate-against", nargs="+", type=Path, default=[], metavar="FILE",
                   help="drop --input rows whose normalised problem appears in these files")  # fmt: skip
    p.add_argument("--tokenizer", help="local model/tokenizer folder: apply its chat template as verl does")
    p.add_argument("--max-prompt-length", type=int, help="token limit per prompt (after the chat template)")
    p.add_argument("--on-overlong", choices=("drop", "fail"), default="drop")
    p.add_argument(
        "--chat-template-kwargs", default="{}", help="JSON, as verl's data.apply_chat_template_kwargs"
    )
    p.add_argument("--skip-bad", action="store_true", help="count and list bad rows instead of failing")
    p.add_argument("--data-source", help="data_source column value (custom: required)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prepare.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="SOURCE")
    g = sub.add_parser("gsm8k", help="GSM8K (question, answer ending '#### N')")
    _add_common(g)
    o = sub.add_parser("omni-math", help="Omni-MATH (problem, answer, difficulty, domain, ...)")
    _add_common(o)
    o.add_argument("--min-difficulty", type=float)
    o.add_argument("--max-difficulty", type=float)
    o.add_argument(
        "--domain", action="append", default=[], help="keep rows whose domain contains this (repeatable)"
    )
    c = sub.add_parser("custom", help="any JSONL/JSON/Parquet/CSV or hub dataset")
    _add_common(c)
    c.add_argument("--question-field", required=True, help="field with the problem text (dotted for nested)")
    c.add_argument("--answer-field", required=True, help="field with the answer or solution")
    c.add_argument(
        "--answer-extract", default="none", help="none | gsm8k | boxed | regex:PATTERN (one group)"
    )
    c.add_argument("--keep-field", action="append", default=[], help="copy this field into extra_info")
    s = sub.add_parser("synthetic", help="generated GSM8K-format arithmetic problems (demo data)")
    _add_common(s, with_input=False)
    s.add_argument("--n", type=int, required=True, help="number of problems")
    k = sub.add_parser("check", help="validate Parquet files against verl's schema and the rewards")
    k.add_argument("files", nargs="+", type=Path)
    k.add_argument("--tokenizer")
    k.add_argument("--max-prompt-length", type=int)
    return parser


def _options(args: argparse.Namespace) -> Options:
    source = args.command
    if source == "custom" and not args.data_source:
        raise src.PrepError("custom: --data-source NAME is required (it selects the reward in verl)")
    try:
        template = tmpl.load_template(args.prompt_template or tmpl.DEFAULT_FOR_SOURCE[source])
    except tmpl.TemplateError as exc:
        raise src.PrepError(str(exc)) from exc
    try:
        chat_kwargs = json.loads(args.chat_template_kwargs)
        if not isinstance(chat_kwargs, dict):
            raise ValueError("not an object")
    except ValueError as exc:
        raise src.PrepError(
            f"--chat-template-kwargs {args.chat_template_kwargs!r}: expected a JSON object ({exc})"
        ) from exc
    keep: tuple[str, ...] = ()
    parse: Callable[[dict[str, Any], str], src.Example]
    if source == "gsm8k" or source == "synthetic":
        parse = src.parse_gsm8k
    elif source == "omni-math":
        parse = src.parse_omni_math
    else:
        keep = tuple(args.keep_field)
        rule = src.CustomRule(args.question_field, args.answer_field, args.answer_extract, keep)
        parse = rule.parse
    test_input = getattr(args, "test_input", None)
    if test_input and args.test_size is not None:
        raise src.PrepError(
            "--test-size and --test-input exclude each other: the test split comes from one of them"
        )
    if args.limit is not None and args.limit <= 0:
        raise src.PrepError(f"--limit {args.limit}: must be positive")
    settings = {
        k: (str(v) if isinstance(v, Path) else [str(x) for x in v] if isinstance(v, list) else v)
        for k, v in sorted(vars(args).items())
        if k not in ("command", "output")
    }
    return Options(
        source=source,
        data_source=args.data_source or DATA_SOURCE[source],
        output=args.output,
        template=template,
        parse=parse,
        extra_fields=src.extra_fields_for(source, keep),
        seed=args.seed,
        test_size=None if test_input else (0.1 if args.test_size is None else args.test_size),
        limit=args.limit,
        dedup=args.dedup,
        decontaminate_against=list(args.decontaminate_against),
        tokenizer=args.tokenizer,
        max_prompt_length=args.max_prompt_length,
        on_overlong=args.on_overlong,
        chat_template_kwargs=chat_kwargs,
        skip_bad=args.skip_bad,
        min_difficulty=getattr(args, "min_difficulty", None),
        max_difficulty=getattr(args, "max_difficulty", None),
        domains=list(getattr(args, "domain", [])),
        settings=settings,
    )


def _cmd_check(args: argparse.Namespace) -> int:
    from dataprep import check as dataset_check

    failed = False
    for f in args.files:
        report = dataset_check.check_parquet(f, args.tokenizer, args.max_prompt_length)
        print(report.summary())
        failed = failed or bool(report.errors)
    return 1 if failed else 0


def _cmd_prepare(args: argparse.Namespace) -> int:
    opts = _options(args)
    started = time.monotonic()
    if args.command == "synthetic":
        from dataprep import synthetic as prep_synthetic

        if args.n <= 0:
            raise src.PrepError(f"--n {args.n}: must be positive")
        rows = list(prep_synthetic.iter_problems(args.n, args.seed))
        batches = iter([[(f"synthetic row {i}", r) for i, r in enumerate(rows)]])
        manifest = run(opts, batches, {"generator": "prep_synthetic", "n": args.n, "seed": args.seed})
    else:
        if args.hub_config is None and args.command == "gsm8k":
            args.hub_config = "main"
        spec = src.InputSpec(args.input, args.hub_config, args.hub_split)
        main_desc = src.describe_input(spec)
        total, _ = src.total_rows_hint(spec)
        test_batches = test_desc = None
        if args.test_input:
            tspec = src.InputSpec(args.test_input, args.hub_config, args.hub_test_split)
            test_desc = src.describe_input(tspec)
            test_batches = src.iter_records(tspec)
        manifest = run(
            opts,
            src.iter_records(spec),
            main_desc,
            main_total=total,
            test_batches=test_batches,
            test_desc=test_desc,
        )
    steps = ", ".join(f"{k}={v}" for k, v in manifest["dropped"].items() if v)
    print(
        f"{opts.output}: train={manifest['splits']['train']} test={manifest['splits']['test']} rows "
        f"from {manifest['counts']['read']} read; dropped: {steps or 'none'}; "
        f"in {time.monotonic() - started:.1f}s",
        file=sys.stderr,
    )
    if manifest["prompt_length"]:
        pl = manifest["prompt_length"]
        print(f"prompt tokens: {pl['tokens']}; dropped over {pl['max_prompt_length']}: {pl['dropped_overlong']}",
              file=sys.stderr)  # fmt: skip
    if manifest["splits"]["test"] == 0:
        print(
            "warning: test.parquet is empty (verl's validation needs rows: set --test-size)", file=sys.stderr
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "check":
            return _cmd_check(args)
        return _cmd_prepare(args)
    except src.PrepError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
