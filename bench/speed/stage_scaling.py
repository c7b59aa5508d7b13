#!/usr/bin/env python3
"""bench/speed/stage_scaling.py: per-stage seconds of `gpudedup dedup` at 1 and 2 (or more)
threads, for one build or two side by side, interleaved round by round.

Each round runs every build at every thread count in turn (build A at T1, A at T2, B at T1,
B at T2, ...), reading the stages from --stats; the report gives each stage's median, the
median of the paired T1/Tn wall ratios (same round, same build) and the candidate stage's
own ratio. Interleaving keeps the ratios meaningful on a machine whose speed drifts.

usage: bench/speed/stage_scaling.py CORPUS --build A [--build B] [--threads 1,2] [--rounds 10]
       [-- extra dedup options]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

STAGES = ["read", "sketch", "candidates", "write", "total"]


def run_once(build, corpus, threads, extra, workdir):
    stats = os.path.join(workdir, "stats.json")
    cmd = [build, "dedup", corpus, "-o", os.path.join(workdir, "kept.jsonl"), "--threads", str(threads), "-q",
           "--stats", stats] + extra
    t0 = time.monotonic()
    subprocess.run(cmd, check=True)
    wall = time.monotonic() - t0
    with open(stats) as f:
        seconds = json.load(f)["seconds"]
    seconds["wall"] = wall
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("--build", action="append", required=True, help="a gpudedup program (repeat for two)")
    ap.add_argument("--threads", default="1,2", help="thread counts, the first is the base (default 1,2)")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("extra", nargs="*", help="more dedup options (after --)")
    args = ap.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    runs = {(b, t): [] for b in args.build for t in counts}
    with tempfile.TemporaryDirectory() as workdir:
        for _ in range(args.rounds):
            for b in args.build:
                for t in counts:
                    runs[(b, t)].append(run_once(b, args.corpus, t, args.extra, workdir))
    keys = STAGES + ["wall"]
    print(f"{args.corpus}, {args.rounds} rounds; seconds are medians")
    for b in args.build:
        for t in counts:
            r = runs[(b, t)]
            print(f"{b} T{t}: " + ", ".join(f"{k} {statistics.median(x[k] for x in r):.3f}" for k in keys))
        base = runs[(b, counts[0])]
        for t in counts[1:]:
            other = runs[(b, t)]
            wall = [x["wall"] / y["wall"] for x, y in zip(base, other)]
            cand = [x["candidates"] / y["candidates"] for x, y in zip(base, other)]
            sketch = [x["sketch"] / y["sketch"] for x, y in zip(base, other)]
            print(f"{b} T{counts[0]}/T{t}: wall {statistics.median(wall):.3f} (pairs {min(wall):.2f}-{max(wall):.2f}), "
                  f"sketch {statistics.median(sketch):.2f}, candidates {statistics.median(cand):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
