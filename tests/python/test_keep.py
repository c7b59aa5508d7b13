"""keep= (Config::keep) gives the program's --keep answer for every policy."""
import json
import subprocess

import numpy as np
import pytest

import gpudedup

POLICIES = ["first", "longest", "shortest", "none"]


def program_answer(cli, tmp_path, texts, keep, *flags):
    """The program's removed list {document: duplicate of} and clusters on `texts`."""
    (tmp_path / "c.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in texts), encoding="utf-8")
    subprocess.run([str(cli), "dedup", str(tmp_path / "c.jsonl"), "--backend", "cpu", "-q", "--keep", keep, *flags,
                    "--removed", str(tmp_path / "removed.tsv"), "--clusters", str(tmp_path / "clusters.jsonl"),
                    "--stats", str(tmp_path / "stats.json")], check=True, capture_output=True)
    removed = {}
    for line in (tmp_path / "removed.tsv").read_text().splitlines():
        doc, of = line.split("\t")[:2]
        if doc.isdigit():
            removed[int(doc)] = int(of)
    clusters = [json.loads(line) for line in (tmp_path / "clusters.jsonl").read_text().splitlines()]
    return removed, clusters, json.loads((tmp_path / "stats.json").read_text())


@pytest.mark.parametrize("keep", POLICIES)
def test_keep_equals_the_programs(cli, corpus, tmp_path, keep):
    removed, clusters, stats = program_answer(cli, tmp_path, corpus, keep, "--threshold", "0.7")
    # A None element is not a document: the others get the program's answer, shifted.
    texts = corpus[:3] + [None] + corpus[3:]
    where = np.array([i for i, t in enumerate(texts) if t is not None])
    r = gpudedup.dedup(texts, keep=keep, threshold=0.7, backend="cpu", batch_size=40)

    assert r.keep[3] and r.stats["skipped"] == 1 and r.stats["keep"] == keep
    assert np.flatnonzero(~r.keep[where]).tolist() == sorted(removed)
    assert r.stats["removed"] == stats["removed"] == len(removed) > 0
    assert r.stats["kept"] + r.stats["removed"] + r.stats["skipped"] == r.stats["records"]
    rep = np.searchsorted(where, r.representative[where])  # document numbers, as the program's
    for c in clusters:
        members = [int(m) for m in c["members"]]
        assert (rep[members] == members[0]).all() if keep == "none" else (rep[members] == int(c["representative"])).all()
    if keep != "none":
        assert all(rep[d] == of for d, of in removed.items())
    assert sorted(c.tolist() for c in r.clusters) == \
        sorted(sorted(where[[int(m) for m in c["members"]]].tolist()) for c in clusters)

    files = gpudedup.dedup_files(tmp_path / "c.jsonl", keep=keep, threshold=0.7, backend="cpu")
    np.testing.assert_array_equal(files.keep, r.keep[where])
    assert files.stats["keep"] == keep


def test_the_policies_choose_by_length_with_ties_to_the_first():
    base = "the quick brown fox jumps over the lazy dog near the river bank"
    texts = [base + " today", base + " today!!", base + " today", "something else entirely, not alike"]
    first = gpudedup.dedup(texts, keep="first", threshold=0.7, backend="cpu")
    assert first.keep.tolist() == [True, False, False, True]
    assert gpudedup.dedup(texts, keep="longest", threshold=0.7, backend="cpu").keep.tolist() == \
        [False, True, False, True]
    shortest = gpudedup.dedup(texts, keep="shortest", threshold=0.7, backend="cpu")
    assert shortest.keep.tolist() == [True, False, False, True]  # 0 and 2 tie: the first
    assert (shortest.representative[:3] == 0).all()
    none = gpudedup.dedup(texts, keep="none", threshold=0.7, backend="cpu")
    assert none.keep.tolist() == [False, False, False, True]
    assert none.stats["removed"] == 3 and none.stats["kept"] == 1
    assert [c.tolist() for c in none.clusters] == [[0, 1, 2]]


def test_longest_compares_utf8_bytes_not_characters():
    base = "a line of text that repeats with a small change at its end "
    texts = [base + "ééé", base + "eeee"]  # 6 bytes against 4, 3 characters against 4
    assert gpudedup.dedup(texts, keep="longest", threshold=0.7, backend="cpu").keep.tolist() == [True, False]


def test_keep_through_the_engine_and_other_methods(corpus):
    engine = gpudedup.Engine(keep="longest", threshold=0.7, backend="cpu")
    engine.add(corpus[:50])
    engine.add(corpus[50:])
    want = gpudedup.dedup(corpus, keep="longest", threshold=0.7, backend="cpu", verify="estimate")  # no texts held
    np.testing.assert_array_equal(engine.finish().representative, want.representative)
    for method in ("exact", "simhash", "bloom"):
        first = gpudedup.dedup(corpus, method=method, backend="cpu")
        none = gpudedup.dedup(corpus, method=method, keep="none", backend="cpu")
        in_clusters = np.bincount(first.representative, minlength=len(corpus))[first.representative] > 1
        np.testing.assert_array_equal(none.keep, ~in_clusters, err_msg=method)


def test_an_unknown_policy_is_a_value_error_listing_them():
    with pytest.raises(ValueError, match="keep must be first, longest, shortest or none, got 'last'"):
        gpudedup.dedup(["a b c"], keep="last")
    with pytest.raises(ValueError, match="keep must be"):
        gpudedup.dedup_files("nothing.jsonl", keep="biggest")
