"""datasketch's MinHash, LeanMinHash and MinHashLSH on gpudedup's engine: a datasketch
script runs after changing one import,

    from datasketch import MinHash, MinHashLSH      ->   from gpudedup.compat import MinHash, MinHashLSH

MinHash hashes each token with XXH64 and the engine's permutation family, so a MinHash
updated with a text's char shingles equals gpudedup.sketch() of that text; with
hashfunc=f (datasketch's keyword) f's integer result is the token's hash, permuted by the
same family (one Python call per token: slower). MinHashLSH buckets signatures by the
engine's band keys with the bands and rows the engine's chooser gives for the threshold
and `weights` (datasketch's (0.5, 0.5) by default, as a datasketch script expects; the
engine's own default is (0.05, 0.95): a missed pair costs more than a wasted check).
Values are uint32 (datasketch keeps 32-bit values in uint64). Every object pickles.
minhashes() gives the signatures of many texts at once from the engine (CPU threads or
a GPU), which is where the time goes.

The classes live in compat_minhash.py, compat_lean.py, compat_bbit.py and compat_lsh.py.
"""
from .compat_bbit import bBitMinHash
from .compat_lean import LeanMinHash
from .compat_lsh import MinHashLSH, MinHashLSHInsertionSession
from .compat_minhash import MinHash, minhashes

__all__ = ["MinHash", "LeanMinHash", "bBitMinHash", "MinHashLSH", "MinHashLSHInsertionSession", "minhashes"]
