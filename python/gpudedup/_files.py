"""gpudedup.dedup_files: the program's job on files, from Python."""
from __future__ import annotations

import contextlib
import json
import os
import pathlib
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

import numpy as np

from . import _core
from ._errors import library_errors
from ._keep import kept_mask
from ._keywords import positive_integer
from ._progress import Progress, close, progress_function

PathLike = Union[str, "os.PathLike[str]"]


class FilesResult:
    """The answer of dedup_files().

    stats: the program's stats file as a dict (records, documents, skipped, kept, removed,
        clusters, parameters, seconds per stage, ...).
    representative: uint64 array by document (the documents read, in input order, skipped
        records not counted): the number of each document's representative (numbers start
        at the option first_document_number, 0 unless given).
    keep: bool array by document number, True for the documents written to `output`
        (the kept member of each cluster by `keep`, and every document alone).
    reports: "file:line: what is wrong" for the first few skipped records.
    """

    __slots__ = ("stats", "representative", "keep", "reports", "description")

    def __init__(self, raw: Dict[str, Any]):
        self.stats: Dict[str, Any] = json.loads(raw["stats"])
        self.representative: np.ndarray = raw["representative"]
        self.keep: np.ndarray = kept_mask(self.representative, raw["representatives_kept"], raw["first"])
        self.reports: List[str] = list(raw["reports"])
        self.description: List[str] = list(raw["description"])

    def __repr__(self) -> str:
        return f"FilesResult(documents={len(self.representative)}, kept={int(self.keep.sum())})"


def _path(p: Optional[PathLike]) -> Optional[str]:
    return None if p is None else os.fspath(p)


def dedup_files(paths: Union[PathLike, Sequence[PathLike]], *, output: Optional[PathLike] = None,
                removed: Optional[PathLike] = None, pairs: Optional[PathLike] = None,
                clusters: Optional[PathLike] = None, stats: Optional[PathLike] = None, format: str = "auto",
                text_field: str = "text", id_field: Optional[str] = None, strict: bool = False,
                batch_size: int = 65536, progress: Progress = None, method: str = "minhash",
                threshold: float = 0.8, num_perm: Optional[int] = None, seed: int = 1, shingle: str = "char",
                ngram: int = 5, keep: str = "first", backend: str = "auto", threads: int = 0,
                **options: Any) -> FilesResult:
    """`gpudedup dedup` from Python: reads the files with the program's readers (JSONL,
    text, folders; zstd, gzip, bzip2 and xz told by content; Parquet when the package was
    built with pyarrow: docs/input.md, docs/python.md), finds the near-duplicates
    and writes the outputs the program writes, all or none.

    paths: files or folders ("-" for standard input).
    output: kept records, byte-for-byte copies in input order; removed: TSV id, duplicate
        of; pairs: TSV id_a, id_b, similarity; clusters: JSONL; stats: JSON.
    format: "auto", "jsonl", "text" or "dir"; text_field, id_field: JSONL fields;
        meta_field (method simhash): a JSON array field of metadata for the combined score.
    strict: the first bad record is an error instead of being skipped and counted.
    batch_size: documents per batch; Ctrl-C stops the run between two batches and leaves
        no output file.
    progress: True for a tqdm bar (when tqdm is installed), or a function called with a dict
        per batch (stage, documents, input_bytes, total_input_bytes, seconds).
    keep: "first", "longest", "shortest" or "none", the program's --keep (dedup()).
    The method keywords are dedup()'s; an option the method does not read is a ValueError.

    Raises ValueError (UsageError) for bad options or clashing outputs, OSError
    (FileError) for unreadable input, a strict-mode bad record or a failed write.
    """
    names: List[str] = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    opts = {k: v for k, v in dict(method=method, threshold=threshold, num_perm=num_perm, seed=seed, shingle=shingle,
                                  ngram=ngram, keep=keep, backend=backend, threads=threads, **options).items()
            if v is not None}
    inputs = {"format": format, "text_field": text_field, "id_field": id_field, "strict": bool(strict)}
    outputs = {"output": _path(output), "removed": _path(removed), "pairs": _path(pairs),
               "clusters": _path(clusters), "stats": _path(stats)}
    batch_size = positive_integer("batch_size", batch_size)
    report = progress_function(progress, "doc")
    try:
        with library_errors(files=True), _parquet_route():
            return FilesResult(_core.dedup_files(names, inputs, outputs, batch_size, opts, report))
    finally:
        close(report)


_NO_PARQUET = ": gpudedup cannot read Parquet: "


def _has_parquet_module() -> bool:
    """True when the package was built with pyarrow (python/CMakeLists.txt installs the module beside it)."""
    return any(pathlib.Path(__file__).parent.glob("libgpudedup_parquet*.so"))


def _pyarrow_requirement() -> str:
    """The pyarrow requirement of the installed package (pyproject.toml's pin), without its marker."""
    import importlib.metadata

    try:
        found = [r.split(";")[0].strip() for r in importlib.metadata.requires("gpudedup") or ()
                 if r.startswith("pyarrow")]
    except importlib.metadata.PackageNotFoundError:
        found = []
    return found[0] if found else "pyarrow"


@contextlib.contextmanager
def _parquet_route() -> Iterator[None]:
    """The library's "no Parquet in this build" error, told the package's way: a package
    built without pyarrow has no Parquet module (python/CMakeLists.txt); the message names
    the reinstall that adds it and the route through pyarrow without it."""
    try:
        yield
    except _core.UsageError as e:
        if _NO_PARQUET not in str(e):
            raise
        path, why = str(e).split(_NO_PARQUET, 1)
        if _has_parquet_module():
            raise _core.UsageError(
                f"{path}: gpudedup's Parquet module is installed but did not load ({why}): it links the "
                f"libraries of the pyarrow major gpudedup depends on: pip install '{_pyarrow_requirement()}'"
                ) from None
        raise _core.UsageError(
            f"{path}: this gpudedup was built without pyarrow (a --no-build-isolation install in an "
            "environment without pyarrow, or a Python older than 3.11, which the pinned pyarrow does "
            "not support), so dedup_files() reads no Parquet. To read it, reinstall on Python 3.11 or "
            "newer with a plain `pip install .` in the gpudedup clone, without --no-build-isolation "
            "(pyarrow is a build requirement and a dependency: docs/python.md, \"Parquet in "
            "dedup_files()\"). Or read the "
            "text column with pyarrow.parquet.read_table(path, columns=[\"text\"]), give it to "
            "gpudedup.dedup() or a gpudedup.Engine and filter the table with the result's keep "
            "(examples/python/parquet_shards.py)") from None
