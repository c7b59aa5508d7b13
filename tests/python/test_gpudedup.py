"""The Python package against the program and on bad input (docs/python.md)."""
import json
import subprocess

import numpy as np
import pytest

import gpudedup


def run_cli(cli, *args):
    subprocess.run([str(cli), *map(str, args)], check=True, capture_output=True)


def write_jsonl(path, texts):
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts), encoding="utf-8")


# ---- the same answers as the program --------------------------------------------------

# dedup() reads its texts again for --verify auto's borderline pairs, as the program does:
# its default answer is the program's default answer (docs/python.md).
@pytest.mark.parametrize("options, flags", [
    ({}, []),
    ({"verify": "estimate"}, ["--verify", "estimate"]),
    ({"threshold": 0.6, "num_perm": 128, "seed": 3}, ["--threshold", "0.6", "--num-perm", "128", "--seed", "3"]),
    ({"shingle": "word", "ngram": 2}, ["--shingle", "word", "--ngram", "2"]),
    ({"method": "exact", "threshold": 0.7}, ["--method", "exact", "--threshold", "0.7"]),
    ({"all_pairs": True, "threshold": 0.7}, ["--all-pairs", "--threshold", "0.7"]),
])
def test_dedup_equals_the_program(cli, corpus, tmp_path, options, flags):
    write_jsonl(tmp_path / "c.jsonl", corpus)
    run_cli(cli, "dedup", tmp_path / "c.jsonl", "--backend", "cpu", "-q", *flags,
            "--removed", tmp_path / "removed.tsv", "--clusters", tmp_path / "clusters.jsonl",
            "--pairs", tmp_path / "pairs.tsv")
    r = gpudedup.dedup(corpus, backend="cpu", **options)

    removed = {}
    for line in (tmp_path / "removed.tsv").read_text().splitlines():
        doc, of = line.split("\t")[:2]
        if doc.isdigit():  # a header line, if any, is skipped
            removed[int(doc)] = int(of)
    assert removed, "the corpus has near-duplicates"
    assert set(np.flatnonzero(~r.keep).tolist()) == set(removed)
    assert all(r.representative[d] == of for d, of in removed.items())

    clusters = [json.loads(line) for line in (tmp_path / "clusters.jsonl").read_text().splitlines()]
    theirs = sorted(sorted(int(m) for m in c["members"]) for c in clusters)
    assert sorted(c.tolist() for c in r.clusters) == theirs
    assert r.stats["clusters"] == len(clusters)

    their_pairs = sorted(tuple(line.split("\t")) for line in (tmp_path / "pairs.tsv").read_text().splitlines()
                         if line.split("\t")[0].isdigit())
    ours = sorted((str(a), str(b), f"{sim:.6f}") for a, b, sim in r.pairs.tolist())
    assert their_pairs and ours == their_pairs


def test_default_dedup_decides_borderline_pairs_exactly_as_the_program(cli, tmp_path):
    # Copies with 20 of 200 words replaced lie near the threshold of 0.8: the estimate
    # passes some that fail exactly and fails some that pass.
    import random
    rng = random.Random(31)
    vocab = [f"w{i}" for i in range(3000)]
    texts = []
    for _ in range(60):
        words = [rng.choice(vocab) for _ in range(200)]
        copy = list(words)
        for at in rng.sample(range(200), 20):
            copy[at] = rng.choice(vocab)
        texts += [" ".join(words), " ".join(copy)]
    write_jsonl(tmp_path / "c.jsonl", texts)
    run_cli(cli, "dedup", tmp_path / "c.jsonl", "--backend", "cpu", "-q", "--removed", tmp_path / "removed.tsv")
    theirs = {int(line.split("\t")[0]) for line in (tmp_path / "removed.tsv").read_text().splitlines()
              if line.split("\t")[0].isdigit()}
    auto = gpudedup.dedup(texts, backend="cpu", batch_size=50)  # the first pass's sets are kept
    estimate = gpudedup.dedup(texts, backend="cpu", verify="estimate")
    assert set(np.flatnonzero(~auto.keep).tolist()) == theirs
    assert not np.array_equal(auto.keep, estimate.keep), "the exact check must change the answer here"
    assert auto.stats["verify_exact_pairs"] > 0
    assert auto.stats["verify_kept_documents"] > 0 and auto.stats["verify_reread_documents"] == 0
    # Without kept sets the replay reads the batches again: the same answer.
    reread = gpudedup.dedup(texts, backend="cpu", batch_size=50, verify_memory="0")
    assert reread.stats["verify_reread_documents"] > 0 and reread.stats["verify_kept_documents"] == 0
    np.testing.assert_array_equal(reread.keep, auto.keep)
    # An iterator is read once by the engine and again by the exact check.
    np.testing.assert_array_equal(gpudedup.dedup(iter(texts), backend="cpu", verify_memory="0").keep, auto.keep)


