"""The sketch stage apart (sketch_documents) and the engine's candidate stage on its rows
(Engine.add_signatures) give dedup()'s answer."""
import numpy as np
import pytest

import gpudedup


def assert_same_result(got, want):
    np.testing.assert_array_equal(got.representative, want.representative)
    np.testing.assert_array_equal(got.keep, want.keep)
    np.testing.assert_array_equal(got.pairs, want.pairs)
    assert [c.tolist() for c in got.clusters] == [c.tolist() for c in want.clusters]
    for key in ("records", "documents", "skipped", "empty", "kept", "removed", "clusters", "bands", "rows"):
        assert got.stats[key] == want.stats[key], key


def test_sketch_documents_rows(corpus):
    texts = [corpus[0], None, "", "ab", "été"]
    s = gpudedup.sketch_documents(texts, num_perm=32, seed=4, backend="cpu")
    assert isinstance(s, gpudedup.Sketches)
    np.testing.assert_array_equal(s.signatures, gpudedup.sketch(texts, num_perm=32, seed=4, backend="cpu"))
    assert s.signatures.dtype == np.uint32 and s.set_sizes.dtype == np.uint32 and s.text_bytes.dtype == np.uint64
    assert s.missing.tolist() == [False, True, False, False, False]
    assert s.text_bytes.tolist() == [len(corpus[0].encode()), 0, 0, 2, 5]
    # char 5-grams: a text shorter than k is one shingle; "" and None have none.
    assert s.set_sizes[0] > 1 and s.set_sizes.tolist()[1:] == [0, 0, 1, 1]


@pytest.mark.parametrize("options", [{}, {"keep": "longest"}, {"keep": "none", "all_pairs": True},
                                     {"similarity": "containment", "threshold": 0.7},
                                     {"shingle": "word", "ngram": 2, "threshold": 0.6}])
def test_signatures_added_in_chunks_equal_dedup(corpus, options):
    texts = list(corpus)
    texts[4], texts[9] = None, ""
    sketch_keys = {k: v for k, v in options.items() if k in ("shingle", "ngram")}
    engine = gpudedup.Engine(num_perm=64, backend="cpu", **options)
    for start in range(0, len(texts), 37):  # as partitions sketched apart
        rows = gpudedup.sketch_documents(texts[start:start + 37], num_perm=64, backend="cpu", **sketch_keys)
        assert engine.add_signatures(*rows) == start
    want = gpudedup.dedup(texts, num_perm=64, backend="cpu", verify="estimate", **options)  # an Engine holds no texts
    assert want.stats["removed"] > 0
    assert_same_result(engine.finish(), want)


def test_texts_and_signatures_mix_in_one_engine(corpus):
    engine = gpudedup.Engine(num_perm=64, keep="shortest", backend="cpu")
    engine.add(corpus[:40])
    engine.add_signatures(*gpudedup.sketch_documents([None] + corpus[40:90], num_perm=64, backend="cpu"))
    engine.add(corpus[90:])
    want = gpudedup.dedup(corpus[:40] + [None] + corpus[40:], num_perm=64, keep="shortest", backend="cpu",
                         verify="estimate")
    assert_same_result(engine.finish(), want)


def test_arrays_from_a_data_frame_are_taken():
    pd = pytest.importorskip("pandas")
    texts = ["one text of some words here", "one text of some words here!", "another one"]
    s = gpudedup.sketch_documents(texts, num_perm=16, backend="cpu")
    frame = pd.DataFrame(s.signatures.astype(np.int64))  # a round trip that widens the type
    engine = gpudedup.Engine(num_perm=16, threshold=0.5, backend="cpu")
    engine.add_signatures(frame.to_numpy(), pd.Series(s.set_sizes).to_numpy(np.int64))
    assert engine.finish().keep.tolist() == gpudedup.dedup(texts, num_perm=16, threshold=0.5, verify="estimate").keep.tolist()


def test_no_rows_give_an_empty_result():
    engine = gpudedup.Engine(num_perm=8, backend="cpu")
    assert engine.add_signatures(*gpudedup.sketch_documents([], num_perm=8, backend="cpu")) == 0
    r = engine.finish()
    assert len(r) == 0 and r.clusters == [] and r.stats["documents"] == 0


def sketched(n=3, num_perm=16):
    return gpudedup.sketch_documents([f"text number {i}" for i in range(n)], num_perm=num_perm, backend="cpu")


@pytest.mark.parametrize("engine_options, arrays, error, message", [
    ({"num_perm": 32}, lambda s: s, ValueError, "num_perm: signatures of 16 values, the engine's have 32"),
    ({"method": "simhash"}, lambda s: s, ValueError, "method simhash does not take signatures"),
    ({"verify": "exact"}, lambda s: s, ValueError, "verify exact compares shingle sets"),
    ({"sample": "modm", "sample_mod": 4}, lambda s: s, ValueError, "sample: signatures made before"),
    ({"keep": "longest"}, lambda s: s[:2], ValueError, "keep longest compares text lengths: give text_bytes"),
    ({}, lambda s: (s.signatures, s.set_sizes[:2]), ValueError, "set_sizes has 2 entries for 3 signatures"),
    ({}, lambda s: (s.signatures, s.set_sizes, s.text_bytes, s.missing[:1]), ValueError, "missing has 1 entries"),
    ({}, lambda s: (s.signatures[0], s.set_sizes), ValueError, "signatures must be a 2-D array"),
    ({}, lambda s: (s.signatures.astype(float), s.set_sizes), TypeError, "signatures must be an array of uint32"),
    ({}, lambda s: (s.signatures, s.set_sizes.astype(np.int64) - 100), ValueError, "set_sizes has values outside"),
    ({}, lambda s: (s.signatures, s.set_sizes, None, s.missing.astype(np.uint8)), TypeError,
     "missing must be an array of bool"),
])
def test_bad_signatures_are_refused_naming_what_is_wrong(engine_options, arrays, error, message):
    engine = gpudedup.Engine(num_perm=engine_options.pop("num_perm", 16), backend="cpu", **engine_options)
    with pytest.raises(error, match=message):
        engine.add_signatures(*arrays(sketched()))
    assert len(engine) == 0  # nothing was added


def test_signatures_after_finish_are_refused():
    engine = gpudedup.Engine(num_perm=16, backend="cpu")
    engine.finish()
    with pytest.raises(ValueError, match="finish"):
        engine.add_signatures(*sketched())
