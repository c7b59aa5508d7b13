"""A package built without pyarrow (`pip install --no-build-isolation .` in an environment
without it, or a Python older than pyarrow supports) has no Parquet module: its Parquet
error must say why and name the install that gives one (a plain `pip install .` on a
Python pyarrow supports: tests/python/test_parquet_install.py)."""
import pathlib

import pytest

import gpudedup

_HAS_PARQUET_MODULE = any(pathlib.Path(gpudedup.__file__).parent.glob("libgpudedup_parquet*.so"))


@pytest.mark.skipif(_HAS_PARQUET_MODULE, reason="this package was built with pyarrow: it reads Parquet")
def test_parquet_without_the_module_names_the_install_command(tmp_path):
    # Not a real Parquet file: the package must refuse it by its name before reading it.
    (tmp_path / "c.parquet").write_bytes(b"PAR1")
    with pytest.raises(ValueError) as e:
        gpudedup.dedup_files(tmp_path / "c.parquet", output=tmp_path / "kept.parquet", backend="cpu")
    message = str(e.value)
    assert "c.parquet" in message
    assert "built without pyarrow" in message and "Python 3.11" in message
    assert "plain pip install . in the gpudedup clone, without --no-build-isolation" in message.replace("`", "")
    assert not (tmp_path / "kept.parquet").exists()


def refuse_parquet(path, why):
    """What the library raises for a Parquet input when its Parquet module is not there."""
    def dedup_files(names, *args):
        raise gpudedup._core.UsageError(f"{names[0]}: gpudedup cannot read Parquet: {why}")
    return dedup_files


@pytest.mark.parametrize("has_module", [False, True])
def test_the_parquet_message_says_why_and_what_to_install(tmp_path, monkeypatch, has_module):
    # Both causes, whatever this package has: built without pyarrow, or its module not loading
    # (pyarrow uninstalled or of another major after the install).
    from gpudedup import _files

    monkeypatch.setattr(_files._core, "dedup_files", refuse_parquet(tmp_path, "libarrow.so.2600: cannot open"))
    monkeypatch.setattr(_files, "_has_parquet_module", lambda: has_module)
    with pytest.raises(ValueError) as e:
        gpudedup.dedup_files(tmp_path / "c.parquet", output=tmp_path / "kept.parquet", backend="cpu")
    message = str(e.value)
    assert message.startswith(str(tmp_path / "c.parquet"))
    if has_module:
        assert "installed but did not load (libarrow.so.2600: cannot open)" in message
        assert "pip install 'pyarrow" in message
    else:
        assert "built without pyarrow" in message and "Python 3.11" in message
        assert "plain pip install . in the gpudedup clone, without --no-build-isolation" in message.replace("`", "")
