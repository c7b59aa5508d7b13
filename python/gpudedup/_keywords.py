"""The numeric keywords the package reads itself (the engine's own are checked by
python/src/options.cpp the same way): a bool is never a number here, so threshold=True
or batch_size=True is a TypeError, not a run at 1.0 or with batches of one."""
from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _core


def refuse_bool(keyword: str, value: Any, wanted: str) -> None:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{keyword} takes {wanted}, got bool")


def integer(keyword: str, value: Any) -> int:
    """`value` as an int (a Python or numpy integer); TypeError for a bool or anything else."""
    refuse_bool(keyword, value, "an integer")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{keyword} takes an integer, got {type(value).__name__}") from None


def positive_integer(keyword: str, value: Any) -> int:
    n = integer(keyword, value)
    if n < 1:
        raise _core.UsageError(f"{keyword} must be >= 1, got {n}")
    return n


def number(keyword: str, value: Any) -> float:
    """`value` as a float (an int or float, Python's or numpy's); TypeError for a bool or
    anything else."""
    refuse_bool(keyword, value, "a number")
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{keyword} takes a number, got {type(value).__name__}")
    return float(value)
