"""Inputs that once gave an answer to another question (a dict's keys, threshold=True as
1.0, datasketch's signatures, bulk's ignored hashfunc) are refused with a message that
says what to give; so are inputs whose message did not say what was wrong
(docs/reliability.md, "Python: no silent wrong answer")."""
import inspect
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import gpudedup
from gpudedup.compat import MinHash, MinHashLSH, minhashes

TEXTS = ["the cat sat on the mat", "the cat sat on the mat!", "dogs bark at night"]


def text_entries(tmp_path):
    """Each public call that takes texts, as f(texts); the Index in a new folder each call."""
    def folder():
        return pathlib.Path(tempfile.mkdtemp(dir=tmp_path)) / "idx"

    return {
        "dedup": lambda t: gpudedup.dedup(t, backend="cpu"),
        "sketch": lambda t: gpudedup.sketch(t, num_perm=8, backend="cpu"),
        "sketch_documents": lambda t: gpudedup.sketch_documents(t, num_perm=8, backend="cpu"),
        "Engine.add": lambda t: gpudedup.Engine(backend="cpu").add(t),
        "Index.query_insert": lambda t: gpudedup.Index.create(folder(), num_perm=8,
                                                               backend="cpu").query_insert(t),
    }


# ---- a mapping: its keys are not the texts ------------------------------------------------

def test_a_mapping_is_refused_by_every_entry(tmp_path):
    by_id = {"doc-1": TEXTS[0], "doc-2": TEXTS[1]}
    for name, call in text_entries(tmp_path).items():
        with pytest.raises(TypeError, match=r"texts is a dict, a mapping: .*d\.values\(\)"):
            call(by_id)
    assert gpudedup.dedup(by_id.values(), backend="cpu").keep.tolist() == [True, False]


# ---- a bool is not a number ---------------------------------------------------------------

@pytest.mark.parametrize("keyword, extra", [
    ("threshold", {}), ("num_perm", {}), ("seed", {}), ("ngram", {}), ("threads", {}), ("device", {}),
    ("first_document_number", {}), ("sample_size", {"sample": "minwise"}), ("bands", {"rows": 4}),
    ("hamming", {"method": "simhash"}), ("meta_weight", {"method": "simhash"}),
    ("len_mu", {"method": "simhash"}), ("bloom_bits", {"method": "bloom"}), ("batch_size", {}),
])
@pytest.mark.parametrize("value", [True, np.True_])
def test_a_bool_is_refused_for_every_numeric_keyword(tmp_path, keyword, extra, value):
    (tmp_path / "c.jsonl").write_text('{"text": "a b c"}\n')
    calls = {
        "dedup": lambda **kw: gpudedup.dedup(TEXTS, backend="cpu", **kw),
        "dedup_files": lambda **kw: gpudedup.dedup_files(tmp_path / "c.jsonl", backend="cpu", **kw),
    }
    if keyword != "batch_size":
        calls["Engine"] = lambda **kw: gpudedup.Engine(backend="cpu", **kw)
    if keyword in ("num_perm", "seed", "ngram", "threads", "device", "sample_size", "batch_size"):
        calls["sketch"] = lambda **kw: gpudedup.sketch(TEXTS, backend="cpu", **kw)
    if keyword in ("num_perm", "seed", "ngram", "threads", "device", "sample_size"):
        calls["sketch_documents"] = lambda **kw: gpudedup.sketch_documents(TEXTS, backend="cpu", **kw)
    if keyword in ("threshold", "num_perm", "seed", "ngram", "threads", "device", "bands"):
        calls["Index.create"] = lambda **kw: gpudedup.Index.create(tmp_path / "idx", backend="cpu", **kw)
    for name, call in calls.items():
        with pytest.raises(TypeError, match=rf"^{keyword} takes (an integer|a number), got (bool|numpy\.bool_?)$"):
            call(**{keyword: value}, **extra)
        assert not (tmp_path / "idx").exists(), name


def test_a_bool_is_refused_where_an_index_is_opened(tmp_path):
    gpudedup.Index.create(tmp_path / "idx", num_perm=8, backend="cpu").insert(TEXTS)
    for keyword in ("threshold", "threads", "device"):
        with pytest.raises(TypeError, match=rf"^{keyword} takes (an integer|a number), got bool$"):
            gpudedup.Index.open(tmp_path / "idx", **{keyword: True})
    with pytest.raises(TypeError, match="^num_perm takes an integer, got bool$"):
        gpudedup.Index.open(tmp_path / "idx", num_perm=True)


