#!/usr/bin/env python3
"""Estimator spread of three MinHash permutation families on a corpus with exact pairs:
the engine's multiply-shift family, C-MinHash's circulant permutations and independent
hashing (issue 17, item 1). Picks disjoint pairs per Jaccard band as bench/accuracy/seed_sweep.py
does (same bands, same sampling), writes their texts and runs bench/family_bench.

  bench/accuracy/family_spread.py CORPUS.jsonl EXACT.tsv --family-bench build-cpu/family_bench
      [--seeds 1-8] [--num-perm 256] [--per-band 300] [--workdir family_spread]

EXACT.tsv comes from `gpudedup dedup CORPUS --id-field id --method exact --threshold 0.7
--all-pairs --pairs EXACT.tsv` (bench/accuracy/seed_sweep.py says more).
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_sweep import BANDS, disjoint_sample, read_pairs  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("exact_pairs")
    ap.add_argument("--family-bench", required=True)
    ap.add_argument("--seeds", default="1-8")
    ap.add_argument("--num-perm", type=int, default=256)
    ap.add_argument("--per-band", type=int, default=300)
    ap.add_argument("--workdir", default="family_spread")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    exact = list(read_pairs(a.exact_pairs))
    rng = random.Random(17)  # bench/accuracy/seed_sweep.py's sample
    samples = {band: disjoint_sample(exact, band[0], band[1], a.per_band, rng) for band in BANDS}
    index = {}
    for pairs in samples.values():
        for x, y, _ in pairs:
            index.setdefault(x, len(index))
            index.setdefault(y, len(index))
    texts = [None] * len(index)
    with open(a.corpus, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            r = json.loads(line)
            i = index.get(r.get("id"))
            if i is not None:
                texts[i] = r.get("text", "")
    missing = [d for d, i in index.items() if texts[i] is None]
    if missing:
        sys.exit(f"family_spread.py: {len(missing)} documents of {a.exact_pairs} are not in {a.corpus} "
                 f"(first: {missing[0]}); give the corpus the exact pairs were made from")
    texts_path = os.path.join(a.workdir, "texts.bin")
    with open(texts_path, "wb") as f:
        f.write(struct.pack("<I", len(texts)))
        for t in texts:
            b = t.encode("utf-8", "surrogateescape")
            f.write(struct.pack("<I", len(b)))
            f.write(b)
    pairs_path = os.path.join(a.workdir, "pairs.tsv")
    with open(pairs_path, "w") as f:
        for band, pairs in samples.items():
            label = f"[{band[0]:.1f},{min(band[1], 1.0):.1f}{']' if band[1] > 1 else ')'}"
            for x, y, s in pairs:
                f.write(f"{index[x]}\t{index[y]}\t{s!r}\t{label}\n")
    subprocess.run([a.family_bench, "--texts", texts_path, "--pairs", pairs_path, "--seeds", a.seeds,
                    "--num-perm", str(a.num_perm)], check=True)


if __name__ == "__main__":
    main()
