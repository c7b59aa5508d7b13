#!/usr/bin/env python3
"""SimHash on a real corpus: exactness of the Hamming search and quality against the
exact join (issue 4's acceptance).

1. `gpudedup sketch --method simhash --format tsv` gives the fingerprints; a brute-force
   numpy search lists every pair within k; `gpudedup dedup --method simhash --all-pairs
   --pairs` must list exactly the same pairs with the same distances.
2. For k in --ks and weights tf/tfidf: pair precision and recall of SimHash's clusters
   against the exact join's pairs at --threshold (scored by `gpudedup eval`), and the
   fingerprint + search seconds from stats.json.

usage: simhash_report.py CORPUS.jsonl EXACT_PAIRS.tsv [--binary build/gpudedup]
EXACT_PAIRS.tsv: `gpudedup dedup --method exact --all-pairs --pairs` at or below --threshold.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    return r.stdout


def popcount64(v):
    v = v - ((v >> np.uint64(1)) & np.uint64(0x5555555555555555))
    v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
    v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (v * np.uint64(0x0101010101010101)) >> np.uint64(56)


def brute_force(fps, k):
    """Every pair (i < j) with popcount(fps[i] ^ fps[j]) <= k, as {(i, j): d}."""
    out = {}
    n = len(fps)
    for i in range(n - 1):
        d = popcount64(fps[i + 1:] ^ fps[i])
        for j in np.nonzero(d <= k)[0]:
            out[(i, i + 1 + int(j))] = int(d[j])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("exact_pairs")
    ap.add_argument("--binary", default="build/gpudedup")
    ap.add_argument("--id-field", default="id")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--ks", default="3,6,10")
    ap.add_argument("--check-k", type=int, default=3, help="k of the brute-force comparison")
    args = ap.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary}: no gpudedup binary; build it with scripts/build or pass --binary")
    base = [args.binary]
    idf = ["--id-field", args.id_field]
    tmp = tempfile.mkdtemp(prefix="simhash_report_")

    # 1. The search equals brute force over the same fingerprints.
    fp_path = os.path.join(tmp, "fp.tsv")
    run(base + ["sketch", "--method", "simhash", "--format", "tsv", "--quiet", args.corpus, "-o", fp_path] + idf)
    ids, fps = [], []
    with open(fp_path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            i, h = line.rstrip("\n").split("\t")
            ids.append(i)
            fps.append(int(h, 16))
    index = {i: n for n, i in enumerate(ids)}
    expected = brute_force(np.array(fps, dtype=np.uint64), args.check_k)
    expected = {p: d for p, d in expected.items() if fps[p[0]] != 0 and fps[p[1]] != 0}  # empty docs
    pairs_path = os.path.join(tmp, "pairs.tsv")
    run(base + ["dedup", "--method", "simhash", "--hamming", str(args.check_k), "--all-pairs", "--quiet",
                args.corpus, "--pairs", pairs_path] + idf)
    got = {}
    with open(pairs_path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            a, b, d = line.rstrip("\n").split("\t")
            got[(index[a], index[b])] = int(d)
    missing = len(set(expected) - set(got))
    extra = len(set(got) - set(expected))
    wrong = sum(1 for p in set(got) & set(expected) if got[p] != expected[p])
    print(f"brute force, k={args.check_k}: {len(expected)} pairs; dedup reported {len(got)}: "
          f"missing {missing}, extra {extra}, wrong distance {wrong}")

    # 2. Quality against the exact join.
    truth = os.path.join(tmp, "truth.tsv")
    with open(args.exact_pairs, encoding="utf-8", errors="surrogateescape") as f, \
            open(truth, "w", encoding="utf-8", errors="surrogateescape") as out:
        for line in f:
            if float(line.rsplit("\t", 1)[1]) >= args.threshold:
                out.write(line)
    print(f"\n| weights | k | fingerprint s | search + cluster s | precision | recall | F1 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for weights in ("tf", "tfidf"):
        for k in [int(x) for x in args.ks.split(",")]:
            clusters = os.path.join(tmp, "clusters.jsonl")
            stats = os.path.join(tmp, "stats.json")
            run(base + ["dedup", "--method", "simhash", "--weights", weights, "--hamming", str(k), "--quiet",
                        args.corpus, "--clusters", clusters, "--stats", stats] + idf)
            last = run(base + ["eval", "--truth-pairs", truth, "--clusters", clusters,
                               "--documents", str(len(ids))]).strip().splitlines()[-1]
            m = dict(kv.split("=") for kv in last.split())
            sec = json.load(open(stats))["seconds"]
            print(f"| {weights} | {k} | {sec['sketch']:.2f} | {sec['candidates'] + sec['cluster']:.2f} | "
                  f"{float(m['precision']):.4f} | {float(m['recall']):.4f} | {float(m['f1']):.4f} |")


if __name__ == "__main__":
    main()
