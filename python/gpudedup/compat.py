"""datasketch's MinHash, LeanMinHash and MinHashLSH on gpudedup's engine: a datasketch
script runs after changing one import,

    from datasketch import MinHash, MinHashLSH      ->   from gpudedup.compat import MinHash, MinHashLSH

MinHash's values are datasketch's (family="datasketch", the default): each token's
sha1_hash32 (OpenSSL's SHA-1, natively) or hashfunc=f's integer result (one Python call per
token: slower), permuted with datasketch's (a, b). family="gpudedup" is the engine's
(XXH64 and its classic permutations; what minhashes() gives), equal to
gpudedup.sketch(sketch="classic") of the same shingles; the two families are never compared. MinHashLSH buckets signatures by the
engine's band keys with the bands and rows the engine's chooser gives for the threshold
and `weights` (datasketch's (0.5, 0.5) by default, as a datasketch script expects; the
engine's own default is (0.02, 0.98): a missed pair costs more than a wasted check).
Values are uint32 (datasketch keeps its 32-bit values in uint64; compat takes those). Every object pickles.
minhashes() gives the signatures of many texts at once from the engine (CPU threads or
a GPU), which is where the time goes.

The classes live in compat_minhash.py, compat_lean.py, compat_bbit.py and compat_lsh.py.
"""
from .compat_bbit import bBitMinHash
from .compat_lean import LeanMinHash
from .compat_lsh import MinHashLSH, MinHashLSHInsertionSession
from .compat_minhash import MinHash, minhashes

__all__ = ["MinHash", "LeanMinHash", "bBitMinHash", "MinHashLSH", "MinHashLSHInsertionSession", "minhashes"]
