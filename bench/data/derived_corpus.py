#!/usr/bin/env python3
"""Derives a corpus from a JSONL corpus, keeping every id, for the SimHash studies
(docs/benchmarks.md, "SimHash defaults"):

  short        the first line of each text with at least --min-words words (a title or
               a synopsis: very short texts); records without one are left out
  boilerplate  the same text between a header and a footer that every record shares
               (--words random words each, fixed by --seed): news-like pages whose
               template is common to all. Score them against the exact join of the
               ORIGINAL corpus: shared boilerplate should not make pages duplicates.

usage: derived_corpus.py {short,boilerplate} IN.jsonl OUT.jsonl [--min-words 4]
           [--words 120] [--seed 1]
"""
import argparse
import json
import random


def boilerplate(rng, words):
    vocabulary = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
                  for _ in range(400)]
    return " ".join(rng.choice(vocabulary) for _ in range(words))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["short", "boilerplate"])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--min-words", type=int, default=4)
    ap.add_argument("--words", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    header, footer = boilerplate(rng, args.words), boilerplate(rng, args.words)
    kept = 0
    with open(args.input, encoding="utf-8", errors="surrogateescape") as f, \
            open(args.output, "w", encoding="utf-8", errors="surrogateescape") as out:
        for line in f:
            r = json.loads(line)
            if args.kind == "short":
                first = next((l.strip() for l in r["text"].splitlines() if len(l.split()) >= args.min_words), None)
                if first is None:
                    continue
                r["text"] = first
            else:
                r["text"] = header + "\n" + r["text"] + "\n" + footer
            out.write(json.dumps({"id": r["id"], "text": r["text"]}, ensure_ascii=False) + "\n")
            kept += 1
    print(f"{kept} records written to {args.output}")


if __name__ == "__main__":
    main()
