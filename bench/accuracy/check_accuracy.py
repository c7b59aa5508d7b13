#!/usr/bin/env python3
"""Scores a MinHash run against the exact similarity join, as issue 2's acceptance asks.

  recall:    share of exact pairs with Jaccard >= --high (0.85) whose two documents end
             in one MinHash cluster
  precision: share of the pairs MinHash reported (--pairs) whose exact Jaccard is
             >= --low (0.75)

The exact pairs come from
  gpudedup dedup --method exact --threshold LOW --all-pairs --pairs exact.tsv ...
which lists every pair at or above LOW, so a reported pair missing from it is below LOW.

usage: check_accuracy.py EXACT_PAIRS.tsv MINHASH_CLUSTERS.jsonl MINHASH_PAIRS.tsv
"""
import argparse
import json


def read_pairs(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            a, b, s = line.rstrip("\n").split("\t")
            yield a, b, float(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("exact_pairs")
    ap.add_argument("clusters")
    ap.add_argument("pairs")
    ap.add_argument("--high", type=float, default=0.85)
    ap.add_argument("--low", type=float, default=0.75)
    args = ap.parse_args()

    cluster_of = {}
    with open(args.clusters, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            c = json.loads(line)
            for m in c["members"]:
                cluster_of[m] = c["cluster"]

    exact = {}
    for a, b, s in read_pairs(args.exact_pairs):
        exact[(a, b)] = s
    high = [(a, b) for (a, b), s in exact.items() if s >= args.high]
    together = sum(1 for a, b in high if a in cluster_of and cluster_of.get(a) == cluster_of.get(b))
    reported = list(read_pairs(args.pairs))
    good = sum(1 for a, b, _ in reported if exact.get((a, b), 0.0) >= args.low)

    recall = together / len(high) if high else 1.0
    precision = good / len(reported) if reported else 1.0
    print(f"exact pairs >= {args.high}: {len(high)}, in one MinHash cluster: {together}")
    print(f"reported pairs: {len(reported)}, with exact Jaccard >= {args.low}: {good}")
    print(f"recall@{args.high}={recall:.4f} precision@{args.low}={precision:.4f}")


if __name__ == "__main__":
    main()
