"""gpudedup.compat (datasketch's shape) agrees with the engine."""
import itertools

import numpy as np
import pytest

import gpudedup
from gpudedup.compat import MinHash, MinHashLSH, minhashes


def char_shingles(text, k=5):
    # The engine's char shingles of a text it does not change when normalizing (lower
    # case ASCII words, single spaces).
    return [text[i:i + k] for i in range(max(1, len(text) - k + 1))]


def test_minhash_of_shingles_equals_the_engines_signature(corpus):
    sigs = gpudedup.sketch(corpus, num_perm=64, seed=7, backend="cpu", sketch="classic")  # compat's family
    for text, sig in zip(corpus, sigs):
        m = MinHash(num_perm=64, seed=7, family="gpudedup")
        m.update_batch(s.encode() for s in char_shingles(text))
        np.testing.assert_array_equal(m.hashvalues, sig)
        one = MinHash(num_perm=64, seed=7, family="gpudedup")
        for s in char_shingles(text):
            one.update(s)
        assert one == m
    for m, sig in zip(minhashes(corpus, num_perm=64, seed=7, backend="cpu"), sigs):
        np.testing.assert_array_equal(m.digest(), sig)


def test_jaccard_estimates_the_set_jaccard(corpus):
    # P = 256: the estimate's standard deviation is at most 0.5 / 16; 4 sigma is 0.125.
    ms = minhashes(corpus[:30], num_perm=256, backend="cpu")
    for i, j in itertools.combinations(range(30), 2):
        a, b = set(char_shingles(corpus[i])), set(char_shingles(corpus[j]))
        assert abs(ms[i].jaccard(ms[j]) - len(a & b) / len(a | b)) <= 0.125
    merged = ms[0].copy()
    merged.merge(ms[1])
    np.testing.assert_array_equal(merged.hashvalues, np.minimum(ms[0].hashvalues, ms[1].hashvalues))


def test_lsh_candidates_are_the_engines_band_collisions(corpus):
    threshold = 0.7
    # The engine's default weights (a missed pair costs more than a wasted check); compat's
    # default is datasketch's (0.5, 0.5).
    lsh = MinHashLSH(threshold=threshold, num_perm=128, weights=(0.02, 0.98))
    ms = minhashes(corpus, num_perm=128, backend="cpu")
    for i, m in enumerate(ms):
        lsh.insert(f"k{i}", m)
    r = gpudedup.dedup(corpus, threshold=threshold, num_perm=128, backend="cpu", all_pairs=True)
    assert (lsh.b, lsh.r) == (r.stats["bands"], r.stats["rows"])
    # Every pair the engine verified shares a band bucket, so each finds the other.
    for a, b in zip(r.pairs["a"], r.pairs["b"]):
        assert f"k{b}" in lsh.query(ms[a]) and f"k{a}" in lsh.query(ms[b])
    # A candidate shares at least one band of equal values.
    vals = np.array([m.hashvalues for m in ms])
    for i in range(0, len(ms), 7):
        for key in lsh.query(ms[i]):
            j = int(key[1:])
            bands = (vals[i, :lsh.b * lsh.r] == vals[j, :lsh.b * lsh.r]).reshape(lsh.b, lsh.r).all(axis=1)
            assert bands.any()
    assert "k0" in lsh and "nope" not in lsh and len(lsh) == len(corpus)
    lsh.remove("k0")
    assert "k0" not in lsh and "k0" not in lsh.query(ms[0])
    with pytest.raises(ValueError):
        lsh.remove("k0")
    with pytest.raises(ValueError):
        lsh.insert("k1", ms[1])


def test_bad_parameters_are_value_errors():
    for bad in (0, -1, 5000, 2.5, "128"):
        with pytest.raises(ValueError, match="num_perm"):
            MinHash(num_perm=bad)
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="threshold"):
            MinHashLSH(threshold=bad)
    with pytest.raises(ValueError, match="num_perm"):
        MinHashLSH(threshold=0.5, num_perm=64).insert("a", MinHash(num_perm=128))
    with pytest.raises(ValueError, match="seed"):
        MinHash(seed=1).jaccard(MinHash(seed=2))
    with pytest.raises(TypeError, match="token 1"):
        MinHash().update_batch([b"a", 3])
    with pytest.raises(ValueError, match="hashfunc must be a callable"):
        MinHash(hashfunc="sha1")
    with pytest.raises(ValueError, match="bands"):
        MinHashLSH(num_perm=16, params=(8, 4))
