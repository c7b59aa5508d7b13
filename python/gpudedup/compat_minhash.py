"""gpudedup.compat's MinHash (datasketch.MinHash's shape and values) and minhashes().

Two hash families, each MinHash knowing its own (`family`), never compared with the other:
  "datasketch"  MinHash()'s: datasketch's sha1_hash32 of each token (or the caller's
                hashfunc) permuted by datasketch's (a, b), so the values equal datasketch's
                for the same tokens, seed and num_perm.
  "gpudedup"    minhashes()'s: the engine's XXH64 shingle hashes and permutations, equal to
                gpudedup.sketch(sketch="classic")."""
from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, Generator, Iterable, List, Optional

import numpy as np

from . import _core
from ._errors import library_errors
from ._keywords import refuse_bool

_EMPTY = np.uint32(0xFFFFFFFF)
_MAX_HASH = float(0xFFFFFFFF)
_MAX_TOKEN_HASH = 2**64 - 1
_MERSENNE_61 = np.uint64((1 << 61) - 1)
DATASKETCH, GPUDEDUP = "datasketch", "gpudedup"
_FAMILIES = (DATASKETCH, GPUDEDUP)

_FAMILY = ("gpudedup's MinHash values are 32-bit, 0..4294967295, in a uint32 array (what MinHash.digest(), "
           "minhashes() and gpudedup.sketch() give)")
_NOT_DATASKETCH = ("a datasketch MinHash's signature (uint64 values of datasketch's hash family) is not comparable "
                   "with the engine's family (family='gpudedup': minhashes(), gpudedup.sketch(sketch='classic')): give it to a "
                   "MinHash of datasketch's family (the default: MinHash(seed=m.seed, hashvalues=m.hashvalues))")
_CONVERT = "make one of ours from its values: gpudedup.compat.MinHash(seed=m.seed, hashvalues=m.hashvalues)"


def check_family(family: Any) -> str:
    if family not in _FAMILIES:
        raise ValueError(f"family must be 'datasketch' (MinHash()'s default: datasketch's SHA-1 and permutations) "
                         f"or 'gpudedup' (the engine's, what minhashes() gives), got {family!r}")
    return family


@functools.lru_cache(maxsize=64)
def datasketch_permutations(seed: int, num_perm: int) -> np.ndarray:
    """datasketch's (a, b) for seed and num_perm, made as datasketch makes them (numpy's
    RandomState(seed), a in [1, 2^61-1), b in [0, 2^61-1) drawn in turn), read-only."""
    gen = np.random.RandomState(seed)
    ab = np.array([(gen.randint(1, _MERSENNE_61, dtype=np.uint64), gen.randint(0, _MERSENNE_61, dtype=np.uint64))
                   for _ in range(num_perm)], dtype=np.uint64).T.copy()
    ab.setflags(write=False)
    return ab


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
        raise TypeError(f"{what} is a {kind}: {_CONVERT}")
    raise TypeError(f"{what} must be a gpudedup.compat.MinHash, got {kind}")


def family_values(hashvalues: Any, family: str = DATASKETCH) -> np.ndarray:
    """`hashvalues` as a new uint32 array of 1..4096 values: integers in 0..4294967295 (a
    uint32 array, ints, or datasketch's uint64 array). A uint64 array, what datasketch
    holds, is refused for the engine's family: it would compare as if of that family."""
    if hasattr(hashvalues, "hashvalues"):
        refuse_foreign(hashvalues, "hashvalues")
        raise TypeError("hashvalues takes the values, not a MinHash: use MinHash.copy()")
    values = np.asarray(hashvalues)
    if values.dtype == np.uint64 and family == GPUDEDUP:
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


def _made(cls: type, seed: int, values: np.ndarray, hashfunc: Optional[Callable[[Any], Any]],
          family: str) -> "MinHash":
    """An instance of `cls` over `values` (taken, not copied; already checked)."""
    m = object.__new__(cls)
    m.seed = seed
    m._hashvalues = values
    m.hashfunc = hashfunc
    m.family = family
    return m


