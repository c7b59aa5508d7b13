"""Python inputs -> the engine's Texts: the texts that are not None, and their positions."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import _core


def _arrow_chunks(texts: Any) -> list | None:
    """The chunks of an Arrow array (anything with __arrow_c_array__, a pyarrow
    ChunkedArray, or another Arrow stream such as a Polars Series), or None when `texts`
    is not one."""
    if hasattr(texts, "__arrow_c_array__"):
        return [texts]
    if not hasattr(texts, "__arrow_c_stream__"):
        return None
    chunks = getattr(texts, "chunks", None)
    if chunks is not None:
        return list(chunks)
    try:  # a stream without chunks (Polars): pyarrow imports it without copying the buffers
        import pyarrow as pa

        return list(pa.chunked_array(texts).chunks)
    except (ImportError, TypeError, ValueError):
        return None  # no pyarrow, or one too old for the stream: read element by element


_TABLES = ("DataFrame", "LazyFrame", "Table", "RecordBatch")
_TABLE_LIBRARIES = ("pandas", "polars", "pyarrow", "dask", "modin", "cudf")


def _library_of(obj: Any) -> str:
    return type(obj).__module__.split(".")[0]


def refuse_non_collection(texts: Any) -> None:
    """A TypeError saying what to pass for the inputs that would otherwise be read wrong: a
    single str or bytes (its characters), a mapping (its keys) or a table (its column
    names or rows)."""
    if isinstance(texts, (str, bytes)):
        raise TypeError("texts must be a collection of str, not a single " + type(texts).__name__)
    if isinstance(texts, Mapping):
        raise TypeError(f"texts is a {type(texts).__name__}, a mapping: its keys would be read as the texts; "
                        "pass its values (d.values()) or a list of str")
    if type(texts).__name__ in _TABLES and _library_of(texts) in _TABLE_LIBRARIES:
        raise TypeError(f"texts is a {_library_of(texts)} {type(texts).__name__}: pass one text column, "
                        "e.g. df['text']")


def _described(source: Any, arrow_type: Any) -> str:
    """What the caller gave, in words: "a pyarrow int64 array", "a polars Int64 Series"."""
    library, kind = _library_of(source), type(source).__name__
    if library == "pyarrow":
        return f"a pyarrow {arrow_type} {'ChunkedArray' if kind == 'ChunkedArray' else 'array'}"
    if library in ("polars", "pandas") and hasattr(source, "dtype"):
        return f"a {library} {source.dtype} {kind}"
    return f"an Arrow array of {arrow_type}"


def _as_arrow_strings(chunk: Any, source: Any) -> Any:
    """pyarrow string_view, dictionary of strings or null (every element missing) arrays
    cast to large_string; string arrays unchanged; any other type a TypeError naming it."""
    typ = getattr(chunk, "type", None)
    if typ is None:
        return chunk  # not pyarrow's: the engine names the format it refuses
    import pyarrow as pa

    def is_text(t: Any) -> bool:
        return (pa.types.is_string(t) or pa.types.is_large_string(t)
                or getattr(pa.types, "is_string_view", lambda _: False)(t))

    if pa.types.is_string(typ) or pa.types.is_large_string(typ):
        return chunk
    if is_text(typ) or pa.types.is_null(typ) or (pa.types.is_dictionary(typ) and is_text(typ.value_type)):
        return chunk.cast(pa.large_string())
    why = f"texts is {_described(source, typ)}: strings are needed (Arrow string, large_string, " \
          "string_view or a dictionary of strings; a list of str; a pandas or polars Series of str)"
    if pa.types.is_binary(typ) or pa.types.is_large_binary(typ):
        why += "; decode the bytes with .cast(pyarrow.string())"
    elif pa.types.is_struct(typ):
        why += "; rows of several columns: pass one text column, e.g. df['text']"
    raise TypeError(why)


def _pandas_missing_to_none(values: list) -> list:
    # pandas marks a missing string with None, NaN or pd.NA; each counts as None.
    return [None if v is None or (not isinstance(v, str) and _is_na(v)) else v for v in values]


def _is_na(v: Any) -> bool:
    try:
        import pandas as pd

        return bool(pd.isna(v))
    except (ImportError, TypeError, ValueError):
        return False


def to_texts(texts: Any) -> "_core.Texts":
    """Reads a list/tuple of str (None allowed), a numpy array of str, a pyarrow
    Array/ChunkedArray of strings, a pandas or Polars Series, or any other iterable of str."""
    refuse_non_collection(texts)
    source = texts
    out = _core.Texts()
    if type(texts).__module__.startswith("pandas") and hasattr(texts, "array"):
        arrow = getattr(texts.array, "_pa_array", None)  # pandas' Arrow-backed strings
        if arrow is not None:
            texts = arrow
        else:
            out.add_list(_pandas_missing_to_none(texts.tolist()))
            return out
    chunks = _arrow_chunks(texts)
    if chunks is not None:
        for chunk in chunks:
            chunk = _as_arrow_strings(chunk, source)
            schema, array = chunk.__arrow_c_array__()
            out.add_arrow(schema, array)
        return out
    if isinstance(texts, list):
        out.add_list(texts)
    elif hasattr(texts, "tolist") and hasattr(texts, "dtype"):  # numpy: str_ or object
        out.add_list(texts.tolist())
    else:
        out.add_list(list(texts))
    return out
