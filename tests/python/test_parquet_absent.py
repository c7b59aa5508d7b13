"""A package installed the plain way (`pip install .`, no pyarrow at build time) has no
Parquet module: its Parquet error must name the command that installs one."""
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
    assert "pip install pyarrow scikit-build-core nanobind && pip install --no-build-isolation ." in message
    assert not (tmp_path / "kept.parquet").exists()
