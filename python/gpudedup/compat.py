"""datasketch's MinHash and MinHashLSH on gpudedup's engine: a datasketch script runs after
changing one import,

    from datasketch import MinHash, MinHashLSH      ->   from gpudedup.compat import MinHash, MinHashLSH

MinHash hashes each token with XXH64 and the engine's permutation family, so a MinHash
updated with a text's char shingles equals gpudedup.sketch() of that text; MinHashLSH
buckets signatures by the engine's band keys with the bands and rows the engine's chooser
gives for the threshold and `weights` (datasketch's (0.5, 0.5) by default, as a datasketch
script expects; the engine's own default is (0.05, 0.95): a missed pair costs more than a
wasted check). Values are uint32 (datasketch keeps 32-bit values in uint64).
minhashes() gives the signatures of many texts at once from the engine (CPU threads or
a GPU), which is where the time goes.
"""
from __future__ import annotations

from typing import Any, Dict, Hashable, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from . import _core
from ._errors import library_errors
from ._keywords import integer, number, refuse_bool

__all__ = ["MinHash", "MinHashLSH", "minhashes"]

_EMPTY = np.uint32(0xFFFFFFFF)

_FAMILY = ("gpudedup's MinHash values are 32-bit, 0..4294967295, in a uint32 array (what MinHash.digest(), "
           "minhashes() and gpudedup.sketch() give)")
_NOT_DATASKETCH = ("a datasketch MinHash's signature (uint64 values of its own hash family) is not comparable "
                   "with gpudedup's: make the MinHash again from its tokens with gpudedup.compat.MinHash.update() "
                   "or minhashes()")


def _check_num_perm(num_perm: Any) -> int:
    refuse_bool("num_perm", num_perm, "an integer")
    if not isinstance(num_perm, (int, np.integer)) or not 1 <= num_perm <= 4096:
        raise ValueError(f"num_perm must be an integer in 1..4096, got {num_perm!r}")
    return int(num_perm)


def _refuse_foreign(obj: Any, what: str) -> None:
    """A TypeError for a MinHash that is not gpudedup.compat's (a datasketch MinHash or
    LeanMinHash above all), where one of ours is expected."""
    if isinstance(obj, MinHash):
        return
    kind = f"{type(obj).__module__}.{type(obj).__qualname__}"
    if type(obj).__module__.split(".")[0] == "datasketch":
        raise TypeError(f"{what} is a {kind}: {_NOT_DATASKETCH}")
    raise TypeError(f"{what} must be a gpudedup.compat.MinHash, got {kind}")


def _family_values(hashvalues: Any) -> np.ndarray:
    """`hashvalues` as a new uint32 array of 1..4096 values of gpudedup's family: integers in
    0..4294967295 (a uint32 array, or ints). A uint64 array, datasketch's, is refused: its
    values fit in 32 bits but come from another family, and would compare as if ours."""
    if hasattr(hashvalues, "hashvalues"):
        _refuse_foreign(hashvalues, "hashvalues")
        raise TypeError("hashvalues takes the values, not a MinHash: use MinHash.copy()")
    values = np.asarray(hashvalues)
    if values.dtype == np.uint64:
        raise ValueError(f"hashvalues is a uint64 array, what a datasketch MinHash holds: {_FAMILY}; "
                         f"{_NOT_DATASKETCH}")
    if values.ndim != 1 or values.size == 0 or values.size > 4096:
        raise ValueError(f"hashvalues must hold 1..4096 values, got shape {values.shape}")
    if values.dtype.kind not in "iuO" or (values.dtype.kind == "O" and not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values)):
        raise ValueError(f"hashvalues must be integers: {_FAMILY}; got {values.dtype} values")
    if values.min() < 0 or values.max() > 0xFFFFFFFF:
        raise ValueError(f"hashvalues has values outside 0..4294967295: {_FAMILY}")
    return np.array(values, dtype=np.uint32)


