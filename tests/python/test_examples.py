"""The pipelines of examples/python run and give the one-call answer."""
import importlib.util
import re

import numpy as np
import pytest

import gpudedup
from conftest import ROOT


def load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / "python" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("keep", ["first", "shortest"])
def test_parquet_shards_are_filtered_as_one_corpus(corpus, tmp_path, keep):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    texts = list(corpus)
    texts[7] = None
    cuts = [0, 30, 31, 80, len(texts)]
    shards = []
    for n, (a, b) in enumerate(zip(cuts, cuts[1:])):
        path = tmp_path / f"shard{n}.parquet"
        pq.write_table(pa.table({"id": list(range(a, b)), "text": pa.array(texts[a:b], pa.large_string())}), path)
        shards.append(str(path))
    stats = load("parquet_shards").dedup_shards(shards, str(tmp_path / "out"), threshold=0.7, keep=keep,
                                                backend="cpu")

    # The example's Engine holds no texts: its verification is the estimate (docs/python.md).
    want = gpudedup.dedup(texts, threshold=0.7, keep=keep, backend="cpu", verify="estimate")
    kept_ids = []
    for path in shards:
        kept_ids += pq.read_table(tmp_path / "out" / path.split("/")[-1])["id"].to_pylist()
    assert kept_ids == np.flatnonzero(want.keep).tolist()
    assert stats["removed"] == want.stats["removed"] > 0 and stats["skipped"] == 1


@pytest.mark.parametrize("keep", ["first", "longest"])
def test_dask_sketch_stage_then_the_engines_candidate_stage_equal_dedup(corpus, keep):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    texts = list(corpus)
    texts[4] = None
    texts[9] = ""
    frame = dd.from_pandas(pd.DataFrame({"text": pd.Series(texts, dtype=object)}), npartitions=4)
    got = load("dask_pipeline").dedup_dask(frame, threshold=0.7, num_perm=128, keep=keep, backend="cpu")
    # The driver holds no texts: its verification is the estimate, dedup()'s is not by default.
    want = gpudedup.dedup(texts, threshold=0.7, num_perm=128, keep=keep, backend="cpu", verify="estimate")
    assert want.stats["removed"] > 0 and got.stats["skipped"] == 1
    np.testing.assert_array_equal(got.keep, want.keep)
    np.testing.assert_array_equal(got.representative, want.representative)
    assert [c.tolist() for c in got.clusters] == [c.tolist() for c in want.clusters]


def test_the_dask_snippet_of_the_docs_runs_on_its_own_and_equals_dedup(corpus, tmp_path, monkeypatch):
    pytest.importorskip("dask.dataframe")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    docs = (ROOT / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", docs, flags=re.S)
    snippet = [b for b in blocks if "dd.read_parquet(" in b]
    assert len(snippet) == 1, "docs/python.md: one Dask snippet expected"
    texts = list(corpus)
    pq.write_table(pa.table({"text": texts}), tmp_path / "corpus.parquet")
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(snippet[0], "docs/python.md (Dask)", "exec"), scope)  # nothing defined beforehand
    want = gpudedup.dedup(texts, num_perm=128, keep="longest", verify="estimate")
    assert want.stats["removed"] > 0
    np.testing.assert_array_equal(scope["result"].keep, want.keep)
    assert [c.tolist() for c in scope["result"].clusters] == [c.tolist() for c in want.clusters]
