"""gpudedup.Index against the program's `gpudedup index` and on bad input."""
import json
import subprocess

import numpy as np
import pytest

import gpudedup


def write_jsonl(path, texts, ids):
    path.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in zip(ids, texts)), encoding="utf-8")


def test_query_answers_equal_the_program(cli, corpus, tmp_path):
    first, second = corpus[:60], corpus[60:]
    idx = gpudedup.Index.create(tmp_path / "idx", threshold=0.7, num_perm=128, backend="cpu")
    idx.insert(first, ids=[f"a{i}" for i in range(len(first))])
    assert len(idx) == len(first) and idx.id(3) == "a3"

    ids = [f"b{i}" for i in range(len(second))]
    write_jsonl(tmp_path / "second.jsonl", second, ids)
    subprocess.run([str(cli), "index", "query", str(tmp_path / "idx"), str(tmp_path / "second.jsonl"),
                    "--id-field", "id", "--backend", "cpu", "-q", "--output", str(tmp_path / "answers.tsv")],
                   check=True, capture_output=True)
    theirs = {}
    for line in (tmp_path / "answers.tsv").read_text().splitlines():
        fields = line.split("\t")
        if fields[0] in ids:
            theirs[fields[0]] = fields

    reader = gpudedup.Index.open(tmp_path / "idx", backend="cpu")
    ours = reader.query(second, ids=ids)
    assert len(ours) == len(second) and ours.duplicate.any() and (~ours.duplicate).any()
    for i, name in enumerate(ids):
        status, of, similarity = theirs[name][1], theirs[name][2], theirs[name][3]
        assert ours.duplicate[i] == (status == "duplicate"), name
        if ours.duplicate[i]:
            assert ours.match_id[i] == of
            assert ours.similarity[i] == pytest.approx(float(similarity), abs=1e-3)
            if ours.in_batch[i]:
                assert ids[ours.match[i]] == of
            else:
                assert idx.id(int(ours.match[i])) == of
        else:
            assert ours.match[i] == -1 and ours.match_id[i] is None


def test_query_insert_keeps_only_new_texts_and_none_is_skipped(corpus, tmp_path):
    idx = gpudedup.Index.create(tmp_path / "idx", backend="cpu")
    batch = [corpus[0], None, corpus[0], corpus[1]]
    a = idx.query_insert(batch)
    assert a.skipped.tolist() == [False, True, False, False]
    assert a.duplicate.tolist() == [False, False, True, False]
    assert a.in_batch[2] and a.match[2] == 0 and a.similarity[2] == 1.0
    assert a.new.tolist() == [True, False, False, True]
    assert len(idx) == 2 and idx.stats()["documents"] == 2
    again = idx.query([corpus[1], "a text never seen before in this corpus"])
    assert again.duplicate.tolist() == [True, False] and not again.in_batch[0]
    s = idx.stats()
    assert s["num_perm"] == 256 and s["bands"] * s["rows"] <= 256 and s["segments"] >= 1
    idx.compact()
    idx.verify()
    assert idx.stats()["segments"] == 1


def test_open_with_other_parameters_is_a_value_error(corpus, tmp_path):
    gpudedup.Index.create(tmp_path / "idx", num_perm=64, backend="cpu").insert(corpus[:5])
    with pytest.raises(ValueError, match="other parameters") as e:
        gpudedup.Index.open(tmp_path / "idx", num_perm=128)
    assert "num_perm" in str(e.value) or "P" in str(e.value)
    with pytest.raises(ValueError, match="other parameters"):
        gpudedup.Index.open(tmp_path / "idx", shingle="word")
    same = gpudedup.Index.open(tmp_path / "idx", num_perm=64, backend="cpu")
    assert len(same) == 5


def test_file_errors_are_os_errors(tmp_path):
    with pytest.raises(OSError, match=str(tmp_path / "nothing")) as e:
        gpudedup.Index.open(tmp_path / "nothing")
    assert str(e.value).endswith(f"create it with gpudedup.Index.create({str(tmp_path / 'nothing')!r})")
    (tmp_path / "empty").mkdir()
    with pytest.raises(OSError, match="no MANIFEST.*create one with gpudedup.Index.create\\(path\\)$"):
        gpudedup.Index.open(tmp_path / "empty")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "other.txt").write_text("x")
    with pytest.raises((OSError, ValueError), match="full"):
        gpudedup.Index.create(tmp_path / "full")


def test_bad_parameters_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="num_perm"):
        gpudedup.Index.create(tmp_path / "a", num_perm=0)
    with pytest.raises(ValueError, match="threshold"):
        gpudedup.Index.create(tmp_path / "b", threshold=2.0)
    idx = gpudedup.Index.create(tmp_path / "c", backend="cpu")
    with pytest.raises(ValueError, match="ids"):
        idx.insert(["one", "two"], ids=["x"])
    with pytest.raises(TypeError, match=r"ids\[0\]"):
        idx.insert(["one"], ids=[7])
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        idx.insert(["one", 2])
    with pytest.raises(IndexError):
        idx.id(0)
    with pytest.raises(OSError, match="one writer at a time"):
        gpudedup.Index.open(tmp_path / "c", writable=True)


def test_threads_share_one_index(corpus, tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    idx = gpudedup.Index.create(tmp_path / "idx", backend="cpu", threads=1)
    idx.insert(corpus[:60])
    want = idx.query(corpus[60:]).duplicate
    with ThreadPoolExecutor(4) as pool:  # queries run with the GIL released, side by side
        answers = list(pool.map(lambda _: idx.query(corpus[60:]).duplicate, range(8)))
    for got in answers:
        np.testing.assert_array_equal(got, want)
