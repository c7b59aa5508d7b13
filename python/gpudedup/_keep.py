"""The keep mask of a result from its representatives (the keep policy's answer)."""
from __future__ import annotations

import numpy as np


def kept_mask(representative: np.ndarray, representatives_kept: bool) -> np.ndarray:
    """True for each element that is its own representative; when the representatives are
    not kept (keep="none"), only for the elements alone in their cluster."""
    n = len(representative)
    keep = representative == np.arange(n, dtype=np.uint32)
    if not representatives_kept:
        keep &= np.bincount(representative, minlength=n)[representative] == 1
    return keep
