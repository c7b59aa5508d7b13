"""gpudedup.compat's LeanMinHash (datasketch.LeanMinHash's shape): a MinHash that takes no
more tokens, hashable, with datasketch's byte layout (seed, count, 32-bit values)."""
from __future__ import annotations

import struct
from typing import Any, Iterable, Optional

from .compat_minhash import DATASKETCH, GPUDEDUP, MinHash, _made, check_family, family_values, refuse_foreign


class LeanMinHash(MinHash):
    """A frozen MinHash: made from a gpudedup.compat MinHash (its family kept), or from
    `seed` and `hashvalues` (of `family`, datasketch's by default, as MinHash's). update()
    is a TypeError; jaccard(), merge(), union(), count(), copy() as MinHash's.
    serialize(buf, byteorder) and deserialize(buf, byteorder, family) write and read
    datasketch's layout: the seed (8 bytes, "q"), the number of values (4 bytes, "i"), each
    value (4 bytes, "I"), in `byteorder` ("@", "=", "<", ">" or "!"). The layout has no
    field for the family: deserialize() takes datasketch's unless told `family`; pickling
    keeps it.
    """

    __slots__ = ()

    def __init__(self, minhash: Optional[MinHash] = None, seed: Optional[int] = None,
                 hashvalues: Optional[Iterable[int]] = None, *, family: str = DATASKETCH):
        if minhash is not None:
            refuse_foreign(minhash, "minhash")
            seed, hashvalues, family = minhash.seed, minhash.hashvalues, minhash.family
        elif hashvalues is None or seed is None:
            raise ValueError("LeanMinHash takes a MinHash, or both seed and hashvalues; got neither")
        super().__init__(seed=seed, hashvalues=hashvalues, family=family)

    def update(self, b: Any) -> None:
        """Refused: a LeanMinHash is frozen (make a MinHash from it to add tokens)."""
        raise TypeError("cannot update a LeanMinHash: make a MinHash(seed=lean.seed, hashvalues=lean.digest(), "
                        "family=lean.family) to add tokens")

    def update_batch(self, b: Iterable[Any]) -> None:
        """Refused, as update()."""
        self.update(b)

    def bytesize(self, byteorder: str = "@") -> int:
        """The size of serialize()'s output in bytes."""
        return struct.calcsize(_layout(byteorder, len(self)))

    def serialize(self, buf: Any, byteorder: str = "@") -> None:
        """Writes this LeanMinHash at the start of `buf` (a writable buffer of bytesize() bytes or more)."""
        if len(buf) < self.bytesize(byteorder):
            raise ValueError(f"the buffer holds {len(buf)} bytes, this LeanMinHash takes {self.bytesize(byteorder)}")
        struct.pack_into(_layout(byteorder, len(self)), buf, 0, self.seed, len(self), *self.hashvalues.tolist())

    @classmethod
    def deserialize(cls, buf: Any, byteorder: str = "@", family: str = DATASKETCH) -> "LeanMinHash":
        """The LeanMinHash serialize() wrote at the start of `buf`, of `family` (the layout has none)."""
        head = _layout(byteorder, 0)
        seed, num_perm = struct.unpack_from(head, buf, 0)
        values = struct.unpack_from(f"{byteorder}{num_perm}I", buf, struct.calcsize(head))
        return _made(cls, seed, family_values(values), None, check_family(family))

    def __getstate__(self) -> tuple:  # type: ignore[override]
        buf = bytearray(self.bytesize())
        self.serialize(buf)
        return (bytes(buf), self.family)

    def __setstate__(self, state: Any) -> None:  # type: ignore[override]
        # Bytes alone: pickled before datasketch's family was compat's default, so the engine's.
        buf, family = state if isinstance(state, tuple) else (state, GPUDEDUP)
        other = self.deserialize(buf, family=family)
        self.seed, self._hashvalues, self.hashfunc, self.family = other.seed, other._hashvalues, None, other.family

    def __hash__(self) -> int:  # type: ignore[override]
        return hash((self.seed, self.family, self._hashvalues.tobytes()))


def _layout(byteorder: str, num_perm: int) -> str:
    if byteorder not in ("@", "=", "<", ">", "!"):
        raise ValueError(f"byteorder must be one of @ = < > !, got {byteorder!r}")
    return f"{byteorder}qi{num_perm}I" if num_perm else f"{byteorder}qi"
