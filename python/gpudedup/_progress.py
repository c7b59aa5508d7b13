"""Progress of a run: a tqdm bar when tqdm is installed and progress=True, or the
caller's own function."""
from __future__ import annotations

import sys
import warnings
from typing import Any, Callable, Dict, Optional, Union

from ._progress_lines import ProgressLines

Progress = Union[None, bool, Callable[[Dict[str, Any]], None]]


class TqdmBar:
    """A tqdm bar over input bytes (when the total is known) or documents, one per stage."""

    def __init__(self, tqdm: Any, unit: str):
        self._tqdm = tqdm
        self._unit = unit
        self._bar: Any = None
        self._stage: Optional[str] = None
        self._by_bytes = False

    def __call__(self, p: Dict[str, Any]) -> None:
        if p["stage"] != self._stage:
            self.close()
            self._stage = p["stage"]
            total = p.get("total_input_bytes") or None
            self._by_bytes = total is not None
            self._bar = self._tqdm(desc=f"gpudedup {self._stage}", total=total,
                                   unit="B" if self._by_bytes else self._unit, unit_scale=True, leave=False)
        elif not self._by_bytes and p.get("total_input_bytes"):
            # The total comes with the first batch, after the stage's first report: count
            # bytes from then on, as the percentage and the ETA need.
            self._by_bytes = True
            self._bar.unit = "B"
            self._bar.reset(total=p["total_input_bytes"])
        value = p["input_bytes"] if self._by_bytes else p["documents"]
        self._bar.update(max(0, value - self._bar.n))

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def progress_function(progress: Progress, unit: str = "doc") -> Optional[Callable[[Dict[str, Any]], None]]:
    """None for no progress; True: a tqdm bar on a terminal (a warning and no bar when tqdm
    is not installed), whole lines at least once a second otherwise (a log); a callable is called with a dict per batch (stage, documents, input_bytes,
    total_input_bytes, seconds)."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    if progress is True:
        if not _is_terminal(sys.stderr):
            return ProgressLines(sys.stderr, unit)
        try:
            from tqdm.auto import tqdm
        except ImportError:
            warnings.warn("progress=True needs tqdm (pip install tqdm): running without a progress bar",
                          stacklevel=3)
            return None
        return TqdmBar(tqdm, unit)
    raise TypeError(f"progress must be True, False, None or a function, not {type(progress).__name__}")


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def close(report: Any) -> None:
    if isinstance(report, (TqdmBar, ProgressLines)):
        report.close()
