"""gpudedup: near-duplicate detection for Python (MinHash + LSH, SimHash, Bloom filters,
the exact similarity join) on CPU cores or a CUDA GPU, over lists of str, numpy arrays,
pyarrow arrays, pandas and Polars Series. See docs/python.md.

>>> import gpudedup
>>> r = gpudedup.dedup(["the cat sat on the mat", "the cat sat on the mat!", "dogs"])
>>> r.keep
array([ True, False,  True])
"""
from __future__ import annotations

import json
import sys
import time
from typing import Any, Dict, Iterator, List, Optional, Sequence

if sys.version_info < (3, 9):  # pragma: no cover
    raise ImportError("gpudedup needs Python 3.9 or newer")

import numpy as np

try:
    from . import _core
except ImportError as e:  # pragma: no cover
    raise ImportError(
        "gpudedup: the compiled extension gpudedup._core is missing or does not load "
        f"({e}). Install the package with `pip install .` from the repository (docs/python.md) "
        "rather than importing it from the source tree."
    ) from e

from ._errors import FileError, library_errors
from ._files import FilesResult, dedup_files
from ._index import Index, IndexAnswers
from ._keep import kept_mask
from ._keywords import positive_integer
from ._progress import Progress, close, progress_function
from ._sketches import Sketches, add_signatures, sketch_documents
from ._texts import refuse_non_collection, to_texts

UsageError = _core.UsageError
DataError = _core.DataError
__version__ = _core.__version__

__all__ = ["dedup", "dedup_files", "sketch", "sketch_documents", "Sketches", "Engine", "DedupResult", "FilesResult",
           "Index", "IndexAnswers", "methods", "options", "UsageError", "DataError", "FileError"]

PAIR_DTYPE = np.dtype([("a", np.uint64), ("b", np.uint64), ("similarity", np.float64)])


class DedupResult:
    """The answer of dedup() or Engine.finish(), indexed by input position.

    keep: bool array, True for each text that is its cluster's kept member (by `keep`:
        the first of its near-duplicates in input order, the longest, the shortest; with
        keep="none" no member of a cluster of two or more), for each text without
        near-duplicates, and for every None element.
    representative: uint64 array, the number of each text's representative: the kept
        member (keep="none": the cluster's first member); a None element is its own. A
        text's number is its input position plus the option first_document_number (0
        unless given: a run that is one part of a larger numbering).
    pairs: structured array (a uint64, b uint64, similarity) of the pairs that joined
        clusters (with all_pairs=True: every verified pair), numbers as above, a < b;
        pairs_table() gives them as a pyarrow Table.
    distances: uint32 array parallel to pairs with SimHash's Hamming distances, else None.
    clusters: list of uint64 arrays, the numbers of the members of each cluster of two
        or more, in order of their representative.
    stats: dict of counts (records, documents, skipped, empty, kept, removed, clusters,
        candidate_pairs, verified_pairs, bands, rows), method, keep, backend, seconds, and
        the method's own entries.
    """

    __slots__ = ("keep", "representative", "pairs", "distances", "stats", "_clusters", "_first")

    def __init__(self, raw: Dict[str, Any]):
        n = int(raw["inputs"])
        positions = raw["positions"]
        rep = raw["representative"]
        a, b = raw["a"], raw["b"]
        if len(positions) != n:  # None elements: map places among the documents to input positions
            full = np.arange(n, dtype=np.uint64)
            full[positions] = positions[rep]
            rep = full
            a, b = positions[a], positions[b]
        self.keep: np.ndarray = kept_mask(rep, raw["representatives_kept"])
        first = np.uint64(raw["first"])
        self._first = first
        self.representative: np.ndarray = rep + first
        pairs = np.empty(len(a), dtype=PAIR_DTYPE)
        pairs["a"], pairs["b"], pairs["similarity"] = a + first, b + first, raw["similarity"]
        self.pairs: np.ndarray = pairs
        self.distances: Optional[np.ndarray] = raw["distance"]
        stats = dict(raw["stats"])
        skipped = n - len(positions)
        stats["records"] = n
        stats["skipped"] = skipped
        stats["kept"] = stats["documents"] - stats["removed"]
        for key, value in raw["method_stats"]:
            stats[key] = json.loads(value)
        self.stats: Dict[str, Any] = stats
        self._clusters: Optional[List[np.ndarray]] = None

    def __len__(self) -> int:
        return len(self.representative)

    def pairs_table(self) -> Any:
        """`pairs` as a pyarrow Table: columns a, b (uint64), similarity (float64), and
        distance (uint32) for SimHash. Needs pyarrow (`pip install .[arrow]`)."""
        try:
            import pyarrow as pa
        except ImportError as e:
            raise ImportError("DedupResult.pairs_table() needs pyarrow: pip install pyarrow") from e
        columns = {name: pa.array(self.pairs[name]) for name in PAIR_DTYPE.names}
        if self.distances is not None:
            columns["distance"] = pa.array(self.distances)
        return pa.table(columns)

    @property
    def clusters(self) -> List[np.ndarray]:
        if self._clusters is None:
            rep = self.representative
            members = np.flatnonzero(rep != np.arange(len(rep), dtype=np.uint64) + self._first)
            heads = np.unique(rep[members])
            in_cluster = np.isin(rep, heads)
            idx = np.flatnonzero(in_cluster).astype(np.uint64)
            order = np.argsort(rep[idx], kind="stable")
            idx = idx[order]
            cuts = np.flatnonzero(np.diff(rep[idx])) + 1
            self._clusters = np.split(idx + self._first, cuts) if len(idx) else []
        return self._clusters

    def __repr__(self) -> str:
        s = self.stats
        return (f"DedupResult(records={s['records']}, kept={s['kept']}, removed={s['removed']}, "
                f"skipped={s['skipped']}, clusters={s['clusters']}, method={s['method']!r})")