def test_sketch_equals_the_program(cli, corpus, tmp_path):
    write_jsonl(tmp_path / "c.jsonl", corpus)
    run_cli(cli, "sketch", tmp_path / "c.jsonl", "--backend", "cpu", "-q", "--num-perm", "64",
            "--seed", "9", "--format", "tsv", "-o", tmp_path / "s.tsv")
    rows = [line.split("\t")[1].split() for line in (tmp_path / "s.tsv").read_text().splitlines()]
    theirs = np.array([[int(v, 16) for v in row] for row in rows], dtype=np.uint32)
    ours = gpudedup.sketch(corpus, num_perm=64, seed=9, backend="cpu")
    np.testing.assert_array_equal(ours, theirs)


# ---- inputs ------------------------------------------------------------------------------

def test_inputs_of_every_kind_agree(corpus):
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    with_none = list(corpus)
    with_none[5] = None
    want = gpudedup.dedup(with_none, backend="cpu")
    half = len(with_none) // 2
    for texts in (tuple(with_none), iter(with_none), np.array(with_none, dtype=object),
                  pa.array(with_none), pa.array(with_none, type=pa.large_string()),
                  pa.chunked_array([with_none[:half], with_none[half:]]), pa.array(with_none).slice(0),
                  pd.Series(with_none), pd.Series(with_none, dtype="string[pyarrow]")):
        got = gpudedup.dedup(texts, backend="cpu")
        np.testing.assert_array_equal(got.representative, want.representative, err_msg=type(texts).__name__)
    np.testing.assert_array_equal(gpudedup.dedup(np.array(corpus), backend="cpu").keep,
                                  gpudedup.dedup(corpus, backend="cpu").keep)


def test_polars_series_are_read_as_arrow_streams(corpus):
    pl = pytest.importorskip("polars")
    pytest.importorskip("pyarrow")
    import tracemalloc

    with_none = list(corpus)
    with_none[7] = None
    want = gpudedup.dedup(with_none, backend="cpu")
    half = len(with_none) // 2
    two_chunks = pl.concat([pl.Series(with_none[:half]), pl.Series(with_none[half:])], rechunk=False)
    for texts in (pl.Series(with_none), two_chunks):
        got = gpudedup.dedup(texts, backend="cpu")
        np.testing.assert_array_equal(got.representative, want.representative)
        assert got.stats["skipped"] == 1
    assert gpudedup.dedup(pl.Series([None, None]), backend="cpu").stats["skipped"] == 2
    # Read through the Arrow stream: no str object per element (200 K texts would be > 10 MB).
    texts = pl.Series([f"text number {i} with a few words" for i in range(200_000)])
    gpudedup.sketch(texts[:10], num_perm=8, backend="cpu")
    tracemalloc.start()
    gpudedup.sketch(texts, num_perm=8, backend="cpu", batch_size=len(texts))  # one batch: no numpy output copy
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1_000_000, peak


def test_arrow_slices_read_from_their_offset(corpus):
    pa = pytest.importorskip("pyarrow")
    arr = pa.array([None, "x"] + corpus)
    got = gpudedup.sketch(arr.slice(2), num_perm=16, backend="cpu")
    np.testing.assert_array_equal(got, gpudedup.sketch(corpus, num_perm=16, backend="cpu"))


def test_none_is_skipped_kept_and_never_a_duplicate(corpus):
    plain = gpudedup.dedup(corpus, backend="cpu")
    texts = [None] + corpus[:10] + [None, None] + corpus[10:]
    r = gpudedup.dedup(texts, backend="cpu")
    assert len(r) == len(texts) and len(r.keep) == len(texts)
    nones = [0, 11, 12]
    assert r.keep[nones].all() and (r.representative[nones] == nones).all()
    assert r.stats["skipped"] == 3 and r.stats["records"] == len(texts)
    assert r.stats["documents"] == len(corpus)
    assert r.stats["kept"] + r.stats["removed"] + r.stats["skipped"] == r.stats["records"]
    # The other texts get the answer they get without the None elements, at shifted positions.
    where = np.array([i for i, t in enumerate(texts) if t is not None])
    np.testing.assert_array_equal(r.keep[where], plain.keep)
    np.testing.assert_array_equal(r.representative[where], where[plain.representative])
    assert set(r.pairs["a"]).isdisjoint(nones) and set(r.pairs["b"]).isdisjoint(nones)


