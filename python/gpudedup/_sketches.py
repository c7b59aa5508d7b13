"""The sketch stage apart from the candidate stage: sketch_documents() on workers (Dask,
Ray, processes), Engine.add_signatures() of its rows on the driver."""
from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

import numpy as np

from . import _core
from ._errors import library_errors
from ._texts import to_texts


class Sketches(NamedTuple):
    """What the sketch stage knows of each text, one row per input element; what
    Engine.add_signatures() takes (`engine.add_signatures(*sketches)`).

    signatures: (n, num_perm) uint32 MinHash values (gpudedup.sketch()'s).
    set_sizes: (n,) uint32 distinct shingles of each text; 0: an empty text or None,
        never a near-duplicate. Containment is computed from them.
    text_bytes: (n,) uint64 UTF-8 bytes of each text, what keep="longest"/"shortest"
        compare.
    missing: (n,) bool, True for a None element (skipped and kept, as in dedup()).
    """

    signatures: np.ndarray
    set_sizes: np.ndarray
    text_bytes: np.ndarray
    missing: np.ndarray


def sketch_documents(texts: Any, *, num_perm: int = 256, seed: int = 1, shingle: str = "char", ngram: int = 5,
                     backend: str = "auto", threads: int = 0, **options: Any) -> Sketches:
    """The sketch stage of dedup() alone: a Sketches of `texts` (any input dedup() takes),
    for Engine.add_signatures() on an engine made with the same num_perm, seed, shingle,
    ngram and stop words. Also takes stop_words, remove_stop_words, stop_word_anchored,
    device. The arrays own the engine's memory (no copy)."""
    opts = {k: v for k, v in dict(num_perm=num_perm, seed=seed, shingle=shingle, ngram=ngram, backend=backend,
                                  threads=threads, **options).items() if v is not None}
    batch = to_texts(texts)
    with library_errors():
        sigs, sizes, lengths, missing = _core.sketch_documents(batch, opts)
    return Sketches(sigs, sizes, lengths, missing.view(np.bool_))


def _rows(values: Any, name: str, dtype: type, ndim: int) -> np.ndarray:
    """`values` as a C-contiguous array of `dtype`; an integer array whose values fit is
    converted, anything else is a TypeError (a float or negative value is never cast)."""
    a = np.asarray(values)
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array, got {a.ndim}-D of shape {a.shape}")
    if a.dtype != dtype:
        if dtype is np.bool_ or a.dtype.kind not in "iu":
            raise TypeError(f"{name} must be an array of {np.dtype(dtype).name}, got {a.dtype}")
        info = np.iinfo(dtype)
        if a.size and (a.min() < 0 or a.max() > info.max):
            raise ValueError(f"{name} has values outside 0..{info.max}: they are not "
                             f"{np.dtype(dtype).name} values of the sketch stage")
    return np.ascontiguousarray(a, dtype=dtype)


def signature_arrays(signatures: Any, set_sizes: Any, text_bytes: Any = None,
                     missing: Any = None) -> Tuple[np.ndarray, np.ndarray, Optional[np.ndarray], Optional[np.ndarray]]:
    """The arrays of Engine.add_signatures() checked and in the layout the engine reads."""
    return (_rows(signatures, "signatures", np.uint32, 2), _rows(set_sizes, "set_sizes", np.uint32, 1),
            None if text_bytes is None else _rows(text_bytes, "text_bytes", np.uint64, 1),
            None if missing is None else _rows(missing, "missing", np.bool_, 1))


def add_signatures(engine: "_core.Engine", *arrays: Any) -> int:
    checked = signature_arrays(*arrays)
    with library_errors():
        return int(engine.add_signatures(*checked))