class MinHash:
    """A MinHash signature built token by token (datasketch.MinHash's shape).

    num_perm: number of values P (1..4096); seed: seeds the permutations (MinHashes are
    comparable only with equal seed and num_perm). hashvalues: start from these values,
    gpudedup's own (a uint32 array, 0..4294967295, or a list of such ints); a datasketch
    MinHash's uint64 values are refused: they are of another hash family.
    hashfunc and permutations of datasketch are not taken: the hash is the engine's.
    """

    __slots__ = ("seed", "_hashvalues")

    def __init__(self, num_perm: int = 128, seed: int = 1, hashfunc: Any = None, hashobj: Any = None,
                 hashvalues: Optional[Iterable[int]] = None, permutations: Any = None):
        if hashfunc is not None or hashobj is not None or permutations is not None:
            raise ValueError("gpudedup.compat.MinHash hashes with the engine's functions: leave hashfunc, "
                             "hashobj and permutations unset")
        refuse_bool("seed", seed, "an integer")
        if not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        self.seed = int(seed)
        if hashvalues is not None:
            self._hashvalues = _family_values(hashvalues)
        else:
            self._hashvalues = np.full(_check_num_perm(num_perm), _EMPTY, dtype=np.uint32)

    @property
    def hashvalues(self) -> np.ndarray:
        """The values (uint32), updated in place by update() and merge()."""
        return self._hashvalues

    @hashvalues.setter
    def hashvalues(self, values: Any) -> None:
        self._hashvalues = _family_values(values)  # checked as the constructor's

    @property
    def num_perm(self) -> int:
        return len(self._hashvalues)

    def update(self, b: Any) -> None:
        """Adds one token (bytes, or str as UTF-8)."""
        with library_errors():
            _core.minhash_update(self.hashvalues, self.seed, (b,))

    def update_batch(self, b: Iterable[Any]) -> None:
        """Adds every token of `b` in one call."""
        with library_errors():
            _core.minhash_update(self.hashvalues, self.seed, b)

    def _check_same(self, other: "MinHash") -> None:
        _refuse_foreign(other, "other")
        if other.seed != self.seed:
            raise ValueError(f"cannot compare MinHashes of different seeds ({self.seed} and {other.seed})")
        if other.num_perm != self.num_perm:
            raise ValueError(f"cannot compare MinHashes of different num_perm ({self.num_perm} and {other.num_perm})")

    def jaccard(self, other: "MinHash") -> float:
        """Estimated Jaccard similarity: the share of equal values."""
        self._check_same(other)
        return float(np.count_nonzero(self.hashvalues == other.hashvalues)) / self.num_perm

    def merge(self, other: "MinHash") -> None:
        """This MinHash becomes the one of the union of both token sets."""
        self._check_same(other)
        np.minimum(self.hashvalues, other.hashvalues, out=self.hashvalues)

    def digest(self) -> np.ndarray:
        """A copy of the values."""
        return self.hashvalues.copy()

    def is_empty(self) -> bool:
        """True when no token was added (every value is 0xFFFFFFFF)."""
        return bool((self.hashvalues == _EMPTY).all())

    def clear(self) -> None:
        """Forgets every token."""
        self.hashvalues.fill(_EMPTY)

    def copy(self) -> "MinHash":
        """An independent MinHash with the same seed and values."""
        return MinHash(seed=self.seed, hashvalues=self.hashvalues)

    def __len__(self) -> int:
        return self.num_perm

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, MinHash) and self.seed == other.seed
                and np.array_equal(self.hashvalues, other.hashvalues))

    __hash__ = None  # type: ignore[assignment]  # mutable, like datasketch's

    @classmethod
    def bulk(cls, b: Iterable[Iterable[Any]], **minhash_kwargs: Any) -> List["MinHash"]:
        """One MinHash per token collection of `b`, each made with the constructor's keywords
        (datasketch's bulk): those it refuses (hashfunc, an unknown keyword) are refused
        here, even for an empty `b`."""
        cls(**minhash_kwargs)
        out = []
        for tokens in b:
            m = cls(**minhash_kwargs)
            m.update_batch(tokens)
            out.append(m)
        return out


