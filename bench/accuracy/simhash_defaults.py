#!/usr/bin/env python3
"""SimHash's defaults against MinHash's (docs/benchmarks.md, "SimHash defaults"): for
each threshold, `dedup --method minhash` and `dedup --method simhash` with no other
option (plus any --extra settings), run in turn, scored with the definitions of
check_accuracy.py at high = t + 0.05 and low = t - 0.05:

  recall     share of exact pairs with Jaccard >= high whose two documents end in one
             cluster
  precision  share of the reported pairs (those that joined two clusters) whose exact
             Jaccard is >= low

with the wall and CPU seconds and the peak memory of each run (GNU time), the k the run
chose and its pairs within k. The runs alternate (minhash, simhash, ...) --repeat times
and the median is printed, so a noisy shared machine slows both alike.

EXACT.tsv: `gpudedup dedup CORPUS --id-field id --method exact --threshold T --all-pairs
--pairs EXACT.tsv` with T at or below the lowest threshold - 0.05.

usage: simhash_defaults.py CORPUS.jsonl EXACT.tsv [--bin build-cpu/gpudedup]
           [--thresholds 0.7,0.8,0.9] [--repeat 1] [--extra "--weights tfidf"]...
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_sweep import score_run  # noqa: E402


def timed(cmd, tmp):
    """(wall s, cpu s, peak MiB) of one run."""
    out = os.path.join(tmp, "time.txt")
    subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", out, *cmd], check=True)
    wall, user, sys_, kb = open(out).read().split()[-4:]
    return float(wall), float(user) + float(sys_), int(kb) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("exact_pairs")
    ap.add_argument("--bin", default="build-cpu/gpudedup")
    ap.add_argument("--thresholds", default="0.7,0.8,0.9")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--extra", action="append", default=[], help="more simhash settings, one run each")
    args = ap.parse_args()
    with open(args.exact_pairs, encoding="utf-8", errors="surrogateescape") as f:
        exact = [(a, b, float(s)) for a, b, s in (line.rstrip("\n").split("\t") for line in f)]
    tmp = tempfile.mkdtemp(prefix="simhash_defaults_")
    print("| t | method | k | recall@t+0.05 | precision@t-0.05 | pairs reported | pairs within k "
          "| wall s | cpu s | peak MiB | wall / MinHash |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t in (float(x) for x in args.thresholds.split(",")):
        settings = [("minhash", ["--method", "minhash"]), ("simhash", ["--method", "simhash"])]
        settings += [(f"simhash {e}", ["--method", "simhash", *e.split()]) for e in args.extra]
        times = {name: [] for name, _ in settings}
        rows = {}
        for _ in range(args.repeat):
            for name, options in settings:
                pairs, clusters, stats = (os.path.join(tmp, n) for n in ("p.tsv", "c.jsonl", "s.json"))
                cmd = [args.bin, "dedup", args.corpus, "--id-field", "id", "--backend", "cpu", "--threshold", str(t),
                       "--pairs", pairs, "--clusters", clusters, "--stats", stats, "--quiet", *options]
                times[name].append(timed(cmd, tmp))
                recall, precision, _, _, _ = score_run(exact, round(t + 0.05, 4), round(t - 0.05, 4), clusters, pairs)
                with open(pairs) as f:
                    reported = sum(1 for _ in f)
                s = json.load(open(stats))
                rows[name] = (s.get("hamming", ""), recall, precision, reported,
                              s.get("candidate_pairs", "") if name != "minhash" else "")
        base = statistics.median(w for w, _, _ in times["minhash"])
        for name, _ in settings:
            wall = statistics.median(w for w, _, _ in times[name])
            cpu = statistics.median(c for _, c, _ in times[name])
            peak = max(m for _, _, m in times[name])
            k, recall, precision, reported, within = rows[name]
            print(f"| {t} | {name} | {k} | {recall:.4f} | {precision:.4f} | {reported} | {within} | {wall:.2f} | "
                  f"{cpu:.2f} | {peak:.0f} | {wall / base:.2f} |", flush=True)


if __name__ == "__main__":
    main()
