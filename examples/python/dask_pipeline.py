#!/usr/bin/env python3
"""Near-duplicates of a Dask DataFrame's text column, the sketch stage spread over Dask's
workers and the candidate stage after it on the driver:

    python examples/python/dask_pipeline.py CORPUS.parquet [--threshold 0.8]

1. sketch (map_partitions, in parallel): gpudedup.sketch() of each partition's texts, the
   MinHash signatures as P uint32 columns (the engine releases the GIL, so Dask's
   threaded scheduler runs partitions on all cores);
2. candidates (driver): the signatures in gpudedup.compat.MinHashLSH, which buckets them
   by the engine's band keys with the engine's bands and rows for the threshold; a
   candidate pair is kept when its estimated Jaccard (share of equal values) reaches the
   threshold, as dedup()'s default verify="estimate" does;
3. clusters: connected components of the kept pairs, the first text of each in input
   order kept: the answer gpudedup.dedup(texts, num_perm=P) gives on the same column.
Null texts are kept (signature of the empty text: never a candidate).
"""
import argparse
import sys
from typing import List

import numpy as np
import pandas as pd

import gpudedup
from gpudedup.compat import MinHash, MinHashLSH

EMPTY = np.uint32(0xFFFFFFFF)


def sketch_partition(part: pd.DataFrame, column: str, num_perm: int, seed: int) -> pd.DataFrame:
    sigs = gpudedup.sketch(part[column], num_perm=num_perm, seed=seed)
    return pd.DataFrame(sigs, index=part.index, columns=[f"h{i}" for i in range(num_perm)])


def candidate_stage(sigs: np.ndarray, threshold: float, seed: int) -> np.ndarray:
    """The keep mask of the texts whose signatures are the rows of `sigs`."""
    n, num_perm = sigs.shape
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        if (sigs[i] == EMPTY).all():
            continue  # an empty or null text: never a duplicate
        m = MinHash(seed=seed, hashvalues=sigs[i])
        for j in lsh.query(m):
            if np.count_nonzero(sigs[i] == sigs[j]) / num_perm >= threshold:
                a, b = root(i), root(j)
                parent[max(a, b)] = min(a, b)  # the first in input order represents
        lsh.insert(i, m)
    return np.array([root(i) == i for i in range(n)], dtype=bool)


def dedup_dask(frame, column: str = "text", threshold: float = 0.8, num_perm: int = 128, seed: int = 1,
               scheduler: str = "threads") -> np.ndarray:
    """The keep mask of a dask.dataframe.DataFrame's rows, in partition order."""
    meta = pd.DataFrame({f"h{i}": pd.Series(dtype=np.uint32) for i in range(num_perm)})
    sketched = frame.map_partitions(sketch_partition, column, num_perm, seed, meta=meta)
    sigs = np.ascontiguousarray(sketched.compute(scheduler=scheduler).to_numpy(dtype=np.uint32))
    return candidate_stage(sigs, threshold, seed)


def main(argv: List[str]) -> int:
    import dask.dataframe as dd

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("parquet")
    ap.add_argument("--column", default="text")
    ap.add_argument("--threshold", type=float, default=0.8)
    a = ap.parse_args(argv)
    keep = dedup_dask(dd.read_parquet(a.parquet, columns=[a.column]), a.column, a.threshold)
    print(f"{int(keep.sum())} of {len(keep)} texts kept")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