def test_empty_input_gives_an_empty_result():
    r = gpudedup.dedup([])
    assert len(r) == 0 and r.keep.dtype == bool and r.clusters == [] and len(r.pairs) == 0
    assert gpudedup.sketch([], num_perm=8).shape == (0, 8)


@pytest.mark.parametrize("texts", [[1, "a"], ["a", b"b"], [["a"]]])
def test_elements_that_are_not_str_are_refused(texts):
    with pytest.raises(TypeError, match=r"texts\[\d\]"):
        gpudedup.dedup(texts)


def test_a_single_str_is_refused():
    with pytest.raises(TypeError, match="single str"):
        gpudedup.dedup("just one text")


@pytest.mark.parametrize("options, message", [
    ({"threshold": 0.0}, "threshold"),
    ({"threshold": 1.5}, "threshold"),
    ({"num_perm": 0}, "num_perm must be in 1..4096"),
    ({"num_perm": 5000}, "num_perm"),
    ({"num_perm": -1}, "num_perm"),
    ({"shingle": "letter"}, "shingle must be char or word"),
    ({"method": "nope"}, "method"),
    ({"backend": "tpu"}, "backend"),
    ({"bands": 4}, "bands"),
    ({"normalize": "fold,ascii"}, "normalize must be a comma list"),
    ({"tokenizer": "jieba"}, "tokenizer must be simple or icu"),
])
def test_bad_options_are_value_errors_naming_the_keyword(options, message):
    with pytest.raises(ValueError, match=message) as e:
        gpudedup.dedup(["a b c", "a b d"], **options)
    assert "`" not in str(e.value) and "minhash." not in str(e.value)
    assert isinstance(e.value, gpudedup.UsageError)


def test_unknown_keywords_and_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match="num_perms"):
        gpudedup.dedup(["a"], num_perms=3)
    with pytest.raises(TypeError, match="threshold"):
        gpudedup.dedup(["a"], threshold="high")


# ---- results -----------------------------------------------------------------------------

def test_sketch_shape_dtype_and_repeatability(corpus):
    s = gpudedup.sketch(corpus, num_perm=32, seed=5, backend="cpu")
    assert s.shape == (len(corpus), 32) and s.dtype == np.uint32 and s.flags.c_contiguous
    np.testing.assert_array_equal(s, gpudedup.sketch(corpus, num_perm=32, seed=5, backend="cpu"))
    assert not np.array_equal(s, gpudedup.sketch(corpus, num_perm=32, seed=6, backend="cpu"))
    with_none = gpudedup.sketch([None, corpus[0]], num_perm=32, backend="cpu")
    assert (with_none[0] == 0xFFFFFFFF).all()
    np.testing.assert_array_equal(with_none[1], gpudedup.sketch([corpus[0]], num_perm=32, backend="cpu")[0])


def test_result_shapes_and_stats(corpus):
    r = gpudedup.dedup(corpus, backend="cpu", all_pairs=True)
    n = len(corpus)
    assert r.keep.dtype == bool and r.representative.dtype == np.uint64 and len(r) == n
    assert r.pairs.dtype.names == ("a", "b", "similarity") and (r.pairs["a"] < r.pairs["b"]).all()
    assert (r.pairs["similarity"] >= 0.8).all()
    assert r.stats["kept"] == int(r.keep.sum()) and r.stats["removed"] == n - r.stats["kept"]
    assert r.stats["backend"] == "cpu" and r.stats["method"] == "minhash"
    assert r.stats["clusters"] == len(r.clusters)
    for members in r.clusters:
        assert (r.representative[members] == members[0]).all()


def test_pairs_as_an_arrow_table(corpus):
    pa = pytest.importorskip("pyarrow")
    r = gpudedup.dedup(corpus, backend="cpu", all_pairs=True)
    table = r.pairs_table()
    assert table.schema.names == ["a", "b", "similarity"] and len(table) == len(r.pairs) > 0
    assert table.schema.types == [pa.uint64(), pa.uint64(), pa.float64()]
    assert table.to_pydict() == {name: r.pairs[name].tolist() for name in ("a", "b", "similarity")}
    s = gpudedup.dedup(corpus, method="simhash", backend="cpu").pairs_table()
    assert s.schema.names[-1] == "distance" and s.schema.types[-1] == pa.uint32() and len(s) > 0


