"""datasketch's own tests, from its pinned sdist, run against gpudedup.compat (see suite.py)."""