def _options(**kw: Any) -> Dict[str, Any]:
    return {k: v for k, v in kw.items() if v is not None}


class Engine:
    """Incremental dedup: add() batches of texts, then finish() once.

    Takes the keyword arguments of dedup(). Positions in the result count every element
    of every batch, None elements included, in the order they were added. add() sketches
    texts; add_signatures() takes rows sketched before (sketch_documents(), on other
    workers), and the two may be mixed.
    """

    def __init__(self, *, method: str = "minhash", threshold: float = 0.8, num_perm: Optional[int] = None,
                 seed: int = 1, shingle: str = "char", ngram: int = 5, keep: str = "first",
                 backend: str = "auto", threads: int = 0, **options: Any):
        # _replay, dedup()'s own keyword (out of the signature: no caller's): the added
        # batches again, for verify "auto"'s exact check.
        replay = options.pop("_replay", None)
        opts = _options(method=method, threshold=threshold, num_perm=num_perm, seed=seed, shingle=shingle,
                        ngram=ngram, keep=keep, backend=backend, threads=threads, **options)
        with library_errors():
            self._engine = _core.Engine(opts, replay)

    def add(self, texts: Any, meta: Optional[Sequence[Any]] = None) -> int:
        """Adds a batch (any input dedup() takes); returns the input position of its first
        element. meta (method simhash with meta_field): one collection of str per text,
        its metadata set for the combined score; None for an empty set."""
        batch = to_texts(texts)
        with library_errors():
            return self._engine.add(batch, meta)

    def add_signatures(self, signatures: Any, set_sizes: Any, text_bytes: Any = None, missing: Any = None) -> int:
        """Adds texts sketched before, one row each: the candidate, verification and
        cluster stages then run on them as on texts given to add(). The arrays are a
        Sketches' (`engine.add_signatures(*gpudedup.sketch_documents(texts, num_perm=P))`):
        signatures (n, P) uint32 made with this engine's num_perm, seed, shingle, ngram and
        stop words (only P can be checked: the rest is the caller's to keep equal);
        set_sizes (n,) distinct shingles (0: empty); text_bytes (n,), needed by
        keep="longest"/"shortest"; missing (n,) bool, rows counted as None texts. Returns
        the input position of the first row. Method minhash only; verify="exact" and
        sampling need the texts and are refused."""
        return add_signatures(self._engine, signatures, set_sizes, text_bytes, missing)

    def finish(self) -> DedupResult:
        """Finds, verifies and clusters the near-duplicates of everything added, then
        applies the keep policy."""
        with library_errors():
            return DedupResult(self._engine.finish())

    @property
    def backend(self) -> str:
        """"cpu" or "cuda": the backend in use."""
        return self._engine.backend

    @property
    def method(self) -> str:
        return self._engine.method

    def __len__(self) -> int:
        return int(self._engine.inputs)


