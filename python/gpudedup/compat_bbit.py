"""gpudedup.compat's bBitMinHash (datasketch.bBitMinHash's shape): the lowest b bits of each
value of a MinHash (Li and König, b-bit minwise hashing), with their Jaccard estimator."""
from __future__ import annotations

import struct
from typing import Any, Tuple

import numpy as np

from .compat_minhash import GPUDEDUP, MinHash, refuse_foreign

_PARAMS = "<qBdi"  # seed, b, r, number of values: datasketch's pickled layout, then 64-bit blocks


class bBitMinHash:
    """The lowest `b` bits (1..32) of each value of a gpudedup.compat MinHash. `r` (0..1) is
    datasketch's ratio of the set size to the hash range, 0 for sets far smaller than it.
    jaccard() corrects the share of equal values for the matches of b bits by chance;
    bytesize() is the size pickled (values packed b bits to a slot of 1, 2, 4, ... 32 bits)."""

    __slots__ = ("seed", "b", "r", "hashvalues", "family")

    def __init__(self, minhash: MinHash, b: int = 1, r: float = 0.0):
        refuse_foreign(minhash, "minhash")
        b, r = int(b), float(r)
        if not 1 <= b <= 32:
            raise ValueError(f"b must be an integer in 1..32, got {b}")
        if not 0.0 <= r <= 1.0:
            raise ValueError(f"r must be a float in [0.0, 1.0], got {r}")
        self.hashvalues = np.bitwise_and(minhash.hashvalues, np.uint32((1 << b) - 1)).astype(np.uint32)
        self.seed, self.b, self.r, self.family = minhash.seed, b, r, minhash.family

    def __eq__(self, other: Any) -> bool:
        return (type(self) is type(other) and self.seed == other.seed and self.b == other.b and self.r == other.r
                and self.family == other.family and np.array_equal(self.hashvalues, other.hashvalues))

    __hash__ = None  # type: ignore[assignment]

    def jaccard(self, other: "bBitMinHash") -> float:
        """Estimated Jaccard similarity, corrected for b-bit values equal by chance."""
        if (self.b != other.b or self.seed != other.seed or self.hashvalues.size != other.hashvalues.size
                or self.family != other.family):
            raise ValueError(f"cannot compare b-bit MinHashes of different b, seed, num_perm or hash family "
                             f"({self.b}, {self.seed}, {self.hashvalues.size}, {self.family!r} and {other.b}, "
                             f"{other.seed}, {other.hashvalues.size}, {other.family!r})")
        raw = float(np.count_nonzero(self.hashvalues == other.hashvalues)) / self.hashvalues.size
        a1, a2 = _chance(self.r, self.b), _chance(other.r, other.b)
        if self.r == 0.0 and other.r == 0.0:
            c1, c2 = a1, a2
        else:
            c1 = (a1 * other.r + a2 * self.r) / (self.r + other.r)
            c2 = (a1 * self.r + a2 * other.r) / (self.r + other.r)
        return (raw - c1) / (1 - c2)

    def bytesize(self) -> int:
        """The size of the pickled state in bytes."""
        return struct.calcsize(_PARAMS) + 8 * _layout(self.b, self.hashvalues.size)[2]

    def __getstate__(self) -> tuple:
        slot, per_block, blocks = _layout(self.b, self.hashvalues.size)
        padded = np.zeros(blocks * per_block, dtype=np.uint64)
        padded[:self.hashvalues.size] = self.hashvalues
        shifts = (np.arange(per_block - 1, -1, -1, dtype=np.uint64) * np.uint64(slot))
        packed = np.bitwise_or.reduce(padded.reshape(blocks, per_block) << shifts, axis=1)
        head = struct.pack(_PARAMS, self.seed, self.b, self.r, self.hashvalues.size)
        return (head + packed.astype("<u8").tobytes(), self.family)

    def __setstate__(self, state: Any) -> None:
        # Bytes alone: pickled before datasketch's family was compat's default, so the engine's.
        buf, self.family = state if isinstance(state, tuple) else (state, GPUDEDUP)
        self.seed, self.b, self.r, size = struct.unpack_from(_PARAMS, buf, 0)
        slot, per_block, blocks = _layout(self.b, size)
        packed = np.frombuffer(bytes(buf), dtype="<u8", count=blocks, offset=struct.calcsize(_PARAMS))
        shifts = (np.arange(per_block - 1, -1, -1, dtype=np.uint64) * np.uint64(slot))
        mask = np.uint64((1 << slot) - 1)
        values = (packed.astype(np.uint64)[:, None] >> shifts) & mask
        self.hashvalues = values.reshape(-1)[:size].astype(np.uint32)


def _chance(r: float, b: int) -> float:
    """A(r, b): the probability that b-bit values of different minima are equal."""
    if r == 0.0:
        return 1.0 / (1 << b)
    return r * (1 - r) ** (2 ** b - 1) / (1 - (1 - r) ** (2 * b))


def _layout(b: int, size: int) -> Tuple[int, int, int]:
    """(bits per slot, slots per 64-bit block, blocks) for `size` values of b bits."""
    slot = next(s for s in (1, 2, 4, 8, 16, 32) if b <= s)
    per_block = 64 // slot
    return slot, per_block, -(-size // per_block)
