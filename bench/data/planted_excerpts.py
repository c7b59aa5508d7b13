#!/usr/bin/env python3
"""Plants excerpts in a corpus, for the containment search (docs/benchmarks.md, "Containment search").

Copies every record of SOURCE and adds, for --excerpts sources drawn at random, one
excerpt each: a contiguous span of 5%-100% of the source's words (the share drawn
log-uniformly, so short excerpts are as common as long ones), with --edits words
replaced. Ids are "excerpt-N-of-ID". Truth comes from the exact join, not from here.

usage: planted_excerpts.py SOURCE.jsonl OUT.jsonl [--excerpts N] [--seed S] [--edits K]
"""
import argparse
import json
import math
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("out")
    ap.add_argument("--excerpts", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--edits", type=int, default=1)
    ap.add_argument("--min-share", type=float, default=0.05)
    ap.add_argument("--min-words", type=int, default=400, help="sources at least this long")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    records = [json.loads(line) for line in open(args.source, encoding="utf-8")]
    long_enough = [r for r in records if len(r["text"].split()) >= args.min_words]
    with open(args.out, "w", encoding="utf-8") as out:
        for r in records:
            out.write(json.dumps({"id": r["id"], "text": r["text"]}, ensure_ascii=False) + "\n")
        for n, src in enumerate(rng.sample(long_enough, min(args.excerpts, len(long_enough)))):
            words = src["text"].split()
            share = math.exp(rng.uniform(math.log(args.min_share), 0))
            length = max(1, int(len(words) * share))
            start = rng.randrange(len(words) - length + 1)
            span = words[start:start + length]
            for _ in range(args.edits):
                span[rng.randrange(len(span))] = "edit%d" % rng.randrange(10**6)
            out.write(json.dumps({"id": "excerpt-%d-of-%s" % (n, src["id"]), "text": " ".join(span)},
                                 ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
