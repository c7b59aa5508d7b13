#!/usr/bin/env python3
"""SimHash on a real corpus: exactness of the Hamming search and quality against the
exact join (issue 4's acceptance).

1. `gpudedup sketch --method simhash --format tsv` gives the fingerprints; a brute-force
   numpy search lists every pair within k; `gpudedup dedup --method simhash --all-pairs
   --pairs` must list exactly the same pairs with the same distances.
2. For k in --ks and weights tf/tfidf: pair-level precision and recall of "within
   Hamming distance k" against the exact join's pairs at --threshold, and the
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
    run(base + ["dedup", "--method", "simhash", "--hamming", str(args.check_k), "--verify", "none", "--all-pairs", "--quiet",
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

    # 2. Pair-level quality against the exact join: precision = share of the pairs within
    #    Hamming k whose exact Jaccard is >= threshold; recall = share of the exact pairs
    #    (Jaccard >= threshold) whose fingerprints are within k. (Cluster-level scores
    #    would be dominated by the giant components that chaining makes in this corpus.)
    truth = set()
    with open(args.exact_pairs, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            a, b, sim = line.rstrip("\n").split("\t")
            if float(sim) >= args.threshold:
                truth.add((index[a], index[b]))
    ks = [int(x) for x in args.ks.split(",")]
    print(f"\nexact pairs with Jaccard >= {args.threshold}: {len(truth)}")
    print("\n| weights | k | fingerprint s | search + cluster s | pairs within k | precision | recall | F1 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for weights in ("tf", "tfidf"):
        wfp = os.path.join(tmp, f"fp_{weights}.tsv")
        run(base + ["sketch", "--method", "simhash", "--format", "tsv", "--weights", weights, "--quiet",
                    args.corpus, "-o", wfp] + idf)
        with open(wfp, encoding="utf-8", errors="surrogateescape") as f:
            wfps = [int(line.rstrip("\n").split("\t")[1], 16) for line in f]
        within = brute_force(np.array(wfps, dtype=np.uint64), max(ks))
        within = {p: d for p, d in within.items() if wfps[p[0]] != 0 and wfps[p[1]] != 0}
        for k in ks:
            stats = os.path.join(tmp, "stats.json")
            run(base + ["dedup", "--method", "simhash", "--weights", weights, "--hamming", str(k), "--verify", "none", "--quiet",
                        args.corpus, "--stats", stats] + idf)
            sec = json.load(open(stats))["seconds"]
            found = {p for p, d in within.items() if d <= k}
            good = len(found & truth)
            precision = good / len(found) if found else 1.0
            recall = good / len(truth) if truth else 1.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            print(f"| {weights} | {k} | {sec['sketch']:.2f} | {sec['candidates'] + sec['cluster']:.2f} | "
                  f"{len(found)} | {precision:.4f} | {recall:.4f} | {f1:.4f} |")

if __name__ == "__main__":
    main()
