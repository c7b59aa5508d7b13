"""gpudedup.dedup_files against the program: the same readers, the same output files."""
import gzip
import json
import os
import re
import shutil
import signal
import subprocess

import numpy as np
import pytest

import gpudedup


def write_jsonl(path, texts):
    path.write_text("".join(json.dumps({"id": f"d{i}", "text": t}) + "\n" for i, t in enumerate(texts)),
                    encoding="utf-8")


def program_outputs(cli, inputs, out, *flags):
    subprocess.run([str(cli), "dedup", *map(str, inputs), "--backend", "cpu", "-q", *flags,
                    "-o", str(out / "kept"), "--removed", str(out / "removed.tsv"),
                    "--clusters", str(out / "clusters.jsonl"), "--pairs", str(out / "pairs.tsv")],
                   check=True, capture_output=True)
    return {name: (out / name).read_bytes() for name in ("kept", "removed.tsv", "clusters.jsonl", "pairs.tsv")}


def package_outputs(inputs, out, **options):
    r = gpudedup.dedup_files(inputs, output=out / "kept", removed=out / "removed.tsv", clusters=out / "clusters.jsonl",
                             pairs=out / "pairs.tsv", backend="cpu", **options)
    return r, {name: (out / name).read_bytes() for name in ("kept", "removed.tsv", "clusters.jsonl", "pairs.tsv")}


@pytest.mark.parametrize("compress", ["plain", "gzip", "zstd"])
@pytest.mark.parametrize("options, flags", [
    ({}, []),
    ({"id_field": "id", "threshold": 0.6, "shingle": "word", "ngram": 2},
     ["--id-field", "id", "--threshold", "0.6", "--shingle", "word", "--ngram", "2"]),
    ({"method": "simhash", "hamming": 4}, ["--method", "simhash", "--hamming", "4"]),
])
def test_outputs_equal_the_program(cli, corpus, tmp_path, compress, options, flags):
    src = tmp_path / "c.jsonl"
    write_jsonl(src, corpus)
    with open(src, "ab") as f:
        f.write(b'{"text": 12}\n')  # a record without a string text: skipped by both
    if compress == "gzip":
        src.with_suffix(".jsonl.gz").write_bytes(gzip.compress(src.read_bytes()))
        src = src.with_suffix(".jsonl.gz")
    elif compress == "zstd":
        if not shutil.which("zstd"):
            pytest.skip("no zstd program to make the input")
        subprocess.run(["zstd", "-q", str(src), "-o", str(src) + ".zst"], check=True)
        src = tmp_path / "c.jsonl.zst"
    (tmp_path / "cli").mkdir()
    (tmp_path / "py").mkdir()
    theirs = program_outputs(cli, [src], tmp_path / "cli", *flags)
    r, ours = package_outputs([src], tmp_path / "py", **options)
    assert ours == theirs
    assert theirs["removed.tsv"], "the corpus has near-duplicates"
    assert r.stats["records"] == len(corpus) + 1 and r.stats["skipped"] == 1 and r.reports
    assert r.stats["kept"] == int(r.keep.sum()) and len(r.keep) == len(corpus)