def test_a_bool_is_refused_by_compat():
    cases = {
        "num_perm": lambda: MinHash(num_perm=True),
        "seed": lambda: MinHash(seed=True),
        "threshold": lambda: MinHashLSH(threshold=True),
        "weights": lambda: MinHashLSH(weights=(True, False)),
        "params": lambda: MinHashLSH(params=(True, 1)),
        "minhashes": lambda: minhashes(TEXTS, seed=True),
    }
    for keyword, call in cases.items():
        with pytest.raises(TypeError, match=rf"^{'seed' if keyword == 'minhashes' else keyword} takes"):
            call()


# ---- compat: bulk takes the constructor's keywords, and datasketch's values are not ours --

def test_bulk_refuses_what_the_constructor_refuses():
    with pytest.raises(ValueError, match="hashfunc"):
        MinHash.bulk([["a", "b"]], hashfunc="sha1")
    with pytest.raises(ValueError, match="hashfunc"):
        MinHash.bulk([], hashfunc="sha1")
    with pytest.raises(ValueError, match=r"hashfunc gave -1 \(int\) for the token 'b'"):
        MinHash.bulk([["a", "b"]], hashfunc=lambda t: 7 if t == "a" else -1)
    by_hashfunc = MinHash.bulk([[1, 2], [3]], num_perm=16, hashfunc=int)
    one = MinHash(num_perm=16, hashfunc=int)
    one.update_batch([1, 2])
    assert by_hashfunc[0] == one and by_hashfunc[1].hashfunc is int
    with pytest.raises(TypeError, match="num_perms"):
        MinHash.bulk([["a", "b"]], num_perms=64)
    with pytest.raises(TypeError, match="num_perms"):
        MinHash(num_perms=64)
    made = MinHash.bulk([["a", "b"], ["c"]], num_perm=16, seed=3)
    one = MinHash(num_perm=16, seed=3)
    one.update_batch(["a", "b"])
    assert made[0] == one and made[1].num_perm == 16 and made[1].seed == 3


class FakeDatasketchMinHash:
    """What datasketch.MinHash holds: uint64 values below 2^32 of its own family."""

    def __init__(self, num_perm=16):
        self.seed = 1
        self.hashvalues = np.random.default_rng(1).integers(0, 2**32 - 1, num_perm, dtype=np.uint64)


FakeDatasketchMinHash.__module__ = "datasketch.minhash"
FakeDatasketchMinHash.__qualname__ = "MinHash"


def test_datasketch_signatures_are_taken_as_values_of_datasketchs_family_only():
    theirs = FakeDatasketchMinHash()
    # compat's default family is datasketch's: its values are taken, as a uint64 array or ints.
    for given in (theirs.hashvalues, list(theirs.hashvalues)):
        m = MinHash(hashvalues=given)
        assert m.family == "datasketch" and np.array_equal(m.hashvalues, theirs.hashvalues)
    # The engine's family would compare them as if its own.
    values = r"0\.\.4294967295, in a uint32 array.*not comparable with the engine's family"
    with pytest.raises(ValueError, match="hashvalues is a uint64 array, what a datasketch MinHash holds: .*" + values):
        MinHash(hashvalues=theirs.hashvalues, family="gpudedup")
    engine = MinHash(num_perm=16, family="gpudedup")
    with pytest.raises(ValueError, match=values):
        engine.hashvalues = theirs.hashvalues
    assert engine.is_empty(), "a refused assignment leaves the values"
    # Their objects are not ours: the message says how to make one.
    ours = MinHash(num_perm=16)
    foreign = r"datasketch\.minhash\.MinHash: make one of ours from its values: gpudedup\.compat\.MinHash\(seed="
    with pytest.raises(TypeError, match="hashvalues is a " + foreign):
        MinHash(hashvalues=theirs)
    for call in (ours.jaccard, ours.merge):
        with pytest.raises(TypeError, match="other is a " + foreign):
            call(theirs)
    lsh = MinHashLSH(threshold=0.5, num_perm=16)
    for call in (lambda m: lsh.insert("k", m), lsh.query):
        with pytest.raises(TypeError, match="minhash is a " + foreign):
            call(theirs)
    for bad in ([0, 2**32], [-1, 3], [1.5, 2.0], [True, False], np.array([0, 2**32], dtype=np.uint64)):
        with pytest.raises(ValueError, match="hashvalues"):
            MinHash(hashvalues=bad)


