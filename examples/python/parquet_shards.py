#!/usr/bin/env python3
"""Deduplicate a corpus kept as Parquet shards (pandas/PyArrow), shard by shard:

    python examples/python/parquet_shards.py OUT_DIR SHARD.parquet [...] [--keep longest]

1. sketch: each shard's text column is read with pyarrow and added to one gpudedup.Engine
   (Arrow strings go to the engine from their buffers; the texts are not kept);
2. dedup: Engine.finish() finds, verifies (by the estimate: the engine holds no texts, so
   its answer is gpudedup.dedup(..., verify="estimate")'s) and clusters the near-duplicates
   of all shards and picks the row kept of each cluster (--keep: first, longest, shortest, none);
3. filter: each shard is read again and written to OUT_DIR with its kept rows only
   (pyarrow's Table.filter with the slice of the keep mask that is that shard's).
Null texts are kept (counted as skipped). Memory: one shard at a time plus the engine's
signatures (4 bytes x num_perm per text).
"""
import argparse
import os
import sys
from typing import Dict, List

import pyarrow.parquet as pq

import gpudedup


def dedup_shards(shards: List[str], out_dir: str, column: str = "text", **options) -> Dict[str, int]:
    engine = gpudedup.Engine(**options)
    starts = []
    for path in shards:  # 1. sketch, shard by shard
        starts.append(engine.add(pq.read_table(path, columns=[column])[column]))
    result = engine.finish()  # 2. candidates, verification, clusters over all shards
    os.makedirs(out_dir, exist_ok=True)
    ends = starts[1:] + [len(engine)]
    for path, start, end in zip(shards, starts, ends):  # 3. filter each shard
        table = pq.read_table(path)
        pq.write_table(table.filter(result.keep[start:end]), os.path.join(out_dir, os.path.basename(path)))
    return {k: result.stats[k] for k in ("records", "kept", "removed", "skipped", "clusters")}


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("shards", nargs="+")
    ap.add_argument("--column", default="text")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--keep", default="first", choices=["first", "longest", "shortest", "none"])
    a = ap.parse_args(argv)
    print(dedup_shards(a.shards, a.out_dir, a.column, threshold=a.threshold, keep=a.keep))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
