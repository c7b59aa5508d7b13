#!/usr/bin/env python3
"""gaoya's run of bench/speed/field_compare.py (peer_common.py says what it does).

gaoya shingles itself: MinHashStringIndex(analyzer="char", ngram_range=(k, k)) over the
text normalized in Python (its char k-grams are windows of code points, spaces included,
and a shorter text is one shingle, as gpudedup's). num_bands = b, band_size = r, so its
signature holds b x r values (gaoya has no separate P). Per chunk: par_bulk_insert_docs,
then par_bulk_query (Rayon pool of --threads threads), which returns the documents whose
estimated Jaccard passes t; those j < i join i.
"""
import importlib.metadata
import os

from peer_common import Clusters, StageTimer, parse_args, read_chunks, write_outputs


def main():
    args = parse_args(__doc__.splitlines()[0])
    os.environ["RAYON_NUM_THREADS"] = str(args.threads)  # before gaoya makes its pool
    from gaoya.minhash import MinHashStringIndex
    from fold_shingles import normalize
    timer = StageTimer()
    index = MinHashStringIndex(hash_size=32, jaccard_threshold=args.threshold, num_bands=args.bands,
                               band_size=args.rows, analyzer="char", lowercase=False,
                               ngram_range=(args.ngram, args.ngram))
    clusters = Clusters()
    all_ids = []
    for ids, texts in read_chunks(args.corpus, args.chunk, timer):
        docs = [normalize(t) for t in texts]
        timer.lap("normalize")
        base = len(all_ids)
        all_ids.extend(ids)
        clusters.add(len(ids))
        index.par_bulk_insert_docs(list(range(base, base + len(ids))), docs)
        timer.lap("sketch")
        found = index.par_bulk_query(docs, return_similarity=True)
        del docs
        timer.lap("query")
        for offset, hits in enumerate(found):
            i = base + offset
            for j, s in sorted(hits):
                if j < i:  # gaoya checked it: passed
                    clusters.candidates += 1
                    clusters.checked += 1
                    clusters.join(j, i, s)
        timer.lap("candidates")
    write_outputs(args, all_ids, clusters, timer,
                  dict(tool="gaoya", version=importlib.metadata.version("gaoya")))


if __name__ == "__main__":
    main()