def minhashes(texts: Any, num_perm: int = 128, seed: int = 1, shingle: str = "char", ngram: int = 5,
              backend: str = "auto", threads: int = 0) -> List[MinHash]:
    """The MinHash of each text's shingles, all sketched by the engine in one call (texts:
    anything gpudedup.sketch() takes; the texts are normalized as the engine does)."""
    from . import sketch

    values = sketch(texts, num_perm=_check_num_perm(num_perm), seed=seed, shingle=shingle, ngram=ngram,
                    backend=backend, threads=threads)
    out = []
    for row in values:
        m = MinHash.__new__(MinHash)
        m.seed = int(seed)
        m._hashvalues = row.copy()
        out.append(m)
    return out


class MinHashLSH:
    """Keys of MinHashes in LSH buckets (datasketch.MinHashLSH's shape): query() gives the
    keys sharing a band bucket with a MinHash, unverified, as datasketch does.

    threshold: the Jaccard similarity the bands and rows aim at (the engine's choice of
    (b, r), weighing false positives and negatives by `weights`); params=(b, r) sets them.
    """

    def __init__(self, threshold: float = 0.9, num_perm: int = 128, weights: Tuple[float, float] = (0.5, 0.5),
                 params: Optional[Tuple[int, int]] = None, storage_config: Optional[Dict[str, Any]] = None,
                 prepickle: Any = None, hashfunc: Any = None):
        if storage_config not in (None, {"type": "dict"}):
            raise ValueError("gpudedup.compat.MinHashLSH keeps its buckets in memory: storage_config "
                             "must be None or {'type': 'dict'}")
        if hashfunc is not None:
            raise ValueError("gpudedup.compat.MinHashLSH uses the engine's band keys: leave hashfunc unset")
        threshold = number("threshold", threshold)
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be in [0.0, 1.0], got {threshold!r}")
        self.h = _check_num_perm(num_perm)
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
        self._doc_of: Dict[Hashable, int] = {}
        self._key_of: Dict[int, Hashable] = {}

    @property
    def num_perm(self) -> int:
        return self.h

    def insert(self, key: Hashable, minhash: MinHash, check_duplication: bool = True) -> None:
        """Adds `minhash` under `key` (a key already present is a ValueError)."""
        if key in self._doc_of:
            if check_duplication:
                raise ValueError(f"the key {key!r} is in the LSH already")
            self.remove(key)
        with library_errors():
            doc = self._buckets.insert(self._values(minhash))
        self._doc_of[key] = doc
        self._key_of[doc] = key

    def query(self, minhash: MinHash) -> List[Hashable]:
        """The keys sharing at least one band bucket with `minhash` (candidates, not verified)."""
        with library_errors():
            docs = self._buckets.query(self._values(minhash))
        return [self._key_of[d] for d in docs]

    def remove(self, key: Hashable) -> None:
        """Takes `key` out of the LSH (a key not present is a ValueError)."""
        if key not in self._doc_of:
            raise ValueError(f"the key {key!r} is not in the LSH")
        doc = self._doc_of.pop(key)
        del self._key_of[doc]
        self._buckets.remove(doc)

    def is_empty(self) -> bool:
        """True when no key is in the LSH."""
        return not self._doc_of

    def keys(self) -> List[Hashable]:
        """The keys inserted, in order."""
        return list(self._doc_of)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._doc_of

    def __len__(self) -> int:
        return len(self._doc_of)

    def _values(self, minhash: MinHash) -> np.ndarray:
        _refuse_foreign(minhash, "minhash")
        if minhash.num_perm != self.h:
            raise ValueError(f"the MinHash has num_perm {minhash.num_perm}, this LSH takes {self.h}")
        return minhash.hashvalues
