"""gpudedup.compat's datasketch features beyond its own test suite (test_datasketch_suite.py):
hashfunc's exact semantics, pickling that round-trips the whole state, the LSH's keys and
hashtables views, merge, the query buffer, count(), union(), refused storage backends."""
import hashlib
import multiprocessing
import pickle
import struct
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from gpudedup.compat import LeanMinHash, MinHash, MinHashLSH, bBitMinHash, minhashes


def permuted(m, token_hash):
    """datasketch's permutation of one token hash, from m.permutations, in numpy's uint64
    arithmetic as datasketch computes it: (a * h + b) wrapping at 2^64, mod 2^61 - 1, low 32 bits."""
    a, b = m.permutations
    with np.errstate(over="ignore"):
        return (((a * np.uint64(token_hash) + b) % np.uint64((1 << 61) - 1)) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def test_hashfunc_result_is_the_tokens_hash():
    for h in (0, 12, 0xFFFFFFFF, 2**40 + 5, 2**64 - 1):
        m = MinHash(num_perm=32, seed=5, hashfunc=lambda token, h=h: h)
        m.update("anything")
        np.testing.assert_array_equal(m.hashvalues, permuted(m, h))
    m = MinHash(num_perm=32, seed=5, hashfunc=lambda t: t * 1000003)
    m.update_batch([4, 9])
    np.testing.assert_array_equal(m.hashvalues, np.minimum(permuted(m, 4000012), permuted(m, 9000027)))
    one = MinHash(num_perm=32, seed=5, hashfunc=lambda t: t * 1000003)
    one.update(9)
    one.update(4)
    assert one == m and m.count() > 0


def test_hashfunc_results_that_are_not_hashes_are_refused():
    for bad in (-1, 2**64, 1.5, True, "7", None):
        m = MinHash(num_perm=8, hashfunc=lambda t, bad=bad: bad)
        with pytest.raises(ValueError, match=r"hashfunc gave .* for the token 'x': it must give an integer in 0\.\.2\*\*64-1"):
            m.update("x")
        assert m.is_empty(), "a refused batch leaves the values"


def datasketch_values(tokens, num_perm, seed):
    """datasketch 1.6.5's MinHash values, written out from its code with hashlib and numpy
    (its sha1_hash32, its RandomState permutations, its uint64 arithmetic)."""
    gen = np.random.RandomState(seed)
    prime = np.uint64((1 << 61) - 1)
    a, b = np.array([(gen.randint(1, prime, dtype=np.uint64), gen.randint(0, prime, dtype=np.uint64))
                     for _ in range(num_perm)], dtype=np.uint64).T
    values = np.full(num_perm, 0xFFFFFFFF, dtype=np.uint64)
    for token in tokens:
        hv = np.uint64(struct.unpack("<I", hashlib.sha1(token).digest()[:4])[0])
        with np.errstate(over="ignore"):
            values = np.minimum(values, ((a * hv + b) % prime) & np.uint64(0xFFFFFFFF))
    return values


@pytest.mark.parametrize("num_perm,seed", [(1, 0), (4, 1), (128, 1), (200, 7), (64, 2**31 + 3)])
def test_without_hashfunc_the_values_are_datasketchs(num_perm, seed):
    rng = np.random.default_rng(seed % 1000)
    tokens = [bytes(rng.integers(0, 256, int(n), dtype=np.uint8)) for n in rng.integers(0, 40, 300)]
    m = MinHash(num_perm=num_perm, seed=seed)
    m.update_batch(tokens)
    np.testing.assert_array_equal(m.hashvalues, datasketch_values(tokens, num_perm, seed))
    text = MinHash(num_perm=num_perm, seed=seed)
    text.update_batch(t.decode("latin-1") for t in tokens)  # str: its UTF-8 bytes
    np.testing.assert_array_equal(text.hashvalues, datasketch_values(
        [t.decode("latin-1").encode() for t in tokens], num_perm, seed))


def test_permutations_are_the_familys():
    # The permutations a MinHash exposes are the ones it uses; another seed's are refused.
    m = MinHash(num_perm=16, seed=3)
    assert m.permutations.shape == (2, 16) and m.permutations.dtype == np.uint64
    MinHash(num_perm=16, seed=3, permutations=m.permutations)
    with pytest.raises(ValueError, match="permutations are not those of family 'datasketch' for seed 4"):
        MinHash(num_perm=16, seed=4, permutations=m.permutations)
    engine = MinHash(num_perm=16, seed=3, family="gpudedup")
    assert not np.array_equal(engine.permutations, m.permutations)
    with pytest.raises(ValueError, match="permutations are not those of family 'gpudedup' for seed 3"):
        MinHash(num_perm=16, seed=3, permutations=m.permutations, family="gpudedup")


def test_families_are_never_compared():
    ours, engine = MinHash(num_perm=8), minhashes(["a b c d e f g"], num_perm=8, backend="cpu")[0]
    assert engine.family == "gpudedup" and ours.family == "datasketch"
    for call in (lambda: ours.jaccard(engine), lambda: engine.merge(ours), lambda: MinHash.union(ours, engine),
                 lambda: bBitMinHash(ours).jaccard(bBitMinHash(engine))):
        with pytest.raises(ValueError, match="different (b, seed, num_perm or )?hash famil"):
            call()
    assert ours != MinHash(num_perm=8, family="gpudedup")
    lsh = MinHashLSH(threshold=0.5, num_perm=8)
    lsh.insert("engine", engine)
    with pytest.raises(ValueError, match="this LSH holds MinHashes of the hash family 'gpudedup'"):
        lsh.query(ours)
    with pytest.raises(ValueError, match="family must be 'datasketch'"):
        MinHash(family="xxh64")
    with pytest.raises(ValueError, match=r"seed must be in 0\.\.4294967295 for datasketch's family"):
        MinHash(seed=2**32)
    assert MinHash(seed=2**32, family="gpudedup").seed == 2**32


def test_an_lsh_takes_its_family_from_inserts_only():
    ours, engine = MinHash(num_perm=8), minhashes(["a b c d e f g"], num_perm=8, backend="cpu")[0]
    ours.update(b"a")
    lsh = MinHashLSH(threshold=0.5, num_perm=8)
    assert lsh.query(engine) == []  # a query of an empty LSH fixes no family
    lsh.add_to_query_buffer(engine)
    lsh.collect_query_buffer()
    lsh.insert("ours", ours)
    assert lsh.query(ours) == ["ours"]
    with pytest.raises(ValueError, match="this LSH holds MinHashes of the hash family 'datasketch'"):
        lsh.query(engine)
    lsh.remove("ours")  # empty again: the next insert chooses
    lsh.insert("engine", engine)
    assert lsh.query(engine) == ["engine"]


def test_pickles_of_the_engines_family_from_before_keep_it():
    # State as pickled when the engine's family was compat's only one: no family field.
    m = MinHash.__new__(MinHash)
    m.__setstate__((1, np.arange(8, dtype=np.uint32), None))
    assert m.family == "gpudedup"
    lean = LeanMinHash(MinHash(num_perm=8, family="gpudedup"))
    old = LeanMinHash.__new__(LeanMinHash)
    old.__setstate__(lean.__getstate__()[0])
    assert old.family == "gpudedup" and pickle.loads(pickle.dumps(lean)) == lean


def test_count_union_and_errors():
    ms = minhashes(["alpha beta gamma delta " * 40, "one two three four five six " * 60], num_perm=256,
                   backend="cpu")
    u = MinHash.union(*ms)
    merged = ms[0].copy()
    merged.merge(ms[1])
    assert u == merged and type(u) is MinHash
    big = MinHash(num_perm=256)
    big.update_batch(str(i) for i in range(2000))
    # The estimator's relative standard deviation is about 1 / sqrt(P) = 6%: 5 sigma.
    assert abs(big.count() - 2000) < 0.3 * 2000
    with pytest.raises(ValueError, match="at least 2"):
        MinHash.union(ms[0])
    with pytest.raises(ValueError, match="different seeds"):
        MinHash.union(MinHash(num_perm=8, seed=1), MinHash(num_perm=8, seed=2))
    with pytest.raises(ValueError, match="different num_perm"):
        MinHash(num_perm=8).jaccard(MinHash(num_perm=16))
    lean = LeanMinHash.union(LeanMinHash(ms[0]), LeanMinHash(ms[1]))
    assert type(lean) is LeanMinHash and np.array_equal(lean.hashvalues, u.hashvalues)


def fold(token):
    return len(token) * 7919


def lsh_with_history():
    """An LSH after inserts, a removal, a key inserted twice and a merge."""
    ms = minhashes([f"text {i % 7} " * 30 + str(i // 7) for i in range(40)], num_perm=32, backend="cpu")
    lsh = MinHashLSH(threshold=0.5, num_perm=32)
    for i, m in enumerate(ms[:30]):
        lsh.insert(("k", i), m)
    lsh.remove(("k", 3))
    lsh.insert(("k", 4), ms[35], check_duplication=False)
    other = MinHashLSH(threshold=0.5, num_perm=32)
    for i, m in enumerate(ms[30:]):
        other.insert(("o", i), m)
    other.insert(("k", 5), ms[39])
    lsh.merge(other)
    return lsh, ms


def lsh_state(lsh, ms):
    return (lsh.threshold, lsh.b, lsh.r, lsh.h, list(lsh.keys), {k: lsh.keys[k] for k in lsh.keys},
            [{H: t[H] for H in t} for t in lsh.hashtables], lsh.get_counts(),
            [sorted(map(repr, lsh.query(m))) for m in ms])


def test_every_object_pickles_with_its_whole_state():
    m = MinHash(num_perm=16, seed=9, hashfunc=fold)
    m.update_batch(["a", "bb", "ccc"])
    back = pickle.loads(pickle.dumps(m))
    assert back == m and back.hashfunc is fold and back.seed == 9
    back.update("dddd")
    assert back != m, "the copy is independent"
    lean = LeanMinHash(m)
    assert pickle.loads(pickle.dumps(lean)) == lean and hash(pickle.loads(pickle.dumps(lean))) == hash(lean)
    for b in (1, 3, 8, 32):
        bb = bBitMinHash(m, b)
        assert pickle.loads(pickle.dumps(bb)) == bb
    lsh, ms = lsh_with_history()
    back = pickle.loads(pickle.dumps(lsh))
    assert lsh_state(back, ms) == lsh_state(lsh, ms)
    # The copy goes on as the original does.
    for x in (lsh, back):
        x.insert("new", ms[0])
        x.remove(("k", 4))
    assert lsh_state(back, ms) == lsh_state(lsh, ms)


def query_in_child(lsh, m):
    return sorted(map(repr, lsh.query(m)))


def test_an_lsh_goes_to_another_process():
    lsh, ms = lsh_with_history()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert pool.submit(query_in_child, lsh, ms[6]).result() == query_in_child(lsh, ms[6])


def test_keys_and_hashtables_views():
    lsh, ms = lsh_with_history()
    assert ("k", 3) not in lsh.keys and ("k", 4) in lsh.keys and lsh.keys() == list(lsh.keys)
    assert len(lsh.keys) == len(lsh) == 29 + 10 and len(lsh.keys[("k", 0)]) == lsh.b
    # A key inserted again (or met in a merge) is in the buckets of both MinHashes.
    assert len(lsh.keys[("k", 4)]) == len(lsh.keys[("k", 5)]) == 2 * lsh.b
    for key in lsh.keys:
        for i, H in enumerate(lsh.keys[key]):
            assert key in lsh.hashtables[i % lsh.b][H]
    for table in lsh.hashtables:
        assert all(table[H] for H in table), "no empty bucket is kept"
        assert not any(("k", 3) in table[H] for H in table)
    assert sum(sum(c.values()) for c in lsh.get_counts()) >= len(lsh) * lsh.b
    assert lsh.query(ms[35]).count(("k", 4)) == 1
    with pytest.raises(KeyError):
        lsh.keys[("k", 3)]


def test_merge_refuses_what_it_cannot_join():
    lsh, ms = lsh_with_history()
    clash = MinHashLSH(threshold=0.5, num_perm=32)
    clash.insert(("k", 0), ms[0])
    with pytest.raises(ValueError, match=r"check_overlap: 1 keys are in both, e\.g\. \('k', 0\)"):
        lsh.merge(clash, check_overlap=True)
    with pytest.raises(ValueError, match=r"num_perm, bands, rows"):
        lsh.merge(MinHashLSH(threshold=0.5, num_perm=32, params=(4, 4)))
    with pytest.raises(ValueError, match="cannot merge a MinHashLSH with a dict"):
        lsh.merge({})


def test_query_buffer_and_insertion_session():
    ms = minhashes(["red green blue " * 20, "red green blue " * 20 + "x", "something else entirely " * 9],
                   num_perm=32, backend="cpu")
    lsh = MinHashLSH(threshold=0.5, num_perm=32)
    with lsh.insertion_session() as session:
        for i, m in enumerate(ms):
            session.insert(i, m)
    plain = MinHashLSH(threshold=0.5, num_perm=32)
    for i, m in enumerate(ms):
        plain.insert(i, m)
    assert lsh_state(lsh, ms) == lsh_state(plain, ms)
    # datasketch's buffer: the keys in every band bucket of every buffered MinHash.
    for m in ms:
        lsh.add_to_query_buffer(m)
        want = {k for k in lsh.keys if all(ms[k].hashvalues[s:e].tolist() == m.hashvalues[s:e].tolist()
                                           for s, e in lsh.hashranges)}
        assert set(lsh.collect_query_buffer()) == want and want
    lsh.add_to_query_buffer(ms[0])
    lsh.add_to_query_buffer(ms[2])
    assert lsh.collect_query_buffer() == [] and lsh.collect_query_buffer() == []


def test_prepickle_keeps_keys_pickled():
    ms = minhashes(["a b c d e f g"], num_perm=16, backend="cpu")
    lsh = MinHashLSH(threshold=0.5, num_perm=16, prepickle=True)
    lsh.insert("a", ms[0])
    assert lsh.query(ms[0]) == ["a"] and "a" in lsh and pickle.dumps("a") in lsh.keys
    lsh.remove("a")
    assert lsh.is_empty()


def test_remote_storage_is_refused_saying_what_to_do():
    for config in ({"type": "redis", "redis": {"host": "localhost"}}, {"type": "cassandra"}):
        with pytest.raises(ValueError, match=rf"storage_config type '{config['type']}' is not offered: .*memory only"
                                             r".*pickle it.*gpudedup\.Index"):
            MinHashLSH(threshold=0.5, num_perm=16, storage_config=config)
    MinHashLSH(threshold=0.5, num_perm=16, storage_config={"type": "dict"})
