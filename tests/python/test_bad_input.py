"""Bad input: refused with a message naming what is wrong, or counted; never dropped."""
import json
import os
import signal

import numpy as np
import pytest

import gpudedup


def test_lone_surrogates_are_read_as_the_program_reads_their_escape(cli, tmp_path):
    import subprocess

    texts = ["caf\udce9 au lait et croissants", "caf\udce9 au lait et croissants!", "plain text here"]
    (tmp_path / "c.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    subprocess.run([str(cli), "dedup", str(tmp_path / "c.jsonl"), "--backend", "cpu", "-q",
                    "--removed", str(tmp_path / "removed.tsv")], check=True, capture_output=True)
    removed = [int(line.split("\t")[0]) for line in (tmp_path / "removed.tsv").read_text().splitlines()
               if line.split("\t")[0].isdigit()]
    r = gpudedup.dedup(texts, backend="cpu")
    assert np.flatnonzero(~r.keep).tolist() == removed == [1]
    np.testing.assert_array_equal(gpudedup.sketch(texts[:1], num_perm=16, backend="cpu"),
                                  gpudedup.sketch([texts[0].encode("utf-8", "surrogatepass")
                                                   .decode("utf-8", "surrogatepass")], num_perm=16, backend="cpu"))


def test_invalid_utf8_in_arrow_strings_is_kept_as_bytes(tmp_path):
    pa = pytest.importorskip("pyarrow")
    lines = [b"abc \xff\xfe def ghi jkl", b"abc \xff\xfe def ghi jkl", b"something else"]
    arr = pa.array(lines, pa.binary()).cast(pa.string(), safe=False)
    r = gpudedup.dedup(arr, backend="cpu")
    (tmp_path / "t.txt").write_bytes(b"\n".join(lines) + b"\n")
    f = gpudedup.dedup_files(tmp_path / "t.txt", backend="cpu")
    assert r.keep.tolist() == f.keep.tolist() == [True, False, True]


@pytest.mark.parametrize("texts", [[None], [float("nan"), "x"], [None, None, "a b c d e f"]])
def test_missing_values_are_counted_and_the_length_kept(texts):
    pd = pytest.importorskip("pandas")
    r = gpudedup.dedup(pd.Series(texts, dtype=object), backend="cpu")
    missing = sum(1 for t in texts if not isinstance(t, str))
    assert len(r) == len(texts) and r.stats["skipped"] == missing and r.stats["records"] == len(texts)


def test_nan_in_a_list_is_refused_naming_its_position():
    with pytest.raises(TypeError, match=r"texts\[1\] is float"):
        gpudedup.dedup(["a", float("nan")])


@pytest.mark.parametrize("options, message", [
    ({"hamming": 3}, "hamming applies to method simhash only"),
    ({"method": "bloom", "verify": "exact"}, "verify does not apply to method bloom"),
    ({"method": "simhash", "bands": 4}, "bands applies to method minhash only"),
    ({"method": "simhash", "similarity": "containment"}, "similarity does not apply to method simhash"),
    ({"method": "exact", "bloom_bits": 1024}, "bloom_bits applies to method bloom only"),
    ({"meta_weight": 0.5}, "meta_weight applies to method simhash only"),
])
def test_options_of_other_methods_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        gpudedup.dedup(["a b c", "a b d"], **options)


def test_metadata_sets_in_memory_equal_the_files(corpus, tmp_path):
    tags = [["t%d" % (i % 4), "all"] for i in range(len(corpus))]
    tags[3] = None  # an empty set
    (tmp_path / "m.jsonl").write_text("".join(json.dumps({"text": t, "tags": g or []}) + "\n"
                                              for t, g in zip(corpus, tags)))
    f = gpudedup.dedup_files(tmp_path / "m.jsonl", method="simhash", meta_field="tags", meta_weight=0.6,
                             min_score=0.3, backend="cpu")
    r = gpudedup.dedup(corpus, method="simhash", meta=tags, meta_weight=0.6, min_score=0.3, backend="cpu",
                       batch_size=50)
    np.testing.assert_array_equal(r.representative, f.representative)
    plain = gpudedup.dedup(corpus, method="simhash", min_score=0.3, backend="cpu")
    assert not np.array_equal(plain.representative, r.representative), "the metadata changes the answer"
    with pytest.raises(ValueError, match="meta has 1 entries"):
        gpudedup.dedup(corpus, method="simhash", meta=[["x"]])
    with pytest.raises(TypeError, match=r"meta\[0\]\[0\]"):
        gpudedup.dedup(["a b c"], method="simhash", meta=[[None]])
    with pytest.raises(ValueError, match="meta_field applies to method simhash only"):
        gpudedup.dedup(corpus, meta=tags)


def test_progress_and_ctrl_c_between_batches_in_memory(corpus):
    seen = []
    want = gpudedup.dedup(corpus, backend="cpu")
    got = gpudedup.dedup(corpus, backend="cpu", batch_size=16, progress=seen.append)
    np.testing.assert_array_equal(got.representative, want.representative)
    assert [p["documents"] for p in seen if p["stage"] == "sketch"][-1] == len(corpus)

    def interrupt(p):
        os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        gpudedup.dedup(corpus, backend="cpu", batch_size=16, progress=interrupt)


def test_wrong_batch_size_and_progress():
    with pytest.raises(ValueError, match="batch_size"):
        gpudedup.dedup(["a"], batch_size=0)
    with pytest.raises(TypeError, match="progress"):
        gpudedup.dedup(["a"], progress="yes")