def _batches(texts: Any, size: int) -> Iterator[Any]:
    """Slices of `texts` of `size` elements (positional slices of a list, tuple, numpy or
    Arrow array, pandas Series); an iterable without len() is read into a list first."""
    if not hasattr(texts, "__len__") or not hasattr(texts, "__getitem__"):
        texts = list(texts)
    n = len(texts)
    if n <= size:
        yield texts
        return
    iloc = getattr(texts, "iloc", None)  # pandas: slices by position
    for start in range(0, n, size):
        yield (iloc if iloc is not None else texts)[start:start + size]


def dedup(texts: Any, *, method: str = "minhash", threshold: float = 0.8, num_perm: Optional[int] = None,
          seed: int = 1, shingle: str = "char", ngram: int = 5, keep: str = "first", backend: str = "auto",
          threads: int = 0, meta: Optional[Sequence[Any]] = None, batch_size: int = 65536,
          progress: Progress = None, **options: Any) -> DedupResult:
    """Finds the near-duplicates among `texts` and keeps one of each cluster (`keep`).

    texts: a list (or other iterable) of str, a numpy array of str, a pyarrow Array or
        ChunkedArray of strings (read from its Arrow buffers), or a pandas or Polars
        Series. None
        (and a pandas or Arrow missing value) is counted as skipped, kept and never a
        duplicate; the result has one entry per element. A dict (pass d.values()), a
        DataFrame or table (pass one column) and a column that is not text are refused.
    method: "minhash", "exact", "simhash" or "bloom" (gpudedup.methods()).
    threshold: similarity in (0, 1] a pair must reach (minhash, exact, bloom).
    num_perm: MinHash permutations P (default 256; minhash only).
    sketch (in options): the MinHash family, "fss" (the default: one permutation hashing's
        bins, each bin no shingle reached from its own permutation), "classic" (P
        permutations of every shingle) or "oph" (optimal densification); docs/sketches.md.
    seed: seeds the permutations, sampling and Bloom's LSH.
    shingle: "char" or "word"; ngram: the shingle length k.
    keep: which member of each cluster is kept, as the program's --keep: "first" (in
        input order), "longest" or "shortest" (UTF-8 bytes of the text; ties to the
        first), or "none" (every member of a cluster of two or more is removed).
    backend: "auto" (CUDA when a device is found), "cpu" or "cuda".
    threads: CPU threads, 0 = all cores.
    meta: method simhash: one collection of str per text (its metadata set: keywords,
        tags), for the combined score with meta_weight and min_score.
    batch_size: texts per batch; Ctrl-C stops the run between two batches.
    progress: True for a tqdm bar (when tqdm is installed), or a function called with a
        dict per batch (stage, documents, input_bytes, total_input_bytes, seconds).
    options: all_pairs, stop_words, remove_stop_words, stop_word_anchored, normalize,
        tokenizer, device, first_document_number (the number of the first text: a run
        that is one part of a larger numbering), and each method's options, by the group of methods that reads them (gpudedup.options()
        lists them with their help; docs/python.md):
        {method_options}.
        verify: "auto", the default: the estimate decides unless a pair is borderline,
        and then the exact similarity of the two texts, from their shingle sets kept
        from the first pass while they fit verify_memory (a size such as "512M", the
        default; "0": never), else read again from `texts`, as the program does;
        "estimate", "exact", "none". An option of a group the method does
        not read (hamming with minhash) is refused.

    Raises ValueError (UsageError) for a bad option or an integer out of range, TypeError
    for an element that is not str or None, input that is not a collection of texts, an
    unknown keyword or a value of the wrong type (a bool is never a number), RuntimeError
    (DataError) when the engine fails.
    """
    refuse_non_collection(texts)
    batch_size = positive_integer("batch_size", batch_size)
    if meta is not None:
        if options.get("meta_field") is None:
            options["meta_field"] = "meta"
        meta = list(meta)
        if not hasattr(texts, "__len__"):
            texts = list(texts)
        if len(meta) != len(texts):
            raise UsageError(f"meta has {len(meta)} entries for {len(texts)} texts: give one per text")
    if not hasattr(texts, "__len__") or not hasattr(texts, "__getitem__"):
        texts = list(texts)  # read twice under verify "auto": an iterator only once

    def replay() -> Iterator[Any]:
        """The batches again, for verify "auto"'s exact check of borderline pairs."""
        return (to_texts(batch) for batch in _batches(texts, batch_size))

    engine = Engine(method=method, threshold=threshold, num_perm=num_perm, seed=seed, shingle=shingle,
                    ngram=ngram, keep=keep, backend=backend, threads=threads, _replay=replay, **options)
    report = progress_function(progress, "doc")
    try:
        start = time.perf_counter()
        meta_batches = _batches(meta, batch_size) if meta is not None else None
        for batch in _batches(texts, batch_size):
            engine.add(batch, next(meta_batches) if meta_batches is not None else None)
            if report:
                report({"stage": "sketch", "documents": len(engine), "input_bytes": 0, "total_input_bytes": 0,
                        "seconds": time.perf_counter() - start})
        if report:
            report({"stage": "candidates", "documents": len(engine), "input_bytes": 0, "total_input_bytes": 0,
                    "seconds": time.perf_counter() - start})
        return engine.finish()
    finally:
        close(report)


