#!/usr/bin/env python3
"""SimHash as a filter plus verification (issue 17, item 3): recall and precision of
`dedup --method simhash` for each feature set, Hamming distance k and `--verify` mode,
against the exact join, with the definitions of bench/accuracy/check_accuracy.py (and of the
MinHash figures in docs/benchmarks.md):

  recall     share of exact pairs with Jaccard >= --high (0.85) whose two documents end
             in one cluster
  precision  share of the reported pairs (those that joined two clusters) whose exact
             Jaccard is >= --low (0.75)

The exact pairs come from
  gpudedup dedup CORPUS --id-field id --method exact --threshold T --all-pairs --pairs EXACT
with T at or below --threshold (char 5-grams, the shingles --verify uses by default).

usage: simhash_verify_table.py CORPUS.jsonl EXACT.tsv [--bin build-cpu/gpudedup]
           [--ks 3,6,10] [--verify none,estimate,exact] [--threshold 0.8]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_sweep import score_run  # noqa: E402

FEATURES = {
    "word tokens": [],
    "char 5-grams": ["--shingle", "char", "--ngram", "5"],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("exact_pairs")
    ap.add_argument("--bin", default="build-cpu/gpudedup")
    ap.add_argument("--ks", default="3,6,10")
    ap.add_argument("--verify", default="none,estimate,exact")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--high", type=float, default=0.85)
    ap.add_argument("--low", type=float, default=0.75)
    args = ap.parse_args()
    with open(args.exact_pairs, encoding="utf-8", errors="surrogateescape") as f:
        exact = [(a, b, float(s)) for a, b, s in (line.rstrip("\n").split("\t") for line in f)]
    tmp = tempfile.mkdtemp(prefix="simhash_verify_")
    print("| features | k | --verify | recall@0.85 | precision@0.75 | pairs reported | sketch s | candidates + cluster s |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for name, options in FEATURES.items():
        for k in args.ks.split(","):
            for verify in args.verify.split(","):
                pairs, stats = os.path.join(tmp, "pairs.tsv"), os.path.join(tmp, "stats.json")
                clusters = os.path.join(tmp, "clusters.jsonl")
                cmd = [args.bin, "dedup", args.corpus, "--id-field", "id", "--backend", "cpu", "--method", "simhash",
                       "--hamming", k, "--threshold", str(args.threshold), "--pairs", pairs, "--clusters", clusters,
                       "--stats", stats, "--quiet", "--verify", verify, *options]
                subprocess.run(cmd, check=True)
                recall, precision, _, _, _ = score_run(exact, args.high, args.low, clusters, pairs)
                with open(pairs) as f:
                    reported = sum(1 for _ in f)
                sec = json.load(open(stats))["seconds"]
                print(f"| {name} | {k} | {verify} | {recall:.4f} | {precision:.4f} | {reported} | "
                      f"{sec['sketch']:.2f} | {sec['candidates'] + sec['cluster']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
