#!/usr/bin/env python3
"""rensa's run of bench/speed/field_compare.py (peer_common.py says what it does).

Per chunk: shingles in Python (one thread), RMinHash.from_token_sets (rensa's bulk path;
its Rayon pool has --threads threads), RMinHashLSH(t, P', b) insert_many + query_all, each
candidate j < i checked by RMinHash.jaccard >= t. RMinHashLSH needs P' divisible by b and
takes P' / b rows per band, so P' = b x r when b does not divide P (250 for 25 x 10 of 256):
the same bands as gpudedup's, an estimate over b x r values.
"""
import importlib.metadata
import os
import sys

from peer_common import Clusters, StageTimer, parse_args, read_chunks, write_outputs


def main():
    args = parse_args(__doc__.splitlines()[0])
    os.environ["RAYON_NUM_THREADS"] = str(args.threads)  # before rensa makes its pool
    import rensa
    from fold_shingles import char_shingles
    if args.bands * args.rows > args.num_perm:
        sys.exit(f"peer_rensa.py: --bands {args.bands} x --rows {args.rows} exceeds --num-perm {args.num_perm}")
    num_perm = args.bands * args.rows  # RMinHashLSH: P / b rows per band
    timer = StageTimer()
    lsh = rensa.RMinHashLSH(args.threshold, num_perm, args.bands)
    clusters = Clusters()
    all_ids, sketches = [], []
    for ids, texts in read_chunks(args.corpus, args.chunk, timer):
        sets = [list(char_shingles(t, args.ngram)) for t in texts]
        timer.lap("shingle")
        minhashes = rensa.RMinHash.from_token_sets(sets, num_perm, args.seed)
        del sets
        timer.lap("sketch")
        base = len(all_ids)
        all_ids.extend(ids)
        sketches.extend(minhashes)
        clusters.add(len(ids))
        lsh.insert_many(minhashes, base)
        for offset, found in enumerate(lsh.query_all(minhashes)):
            m = minhashes[offset]
            clusters.check(base + offset, found, lambda j: m.jaccard(sketches[j]), args.threshold)
        timer.lap("candidates")
    write_outputs(args, all_ids, clusters, timer,
                  dict(tool="rensa", version=importlib.metadata.version("rensa"), num_perm=num_perm))


if __name__ == "__main__":
    main()
