"""Python inputs -> the engine's Texts: the texts that are not None, and their positions."""
from __future__ import annotations

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


def _as_arrow_strings(chunk: Any) -> Any:
    """pyarrow string_view, dictionary or null (every element missing) arrays cast to
    large_string; others unchanged."""
    typ = getattr(chunk, "type", None)
    if typ is None:
        return chunk
    import pyarrow as pa

    if pa.types.is_string(typ) or pa.types.is_large_string(typ):
        return chunk
    if (pa.types.is_dictionary(typ) or pa.types.is_null(typ)
            or getattr(pa.types, "is_string_view", lambda t: False)(typ)):
        return chunk.cast(pa.large_string())
    return chunk  # the engine names the format it refuses


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
    if isinstance(texts, (str, bytes)):
        raise TypeError("texts must be a collection of str, not a single " + type(texts).__name__)
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
            chunk = _as_arrow_strings(chunk)
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
