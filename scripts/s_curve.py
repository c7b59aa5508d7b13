#!/usr/bin/env python3
"""S-curve check: theoretical LSH candidate probability 1-(1-s^r)^b against the rate
measured by `gpudedup dedup` on generated document pairs of known Jaccard.

Each pair is two documents of distinct one-word tokens (word 1-gram shingles) sharing
k of n tokens, so its Jaccard is exactly k / (2n - k); tokens are unique to the pair, so
pairs never mix. `dedup --verify none` keeps every candidate, so a pair is measured as
a candidate when its two documents end in one cluster.

usage: scripts/s_curve.py --bands 17 --rows 15 [--num-perm 256] [--pairs-per-point 200]
                          [--gpudedup build/gpudedup] [--output docs/s_curve.png]
Writes a PNG when matplotlib is installed (pip install matplotlib), and always prints
the table: similarity, theoretical, measured, pairs.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def candidate_probability(s, b, r):
    return 1.0 - (1.0 - s ** r) ** b


def make_pairs(points, per_point, n):
    """Yields (pair number, jaccard, text_a, text_b)."""
    number = 0
    for i in range(1, points + 1):
        target = i / points
        k = min(n, round(2 * n * target / (1 + target)))  # J = k / (2n - k)
        for _ in range(per_point):
            shared = [f"s{number}x{j}" for j in range(k)]
            a = shared + [f"a{number}x{j}" for j in range(n - k)]
            b = shared + [f"b{number}x{j}" for j in range(n - k)]
            yield number, k / (2 * n - k), " ".join(a), " ".join(b)
            number += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bands", type=int, required=True)
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--num-perm", type=int, default=256)
    ap.add_argument("--points", type=int, default=20, help="similarity levels in (0, 1]")
    ap.add_argument("--pairs-per-point", type=int, default=200)
    ap.add_argument("--set-size", type=int, default=200, help="tokens per document")
    ap.add_argument("--gpudedup", default="build/gpudedup")
    ap.add_argument("--output", default="docs/s_curve.png")
    args = ap.parse_args()
    if args.bands * args.rows > args.num_perm:
        sys.exit("--bands x --rows must be <= --num-perm")

    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "pairs.jsonl")
        clusters = os.path.join(tmp, "clusters.jsonl")
        jaccard = {}
        with open(corpus, "w") as f:
            for number, j, a, b in make_pairs(args.points, args.pairs_per_point, args.set_size):
                jaccard[number] = j
                f.write(json.dumps({"id": f"{number}a", "text": a}) + "\n")
                f.write(json.dumps({"id": f"{number}b", "text": b}) + "\n")
        cmd = [args.gpudedup, "dedup", corpus, "--id-field", "id", "--shingle", "word", "--ngram", "1",
               "--num-perm", str(args.num_perm), "--bands", str(args.bands), "--rows", str(args.rows),
               "--verify", "none", "--clusters", clusters, "--quiet"]
        print("$ " + " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        together = set()
        with open(clusters) as f:
            for line in f:
                members = json.loads(line)["members"]
                for m in members:
                    partner = m[:-1] + ("b" if m.endswith("a") else "a")
                    if partner in members:
                        together.add(int(m[:-1]))

    by_level = {}
    for number, j in jaccard.items():
        by_level.setdefault(round(j, 4), []).append(number in together)
    rows = []
    print(f"{'jaccard':>8} {'theory':>8} {'measured':>9} {'pairs':>6}")
    for j in sorted(by_level):
        hits = by_level[j]
        rows.append((j, candidate_probability(j, args.bands, args.rows), sum(hits) / len(hits)))
        print(f"{j:8.4f} {rows[-1][1]:8.4f} {rows[-1][2]:9.4f} {len(hits):6d}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot (pip install matplotlib)", file=sys.stderr)
        return
    xs = [i / 400 for i in range(401)]
    plt.figure(figsize=(6, 4))
    plt.plot(xs, [candidate_probability(x, args.bands, args.rows) for x in xs], label="theory 1-(1-s^r)^b")
    plt.plot([r[0] for r in rows], [r[2] for r in rows], "o", label=f"measured ({args.pairs_per_point} pairs/point)")
    plt.xlabel("Jaccard similarity s")
    plt.ylabel("P(candidate)")
    plt.title(f"LSH S-curve, b={args.bands} r={args.rows}, P={args.num_perm}")
    plt.grid(alpha=0.3)
    plt.legend()
    plt.tight_layout()
    plt.savefig(args.output, dpi=120)
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
