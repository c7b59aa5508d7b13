#!/usr/bin/env python3
"""Writes a JSONL corpus as Parquet (columns id, text), for the reading benchmark
(docs/benchmarks.md). Run with the pyarrow of scripts/install-deps:
    .deps/arrow-venv/bin/python bench/data/jsonl_to_parquet.py IN.jsonl OUT.parquet [ROWS_PER_GROUP]"""
import sys

import pyarrow as pa
import pyarrow.json as pj
import pyarrow.parquet as pq

src, dst = sys.argv[1], sys.argv[2]
rows = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
schema = pa.schema([("id", pa.string()), ("text", pa.string())])
table = pj.read_json(src, parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"))
pq.write_table(table, dst, row_group_size=rows, compression="snappy")
print(f"{dst}: {table.num_rows} rows, {pq.ParquetFile(dst).metadata.num_row_groups} row groups")