def test_engine_batches_equal_one_call(corpus):
    engine = gpudedup.Engine(backend="cpu", threshold=0.7)
    assert engine.add(corpus[:50]) == 0
    assert engine.add([None] + corpus[50:]) == 50
    r = engine.finish()
    # An Engine holds no texts: its "auto" is the estimate (docs/python.md).
    want = gpudedup.dedup(corpus[:50] + [None] + corpus[50:], backend="cpu", threshold=0.7, verify="estimate")
    np.testing.assert_array_equal(r.representative, want.representative)
    with pytest.raises(ValueError, match="finish"):
        engine.add(["more"])


def test_simhash_with_a_first_pass_in_batches(corpus):
    engine = gpudedup.Engine(method="simhash", weights="tfidf", backend="cpu")
    engine.add(corpus[:60])
    engine.add(corpus[60:])
    r = engine.finish()
    want = gpudedup.dedup(corpus, method="simhash", weights="tfidf", backend="cpu")
    np.testing.assert_array_equal(r.representative, want.representative)
    assert r.distances is not None and len(r.distances) == len(r.pairs)


def test_normalize_and_tokenizer_keywords():
    texts = ["Быстрая коричневая лиса перепрыгивает через ленивую собаку",
             "БЫСТРАЯ КОРИЧНЕВАЯ ЛИСА ПЕРЕПРЫГИВАЕТ ЧЕРЕЗ ЛЕНИВУЮ СОБАКУ"]
    assert gpudedup.dedup(texts).keep.tolist() == [True, False]  # default: fold
    assert gpudedup.dedup(texts, normalize="ascii").keep.tolist() == [True, True]
    zh = ["我們是學生，我們喜歡讀書和寫字。", "我們是學生，我們喜歡讀書和畫畫。"]
    r = gpudedup.dedup(zh, shingle="word", ngram=1, tokenizer="icu", threshold=0.5, verify="exact")
    assert r.keep.tolist() == [True, False]


def test_methods_and_version():
    assert {"minhash", "exact", "simhash", "bloom"} <= set(gpudedup.methods())
    assert gpudedup.__version__


def test_pandas_missing_values_count_as_none():
    pd = pytest.importorskip("pandas")
    texts = ["one text here", float("nan"), "one text here", None]
    r = gpudedup.dedup(pd.Series(texts, dtype=object), backend="cpu")
    assert r.stats["skipped"] == 2 and r.keep.tolist() == [True, True, False, True]
    r = gpudedup.dedup(pd.Series(texts, dtype="string"), backend="cpu")
    assert r.stats["skipped"] == 2 and r.keep.tolist() == [True, True, False, True]


def test_the_gil_is_released_while_the_engine_runs():
    import sys
    import threading
    import time

    from gpudedup._texts import to_texts

    rng = np.random.default_rng(1)
    texts = to_texts([" ".join(map(str, rng.integers(0, 10**6, 40))) for _ in range(20_000)])
    engine = gpudedup.Engine(backend="cpu", threads=1, num_perm=1024)
    span = {}

    def run():  # the extension's call alone: the engine's sketch stage, no Python around it
        span["start"] = time.perf_counter()
        engine._engine.add(texts, None)
        span["end"] = time.perf_counter()

    ticks = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    try:
        worker = threading.Thread(target=run)
        worker.start()
        while worker.is_alive():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    start, end = span["start"], span["end"]
    assert end - start > 0.05, "the run is long enough to tell"
    # Held by the extension, the GIL would stop this thread from the call's start to its
    # end; released, the thread goes on ticking in the second half of the call.
    assert any(start + (end - start) / 2 < t < end for t in ticks)
    assert len(engine.finish()) == 20_000  # distinct texts: no candidate work to speak of


def test_bloom_long_documents_keyword():
    """bloom_long mirrors --bloom-long: "sample" (the default) and "full" give the same
    answer on short texts (nothing is long enough to sample); anything else is refused."""
    texts = ["the quick brown fox jumps over the lazy dog %d" % (i // 2) for i in range(40)]
    sampled = gpudedup.dedup(texts, method="bloom", backend="cpu")
    full = gpudedup.dedup(texts, method="bloom", backend="cpu", bloom_long="full")
    assert list(sampled.keep) == list(full.keep)
    assert sum(sampled.keep) < len(texts)
    with pytest.raises(ValueError, match="bloom_long.*sample or full"):
        gpudedup.dedup(texts, method="bloom", backend="cpu", bloom_long="some")
