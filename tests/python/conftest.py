"""Shared fixtures of the Python package tests (run by scripts/test after ctest)."""
import os
import pathlib
import random

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _cli():
    given = os.environ.get("GPUDEDUP_CLI")
    path = pathlib.Path(given) if given else ROOT / os.environ.get("BUILD_DIR", "build") / "gpudedup"
    return path if path.is_file() and os.access(path, os.X_OK) else None


@pytest.fixture(scope="session")
def cli():
    """The gpudedup program ($GPUDEDUP_CLI, else build/gpudedup); the test is skipped without it."""
    path = _cli()
    if path is None:
        pytest.skip("the gpudedup program is not built (scripts/build, or set GPUDEDUP_CLI)")
    return path


@pytest.fixture(scope="session")
def corpus():
    """About 120 texts: 40 originals, each with up to three edited copies spread through."""
    rng = random.Random(15)
    words = ("river stone market winter paper signal garden copper silent harbor lantern "
             "meadow orbit canvas thunder velvet anchor prism").split()
    texts = []
    for _ in range(40):
        base = [rng.choice(words) for _ in range(rng.randint(12, 30))]
        texts.append(" ".join(base))
        for _ in range(rng.randint(0, 3)):
            copy = list(base)
            for _ in range(rng.randint(0, 2)):
                copy[rng.randrange(len(copy))] = rng.choice(words)
            texts.append(" ".join(copy))
    rng.shuffle(texts)
    return texts
