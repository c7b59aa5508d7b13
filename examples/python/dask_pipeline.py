#!/usr/bin/env python3
"""Near-duplicates of a Dask DataFrame's text column: the sketch stage on Dask's workers,
the engine's candidate, verification and cluster stages on the driver:

    python examples/python/dask_pipeline.py CORPUS.parquet [--threshold 0.8] [--keep longest]

1. sketch (map_partitions, in parallel): gpudedup.sketch_documents() of each partition's
   texts: the MinHash signatures as P uint32 columns, and each text's set size, length and
   whether it is null (the engine releases the GIL, so Dask's threaded scheduler runs
   partitions on all cores; a distributed cluster runs them on its workers);
2. candidates, verification, clusters (driver): each partition's rows, in partition order,
   go to one gpudedup.Engine with Engine.add_signatures(); finish() runs the engine's own
   candidate stage (band keys, buckets; a GPU's when there is one), verification and
   clustering, and applies the keep policy: the answer gpudedup.dedup(texts, num_perm=P,
   verify="estimate") gives on the same column (the driver holds no texts, so its
   verification is the estimate; dedup()'s default reads borderline pairs' texts again).
Null texts are counted as skipped and kept. The engine on the driver holds 4 x P bytes per
text (the signatures), never the texts. The driver's Engine must be made with the num_perm,
seed and shingles the workers sketched with (only num_perm is checked).
"""
import argparse
import sys
from typing import List

import numpy as np
import pandas as pd

import gpudedup

ROW_COLUMNS = ["set_size", "text_bytes", "missing"]


def sketch_partition(part: pd.DataFrame, column: str, num_perm: int, seed: int) -> pd.DataFrame:
    """The sketch stage of one partition: P signature columns h0.., then ROW_COLUMNS."""
    s = gpudedup.sketch_documents(part[column], num_perm=num_perm, seed=seed)
    out = pd.DataFrame(s.signatures, index=part.index, columns=[f"h{i}" for i in range(num_perm)])
    out["set_size"], out["text_bytes"], out["missing"] = s.set_sizes, s.text_bytes, s.missing
    return out


def add_partition(engine: gpudedup.Engine, part: pd.DataFrame, num_perm: int) -> None:
    """A sketched partition into the driver's engine, its rows after those added before."""
    engine.add_signatures(part.iloc[:, :num_perm].to_numpy(np.uint32), part["set_size"].to_numpy(np.uint32),
                          part["text_bytes"].to_numpy(np.uint64), part["missing"].to_numpy(bool))


def dedup_dask(frame, column: str = "text", threshold: float = 0.8, num_perm: int = 128, seed: int = 1,
               keep: str = "first", scheduler: str = "threads", **engine_options) -> gpudedup.DedupResult:
    """The DedupResult of a dask.dataframe.DataFrame's rows, in partition order."""
    import dask

    meta = pd.DataFrame({f"h{i}": pd.Series(dtype=np.uint32) for i in range(num_perm)})
    meta["set_size"], meta["text_bytes"] = pd.Series(dtype=np.uint32), pd.Series(dtype=np.uint64)
    meta["missing"] = pd.Series(dtype=bool)
    sketched = frame.map_partitions(sketch_partition, column, num_perm, seed, meta=meta)
    engine = gpudedup.Engine(threshold=threshold, num_perm=num_perm, seed=seed, keep=keep, **engine_options)
    # Every partition is sketched in parallel; their rows reach the engine in partition
    # order, so that positions are row numbers of the whole frame.
    for part in dask.compute(*sketched.to_delayed(), scheduler=scheduler):
        add_partition(engine, part, num_perm)
    return engine.finish()


def main(argv: List[str]) -> int:
    import dask.dataframe as dd

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("parquet")
    ap.add_argument("--column", default="text")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--keep", default="first", choices=["first", "longest", "shortest", "none"])
    a = ap.parse_args(argv)
    result = dedup_dask(dd.read_parquet(a.parquet, columns=[a.column]), a.column, a.threshold, keep=a.keep)
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
