"""Progress for a stream that is not a terminal (a log, a pipe, a notebook's captured
stderr): whole lines, as the program writes them, since a redrawn bar there shows up once
at 0% and never again."""
from __future__ import annotations

import threading
import time
from typing import Any, Dict, Optional, TextIO

# A line at least this often while a stage runs: a stage that reports only when it starts
# (the candidates, the write) still shows it is alive.
LINE_EVERY_SECONDS = 1.0


class ProgressLines:
    """One line per update at most every LINE_EVERY_SECONDS, and one per period from a
    ticker thread between updates (the library releases the GIL while it works)."""

    def __init__(self, stream: TextIO, unit: str, every: float = LINE_EVERY_SECONDS):
        self._stream = stream
        self._unit = unit
        self._every = every
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._last: Optional[Dict[str, Any]] = None
        self._start = time.monotonic()
        self._written_at = float("-inf")
        self._last_written = False
        self._ticker: Optional[threading.Thread] = None

    def __call__(self, p: Dict[str, Any]) -> None:
        with self._lock:
            new_stage = self._last is None or self._last["stage"] != p["stage"]
            if new_stage and self._last is not None and not self._last_written:
                self._write_locked()  # how the previous stage ended (all its bytes), once
            self._last = dict(p)
            self._last_written = False
            if new_stage or time.monotonic() - self._written_at >= self._every:
                self._write_locked()
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, name="gpudedup-progress", daemon=True)
            self._ticker.start()

    def _tick(self) -> None:
        while not self._stop.wait(self._every / 4):
            with self._lock:
                if self._last is not None and time.monotonic() - self._written_at >= self._every:
                    self._write_locked()

    def _write_locked(self) -> None:
        p = self._last
        assert p is not None
        now = time.monotonic()
        self._written_at = now
        self._last_written = True
        line = f"gpudedup {p['stage']}: {p['documents']} {self._unit}s"
        total = p.get("total_input_bytes") or 0
        if total:
            done = min(p.get("input_bytes", 0), total)
            line += f", {_size(done)} of {_size(total)} ({100 * done / total:.0f}%)"
        line += f", {now - self._start:.0f} s"
        try:
            self._stream.write(line + "\n")
            self._stream.flush()
        except (OSError, ValueError):  # a closed stream: progress is no reason to fail the run
            self._stop.set()

    def close(self) -> None:
        with self._lock:
            if self._last is not None and not self._last_written:
                self._write_locked()  # the last stage's end
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None


def _size(n: float) -> str:
    """Bytes as the program shows them, short enough for one log line."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n:.0f} B"