def test_gpudedup_values_are_still_taken():
    sig = gpudedup.sketch(TEXTS[:1], num_perm=16, backend="cpu", sketch="classic")[0]  # compat's family
    for given in (sig, sig.tolist(), sig.astype(np.int64)):
        m = MinHash(hashvalues=given, family="gpudedup")
        assert m.hashvalues.dtype == np.uint32 and np.array_equal(m.hashvalues, sig)
    m = MinHash(num_perm=16, family="gpudedup")
    m.hashvalues = sig
    assert m.jaccard(minhashes(TEXTS[:1], num_perm=16, backend="cpu")[0]) == 1.0


# ---- messages that say what was given -----------------------------------------------------

def non_texts():
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    table = r"pass one text column, e.g. df\['text'\]"
    return [
        (pa.array([1, 2]), r"texts is a pyarrow int64 array: strings are needed"),
        (pa.chunked_array([[1], [2]]), r"texts is a pyarrow int64 ChunkedArray: strings are needed"),
        (pa.array([b"x", b"y"]), r"texts is a pyarrow binary array: .*\.cast\(pyarrow\.string\(\)\)"),
        (pl.Series([1, 2]), r"texts is a polars Int64 Series: strings are needed"),
        (pd.Series([1, 2], dtype="int64[pyarrow]"), r"texts is a pandas int64\[pyarrow\] Series"),
        (pd.DataFrame({"text": TEXTS}), r"texts is a pandas DataFrame: " + table),
        (pl.DataFrame({"text": TEXTS}), r"texts is a polars DataFrame: " + table),
        (pa.table({"text": TEXTS}), r"texts is a pyarrow Table: " + table),
        (pa.array([{"text": "a"}]), r"texts is a pyarrow struct<text: string> array: .*" + table),
    ]


def test_columns_that_are_not_text_are_named_in_words(tmp_path):
    for texts, message in non_texts():
        for name, call in text_entries(tmp_path).items():
            with pytest.raises(TypeError, match=message) as e:
                call(texts)
            assert "format '" not in str(e.value), name


class OnlyArrowCapsules:
    """An Arrow producer that is not pyarrow's (no .type): the extension names the format."""

    def __init__(self, array):
        self._array = array

    def __arrow_c_array__(self, requested_schema=None):
        return self._array.__arrow_c_array__(requested_schema)


def test_the_extension_names_an_arrow_format_in_words():
    pa = pytest.importorskip("pyarrow")
    with pytest.raises(TypeError, match=r"texts is an Arrow array of int64: an array of strings"):
        gpudedup.Engine(backend="cpu").add(OnlyArrowCapsules(pa.array([1, 2])))
    with pytest.raises(TypeError, match=r"Arrow array of struct: .*pass one text column"):
        gpudedup.Engine(backend="cpu").add(OnlyArrowCapsules(pa.array([{"text": "a"}])))


@pytest.mark.parametrize("keyword, value, top", [
    ("num_perm", 10**20, 2**32 - 1), ("num_perm", -1, 2**32 - 1), ("ngram", 2**40, 2**32 - 1),
    ("seed", 2**64, 2**64 - 1), ("threads", 2**31, 2**31 - 1), ("first_document_number", -5, 2**64 - 1),
])
def test_an_integer_out_of_range_is_named_with_the_range(keyword, value, top):
    with pytest.raises(ValueError, match=rf"^{keyword} is out of range: it takes an integer in 0\.\.{top}, "
                                         rf"got {value}$") as e:
        gpudedup.dedup(TEXTS, **{keyword: value})
    assert isinstance(e.value, gpudedup.UsageError)


# ---- the package's shape -------------------------------------------------------------------

def test_compat_is_an_attribute_of_the_package():
    run = subprocess.run([sys.executable, "-c", "import gpudedup; print(gpudedup.compat.MinHash.__name__)"],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "MinHash", run.stderr


def test_public_signatures_show_no_private_parameter():
    for name in gpudedup.__all__:
        obj = getattr(gpudedup, name)
        if not callable(obj) or (inspect.isclass(obj) and issubclass(obj, Exception)):
            continue
        params = inspect.signature(obj).parameters
        assert not [p for p in params if p.startswith("_")], name
    # dedup() still hands its batches to the engine for verify auto's exact check
    assert gpudedup.dedup(TEXTS, backend="cpu", verify="auto").keep.tolist() == [True, False, True]
