"""gpudedup.compat's MinHashLSH (datasketch.MinHashLSH's shape): keys of MinHashes in the
engine's LSH buckets (python/src/compat.cpp), in this process's memory."""
from __future__ import annotations

import pickle
from typing import Any, Dict, Hashable, List, Optional, Tuple

import numpy as np

from . import _core
from ._errors import library_errors
from ._keywords import integer, number
from .compat_lsh_views import HashTableView, KeysView, band_key_bytes
from .compat_minhash import GPUDEDUP, MinHash, check_num_perm, refuse_foreign


def _check_storage(storage_config: Any) -> None:
    """Only datasketch's in-memory storage: a Redis or Cassandra store is named and refused."""
    if not storage_config:
        return
    kind = storage_config.get("type") if isinstance(storage_config, dict) else storage_config
    if kind == "dict":
        return
    raise ValueError(f"storage_config type {kind!r} is not offered: gpudedup.compat.MinHashLSH keeps its buckets "
                     "in this process's memory only (storage_config None or {'type': 'dict'}); to keep an LSH, "
                     "pickle it (it pickles whole, and goes to other processes that way); for an index on disk "
                     "that many processes query, use gpudedup.Index")


class MinHashLSH:
    """Keys of MinHashes in LSH buckets (datasketch.MinHashLSH's shape): query() gives the
    keys sharing a band bucket with a MinHash, unverified, as datasketch does.

    threshold: the Jaccard similarity the bands and rows aim at (the engine's choice of
    (b, r), weighing false positives and negatives by `weights`); params=(b, r) sets them.
    storage_config: None or {'type': 'dict'} (in memory); prepickle=True keeps each key
    pickled, as datasketch does. `keys` and `hashtables` are views of the buckets in
    datasketch's shapes (compat_lsh_views); the whole LSH pickles.
    """

    def __init__(self, threshold: float = 0.9, num_perm: int = 128, weights: Tuple[float, float] = (0.5, 0.5),
                 params: Optional[Tuple[int, int]] = None, storage_config: Optional[Dict[str, Any]] = None,
                 prepickle: Optional[bool] = None, hashfunc: Any = None):
        _check_storage(storage_config)
        if hashfunc is not None:
            raise ValueError("gpudedup.compat.MinHashLSH keys its buckets by the engine's 64-bit band keys: "
                             "leave hashfunc unset (it only shortens datasketch's band keys)")
        threshold = number("threshold", threshold)
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be in [0.0, 1.0], got {threshold!r}")
        self.h = check_num_perm(num_perm)
        weights = tuple(number("weights", w) for w in weights)
        if len(weights) != 2 or not all(0.0 <= w <= 1.0 for w in weights) or abs(sum(weights) - 1.0) > 1e-9:
            raise ValueError(f"weights must be two values in [0, 1] summing to 1, got {weights!r}")
        self.threshold = threshold
        with library_errors():
            if params is None:
                bands, rows = _core.choose_lsh_params(max(self.threshold, 1e-9), self.h, weights[0], weights[1])
            else:
                bands, rows = (integer("params", v) for v in params)
            self._buckets = _core.LshBuckets(self.h, bands, rows)
        self.b, self.r = self._buckets.bands, self._buckets.rows
        self.prepickle = bool(prepickle)
        self._clear()

    def _clear(self) -> None:
        self._doc_of: Dict[Hashable, int] = {}       # a key's first MinHash
        self._more: Dict[Hashable, List[int]] = {}   # a key's later ones (check_duplication=False, merge)
        self._key_of: Dict[int, Hashable] = {}
        self._query_buffer: List[np.ndarray] = []
        self._family: Optional[str] = None  # of the MinHashes inserted: one family per LSH

    @property
    def num_perm(self) -> int:
        return self.h

    @property
    def hashfunc(self) -> None:
        return None

    @property
    def hashranges(self) -> List[Tuple[int, int]]:
        """The (start, end) of each band's values."""
        return [(i * self.r, (i + 1) * self.r) for i in range(self.b)]

    @property
    def keys(self) -> KeysView:
        """The keys: `key in lsh.keys`, iteration, `lsh.keys[key]` (its band keys)."""
        return KeysView(self)

    @property
    def hashtables(self) -> List[HashTableView]:
        """One view per band: band key H -> the set of keys in that bucket."""
        return [HashTableView(self, band) for band in range(self.b)]

    def insert(self, key: Hashable, minhash: MinHash, check_duplication: bool = True) -> None:
        """Adds `minhash` under `key`. A key already present is a ValueError; with
        check_duplication=False the key is in the buckets of both MinHashes (datasketch's)."""
        values = self._values(minhash)
        if self.prepickle:
            key = pickle.dumps(key)
        if key in self._doc_of:
            if check_duplication:
                raise ValueError(f"the key {key!r} is in the LSH already")
            with library_errors():
                return self._add(key, self._buckets.insert(values))
        with library_errors():
            doc = self._buckets.insert(values)
        self._doc_of[key] = doc  # the common case, without _add's call
        self._key_of[doc] = key

    def insertion_session(self, buffer_size: int = 50000) -> "MinHashLSHInsertionSession":
        """A context manager with insert() (datasketch's bulk loading); inserts take effect at
        once, the buckets being in memory (buffer_size is taken and has nothing to buffer)."""
        integer("buffer_size", buffer_size)
        return MinHashLSHInsertionSession(self)

    def query(self, minhash: MinHash) -> List[Hashable]:
        """The keys sharing at least one band bucket with `minhash` (candidates, not verified)."""
        with library_errors():
            docs = self._buckets.query(self._values(minhash, take_family=False))
        keys = [self._key_of[d] for d in docs]
        if self._more:
            keys = list(dict.fromkeys(keys))
        return [pickle.loads(k) for k in keys] if self.prepickle else keys

    def add_to_query_buffer(self, minhash: MinHash) -> None:
        """Keeps `minhash`'s band keys for collect_query_buffer()."""
        with library_errors():
            self._query_buffer.append(self._buckets.band_keys(self._values(minhash, take_family=False)))

    def collect_query_buffer(self) -> List[Hashable]:
        """The keys in every band bucket of every MinHash buffered since the last call
        (datasketch's: the intersection over bands and MinHashes), and empties the buffer."""
        buffered, self._query_buffer = self._query_buffer, []
        found: Optional[set] = None
        for band_keys in buffered:
            for band, key in enumerate(band_keys):
                keys = {self._key_of[d] for d in self._buckets.bucket(band, int(key))}
                found = keys if found is None else found & keys
        keys = list(found or ())
        return [pickle.loads(k) for k in keys] if self.prepickle else keys

    def merge(self, other: "MinHashLSH", check_overlap: bool = False) -> None:
        """Adds every key of `other` (same num_perm, bands and rows) with its buckets. A key in
        both is a ValueError with check_overlap; without, it is in the buckets of both."""
        if type(other) is not type(self):
            raise ValueError(f"cannot merge a MinHashLSH with a {type(other).__name__}")
        if (other.h, other.b, other.r) != (self.h, self.b, self.r):
            raise ValueError(f"cannot merge a MinHashLSH of num_perm, bands, rows {(other.h, other.b, other.r)} "
                             f"into one of {(self.h, self.b, self.r)}")
        if other.prepickle != self.prepickle:
            raise ValueError(f"cannot merge a MinHashLSH of prepickle={other.prepickle} into one of "
                             f"prepickle={self.prepickle}: their keys are kept in different forms")
        if check_overlap:
            both = self._doc_of.keys() & other._doc_of.keys()
            if both:
                raise ValueError(f"check_overlap: {len(both)} keys are in both, e.g. {next(iter(both))!r}")
        if other._family is not None:
            self._take_family(other._family)
        docs, rows = other._buckets.live()
        keys = [other._key_of[int(d)] for d in docs]
        self._add_rows(keys, rows)

    def remove(self, key: Hashable) -> None:
        """Takes `key` out of the LSH (a key not present is a ValueError)."""
        key = self._stored(key)
        if key not in self._doc_of:
            raise ValueError(f"the key {key!r} is not in the LSH")
        for d in self._docs(key):
            del self._key_of[d]
            self._buckets.remove(d)
        del self._doc_of[key]
        self._more.pop(key, None)
        if not self._doc_of:
            self._family = None  # empty again: the next insert chooses

    def is_empty(self) -> bool:
        """True when no key is in the LSH."""
        return not self._doc_of

    def get_counts(self) -> List[Dict[bytes, int]]:
        """One dict per band: band key H -> the number of keys in that bucket."""
        return [table.itemcounts() for table in self.hashtables]

    def get_subset_counts(self, *keys: Hashable) -> List[Dict[bytes, int]]:
        """get_counts() of the buckets of these keys only."""
        counts: List[Dict[bytes, int]] = [{} for _ in range(self.b)]
        for key in {self._stored(k) for k in keys}:
            for d in self._docs(key):
                for band, k in enumerate(self._buckets.doc_keys(d)):
                    H = band_key_bytes(k)
                    counts[band][H] = counts[band].get(H, 0) + 1
        return counts

    def __contains__(self, key: Hashable) -> bool:
        return self._stored(key) in self._doc_of

    def __len__(self) -> int:
        return len(self._doc_of)

    def __getstate__(self) -> Dict[str, Any]:
        docs, rows = self._buckets.live()
        return {"threshold": self.threshold, "h": self.h, "b": self.b, "r": self.r, "prepickle": self.prepickle,
                "keys": [self._key_of[int(d)] for d in docs], "rows": rows, "query_buffer": self._query_buffer,
                "family": self._family}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.threshold, self.h, self.b, self.r = state["threshold"], state["h"], state["b"], state["r"]
        self.prepickle = state["prepickle"]
        with library_errors():
            self._buckets = _core.LshBuckets(self.h, self.b, self.r)
        self._clear()
        self._add_rows(state["keys"], state["rows"])
        self._query_buffer = list(state["query_buffer"])
        # No "family": pickled before datasketch's family was compat's default, so the engine's.
        self._family = state.get("family", GPUDEDUP) if self._doc_of else state.get("family")

    def _add_rows(self, keys: List[Hashable], rows: np.ndarray) -> None:
        """Adds one document per row of band keys, under keys[i], in order."""
        with library_errors():
            first = self._buckets.insert_keys(np.ascontiguousarray(rows, dtype=np.uint64).reshape(len(keys), self.b))
        for i, key in enumerate(keys):
            self._add(key, first + i)

    def _add(self, key: Hashable, doc: int) -> None:
        if key in self._doc_of:
            self._more.setdefault(key, []).append(doc)
        else:
            self._doc_of[key] = doc
        self._key_of[doc] = key

    def _docs(self, key: Hashable) -> List[int]:
        return [self._doc_of[key], *self._more.get(key, ())]

    def _stored(self, key: Hashable) -> Hashable:
        return pickle.dumps(key) if self.prepickle else key

    def _values(self, minhash: MinHash, take_family: bool = True) -> np.ndarray:
        """The MinHash's values; an insert makes its family the LSH's, a query only checks it
        (a query of an empty LSH fixes nothing)."""
        refuse_foreign(minhash, "minhash")
        if minhash.num_perm != self.h:
            raise ValueError(f"the MinHash has num_perm {minhash.num_perm}, this LSH takes {self.h}")
        if take_family or self._family is not None:
            self._take_family(minhash.family)
        return minhash.hashvalues

    def _take_family(self, family: str) -> None:
        """Keeps one hash family per LSH: band keys of another family would match nothing, silently."""
        if self._family is None:
            self._family = family
        elif family != self._family:
            raise ValueError(f"this LSH holds MinHashes of the hash family {self._family!r}, this one is of "
                             f"{family!r}: datasketch's (MinHash()'s default) and the engine's (minhashes()) give "
                             "unrelated values; make them the same way")


class MinHashLSHInsertionSession:
    """What MinHashLSH.insertion_session() gives: insert() into the LSH, in a `with` block."""

    def __init__(self, lsh: MinHashLSH):
        self.lsh = lsh

    def __enter__(self) -> "MinHashLSHInsertionSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to flush: every insert is in the LSH already."""

    def insert(self, key: Hashable, minhash: MinHash, check_duplication: bool = True) -> None:
        """MinHashLSH.insert()."""
        self.lsh.insert(key, minhash, check_duplication=check_duplication)
