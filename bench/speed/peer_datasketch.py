#!/usr/bin/env python3
"""datasketch's run of bench/speed/field_compare.py (peer_common.py says what it does).

datasketch is Python and numpy: one thread (--threads is ignored). Per chunk: shingles in
Python, MinHash.bulk (UTF-8 shingles, seed --seed), then per document in input order
MinHashLSH(num_perm=P, params=(b, r)) query, each candidate checked by MinHash.jaccard >= t,
insert (bench/speed/compare.py's worker).
"""
import importlib.metadata

from peer_common import Clusters, StageTimer, parse_args, read_chunks, write_outputs


def main():
    args = parse_args(__doc__.splitlines()[0])
    from datasketch import MinHash, MinHashLSH
    from fold_shingles import char_shingles
    timer = StageTimer()
    lsh = MinHashLSH(num_perm=args.num_perm, params=(args.bands, args.rows))
    clusters = Clusters()
    all_ids, sketches = [], []
    for ids, texts in read_chunks(args.corpus, args.chunk, timer):
        sets = [[g.encode("utf-8", "surrogatepass") for g in char_shingles(t, args.ngram)] for t in texts]
        timer.lap("shingle")
        minhashes = MinHash.bulk(sets, num_perm=args.num_perm, seed=args.seed)
        del sets
        timer.lap("sketch")
        base = len(all_ids)
        all_ids.extend(ids)
        clusters.add(len(ids))
        for offset, m in enumerate(minhashes):
            i = base + offset
            sketches.append(m)
            if m.is_empty():  # no shingles: never a duplicate (gpudedup: "empty")
                continue
            clusters.check(i, lsh.query(m), lambda j: m.jaccard(sketches[j]), args.threshold)
            lsh.insert(i, m)
        timer.lap("candidates")
    write_outputs(args, all_ids, clusters, timer,
                  dict(tool="datasketch", version=importlib.metadata.version("datasketch")))


if __name__ == "__main__":
    main()