class MinHash:
    """A MinHash signature built token by token (datasketch.MinHash's shape).

    num_perm: number of values P (1..4096; the length of hashvalues when given); seed:
    seeds the permutations (MinHashes are comparable only with equal seed, num_perm and
    family). hashfunc: None (datasketch's default, sha1_hash32 of each token's bytes, str
    as UTF-8, computed natively), or a callable applied to each token whose integer result
    (0..2**64-1) is the token's hash (one Python call per token: slower). Either way the
    hash is permuted as datasketch does, so the values equal datasketch's for the same
    tokens, seed and num_perm. hashvalues: start from these values (0..4294967295: a
    uint32 array, ints, or a datasketch MinHash's uint64 hashvalues). permutations: taken
    only when they are this family's for seed and num_perm (another MinHash's
    `permutations`, or datasketch's); hashobj: deprecated in datasketch, a no-op with a
    warning. family: "datasketch" (the default, above) or "gpudedup": the engine's XXH64
    of each token and its permutations, what minhashes() and gpudedup.sketch(sketch="classic") give (fast:
    no Python call, no SHA-1); MinHashes of different families are never compared.
    """

    __slots__ = ("seed", "_hashvalues", "hashfunc", "family")

    def __init__(self, num_perm: int = 128, seed: int = 1, hashfunc: Optional[Callable[[Any], Any]] = None,
                 hashobj: Any = None, hashvalues: Optional[Iterable[int]] = None, permutations: Any = None,
                 *, family: str = DATASKETCH):
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
        self.family = check_family(family)
        if self.family == DATASKETCH and self.seed > 0xFFFFFFFF:
            raise ValueError(f"seed must be in 0..4294967295 for datasketch's family (numpy's RandomState(seed) makes "
                             f"its permutations, as in datasketch), got {self.seed}; family='gpudedup' takes any")
        if hashvalues is not None:
            self._hashvalues = family_values(hashvalues, self.family)
        else:
            self._hashvalues = np.full(check_num_perm(num_perm), _EMPTY, dtype=np.uint32)
        if permutations is not None and not _same_permutations(permutations, self.permutations):
            raise ValueError(f"permutations are not those of family {self.family!r} for seed {self.seed} and "
                             f"num_perm {self.num_perm}: leave permutations unset")

    @property
    def hashvalues(self) -> np.ndarray:
        """The values (uint32), updated in place by update() and merge()."""
        return self._hashvalues

    @hashvalues.setter
    def hashvalues(self, values: Any) -> None:
        self._hashvalues = family_values(values, self.family)  # checked as the constructor's

    @property
    def num_perm(self) -> int:
        return len(self._hashvalues)

    @property
    def permutations(self) -> np.ndarray:
        """The (a, b) parameters of the permutations, a (2, num_perm) uint64 array (datasketch's shape)."""
        if self.family == DATASKETCH:
            return datasketch_permutations(self.seed, self.num_perm).copy()
        return _core.minhash_permutations(self.seed, self.num_perm)

    def update(self, b: Any) -> None:
        """Adds one token (bytes, or str as UTF-8; anything hashfunc takes when it is set)."""
        self.update_batch((b,))

    def update_batch(self, b: Iterable[Any]) -> None:
        """Adds every token of `b` in one call."""
        with library_errors():
            if self.family == GPUDEDUP:
                if self.hashfunc is None:
                    _core.minhash_update(self._hashvalues, self.seed, b)
                else:
                    _core.minhash_update_hashes(self._hashvalues, self.seed, _token_hashes(self.hashfunc, b))
                return
            a, p = datasketch_permutations(self.seed, self.num_perm)
            if self.hashfunc is None:
                _core.datasketch_update(self._hashvalues, a, p, b)
            else:
                _core.datasketch_update_hashes(self._hashvalues, a, p, _token_hashes(self.hashfunc, b))

    def _check_same(self, other: "MinHash") -> None:
        refuse_foreign(other, "other")
        if other.seed != self.seed:
            raise ValueError(f"cannot compare MinHashes of different seeds ({self.seed} and {other.seed})")
        if other.num_perm != self.num_perm:
            raise ValueError(f"cannot compare MinHashes of different num_perm ({self.num_perm} and {other.num_perm})")
        if other.family != self.family:
            raise ValueError(f"cannot compare MinHashes of different hash families ({self.family!r} and "
                             f"{other.family!r}): datasketch's (MinHash()'s default) and the engine's (minhashes(), "
                             "gpudedup.sketch(sketch='classic')) give unrelated values; make both the same way")

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
        return _made(cls, mhs[0].seed, values, getattr(mhs[0], "hashfunc", None), mhs[0].family)

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
        return _made(type(self), self.seed, self._hashvalues.copy(), self.hashfunc, self.family)

    def __len__(self) -> int:
        return self.num_perm

    def __eq__(self, other: Any) -> bool:
        return (type(self) is type(other) and self.seed == other.seed and self.family == other.family
                and np.array_equal(self._hashvalues, other._hashvalues))

    __hash__ = None  # type: ignore[assignment]  # mutable, like datasketch's

    def __getstate__(self) -> tuple:
        return (self.seed, self._hashvalues, self.hashfunc, self.family)

    def __setstate__(self, state: tuple) -> None:
        # Three fields: pickled before datasketch's family was compat's default, so the engine's.
        seed, values, hashfunc, family = state if len(state) == 4 else (*state, GPUDEDUP)
        self.family = check_family(family)
        self.seed, self._hashvalues, self.hashfunc = seed, family_values(values, self.family), hashfunc

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
    anything gpudedup.sketch() takes; the texts are normalized as the engine does). They
    are of the engine's family (family="gpudedup": its classic permutations, which update()
    extends one token at a time): comparable with each other and with
    MinHash(family="gpudedup"), not with MinHash()'s default (datasketch's values)."""
    from . import sketch

    values = sketch(texts, num_perm=check_num_perm(num_perm), seed=seed, shingle=shingle, ngram=ngram,
                    backend=backend, threads=threads, sketch="classic")
    return [_made(MinHash, int(seed), row.copy(), None, GPUDEDUP) for row in values]
