"""gpudedup.Index: the persistent near-duplicate index (docs/embedding.md) for services
that ask, batch after batch and across restarts, "have I seen this text before?"."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from . import _core
from ._errors import library_errors
from ._keywords import number
from ._texts import to_texts


class IndexAnswers:
    """The answer for each element of a queried batch (numpy arrays, one entry per element).

    duplicate: bool, a near-duplicate of an indexed text or of an earlier new text of the batch.
    empty: bool, a text without shingles (never a duplicate, never matched).
    skipped: bool, a None element (not queried, not inserted).
    in_batch: bool, the match is an earlier element of the same batch.
    match: int64, the matched document number in the index, or with in_batch the matched
        element's position in the batch; -1 when not a duplicate.
    match_id: list of the matched document's id (None when not a duplicate).
    similarity: float64, the estimated Jaccard similarity of the match (0 when none).
    """

    __slots__ = ("duplicate", "empty", "skipped", "in_batch", "match", "match_id", "similarity")

    def __init__(self, raw: Dict[str, Any]):
        self.duplicate: np.ndarray = raw["duplicate"].astype(bool)
        self.empty: np.ndarray = raw["empty"].astype(bool)
        self.skipped: np.ndarray = raw["skipped"].astype(bool)
        self.in_batch: np.ndarray = raw["in_batch"].astype(bool)
        self.match: np.ndarray = raw["match"]
        self.match_id: List[Optional[str]] = raw["match_id"]
        self.similarity: np.ndarray = raw["similarity"]

    @property
    def new(self) -> np.ndarray:
        """bool: texts that are neither duplicates nor skipped (what query_insert() adds)."""
        return ~self.duplicate & ~self.skipped

    def __len__(self) -> int:
        return len(self.duplicate)

    def __repr__(self) -> str:
        return (f"IndexAnswers(texts={len(self)}, duplicate={int(self.duplicate.sum())}, "
                f"skipped={int(self.skipped.sum())})")


class Index:
    """A folder of immutable segments holding MinHash band keys and signatures of the texts
    inserted; one writer and any number of readers, in any processes. Make one with
    Index.create() or Index.open(). The GIL is released while it works, and one Index may
    be shared by threads (queries run together; writes one at a time)."""

    def __init__(self, core: Any):
        self._index = core

    @classmethod
    def create(cls, path: str, *, threshold: float = 0.8, num_perm: Optional[int] = None, seed: int = 1,
               shingle: str = "char", ngram: int = 5, backend: str = "auto", threads: int = 0,
               **options: Any) -> "Index":
        """Creates an empty index in the folder `path` (made if missing; it must hold nothing
        else) and opens it for writing. Its shingles, num_perm, seed, stop words, bands and
        rows are fixed for life. Also takes bands, rows, stop_words, remove_stop_words,
        stop_word_anchored, similarity, device.
        Raises ValueError for a bad parameter, OSError (FileError) for the folder."""
        opts = {k: v for k, v in dict(threshold=threshold, num_perm=num_perm, seed=seed, shingle=shingle,
                                      ngram=ngram, backend=backend, threads=threads, **options).items()
                if v is not None}
        with library_errors(files=True):
            return cls(_core.Index.create(str(path), opts))

    @classmethod
    def open(cls, path: str, *, writable: bool = False, threshold: Optional[float] = None,
             backend: str = "auto", threads: int = 0, device: int = 0, **expect: Any) -> "Index":
        """Opens an existing index, for reading (any number of readers) or with
        writable=True for writing (one writer: another holds the lock -> ValueError).
        threshold: answers' verification threshold (default: the index's own).
        expect: the parameters the caller assumes (num_perm, seed, shingle, ngram, bands,
        rows, stop_words, ...); one that differs from the index's is a ValueError with the
        engine's message naming it.
        Raises OSError (FileError) for a missing, foreign or damaged folder."""
        if threshold is not None:
            threshold = number("threshold", threshold)
            if not 0 < threshold <= 1:
                raise _core.UsageError(f"threshold must be in (0, 1], got {threshold}")
        run = {"backend": backend, "threads": threads, "device": device}
        with library_errors(files=True):
            return cls(_core.Index.open(str(path), bool(writable), -1.0 if threshold is None else threshold,
                                        run, {k: v for k, v in expect.items() if v is not None}))

    def query(self, texts: Any, ids: Optional[Sequence[str]] = None) -> IndexAnswers:
        """Which texts are near-duplicates of indexed ones or of earlier texts of the same
        batch (exactly what query_insert() answers, without inserting). `ids` (one str per
        text) name the texts in answers' match_id for in-batch matches."""
        batch = to_texts(texts)
        with library_errors(files=True):
            return IndexAnswers(self._index.query(batch, ids))

    def insert(self, texts: Any, ids: Optional[Sequence[str]] = None) -> None:
        """Indexes every text (None elements are skipped) as one new segment. `ids`: one str
        per text; default: each text's document number in the index."""
        batch = to_texts(texts)
        with library_errors(files=True):
            self._index.insert(batch, ids)

    def query_insert(self, texts: Any, ids: Optional[Sequence[str]] = None) -> IndexAnswers:
        """query(), then insert() of the texts answered new, in one step: the "keep only new
        texts" loop of an ingestion service."""
        batch = to_texts(texts)
        with library_errors(files=True):
            return IndexAnswers(self._index.query_insert(batch, ids))

    def stats(self) -> Dict[str, Any]:
        """documents, segments, generation, disk_bytes, bytes_per_document, num_perm, bands,
        rows, threshold, segment_documents, merge_error."""
        return dict(self._index.stats())

    def id(self, doc: int) -> str:
        """The id of indexed document number `doc`."""
        return self._index.id(doc)

    def refresh(self) -> bool:
        """Readers: picks up what a writer published since; True when something changed."""
        with library_errors(files=True):
            return self._index.refresh()

    def compact(self) -> None:
        """Merges all segments into one (documents keep their numbers)."""
        with library_errors(files=True):
            self._index.compact()

    def verify(self) -> None:
        """Reads every checksummed block; raises FileError naming the first damaged one."""
        with library_errors(files=True):
            self._index.verify()

    @property
    def path(self) -> str:
        return self._index.path

    @property
    def backend(self) -> str:
        """"cpu" or "cuda"."""
        return self._index.backend

    def __len__(self) -> int:
        return len(self._index)

    def __repr__(self) -> str:
        return f"Index({self.path!r}, documents={len(self)})"
