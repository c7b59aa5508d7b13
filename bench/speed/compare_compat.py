#!/usr/bin/env python3
"""bench/speed/compare_compat.py: one datasketch-style script run with datasketch and with
gpudedup.compat (the one-import change) on the same corpus, paired in one run with rensa
and gaoya (PyPI), each scored against the exact Jaccard pairs of the corpus.

The corpus: --docs texts of random words (lower case, single spaces, so every library's
char 5-gram shingles are the same set), a third of them near-duplicates of earlier texts
(a few words replaced). Truth: every pair with Jaccard >= --threshold over char 5-gram
sets, from gpudedup's exact similarity join (method="exact", all_pairs=True).

The script (`datasketch_style`), for every text in order: MinHash of its shingles
(update_batch), LSH query, keep the candidates whose estimated Jaccard reaches the
threshold, insert. Rows:
  datasketch             the script with datasketch's MinHash, MinHashLSH
  gpudedup.compat        the same script, `from gpudedup.compat import MinHash, MinHashLSH`
  gpudedup.compat bulk   the script with the signatures from compat.minhashes() (one engine call)
  rensa                  the script with rensa's RMinHash and RMinHashLSH
  gaoya                  gaoya's MinHashStringIndex (its own char 5-gram shingles and check)
  gpudedup.dedup         gpudedup.dedup(texts, num_perm=P) (all_pairs=True), for reference
Seconds are the wall time of sketching, LSH and checking (the corpus is in memory);
CPU seconds the process's CPU time over the same span (all threads: gpudedup's engine
uses every core), the figure to trust on a loaded machine.
Run bench/speed/compare_compat_setup first; the table goes to stdout (Markdown).
"""
import argparse
import platform
import random
import time

import numpy as np

def make_corpus(n, seed):
    rng = random.Random(seed)
    vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
             for _ in range(20000)]
    texts = []
    for i in range(n):
        if i > 10 and rng.random() < 1 / 3:
            words = texts[rng.randrange(len(texts))].split(" ")
            for _ in range(rng.randint(0, max(1, len(words) // 12))):
                words[rng.randrange(len(words))] = rng.choice(vocab)
        else:
            words = [rng.choice(vocab) for _ in range(rng.randint(40, 160))]
        texts.append(" ".join(words))
    return texts


def shingles(text, k=5):
    return [text[i:i + k] for i in range(max(1, len(text) - k + 1))]


def datasketch_style(new_minhash, lsh, texts, threshold, update):
    """The script a datasketch user writes: only the classes (and rensa's update) change."""
    found = set()
    signatures = []
    for i, text in enumerate(texts):
        m = new_minhash()
        update(m, shingles(text))
        for j in lsh.query(m):
            if m.jaccard(signatures[j]) >= threshold:
                found.add((j, i))
        signatures.append(m)
        lsh.insert(i, m)
    return found


def update_batch(m, grams):
    m.update_batch([g.encode("utf-8") for g in grams])


def compat_bulk(texts, threshold, num_perm):
    from gpudedup.compat import MinHashLSH, minhashes

    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    found = set()
    ms = minhashes(texts, num_perm=num_perm, backend="cpu")
    for i, m in enumerate(ms):
        for j in lsh.query(m):
            if m.jaccard(ms[j]) >= threshold:
                found.add((j, i))
        lsh.insert(i, m)
    return found


def rensa_style(texts, threshold, num_perm):
    from rensa import RMinHash, RMinHashLSH

    # rensa's LSH takes the number of bands: 16 bands of num_perm / 16 rows.
    lsh = RMinHashLSH(threshold=threshold, num_perm=num_perm, num_bands=16)
    return datasketch_style(lambda: RMinHash(num_perm=num_perm, seed=42), lsh, texts, threshold,
                            lambda m, grams: m.update(grams))


def gaoya_style(texts, threshold, num_perm):
    from gaoya.minhash import MinHashStringIndex

    index = MinHashStringIndex(hash_size=32, jaccard_threshold=threshold, num_bands=16, band_size=num_perm // 16,
                               num_hashes=num_perm, analyzer="char", lowercase=False, ngram_range=(5, 5))
    found = set()
    for i, text in enumerate(texts):
        for j in index.query(text):
            found.add((j, i))
        index.insert_document(i, text)
    return found


def score(found, truth):
    hit = len(found & truth)
    return (hit / len(found) if found else 1.0), (hit / len(truth) if truth else 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=20000)
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--num-perm", type=int, default=128)
    ap.add_argument("--seed", type=int, default=15)
    a = ap.parse_args()

    import gpudedup

    texts = make_corpus(a.docs, a.seed)
    exact = gpudedup.dedup(texts, method="exact", threshold=a.threshold, all_pairs=True, backend="cpu")
    truth = {(int(x), int(y)) for x, y in zip(exact.pairs["a"], exact.pairs["b"])}
    mb = sum(len(t) for t in texts) / 1e6

    rows = []

    def run(name, f):
        try:
            t0, c0 = time.perf_counter(), time.process_time()
            found = f()
            seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        except ImportError as e:
            print(f"{name}: skipped ({e})")
            return
        p, r = score(found, truth)
        rows.append((name, seconds, cpu, p, r))
        print(f"{name}: {seconds:.2f} s ({cpu:.2f} s CPU), precision {p:.4f}, recall {r:.4f}", flush=True)

    def datasketch_run():
        import datasketch

        lsh = datasketch.MinHashLSH(threshold=a.threshold, num_perm=a.num_perm)
        return datasketch_style(lambda: datasketch.MinHash(num_perm=a.num_perm), lsh, texts, a.threshold,
                                update_batch)

    def compat_run():
        from gpudedup.compat import MinHash, MinHashLSH

        lsh = MinHashLSH(threshold=a.threshold, num_perm=a.num_perm)
        return datasketch_style(lambda: MinHash(num_perm=a.num_perm), lsh, texts, a.threshold, update_batch)

    def dedup_run():
        r = gpudedup.dedup(texts, threshold=a.threshold, num_perm=a.num_perm, all_pairs=True, backend="cpu")
        return {(int(x), int(y)) for x, y in zip(r.pairs["a"], r.pairs["b"])}

    run("datasketch", datasketch_run)
    run("gpudedup.compat", compat_run)
    run("gpudedup.compat bulk", lambda: compat_bulk(texts, a.threshold, a.num_perm))
    run("rensa", lambda: rensa_style(texts, a.threshold, a.num_perm))
    run("gaoya", lambda: gaoya_style(texts, a.threshold, a.num_perm))
    run("gpudedup.dedup", dedup_run)

    base = next((s for n, s, _, _, _ in rows if n == "datasketch"), None)
    print(f"\n{a.docs} texts, {mb:.1f} MB, {len(truth)} pairs with Jaccard >= {a.threshold} (char 5-grams), "
          f"P = {a.num_perm}; {platform.python_implementation()} {platform.python_version()}\n")
    print("| library | seconds | CPU seconds | texts/s | vs datasketch | precision | recall |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, s, cpu, p, r in rows:
        speed = f"{base / s:.1f}x" if base else "-"
        print(f"| {name} | {s:.2f} | {cpu:.2f} | {a.docs / s:,.0f} | {speed} | {p:.4f} | {r:.4f} |")


if __name__ == "__main__":
    main()