def sketch(texts: Any, *, num_perm: int = 256, seed: int = 1, shingle: str = "char", ngram: int = 5,
           backend: str = "auto", threads: int = 0, batch_size: int = 65536, **options: Any) -> np.ndarray:
    """MinHash signatures: a (len(texts), num_perm) uint32 array, row i of texts[i], the
    values `gpudedup sketch --format tsv` writes. Up to `batch_size` texts the array owns
    the engine's memory (no copy); a longer input is sketched a batch at a time into one
    array, so the engine holds one batch of text, never a copy of the whole input. A None
    element's row is the empty text's signature (every value 0xFFFFFFFF).
    Also takes stop_words, remove_stop_words, stop_word_anchored, sample, sample_size,
    sample_mod, device. For Engine.add_signatures(), use sketch_documents(), which also
    gives each text's set size and length."""
    opts = _options(num_perm=num_perm, seed=seed, shingle=shingle, ngram=ngram, backend=backend,
                    threads=threads, **options)
    refuse_non_collection(texts)
    batch_size = positive_integer("batch_size", batch_size)
    if not hasattr(texts, "__len__") or not hasattr(texts, "__getitem__"):
        texts = list(texts)
    with library_errors():
        if len(texts) <= batch_size:
            return _core.sketch(to_texts(texts), opts)
        out = None
        at = 0
        for batch in _batches(texts, batch_size):
            rows = _core.sketch(to_texts(batch), opts)
            if out is None:
                out = np.empty((len(texts), rows.shape[1]), dtype=rows.dtype)
            out[at:at + len(rows)] = rows
            at += len(rows)
        return out


def methods() -> List[str]:
    """The names of the methods dedup() takes."""
    return list(_core.methods())


def options() -> List[Dict[str, Any]]:
    """The option table (include/gpudedup/options.hpp): one dict per option of a method's
    group or of every method, with its library name (param, as the program's messages
    spell it), the program's flag, the keyword dedup() takes (empty for the program's
    own), the group of Config that decides which methods read it (empty: every method),
    its kind (count, real, flag, choice, text, list), its default (None: decided by the
    run), its help and whether it is read when sketching (sketching: it decides a
    signature, so an index records it and Index.open() compares it)."""
    return list(_core.option_rows())


def _method_options_text() -> str:
    """The methods' keywords by group ("lsh: bands, rows; verify: verify; ..."), from the
    option table, for dedup()'s docstring."""
    groups: Dict[str, List[str]] = {}
    for row in _core.option_rows():
        if row["group"] and row["keyword"]:
            groups.setdefault(row["group"], []).append(row["keyword"])
    return "; ".join(f"{group}: {', '.join(words)}" for group, words in groups.items())


if dedup.__doc__:  # None under python -OO
    dedup.__doc__ = dedup.__doc__.replace("{method_options}", _method_options_text())


# gpudedup.compat without its own import (`import gpudedup; gpudedup.compat.MinHash`): it
# imports nothing the package has not.
from . import compat  # noqa: E402
