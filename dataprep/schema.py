"""verl 0.9.1 RLHFDataset row schema, text normalisation, and atomic deterministic Parquet writing.

A row that verl's ``RLHFDataset`` reads (``verl/utils/dataset/rl_dataset.py``)::

    data_source   str                         picks the reward function
    prompt        list<{role: str, content: str}>   fed to tokenizer.apply_chat_template
    ability       str                         "math"
    reward_model  {style: str, ground_truth: str}
    extra_info    {split: str, index: int64, ...source fields}

Kept free of heavy imports (only pyarrow) so ``prepare.py synthetic`` starts fast.
"""

from __future__ import annotations

import hashlib
import unicodedata
from pathlib import Path
from typing import Any

import pyarrow as pa

TOOL_VERSION = "1.0.0"
ROW_GROUP_SIZE = 8192

MESSAGE_TYPE = pa.struct([("role", pa.string()), ("content", pa.string())])
PROMPT_TYPE = pa.list_(MESSAGE_TYPE)
REWARD_MODEL_TYPE = pa.struct([("style", pa.string()), ("ground_truth", pa.string())])
BASE_EXTRA_FIELDS: list[tuple[str, pa.DataType]] = [("split", pa.string()), ("index", pa.int64())]
REQUIRED_COLUMNS = ("data_source", "prompt", "ability", "reward_model", "extra_info")


def extra_info_type(source_fields: list[tuple[str, pa.DataType]]) -> pa.StructType:
    """The ``extra_info`` struct: ``split``, ``index``, then the source's own fields."""
    return pa.struct(BASE_EXTRA_FIELDS + source_fields)


def row_schema(source_fields: list[tuple[str, pa.DataType]]) -> pa.Schema:
    """The full output schema for a source whose extra_info carries ``source_fields``."""
    return pa.schema(
        [
            ("data_source", pa.string()),
            ("prompt", PROMPT_TYPE),
            ("ability", pa.string()),
            ("reward_model", REWARD_MODEL_TYPE),
            ("extra_info", extra_info_type(source_fields)),
        ]
    )


def normalise_problem(text: str) -> str:
    """Normalised problem text for dedup/decontamination: NFKC, case-folded, whitespace collapsed."""
    if not text.isascii():  # ASCII text is already NFKC
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.casefold().split())


def problem_key(text: str) -> int:
    """A 64-bit key of the normalised problem (a set of ints stays small on multi-million-row sets)."""
    digest = hashlib.blake2b(normalise_problem(text).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def file_sha256(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


# Fixed writer settings: with the same rows in the same batches, pyarrow writes the same bytes
# (no pandas metadata, no timestamps; "created_by" names the pyarrow version, which the manifest records).
WRITER_KW: dict[str, Any] = {
    "compression": "zstd",
    "compression_level": 3,
    "use_dictionary": True,
    "write_statistics": True,
}
