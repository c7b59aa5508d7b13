"""gpudedup.compat's MinHash (datasketch.MinHash's shape) and minhashes(): the engine's
hash family, or a caller's hashfunc folded into the engine's permutations."""
from __future__ import annotations

import warnings
from typing import Any, Callable, Generator, Iterable, List, Optional

import numpy as np

from . import _core
from ._errors import library_errors
from ._keywords import refuse_bool

_EMPTY = np.uint32(0xFFFFFFFF)
_MAX_HASH = float(0xFFFFFFFF)
_MAX_TOKEN_HASH = 2**64 - 1

_FAMILY = ("gpudedup's MinHash values are 32-bit, 0..4294967295, in a uint32 array (what MinHash.digest(), "
           "minhashes() and gpudedup.sketch() give)")
_NOT_DATASKETCH = ("a datasketch MinHash's signature (uint64 values of its own hash family) is not comparable "
                   "with gpudedup's: make the MinHash again from its tokens with gpudedup.compat.MinHash.update() "
                   "or minhashes()")


def check_num_perm(num_perm: Any) -> int:
    refuse_bool("num_perm", num_perm, "an integer")
    if not isinstance(num_perm, (int, np.integer)) or not 1 <= num_perm <= 4096:
        raise ValueError(f"num_perm must be an integer in 1..4096, got {num_perm!r}")
    return int(num_perm)


def refuse_foreign(obj: Any, what: str) -> None:
    """A TypeError for a MinHash that is not gpudedup.compat's (a datasketch MinHash or
    LeanMinHash above all), where one of ours is expected."""
    if isinstance(obj, MinHash):
        return
    kind = f"{type(obj).__module__}.{type(obj).__qualname__}"
    if type(obj).__module__.split(".")[0] == "datasketch":
        raise TypeError(f"{what} is a {kind}: {_NOT_DATASKETCH}")
    raise TypeError(f"{what} must be a gpudedup.compat.MinHash, got {kind}")


def family_values(hashvalues: Any) -> np.ndarray:
    """`hashvalues` as a new uint32 array of 1..4096 values of gpudedup's family: integers in
    0..4294967295 (a uint32 array, or ints). A uint64 array, datasketch's, is refused: its
    values fit in 32 bits but come from another family, and would compare as if ours."""
    if hasattr(hashvalues, "hashvalues"):
        refuse_foreign(hashvalues, "hashvalues")
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


def _token_hashes(hashfunc: Callable[[Any], Any], tokens: Iterable[Any]) -> np.ndarray:
    """hashfunc's result for each token, checked one by one: a float or a negative number
    would otherwise be cast to some other hash without a word."""
    out = []
    for token in tokens:
        h = hashfunc(token)
        if isinstance(h, (bool, np.bool_)) or not isinstance(h, (int, np.integer)) or not 0 <= h <= _MAX_TOKEN_HASH:
            raise ValueError(f"hashfunc gave {h!r} ({type(h).__name__}) for the token {token!r}: it must give an "
                             "integer in 0..2**64-1, a 32-bit hash (0..4294967295) as datasketch's hashfunc "
                             "gives being used as it is (a signed hash such as mmh3.hash: take it & 0xFFFFFFFF)")
        out.append(int(h))
    return np.array(out, dtype=np.uint64)


def _made(cls: type, seed: int, values: np.ndarray, hashfunc: Optional[Callable[[Any], Any]]) -> "MinHash":
    """An instance of `cls` over `values` (taken, not copied; already checked)."""
    m = object.__new__(cls)
    m.seed = seed
    m._hashvalues = values
    m.hashfunc = hashfunc
    return m


