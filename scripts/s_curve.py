#!/usr/bin/env python3
"""S-curve check: theoretical LSH candidate probability 1-(1-s^r)^b against the rate
measured by `gpudedup dedup` on generated document pairs of known Jaccard.

Each pair is two documents of distinct one-word tokens (word 1-gram shingles) sharing
k of n tokens, so its Jaccard is exactly k / (2n - k); tokens are unique to the pair, so
pairs never mix. `dedup --verify none` keeps every candidate, so a pair is measured as
a candidate when its two documents end in one cluster. The S-curve depends only on the
Jaccard of the shingle sets, not on how the shingles were made, so word 1-grams (whose
Jaccard is exact by construction) measure the same curve as char 5-grams.

Without --bands/--rows, (b, r) is gpudedup's own choice for --threshold and --num-perm
(read from the run's stats.json), i.e. what `dedup` uses by default.

usage: scripts/s_curve.py [--threshold 0.8] [--num-perm 256] [--bands B --rows R] [--sketch classic|oph|fss]
                          [--points 40] [--pairs-per-point 1000] [--gpudedup build/gpudedup]
                          [--output docs/s_curve.png]
Prints the table (similarity, theoretical, measured, pairs, deviation in standard errors)
and plots both to --output with matplotlib (installed with pip when missing), or with
gnuplot (apt-get install gnuplot-nox) when pip cannot reach the registry.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile


def candidate_probability(s, b, r):
    return 1.0 - (1.0 - s ** r) ** b


def make_pairs(points, per_point, n):
    """Yields (pair number, jaccard, text_a, text_b) for points+1 levels 0, 1/points, ..., 1."""
    number = 0
    for i in range(0, points + 1):
        target = i / points
        k = min(n, round(2 * n * target / (1 + target)))  # J = k / (2n - k)
        for _ in range(per_point):
            shared = [f"s{number}x{j}" for j in range(k)]
            a = shared + [f"a{number}x{j}" for j in range(n - k)]
            b = shared + [f"b{number}x{j}" for j in range(n - k)]
            yield number, k / (2 * n - k), " ".join(a), " ".join(b)
            number += 1


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        pass
    print("matplotlib not installed: pip install matplotlib ...", file=sys.stderr)
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print("pip install matplotlib failed (registry unreachable?)", file=sys.stderr)
        return False
    import importlib
    importlib.invalidate_caches()
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False


def have_gnuplot():
    if shutil.which("gnuplot"):
        return True
    print("trying apt-get install gnuplot-nox ...", file=sys.stderr)
    for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "gnuplot-nox"]):
        subprocess.run(step, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return shutil.which("gnuplot") is not None


def plot_matplotlib(rows, args, b, r, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xs = [i / 400 for i in range(401)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(xs, [candidate_probability(x, b, r) for x in xs], "-", color="tab:blue",
            label=f"theory 1-(1-s^{r})^{b}")
    ax.errorbar([x[0] for x in rows], [x[2] for x in rows],
                yerr=[2 * math.sqrt(max(x[1] * (1 - x[1]), 1e-12) / x[3]) for x in rows],
                fmt="o", color="tab:red", markersize=4, capsize=2,
                label=f"measured, {args.pairs_per_point} pairs/point (±2σ of theory)")
    ax.axvline(args.threshold, color="gray", linestyle=":", label=f"threshold {args.threshold}")
    ax.set_xlabel("Jaccard similarity s of the pair")
    ax.set_ylabel("P(pair becomes a candidate)")
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.03, 1.03)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)


def plot_gnuplot(rows, args, b, r, title):
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "measured.dat")
        with open(data, "w") as f:
            for s, th, m, n, _ in rows:
                f.write(f"{s} {m} {2 * math.sqrt(max(th * (1 - th), 1e-12) / n)}\n")
        script = (f"set terminal png size 840,540 noenhanced\nset output '{args.output}'\n"
                  f"set title '{title}'\nset xlabel 'Jaccard similarity s of the pair'\n"
                  "set ylabel 'P(pair becomes a candidate)'\nset xrange [0:1]\nset yrange [-0.03:1.03]\n"
                  "set grid\nset key top left\n"
                  f"plot 1-(1-x**{r})**{b} with lines title 'theory 1-(1-s^{r})^{b}', "
                  f"'{data}' using 1:2:3 with yerrorbars pt 7 title 'measured (±2σ of theory)'\n")
        subprocess.run(["gnuplot"], input=script, text=True, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--bands", type=int, help="default: gpudedup's choice for --threshold")
    ap.add_argument("--rows", type=int, help="default: gpudedup's choice for --threshold")
    ap.add_argument("--num-perm", type=int, default=256)
    ap.add_argument("--points", type=int, default=40, help="similarity levels 0, 1/points, ..., 1")
    ap.add_argument("--pairs-per-point", type=int, default=1000)
    ap.add_argument("--set-size", type=int, default=200, help="tokens per document")
    ap.add_argument("--seed", type=int, default=1, help="gpudedup dedup --seed (permutation family)")
    ap.add_argument("--sketch", default="classic", help="gpudedup dedup --sketch (MinHash family: classic, oph or fss)")
    ap.add_argument("--gpudedup", default="build/gpudedup")
    ap.add_argument("--output", default="docs/s_curve.png")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args()
    if (args.bands is None) != (args.rows is None):
        sys.exit("s_curve.py: give both --bands and --rows, or neither")
    if args.bands is not None and args.bands * args.rows > args.num_perm:
        sys.exit("s_curve.py: --bands x --rows must be <= --num-perm")
    if not (os.path.isfile(args.gpudedup) and os.access(args.gpudedup, os.X_OK)):
        sys.exit(f"s_curve.py: gpudedup binary not found: {args.gpudedup} (build it, or pass --gpudedup)")

    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "pairs.jsonl")
        clusters = os.path.join(tmp, "clusters.jsonl")
        stats_path = os.path.join(tmp, "stats.json")
        jaccard = {}
        with open(corpus, "w") as f:
            for number, j, a, b in make_pairs(args.points, args.pairs_per_point, args.set_size):
                jaccard[number] = j
                f.write(json.dumps({"id": f"{number}a", "text": a}) + "\n")
                f.write(json.dumps({"id": f"{number}b", "text": b}) + "\n")
        cmd = [args.gpudedup, "dedup", corpus, "--id-field", "id", "--shingle", "word", "--ngram", "1",
               "--num-perm", str(args.num_perm), "--threshold", str(args.threshold),
               "--seed", str(args.seed), "--sketch", args.sketch, "--verify", "none", "--clusters", clusters,
               "--stats", stats_path, "--quiet"]
        if args.bands is not None:
            cmd += ["--bands", str(args.bands), "--rows", str(args.rows)]
        print("$ " + " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(stats_path) as f:
            stats = json.load(f)
        b, r = stats["bands"], stats["rows"]
        together = set()
        mixed = 0
        with open(clusters) as f:
            for line in f:
                members = json.loads(line)["members"]
                if len(members) != 2 or members[0][:-1] != members[1][:-1]:
                    mixed += 1  # documents of different pairs joined: cannot happen by design
                    continue
                together.add(int(members[0][:-1]))

    by_level = {}
    for number, j in jaccard.items():
        by_level.setdefault(round(j, 6), []).append(number in together)
    rows = []
    print(f"b={b} r={r} P={args.num_perm} ({stats['lsh_choice']}), threshold {args.threshold}; "
          f"{len(jaccard)} pairs, {stats['candidate_pairs']} candidate pairs, {mixed} mixed clusters")
    print(f"{'jaccard':>8} {'theory':>8} {'measured':>9} {'pairs':>6} {'dev/σ':>7}")
    worst = 0.0
    for j in sorted(by_level):
        hits = by_level[j]
        th = candidate_probability(j, b, r)
        meas = sum(hits) / len(hits)
        sigma = math.sqrt(th * (1 - th) / len(hits))
        dev = (meas - th) / sigma if sigma > 0 else (0.0 if meas == th else float("inf"))
        worst = max(worst, abs(dev))
        rows.append((j, th, meas, len(hits), dev))
        print(f"{j:8.4f} {th:8.4f} {meas:9.4f} {len(hits):6d} {dev:7.2f}")
    print(f"largest deviation: {worst:.2f} standard errors of the binomial")

    if args.no_plot:
        return
    title = f"LSH S-curve: b={b} bands x r={r} rows, P={args.num_perm}, threshold {args.threshold}"
    if have_matplotlib():
        plot_matplotlib(rows, args, b, r, title)
    elif have_gnuplot():
        plot_gnuplot(rows, args, b, r, title)
    else:
        print("no plot: neither matplotlib (pip) nor gnuplot (apt) could be installed", file=sys.stderr)
        return
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
