"""Read-only views of a compat MinHashLSH's buckets in datasketch's shapes: `lsh.keys` (key ->
its band keys) and `lsh.hashtables` (one table per band: band key -> the keys in that
bucket). A band key H is the engine's 64-bit band key as 8 big-endian bytes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Hashable, Iterator, List, Set

if TYPE_CHECKING:
    from .compat_lsh import MinHashLSH


def band_key_bytes(key: Any) -> bytes:
    return int(key).to_bytes(8, "big")


def _band_key_int(H: Any) -> int:
    """The engine's band key of H, or -1 for what no bucket has (as a dict lookup misses)."""
    return int.from_bytes(H, "big") if isinstance(H, (bytes, bytearray)) and len(H) == 8 else -1


class KeysView:
    """datasketch's `lsh.keys`: `key in lsh.keys`, iteration over the keys in insertion order,
    `len`, and `lsh.keys[key]` (or `.get(key)`): the key's band keys, one per band (a key
    inserted again with check_duplication=False, or met twice by merge(), has those of
    each of its MinHashes, as datasketch appends them). Calling it, `lsh.keys()`, gives the
    list of keys (gpudedup.compat's earlier method)."""

    def __init__(self, lsh: "MinHashLSH"):
        self._lsh = lsh

    def __contains__(self, key: Hashable) -> bool:
        return key in self._lsh._doc_of

    def __iter__(self) -> Iterator[Hashable]:
        return iter(list(self._lsh._doc_of))

    def __len__(self) -> int:
        return len(self._lsh._doc_of)

    def __call__(self) -> List[Hashable]:
        return list(self._lsh._doc_of)

    def __getitem__(self, key: Hashable) -> List[bytes]:
        if key not in self._lsh._doc_of:
            raise KeyError(key)
        return [band_key_bytes(k) for d in self._lsh._docs(key) for k in self._lsh._buckets.doc_keys(d)]

    def get(self, key: Hashable) -> List[bytes]:
        return self[key] if key in self else []

    def size(self) -> int:
        return len(self)

    def itemcounts(self) -> Dict[Hashable, int]:
        return {key: len(self._lsh._docs(key)) * self._lsh.b for key in self}


class HashTableView:
    """datasketch's `lsh.hashtables[band]`: iteration over its bucket keys H, `len` (buckets),
    `H in table`, and `table[H]` (or `.get(H)`): the set of keys in that bucket (empty for
    a bucket that holds none)."""

    def __init__(self, lsh: "MinHashLSH", band: int):
        self._lsh, self._band = lsh, band

    def __iter__(self) -> Iterator[bytes]:
        return (band_key_bytes(k) for k in self._lsh._buckets.bucket_keys(self._band))

    def __len__(self) -> int:
        return len(self._lsh._buckets.bucket_keys(self._band))

    def __contains__(self, H: Any) -> bool:
        return bool(self[H])

    def __getitem__(self, H: Any) -> Set[Hashable]:
        key = _band_key_int(H)
        if key < 0:
            return set()
        return {self._lsh._key_of[d] for d in self._lsh._buckets.bucket(self._band, key)}

    def get(self, H: Any) -> Set[Hashable]:
        return self[H]

    def keys(self) -> List[bytes]:
        return list(self)

    def size(self) -> int:
        return len(self)

    def itemcounts(self) -> Dict[bytes, int]:
        return {H: len(self[H]) for H in self}
