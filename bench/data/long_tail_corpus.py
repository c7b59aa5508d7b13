#!/usr/bin/env python3
"""Builds a corpus with heavy-tailed lengths (200 characters to 1 MB) and planted near-copies
of short and long documents, deterministic from --seed: the corpus on which Bloom filters
sized to a typical document would saturate (docs/benchmarks.md, "Bloom on long-tailed
corpora").

Each base document is a run of pieces up to a length drawn from a Pareto law: whole
documents of a source corpus (JSONL with "text", e.g. debian_corpus.py's) and generated
text (words of the source drawn by a Zipf law, so unrelated documents share common words
as real ones do). A share of the documents gets near-copies: words replaced at a rate of
0.5..3%, or the end cut by up to 8% (a near-copy of different length), or both.

usage: bench/data/long_tail_corpus.py SOURCE.jsonl OUTPUT.jsonl [--documents 1200]
       [--seed 1] [--min-chars 1000] [--max-chars 1000000] [--alpha 0.6] [--copies 0.15]
"""
import argparse
import json
import random
import re


def read_source(path, limit):
    texts = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            t = json.loads(line).get("text", "")
            if t:
                texts.append(t)
            if len(texts) >= limit:
                break
    return texts


def vocabulary(texts):
    counts = {}
    for t in texts[:2000]:
        for w in re.findall(r"[A-Za-z][A-Za-z0-9_-]{1,20}", t):
            counts[w] = counts.get(w, 0) + 1
    words = sorted(counts, key=lambda w: (-counts[w], w))
    weights = [1.0 / (rank + 1) for rank in range(len(words))]  # Zipf
    return words, weights


def pareto_length(rng, low, high, alpha):
    # alpha 0.6: median about 3 low, 6% of documents above 100 low, 1.6% at the maximum;
    # alpha 1: median 2 low, 1% above 100 low.
    return min(high, int(low * (1.0 - rng.random()) ** (-1.0 / alpha)))


def base_document(rng, texts, words, weights, length):
    parts, size = [], 0
    while size < length:
        if rng.random() < 0.5:
            piece = texts[rng.randrange(len(texts))]
        else:
            piece = " ".join(rng.choices(words, weights, k=rng.randint(50, 2000)))
        parts.append(piece)
        size += len(piece) + 1
    return "\n".join(parts)[:length]


def near_copy(rng, text, words):
    tokens = text.split(" ")
    kind = rng.choice(["edit", "cut", "both"])
    if kind in ("edit", "both"):
        rate = rng.uniform(0.005, 0.03)
        for i in range(len(tokens)):
            if rng.random() < rate:
                tokens[i] = rng.choice(words)
    if kind in ("cut", "both"):
        keep = len(tokens) - int(len(tokens) * rng.uniform(0.0, 0.08))
        tokens = tokens[:max(1, keep)]
    return " ".join(tokens), kind


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("output")
    ap.add_argument("--documents", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-chars", type=int, default=1000)
    ap.add_argument("--max-chars", type=int, default=1000000)
    ap.add_argument("--alpha", type=float, default=0.6, help="Pareto exponent of the lengths (smaller: heavier tail)")
    ap.add_argument("--copies", type=float, default=0.15, help="share of documents given a near-copy")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    texts = read_source(args.source, 20000)
    words, weights = vocabulary(texts)
    records = []
    for i in range(args.documents):
        text = base_document(rng, texts, words, weights, pareto_length(rng, args.min_chars, args.max_chars, args.alpha))
        records.append({"id": f"lt{args.seed}-{i}", "text": text})
        if rng.random() < args.copies:
            copy, kind = near_copy(rng, text, words)
            records.append({"id": f"lt{args.seed}-{i}-{kind}", "text": copy})
    rng.shuffle(records)
    with open(args.output, "w", encoding="utf-8", errors="surrogateescape") as out:
        for r in records:
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
    lengths = sorted(len(r["text"]) for r in records)
    n = len(lengths)
    print(f"{n} documents, {sum(lengths) / 1e6:.1f} MB; length median {lengths[n // 2]}, "
          f"90th percentile {lengths[int(n * 0.9)]}, {sum(x >= 100000 for x in lengths)} of 100 K or more, "
          f"longest {lengths[-1]}")


if __name__ == "__main__":
    main()
