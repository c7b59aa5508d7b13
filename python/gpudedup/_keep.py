"""The keep mask of a result from its representatives (the keep policy's answer)."""
from __future__ import annotations

import numpy as np


def kept_mask(representative: np.ndarray, representatives_kept: bool, first: int = 0) -> np.ndarray:
    """True for each element that is its own representative; when the representatives are
    not kept (keep="none"), only for the elements alone in their cluster. Element i has
    the number first + i (the representatives are numbers)."""
    n = len(representative)
    local = (representative - np.uint64(first)).astype(np.int64)
    keep = local == np.arange(n, dtype=np.int64)
    if not representatives_kept:
        keep &= np.bincount(local, minlength=n)[local] == 1
    return keep
