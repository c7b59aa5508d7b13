"""The option table (include/gpudedup/options.hpp) drives the keywords: every row with a
keyword is one the engine takes, type-checked, refused for a method that does not read its
group, named in messages and listed in dedup()'s docstring; and every keyword the engine
takes is a row's (docs/python.md)."""
import inspect
import re

import pytest

import gpudedup
from gpudedup import _core
from gpudedup._errors import KEYWORD_OF

ROWS = [row for row in gpudedup.options() if row["keyword"]]


def readers(group):
    """The methods that read `group` and those that do not ("": every method)."""
    if not group:
        return gpudedup.methods(), []
    inside = [m for m in gpudedup.methods() if group_read(m, group)]
    outside = [m for m in gpudedup.methods() if m not in inside]
    return inside, outside


def group_read(method, group):
    """Whether `method` takes the options of `group`: an option of the group is refused otherwise."""
    try:
        row = next(r for r in ROWS if r["group"] == group)
        _core.Engine({"method": method, "backend": "cpu", **group_values(row)}, None)
        return True
    except _core.UsageError as e:
        # The refusal comes first: any other error (verify "auto" for simhash) is of a value read.
        return "applies to `method`" not in str(e) and "does not apply to `method`" not in str(e)


def group_values(row):
    """The row's keyword with a value it takes, with the other keywords of its group (bands
    with rows: the two go together); a shared row alone."""
    if not row["group"]:
        return {row["keyword"]: typed_default(row)}
    return {r["keyword"]: typed_default(r) for r in ROWS if r["group"] == row["group"]}


def typed_default(row):
    """A value the row takes: its default, or a value of its kind."""
    kind, default = row["kind"], row["default"]
    if kind == "count":
        return int(default) if default is not None else 1
    if kind == "real":
        return float(default) if default is not None else 0.5
    if kind == "flag":
        return default == "true"
    if kind == "list":
        return ["the"]
    return default if default is not None else "tags"


def test_the_table_has_the_methods_options():
    groups = {row["group"] for row in ROWS}
    assert {"lsh", "verify", "similarity", "simhash", "bloom", "sampling"} <= groups
    assert all(row["kind"] in ("count", "real", "flag", "choice", "text", "list") for row in ROWS)


def test_every_row_is_a_keyword_and_every_keyword_a_row():
    assert set(_core.keywords()) == {row["keyword"] for row in ROWS}
    assert len(ROWS) == len({row["keyword"] for row in ROWS}), "a keyword named twice"


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
    given = {"method": inside[0], "backend": "cpu"}
    with pytest.raises(TypeError, match=rf"^{row['keyword']} takes "):
        gpudedup.Engine(**{**given, row["keyword"]: wrong})
    if row["kind"] in ("count", "real"):
        with pytest.raises(TypeError, match=rf"^{row['keyword']} takes (an integer|a number), got bool$"):
            gpudedup.Engine(**{**given, row["keyword"]: True})
    # Its default (or a value of its kind), with its group's, is taken by a method that reads it.
    gpudedup.Engine(**{**given, **group_values(row)})


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["keyword"])
def test_every_row_is_refused_for_a_method_that_does_not_read_its_group(row):
    inside, outside = readers(row["group"])
    for method in outside:
        why = f"applies to method {inside[0]} only" if len(inside) == 1 else f"does not apply to method {method}"
        with pytest.raises(ValueError, match=rf"^{row['keyword']} {why}$"):
            gpudedup.dedup(["a b c"], method=method, backend="cpu", **{row["keyword"]: typed_default(row)})


def other_value(row, own):
    """A value of `row` other than the one of `own` (else its default) that an engine with
    `own` takes: the default count plus one, the flag turned, a list, or the first word of
    the row's help that an engine takes as another choice ("char or word": char)."""
    kind, default = row["kind"], row["default"]
    current = own.get(row["keyword"], default)
    if kind == "count":
        return int(default) + 1
    if kind == "flag":
        return not current if isinstance(current, bool) else current != "true"
    if kind == "list":
        return ["the"]
    for word in re.findall(r"[a-z0-9-]+", row["help"]):
        if word == current:
            continue
        for context in ({}, own):  # char shingles alone; the ICU tokenizer with word shingles
            try:
                _core.Engine({"method": "minhash", "backend": "cpu", **context, row["keyword"]: word}, None)
                return word
            except _core.UsageError:
                continue
    raise AssertionError(f"{row['keyword']}: no other value found in its help")


SKETCHING = [row for row in ROWS if row["sketching"]]


def test_the_rows_read_when_sketching_are_the_shingle_and_sketch_options():
    assert {"shingle", "ngram", "stop_words", "normalize", "tokenizer", "num_perm", "sketch", "seed"} <= \
        {row["keyword"] for row in SKETCHING}
    assert all(not row["group"] for row in SKETCHING), "every method sketches with them"


@pytest.mark.parametrize("row", SKETCHING, ids=lambda r: r["keyword"])
def test_an_index_refuses_a_row_read_when_sketching_with_another_value(row, tmp_path):
    """The index records every option marked read when sketching: Index.open() with a value
    other than the index's is refused, as the program's index add and query refuse it. The
    index removes stop words from word shingles, so that a list of them and the ICU
    tokenizer apply."""
    path = str(tmp_path / "idx")
    own = {"shingle": "word", "remove_stop_words": True}
    created = gpudedup.Index.create(path, backend="cpu", **own)
    del created  # its writer's lock
    given = {**own, row["keyword"]: other_value(row, own)}
    with pytest.raises(ValueError, match="was built with other parameters"):
        gpudedup.Index.open(path, backend="cpu", **given)
    assert len(gpudedup.Index.open(path, backend="cpu", **own)) == 0  # its own values are taken
