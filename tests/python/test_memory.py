"""Peak memory of sketch() over a large Arrow array: the engine copies one batch of text at
a time, never the whole input (docs/python.md, "Memory")."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gpudedup


def test_batched_sketch_equals_one_batch(corpus):
    whole = gpudedup.sketch(corpus, num_perm=64, backend="cpu")
    np.testing.assert_array_equal(gpudedup.sketch(corpus, num_perm=64, backend="cpu", batch_size=7), whole)
    np.testing.assert_array_equal(gpudedup.sketch(iter(corpus), num_perm=64, backend="cpu", batch_size=7), whole)
    with pytest.raises(ValueError, match="batch_size"):
        gpudedup.sketch(corpus, batch_size=0)


def test_sketch_of_a_large_arrow_array_holds_one_batch_of_text():
    pytest.importorskip("pyarrow")
    # In a process of its own: the peak resident size (VmHWM) is reset after the array is
    # built, so what it shows is the sketch's own growth.
    script = textwrap.dedent("""
        import sys, numpy as np, pyarrow as pa, gpudedup
        # The array straight from numpy buffers: no Python str ever made, so no freed
        # memory for the engine's copies to reuse unseen.
        rng = np.random.default_rng(1)
        n, per = 60000, 1100                           # ~66 MB of text
        data = rng.integers(97, 123, size=n * per, dtype=np.uint8)
        data[::6] = 32                                 # words of five letters
        offsets = np.arange(n + 1, dtype=np.int64) * per
        texts = pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))
        del data, offsets
        size = texts.nbytes
        def hwm():
            for line in open("/proc/self/status"):
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")                               # VmHWM := the current resident size
        before = hwm()
        rows = gpudedup.sketch(texts, num_perm=16, backend="cpu", threads=1, batch_size=int(sys.argv[1]))
        grown = hwm() - before - rows.nbytes
        assert rows.shape == (n, 16)
        print(size, grown)
    """)
    def growth(batch_size):
        out = subprocess.run([sys.executable, "-c", script, str(batch_size)], check=True, capture_output=True,
                             text=True).stdout.split()
        return int(out[0]), int(out[1])
    # One batch of text is 4096 / 60000 of the input (~7%); the whole input in one batch
    # (what sketch() did for any length) copies all of it: the measure tells them apart.
    size, batched = growth(4096)
    assert batched < size / 2, f"sketch grew the process by {batched} bytes for {size} bytes of text"
    _, whole = growth(60000)
    assert whole > size * 0.8, f"one batch of everything grew the process by only {whole} bytes of {size}"
