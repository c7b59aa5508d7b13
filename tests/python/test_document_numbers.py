"""64-bit document numbers in the Python API: uint64 arrays, and first_document_number=N
gives the run from 0 with every number shifted by N (here past 2^32)."""
import json

import numpy as np
import pytest

import gpudedup

FIRST = 2**32 - 5


@pytest.mark.parametrize("method", ["minhash", "exact", "simhash", "bloom"])
def test_a_run_from_an_offset_is_the_run_from_zero_shifted(corpus, method):
    texts = corpus[:5] + [None] + corpus[5:]  # a None element keeps its position and number
    base = gpudedup.dedup(texts, method=method, threshold=0.7, backend="cpu", keep="longest")
    r = gpudedup.dedup(texts, method=method, threshold=0.7, backend="cpu", keep="longest",
                       first_document_number=FIRST)
    assert r.representative.dtype == np.uint64 and base.representative.dtype == np.uint64
    assert r.pairs["a"].dtype == np.uint64 and r.pairs["b"].dtype == np.uint64
    assert len(base.pairs) > 0
    assert np.array_equal(r.representative, base.representative + np.uint64(FIRST))
    assert np.array_equal(r.pairs["a"], base.pairs["a"] + np.uint64(FIRST))
    assert np.array_equal(r.pairs["b"], base.pairs["b"] + np.uint64(FIRST))
    assert np.array_equal(r.pairs["similarity"], base.pairs["similarity"])
    assert np.array_equal(r.keep, base.keep)
    assert r.representative[5] == FIRST + 5  # the None element is its own
    assert int(r.pairs["b"].max()) > 2**32
    assert len(r.clusters) == len(base.clusters) > 0
    for got, want in zip(r.clusters, base.clusters):
        assert got.dtype == np.uint64
        assert np.array_equal(got, want + np.uint64(FIRST))


def test_dedup_files_numbers_from_the_offset(tmp_path, corpus):
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in corpus), encoding="utf-8")
    base = gpudedup.dedup_files(path, threshold=0.7, backend="cpu", removed=tmp_path / "r0.tsv")
    r = gpudedup.dedup_files(path, threshold=0.7, backend="cpu", removed=tmp_path / "r1.tsv",
                             first_document_number=FIRST)
    assert r.representative.dtype == np.uint64
    assert np.array_equal(r.representative, base.representative + np.uint64(FIRST))
    assert np.array_equal(r.keep, base.keep) and not r.keep.all()
    assert r.stats["first_document_number"] == FIRST
    # Record-number ids shift too: the removed list of the offset run names numbers past 2^32.
    shifted = ["\t".join(str(int(x) + FIRST) for x in line.split("\t"))
               for line in (tmp_path / "r0.tsv").read_text().splitlines()]
    assert (tmp_path / "r1.tsv").read_text().splitlines() == shifted


def test_a_first_number_without_room_for_a_run_is_refused():
    with pytest.raises(gpudedup.UsageError, match="first_document_number"):
        gpudedup.dedup(["a b c"], first_document_number=2**64 - 1)
