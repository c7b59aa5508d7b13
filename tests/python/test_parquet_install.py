"""Parquet after one plain install: on a Python that pyarrow supports, the package has its
Parquet module, depends on the pyarrow major that module links, and dedup_files() reads and
writes Parquet with nothing more installed (pyproject.toml, python/CMakeLists.txt)."""
import importlib.metadata
import pathlib
import re
import sys

import pytest

import gpudedup

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = pathlib.Path(gpudedup.__file__).parent
PYARROW_SUPPORTED = sys.version_info >= (3, 11)  # pyarrow 26's floor


def pinned_major():
    """The pyarrow major the installed package depends on (its metadata, written from pyproject.toml)."""
    pins = [re.match(r"pyarrow\s*==\s*(\d+)\.\*", r) for r in importlib.metadata.requires("gpudedup") or ()]
    found = [int(m.group(1)) for m in pins if m]
    assert len(found) == 1, f"gpudedup should depend on one pyarrow==MAJOR.*: {importlib.metadata.requires('gpudedup')}"
    return found[0]


def needed_arrow_majors(module):
    """The majors in the libarrow sonames the module's ELF file names (libarrow.so.2600: 26)."""
    names = re.findall(rb"libarrow\.so\.(\d+)", module.read_bytes())
    return {int(n) // 100 for n in names}


@pytest.mark.skipif(not PYARROW_SUPPORTED, reason="pyarrow 26 supports CPython 3.11 and newer")
def test_the_package_depends_on_the_pyarrow_its_parquet_module_links():
    modules = list(PACKAGE.glob("libgpudedup_parquet*.so"))
    assert modules, f"no Parquet module in {PACKAGE}: the install did not build it against pyarrow"
    major = pinned_major()
    assert needed_arrow_majors(modules[0]) == {major}
    import pyarrow

    assert int(pyarrow.__version__.split(".")[0]) == major
    source = ROOT / "pyproject.toml"
    if source.is_file():  # the tests run from a clone: its pin is the one installed
        assert f"pyarrow=={major}.*" in source.read_text()


@pytest.mark.skipif(not PYARROW_SUPPORTED, reason="pyarrow 26 supports CPython 3.11 and newer")
def test_dedup_files_reads_and_writes_parquet(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    texts = ["the quick brown fox jumps over the lazy dog " * 4, "a different text entirely, about rivers " * 4,
             "the quick brown fox jumps over the lazy dog " * 4, "one more unrelated sentence of some length " * 4]
    pq.write_table(pa.table({"id": [f"d{i}" for i in range(4)], "text": texts}), tmp_path / "c.parquet")
    r = gpudedup.dedup_files(tmp_path / "c.parquet", output=tmp_path / "kept.parquet", id_field="id", backend="cpu")
    assert r.keep.tolist() == [True, True, False, True]
    kept = pq.read_table(tmp_path / "kept.parquet")
    assert kept.column("id").to_pylist() == ["d0", "d1", "d3"]
