"""The library's error messages with the Python keyword of each parameter they name."""
from __future__ import annotations

import contextlib
import re
from typing import Iterator

from . import _core

# Library parameter (as messages spell it, in backticks) -> keyword argument: the option
# table's rows (include/gpudedup/options.hpp, a registered method's included) and
# dedup_files' inputs and outputs.
KEYWORD_OF = {
    # dedup_files: the job's inputs and outputs
    "input.paths": "paths",
    "input.format": "format",
    "input.meta_field": "meta_field",
    "outputs.output": "output",
    "outputs.removed": "removed",
    "outputs.pairs": "pairs",
    "outputs.clusters": "clusters",
    "outputs.stats": "stats",
}
KEYWORD_OF.update({row["param"]: row["keyword"] for row in _core.option_rows() if row["keyword"]})

_QUOTED = re.compile(r"`([^`]*)`")

# The program's commands that messages advise -> the package's call that does the same.
_CREATE_INDEX = "gpudedup index create"


def _in_python(quoted: str) -> str:
    if quoted.startswith(_CREATE_INDEX):
        folder = quoted[len(_CREATE_INDEX):].strip()
        return f"gpudedup.Index.create({folder!r})" if folder else "gpudedup.Index.create(path)"
    return KEYWORD_OF.get(quoted, quoted)


def keywords_in(message: str) -> str:
    """`message` with each backticked library parameter written as its keyword argument
    (`minhash.num_perm` -> num_perm) and each program command as the package's call
    (`gpudedup index create X` -> gpudedup.Index.create('X')); any other backticked name
    loses its backticks."""
    return _QUOTED.sub(lambda m: _in_python(m.group(1)), message)


class FileError(_core.DataError, OSError):
    """A file that cannot be read or written, or whose content is not usable (an OSError
    and a DataError): the message names the file."""


FileError.__module__ = "gpudedup"


@contextlib.contextmanager
def library_errors(files: bool = False) -> Iterator[None]:
    """Re-raises the engine's errors with keyword names: UsageError (a ValueError) and
    DataError (a RuntimeError), the engine's message otherwise unchanged. With `files`
    (calls that read or write files) a DataError is raised as FileError, an OSError."""
    try:
        yield
    except (_core.UsageError, _core.DataError) as e:
        kind = FileError if files and isinstance(e, _core.DataError) else type(e)
        raise kind(keywords_in(str(e))) from None