def test_text_files_and_folders(cli, corpus, tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("\n".join(corpus[:70]) + "\n")
    (tmp_path / "in" / "b.txt").write_text("\n".join(corpus[70:]) + "\n")
    for name in ("cli", "py"):
        (tmp_path / name).mkdir()
    theirs = program_outputs(cli, [tmp_path / "in" / "a.txt", tmp_path / "in" / "b.txt"], tmp_path / "cli")
    _, ours = package_outputs([tmp_path / "in" / "a.txt", tmp_path / "in" / "b.txt"], tmp_path / "py")
    assert ours == theirs


def test_metadata_and_stats_file_equal_the_program(cli, corpus, tmp_path):
    # Tags shared by every fourth text: the combined score differs from the plain one.
    rows = [{"text": t, "tags": ["t%d" % (i % 4), "all"]} for i, t in enumerate(corpus)]
    (tmp_path / "m.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    for name in ("cli", "py"):
        (tmp_path / name).mkdir()
    flags = ["--method", "simhash", "--meta-field", "tags", "--meta-weight", "0.6", "--min-score", "0.3",
             "--stats", str(tmp_path / "cli" / "s.json")]
    theirs = program_outputs(cli, [tmp_path / "m.jsonl"], tmp_path / "cli", *flags)
    r, ours = package_outputs([tmp_path / "m.jsonl"], tmp_path / "py", method="simhash", meta_field="tags",
                              meta_weight=0.6, min_score=0.3, stats=tmp_path / "py" / "s.json")
    assert ours == theirs and theirs["removed.tsv"]
    stats = json.loads((tmp_path / "py" / "s.json").read_text())
    assert stats["documents"] == r.stats["documents"] == len(corpus)
    assert stats["removed"] == json.loads((tmp_path / "cli" / "s.json").read_text())["removed"]
    with pytest.raises(ValueError, match="meta_field applies to method simhash only"):
        gpudedup.dedup_files(tmp_path / "m.jsonl", meta_field="tags")


def test_errors_name_the_file_or_the_option(corpus, tmp_path):
    with pytest.raises(OSError, match="missing.jsonl"):
        gpudedup.dedup_files(tmp_path / "missing.jsonl")
    write_jsonl(tmp_path / "c.jsonl", corpus)
    with pytest.raises(ValueError, match="output"):
        gpudedup.dedup_files(tmp_path / "c.jsonl", output=tmp_path / "c.jsonl")
    with pytest.raises(ValueError, match="format"):
        gpudedup.dedup_files(tmp_path / "c.jsonl", format="xml")
    with pytest.raises(ValueError, match="bands applies to method minhash only"):
        gpudedup.dedup_files(tmp_path / "c.jsonl", method="simhash", bands=4)
    (tmp_path / "bad.jsonl").write_text('{"text": "fine"}\n{oops\n')
    with pytest.raises(OSError, match="bad.jsonl:2"):
        gpudedup.dedup_files(tmp_path / "bad.jsonl", strict=True)


def test_parquet_outputs_equal_the_program_with_one_arrow_in_the_process(cli, corpus, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    texts = list(corpus)
    texts[3] = None  # a null text: skipped by both, named by its row
    pq.write_table(pa.table({"id": [f"d{i}" for i in range(len(texts))], "text": texts}), tmp_path / "c.parquet",
                   row_group_size=64)
    write_jsonl(tmp_path / "more.jsonl", corpus[:50])
    side = ("removed.tsv", "clusters.jsonl", "pairs.tsv")
    # Parquet alone (the kept rows as Parquet), and Parquet with JSONL in one run (side files).
    for inputs, kept in (([tmp_path / "c.parquet"], "kept.parquet"), ([tmp_path / "c.parquet", tmp_path / "more.jsonl"], None)):
        for who in ("cli", "py"):
            shutil.rmtree(tmp_path / who, ignore_errors=True)
            (tmp_path / who).mkdir()
        outputs = (["-o", str(tmp_path / "cli" / kept)] if kept else [])
        subprocess.run([str(cli), "dedup", *map(str, inputs), "--backend", "cpu", "-q", "--id-field", "id", *outputs,
                        *[a for name, flag in zip(side, ("--removed", "--clusters", "--pairs"))
                          for a in (flag, str(tmp_path / "cli" / name))]], check=True, capture_output=True)
        r = gpudedup.dedup_files(inputs, output=(tmp_path / "py" / kept) if kept else None,
                                 removed=tmp_path / "py" / "removed.tsv", clusters=tmp_path / "py" / "clusters.jsonl",
                                 pairs=tmp_path / "py" / "pairs.tsv", id_field="id", backend="cpu")
        for name in side:
            assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
        assert (tmp_path / "cli" / "removed.tsv").read_bytes(), "the corpus has near-duplicates"
        assert r.stats["skipped"] == 1
        if kept:
            assert pq.read_table(tmp_path / "py" / kept).equals(pq.read_table(tmp_path / "cli" / kept))
    # pyarrow was imported before the module was loaded: one libarrow in the process.
    with open("/proc/self/maps") as maps:
        arrows = {line.split()[-1] for line in maps if "/libarrow.so" in line}
    assert len(arrows) == 1, arrows


def test_parquet_without_the_text_column_names_file_and_column(corpus, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"body": corpus}), tmp_path / "c.parquet")
    with pytest.raises((OSError, ValueError), match=r"c\.parquet.*text"):
        gpudedup.dedup_files(tmp_path / "c.parquet", output=tmp_path / "out.parquet", backend="cpu")
    assert not (tmp_path / "out.parquet").exists()


def test_progress_and_ctrl_c_between_batches(corpus, tmp_path):
    write_jsonl(tmp_path / "c.jsonl", corpus)
    seen = []
    gpudedup.dedup_files(tmp_path / "c.jsonl", batch_size=16, progress=seen.append, backend="cpu")
    sketch = [p for p in seen if p["stage"] == "sketch" and p["documents"] > 0]  # after the start
    assert len(sketch) == -(-len(corpus) // 16) and sketch[-1]["documents"] == len(corpus)
    assert [p["stage"] for p in seen][-2:] == ["candidates", "write"]

    def interrupt(p):
        if p["documents"] >= 32:
            os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C does

    with pytest.raises(KeyboardInterrupt):
        gpudedup.dedup_files(tmp_path / "c.jsonl", output=tmp_path / "kept", batch_size=16, progress=interrupt,
                             backend="cpu")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl"]  # no output, no temporary


def test_progress_true_on_a_terminal_draws_a_tqdm_bar_over_bytes(corpus, tmp_path, capsys, monkeypatch):
    pytest.importorskip("tqdm")
    import gpudedup._progress as progress

    monkeypatch.setattr(progress, "_is_terminal", lambda stream: True)
    write_jsonl(tmp_path / "c.jsonl", corpus)
    gpudedup.dedup_files(tmp_path / "c.jsonl", batch_size=16, progress=True, backend="cpu")
    err = capsys.readouterr().err
    # tqdm's bar: the sketch over the known byte total (a percentage, bytes a second), not documents.
    assert re.search(r"gpudedup sketch: +\d+%\|.*B/s\]", err), err