class MinHash:
    """A MinHash signature built token by token (datasketch.MinHash's shape).

    num_perm: number of values P (1..4096; the length of hashvalues when given); seed:
    seeds the permutations (MinHashes are comparable only with equal seed and num_perm).
    hashfunc: None (the engine's XXH64 of each token's bytes, str as UTF-8: fast, and equal
    to gpudedup.sketch()), or a callable applied to each token whose integer result
    (0..2**64-1; datasketch's 32-bit hashes as they are) is the token's hash, permuted by
    the engine's family (one Python call per token: slower). hashvalues: start from these
    values, gpudedup's own (a uint32 array, 0..4294967295, or a list of such ints); a
    datasketch MinHash's uint64 values are refused: they are of another hash family.
    permutations: taken only when they are this family's for seed and num_perm (another
    MinHash's `permutations`); hashobj: deprecated in datasketch, a no-op with a warning.
    """

    __slots__ = ("seed", "_hashvalues", "hashfunc")

    def __init__(self, num_perm: int = 128, seed: int = 1, hashfunc: Optional[Callable[[Any], Any]] = None,
                 hashobj: Any = None, hashvalues: Optional[Iterable[int]] = None, permutations: Any = None):
        if hashfunc is not None and not callable(hashfunc):
            raise ValueError(f"hashfunc must be a callable (token -> integer hash) or None, got "
                             f"{type(hashfunc).__name__}")
        if hashobj is not None:
            warnings.warn("hashobj is deprecated, use hashfunc instead.", DeprecationWarning, stacklevel=2)
        refuse_bool("seed", seed, "an integer")
        if not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        self.seed = int(seed)
        self.hashfunc = hashfunc
        if hashvalues is not None:
            self._hashvalues = family_values(hashvalues)
        else:
            self._hashvalues = np.full(check_num_perm(num_perm), _EMPTY, dtype=np.uint32)
        if permutations is not None and not _same_permutations(permutations, self.permutations):
            raise ValueError(f"permutations are not gpudedup's for seed {self.seed} and num_perm {self.num_perm} "
                             "(datasketch's are of another family): leave permutations unset")

    @property
    def hashvalues(self) -> np.ndarray:
        """The values (uint32), updated in place by update() and merge()."""
        return self._hashvalues

    @hashvalues.setter
    def hashvalues(self, values: Any) -> None:
        self._hashvalues = family_values(values)  # checked as the constructor's

    @property
    def num_perm(self) -> int:
        return len(self._hashvalues)

    @property
    def permutations(self) -> np.ndarray:
        """The (a, b) parameters of the permutations, a (2, num_perm) uint64 array (datasketch's shape)."""
        return _core.minhash_permutations(self.seed, self.num_perm)

    def update(self, b: Any) -> None:
        """Adds one token (bytes, or str as UTF-8; anything hashfunc takes when it is set)."""
        with library_errors():
            if self.hashfunc is None:
                _core.minhash_update(self._hashvalues, self.seed, (b,))
            else:
                _core.minhash_update_hashes(self._hashvalues, self.seed, _token_hashes(self.hashfunc, (b,)))

    def update_batch(self, b: Iterable[Any]) -> None:
        """Adds every token of `b` in one call."""
        with library_errors():
            if self.hashfunc is None:
                _core.minhash_update(self._hashvalues, self.seed, b)
            else:
                _core.minhash_update_hashes(self._hashvalues, self.seed, _token_hashes(self.hashfunc, b))

    def _check_same(self, other: "MinHash") -> None:
        refuse_foreign(other, "other")
        if other.seed != self.seed:
            raise ValueError(f"cannot compare MinHashes of different seeds ({self.seed} and {other.seed})")
        if other.num_perm != self.num_perm:
            raise ValueError(f"cannot compare MinHashes of different num_perm ({self.num_perm} and {other.num_perm})")

    def jaccard(self, other: "MinHash") -> float:
        """Estimated Jaccard similarity: the share of equal values."""
        self._check_same(other)
        return float(np.count_nonzero(self._hashvalues == other._hashvalues)) / self.num_perm

    def count(self) -> float:
        """Estimated number of distinct tokens (datasketch's estimator: P / sum(v / 2^32-1) - 1)."""
        return float(self.num_perm) / float(np.sum(self._hashvalues / _MAX_HASH)) - 1.0

    def merge(self, other: "MinHash") -> None:
        """This MinHash becomes the one of the union of both token sets."""
        self._check_same(other)
        np.minimum(self._hashvalues, other._hashvalues, out=self._hashvalues)

    @classmethod
    def union(cls, *mhs: "MinHash") -> "MinHash":
        """A new MinHash (of this class) of the union of the token sets of two or more MinHashes."""
        if len(mhs) < 2:
            raise ValueError(f"union takes at least 2 MinHashes, got {len(mhs)}")
        for m in mhs[1:]:
            mhs[0]._check_same(m)
        values = np.minimum.reduce([m._hashvalues for m in mhs])
        return _made(cls, mhs[0].seed, values, getattr(mhs[0], "hashfunc", None))

    def digest(self) -> np.ndarray:
        """A copy of the values."""
        return self._hashvalues.copy()

    def is_empty(self) -> bool:
        """True when no token was added (every value is 0xFFFFFFFF)."""
        return bool((self._hashvalues == _EMPTY).all())

    def clear(self) -> None:
        """Forgets every token."""
        self._hashvalues.fill(_EMPTY)

    def copy(self) -> "MinHash":
        """An independent MinHash (of this class) with the same seed, values and hashfunc."""
        return _made(type(self), self.seed, self._hashvalues.copy(), self.hashfunc)

    def __len__(self) -> int:
        return self.num_perm

    def __eq__(self, other: Any) -> bool:
        return (type(self) is type(other) and self.seed == other.seed
                and np.array_equal(self._hashvalues, other._hashvalues))

    __hash__ = None  # type: ignore[assignment]  # mutable, like datasketch's

    def __getstate__(self) -> tuple:
        return (self.seed, self._hashvalues, self.hashfunc)

    def __setstate__(self, state: tuple) -> None:
        seed, values, hashfunc = state
        self.seed, self._hashvalues, self.hashfunc = seed, family_values(values), hashfunc

    @classmethod
    def bulk(cls, b: Iterable[Iterable[Any]], **minhash_kwargs: Any) -> List["MinHash"]:
        """One MinHash per token collection of `b`, each made with the constructor's keywords
        (datasketch's bulk): those it refuses (an unknown keyword) are refused here, even for
        an empty `b`."""
        return list(cls.generator(b, **minhash_kwargs))

    @classmethod
    def generator(cls, b: Iterable[Iterable[Any]], **minhash_kwargs: Any) -> Generator["MinHash", None, None]:
        """bulk() one MinHash at a time."""
        first = cls(**minhash_kwargs)
        for tokens in b:
            m = first.copy()
            m.update_batch(tokens)
            yield m


def _same_permutations(given: Any, ours: np.ndarray) -> bool:
    try:
        return np.array_equal(np.asarray(given, dtype=np.uint64), ours)
    except (TypeError, ValueError, OverflowError):
        return False


def minhashes(texts: Any, num_perm: int = 128, seed: int = 1, shingle: str = "char", ngram: int = 5,
              backend: str = "auto", threads: int = 0) -> List[MinHash]:
    """The MinHash of each text's shingles, all sketched by the engine in one call (texts:
    anything gpudedup.sketch() takes; the texts are normalized as the engine does)."""
    from . import sketch

    values = sketch(texts, num_perm=check_num_perm(num_perm), seed=seed, shingle=shingle, ngram=ngram,
                    backend=backend, threads=threads)
    return [_made(MinHash, int(seed), row.copy(), None) for row in values]
