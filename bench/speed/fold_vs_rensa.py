#!/usr/bin/env python3
"""The MinHash fold alone, one thread: gpudedup's (bench/fold_bench) against rensa's
RMinHash on the same pre-hashed shingle sets (issue 17, item 1: "the sketch must not get
slower").

The sets are the distinct char k-grams of the first --documents texts of a JSONL corpus,
each hashed to 64 bits (blake2b; the values do not change the time, the sizes do). They
are written to WORKDIR/sets.bin for fold_bench, and given to rensa as flat numpy arrays
(RMinHash.digest_matrix_from_flat_token_hashes, rensa's bulk path for pre-hashed input).
Both sides are timed by CPU time on one thread (RAYON_NUM_THREADS=1), best of --repeat
(a fresh copy of the input each time, so no cache can answer a repeat).

The "definition check" column is the mean over documents of (mean signature value x set
size / 2^32): about 1 when every value is a minimum over the whole set, as in classic
MinHash (and gpudedup, whose paths tests compare with the definition). rensa 0.5 gives
about P/4: each token updates about 4 of the P slots, a different sketch whose cost does
not grow with P per token, so its ns per pair is not work per pair there
(docs/performance.md).

  bench/speed/fold_vs_rensa.py CORPUS.jsonl --fold-bench build-cpu/fold_bench [--documents 4000]
      [--perms 64,128,256] [--k 5] [--repeat 3] [--workdir /tmp/fold_vs_rensa]

rensa comes from PyPI (bench/speed/compare_compat_setup makes a virtual environment with it).
"""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import time

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # before rensa starts its thread pool


def shingle_sets(path, documents, k):
    sets = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if len(sets) == documents:
                break
            text = json.loads(line).get("text", "")
            grams = {text[i:i + k] for i in range(max(0, len(text) - k + 1))}
            sets.append(sorted(int.from_bytes(hashlib.blake2b(g.encode("utf-8", "surrogateescape"),
                                                              digest_size=8).digest(), "little")
                               for g in grams))
    return sets


def write_sets(sets, path):
    offsets = [0]
    for s in sets:
        offsets.append(offsets[-1] + len(s))
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(sets)))
        f.write(struct.pack(f"<{len(offsets)}Q", *offsets))
        for s in sets:
            f.write(struct.pack(f"<{len(s)}Q", *s))
    return offsets


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("corpus")
    p.add_argument("--fold-bench", required=True, help="the fold_bench binary of a build")
    p.add_argument("--documents", type=int, default=4000)
    p.add_argument("--perms", default="64,128,256")
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--workdir", default="/tmp/fold_vs_rensa")
    a = p.parse_args()
    try:
        import importlib.metadata
        import numpy as np
        from rensa import RMinHash
    except ImportError as e:
        sys.exit(f"fold_vs_rensa.py: {e}; run it with the Python of bench/speed/compare_compat_setup")

    os.makedirs(a.workdir, exist_ok=True)
    sets = shingle_sets(a.corpus, a.documents, a.k)
    sets_path = os.path.join(a.workdir, "sets.bin")
    offsets = write_sets(sets, sets_path)
    flat = np.fromiter((h for s in sets for h in s), dtype=np.uint64, count=offsets[-1])
    offs = np.asarray(offsets, dtype=np.uint64)
    shingles = offsets[-1]
    print(f"{len(sets)} documents of {a.corpus}, {shingles} distinct char {a.k}-grams; "
          f"rensa {importlib.metadata.version('rensa')}; one thread; best of {a.repeat}\n")

    print("## rensa (RMinHash.digest_matrix_from_flat_token_hashes)\n")
    print("| P | CPU seconds | ns per (shingle, permutation) | definition check |\n|---:|---:|---:|---:|")
    perms = [int(x) for x in a.perms.split(",")]
    sizes = np.diff(offs).astype(np.float64)
    for P in perms:
        best = float("inf")
        for r in range(a.repeat):
            fresh = flat.copy()
            fresh[0] ^= np.uint64(r + 1)
            t0 = time.process_time()
            matrix = RMinHash.digest_matrix_from_flat_token_hashes(fresh, offs, P, 1)
            best = min(best, time.process_time() - t0)
        values = np.asarray(matrix.to_rows(), dtype=np.float64)
        check = float(np.mean(values[sizes > 0].mean(axis=1) * sizes[sizes > 0] / 2**32))
        print(f"| {P} | {best:.3f} | {best * 1e9 / (shingles * P):.4f} | {check:.2f} |")

    print("\n## gpudedup (bench/fold_bench, the same sets)\n")
    sys.stdout.flush()
    subprocess.run([a.fold_bench, "--sets", sets_path, "--perms", a.perms, "--repeat", str(a.repeat)], check=True)


if __name__ == "__main__":
    main()
