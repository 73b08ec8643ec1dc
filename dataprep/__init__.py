"""Data preparation: GSM8K, Omni-MATH and any JSONL/JSON/Parquet/CSV/hub data -> verl Parquet.

Entry: ``python -m dataprep {gsm8k,omni-math,custom,synthetic,check} ...`` (``prepare.py``).
``sources`` reads inputs, ``templates`` builds prompts, ``schema`` is verl's row schema,
``tokens`` applies the chat template as verl's RLHFDataset does, ``check`` validates Parquet files.
"""