def test_progress_true_on_a_terminal_without_tqdm_warns_and_runs(corpus, monkeypatch):
    import sys

    import gpudedup._progress as progress

    monkeypatch.setattr(progress, "_is_terminal", lambda stream: True)  # a log needs no tqdm
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # import fails as if not installed
    with pytest.warns(UserWarning, match="tqdm"):
        r = gpudedup.dedup(corpus, backend="cpu", progress=True)
    assert len(r) == len(corpus)


def test_progress_true_writes_the_sketch_and_candidates_stages(corpus, capsys):
    gpudedup.dedup(corpus, backend="cpu", batch_size=16, progress=True)  # captured: not a terminal
    err = capsys.readouterr().err
    assert "gpudedup sketch: " in err and "gpudedup candidates: " in err


def test_arrow_strings_make_no_python_object_per_element():
    pa = pytest.importorskip("pyarrow")
    import tracemalloc

    n = 200_000
    arr = pa.array([f"text number {i} with a few words" for i in range(n)])
    gpudedup.sketch(arr[:10], num_perm=8, backend="cpu")  # imports and first-call caches
    tracemalloc.start()
    sigs = gpudedup.sketch(arr, num_perm=8, backend="cpu", batch_size=n)  # one batch: no numpy output copy
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert sigs.shape == (n, 8)
    # A str per element would take > 50 bytes each (10 MB); the buffers are read in C++.
    assert peak < 1_000_000, peak


# ---- the list, through every entry that takes texts -----------------------------

def text_entries(tmp_path):
    """Each public call that takes texts, as f(texts)."""
    return {
        "dedup": lambda t: gpudedup.dedup(t, backend="cpu"),
        "sketch": lambda t: gpudedup.sketch(t, num_perm=8, backend="cpu"),
        "sketch_documents": lambda t: gpudedup.sketch_documents(t, num_perm=8, backend="cpu"),
        "Engine.add": lambda t: gpudedup.Engine(backend="cpu").add(t),
        "Index.query_insert": lambda t: gpudedup.Index.create(tmp_path / "idx", num_perm=8,
                                                               backend="cpu").query_insert(t),
    }


@pytest.mark.parametrize("texts, message", [
    (np.array(["a text", np.nan], dtype=object), r"texts\[1\] is float.*NaN.*give None"),
    (np.array([b"abc", b"\xff\xfe"]), r"texts\[0\] is bytes.*decode it to str, or give a pyarrow"),
    (["a text", 7], r"texts\[1\] is int, not str or None$"),
])
def test_elements_that_are_not_str_are_refused_by_every_entry(tmp_path, texts, message):
    for name, call in text_entries(tmp_path).items():
        with pytest.raises(TypeError, match=message):
            call(texts)


def test_none_is_counted_by_every_entry_and_the_length_kept(tmp_path):
    texts = [None, "one text with words", None, "one text with words", None]
    r = gpudedup.dedup(texts, backend="cpu")
    assert r.keep.tolist() == [True, True, True, False, True] and r.stats["skipped"] == 3
    s = gpudedup.sketch_documents(texts, num_perm=8, backend="cpu")
    assert s.missing.tolist() == [True, False, True, False, True] and len(s.signatures) == 5
    answers = gpudedup.Index.create(tmp_path / "idx", num_perm=8, backend="cpu").query_insert(texts)
    assert answers.skipped.tolist() == [True, False, True, False, True]
    assert answers.duplicate.tolist() == [False, False, False, True, False]


def test_empty_input_through_every_entry(tmp_path):
    for name, call in text_entries(tmp_path).items():
        out = call([])
        if name in ("sketch", "dedup"):
            assert len(out) == 0, name
    assert len(gpudedup.Engine(backend="cpu").finish()) == 0
    assert gpudedup.sketch_documents([], num_perm=8).signatures.shape == (0, 8)
    only_none = gpudedup.dedup([None, None], backend="cpu")
    assert only_none.keep.tolist() == [True, True] and only_none.stats["documents"] == 0
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(gpudedup.FileError, match=r"empty\.jsonl: the input is empty; nothing was written"):
        gpudedup.dedup_files(tmp_path / "empty.jsonl", output=tmp_path / "out.jsonl")
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("keyword, value, message", [
    ("num_perm", 0, "num_perm must be in 1..4096, got 0"),
    ("num_perm", 4097, "num_perm must be in 1..4096"),
    ("threshold", 1.5, "threshold"),
    ("threshold", 0.0, "threshold"),
])
def test_wrong_num_perm_or_threshold_in_every_entry(tmp_path, keyword, value, message):
    (tmp_path / "c.jsonl").write_text('{"text": "a b c"}\n')
    calls = {
        "dedup": lambda **kw: gpudedup.dedup(["a b c"], **kw),
        "Engine": lambda **kw: gpudedup.Engine(**kw),
        "dedup_files": lambda **kw: gpudedup.dedup_files(tmp_path / "c.jsonl", **kw),
        "Index.create": lambda **kw: gpudedup.Index.create(tmp_path / "idx", **kw),
    }
    if keyword == "num_perm":
        calls["sketch"] = lambda **kw: gpudedup.sketch(["a b c"], **kw)
        calls["sketch_documents"] = lambda **kw: gpudedup.sketch_documents(["a b c"], **kw)
    for name, call in calls.items():
        with pytest.raises(ValueError, match=message) as e:
            call(**{keyword: value})
        assert isinstance(e.value, gpudedup.UsageError) and "minhash." not in str(e.value), name
    assert not (tmp_path / "idx").exists()
