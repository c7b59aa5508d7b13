"""The option table (include/gpudedup/options.hpp) drives the keywords: every row with a
keyword is one the engine takes, type-checked, refused for a method that does not read its
group, named in messages and listed in dedup()'s docstring; and every keyword the engine
takes is a row's or one of the options every method shares (docs/python.md)."""
import inspect

import pytest

import gpudedup
from gpudedup import _core
from gpudedup._errors import KEYWORD_OF

ROWS = [row for row in gpudedup.options() if row["keyword"]]
# The options every method shares, not rows of the table yet: dedup()'s signature and docstring name them.
SHARED = {"method", "threshold", "seed", "first_document_number", "backend", "threads", "device", "shingle",
          "ngram", "stop_words", "remove_stop_words", "stop_word_anchored", "normalize", "tokenizer", "num_perm",
          "all_pairs", "keep"}


def readers(group):
    """The methods that read `group` and those that do not."""
    inside = [m for m in gpudedup.methods() if group_read(m, group)]
    outside = [m for m in gpudedup.methods() if m not in inside]
    return inside, outside


def group_read(method, group):
    """Whether `method` takes the options of `group`: an option of the group is refused otherwise."""
    try:
        _core.Engine({"method": method, "backend": "cpu", **group_values(group)}, None)
        return True
    except _core.UsageError as e:
        # The refusal comes first: any other error (verify "auto" for simhash) is of a value read.
        return "applies to `method`" not in str(e) and "does not apply to `method`" not in str(e)


def group_values(group):
    """Every keyword of `group` with a value it takes (bands with rows: the two go together)."""
    return {row["keyword"]: typed_default(row) for row in ROWS if row["group"] == group}


def typed_default(row):
    """A value the row takes: its default, or a value of its kind."""
    kind, default = row["kind"], row["default"]
    if kind == "count":
        return int(default) if default is not None else 1
    if kind == "real":
        return float(default) if default is not None else 0.5
    if kind == "flag":
        return default == "true"
    return default if default is not None else "tags"


def test_the_table_has_the_methods_options():
    groups = {row["group"] for row in ROWS}
    assert {"lsh", "verify", "similarity", "simhash", "bloom", "sampling"} <= groups
    assert all(row["kind"] in ("count", "real", "flag", "choice", "text", "list") for row in ROWS)


def test_every_row_is_a_keyword_and_every_keyword_a_row_or_shared():
    keywords = set(_core.keywords())
    row_keywords = {row["keyword"] for row in ROWS}
    assert row_keywords <= keywords
    assert keywords - row_keywords == SHARED
    assert not row_keywords & SHARED


def test_messages_name_every_row_by_its_keyword():
    for row in ROWS:
        assert KEYWORD_OF[row["param"]] == row["keyword"], row


def test_every_keyword_is_named_in_the_docstring_of_dedup():
    doc = gpudedup.dedup.__doc__
    signature = inspect.signature(gpudedup.dedup).parameters
    for keyword in _core.keywords():
        assert keyword in signature or keyword in doc, keyword


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["keyword"])
def test_every_row_checks_the_type_of_its_value(row):
    inside, _ = readers(row["group"])
    wrong = {"count": "3", "real": "0.5", "flag": "yes"}.get(row["kind"], 3)
    with pytest.raises(TypeError, match=rf"^{row['keyword']} takes "):
        gpudedup.Engine(method=inside[0], backend="cpu", **{row["keyword"]: wrong})
    if row["kind"] in ("count", "real"):
        with pytest.raises(TypeError, match=rf"^{row['keyword']} takes (an integer|a number), got bool$"):
            gpudedup.Engine(method=inside[0], backend="cpu", **{row["keyword"]: True})
    # Its default (or a value of its kind), with its group's, is taken by a method that reads it.
    gpudedup.Engine(method=inside[0], backend="cpu", **group_values(row["group"]))


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["keyword"])
def test_every_row_is_refused_for_a_method_that_does_not_read_its_group(row):
    inside, outside = readers(row["group"])
    for method in outside:
        why = f"applies to method {inside[0]} only" if len(inside) == 1 else f"does not apply to method {method}"
        with pytest.raises(ValueError, match=rf"^{row['keyword']} {why}$"):
            gpudedup.dedup(["a b c"], method=method, backend="cpu", **{row["keyword"]: typed_default(row)})
