"""What of datasketch's test/ folder runs against gpudedup.compat, how its imports are
rewritten, and each test left out with the reason. Nothing else is changed in its files."""

# The sdist scripts/install-deps downloads (pip download --no-binary :all: datasketch==...).
VERSION = "1.6.5"
SDIST_TESTS = f".deps/datasketch/datasketch-{VERSION}/test"

# The test files of the classes compat offers (MinHash, LeanMinHash, bBitMinHash, MinHashLSH).
RUN = ["test_minhash.py", "test_lean_minhash.py", "test_lsh.py"]

# The files of classes compat does not offer: not run.
NOT_RUN = {
    "test_weighted_minhash.py": "compat offers no weighted MinHash",
    "test_lshensemble.py": "compat offers no LSH Ensemble",
    "test_lshforest.py": "compat offers no LSH Forest",
    "test_lsh_cassandra.py": "Cassandra storage: compat keeps its buckets in memory (storage_config refused, "
                             "naming gpudedup.Index and pickling instead)",
    "test_hnsw.py": "compat offers no HNSW index",
    "test_hyperloglog.py": "compat offers no HyperLogLog",
}

# Each import line as the sdist has it, and what it becomes: compat's class, or, for a
# name compat does not offer, a stand-in (unavailable.py) used only by the skipped tests.
IMPORTS = {
    "from datasketch import minhash": "from gpudedup import compat as minhash",
    "from datasketch.b_bit_minhash import bBitMinHash": "from gpudedup.compat import bBitMinHash",
    "from datasketch import MinHash": "from gpudedup.compat import MinHash",
    "from datasketch import LeanMinHash": "from gpudedup.compat import LeanMinHash",
    "from datasketch.lsh import MinHashLSH": "from gpudedup.compat import MinHashLSH",
    "from datasketch.minhash import MinHash": "from gpudedup.compat import MinHash",
    "from datasketch.weighted_minhash import WeightedMinHashGenerator":
        "from test.unavailable import WeightedMinHashGenerator",
    "import mockredis": "from test import unavailable as mockredis",
    "from mock import patch": "from unittest.mock import patch",
}

_REDIS = ("Redis storage: compat keeps its buckets in memory; storage_config {'type': 'redis'} is a "
          "ValueError that names pickling and gpudedup.Index instead")
_WEIGHTED = "compat offers no weighted MinHash (WeightedMinHashGenerator)"

# Tests of the files run that are skipped: node id -> reason.
SKIPS = {
    "test/test_lsh.py::TestMinHashLSH::test_insert_redis": _REDIS,
    "test/test_lsh.py::TestMinHashLSH::test_query_redis": _REDIS,
    "test/test_lsh.py::TestMinHashLSH::test_query_buffer_redis": _REDIS,
    "test/test_lsh.py::TestMinHashLSH::test_merge_redis": _REDIS,
    "test/test_lsh.py::TestWeightedMinHashLSH::test__H": _WEIGHTED,
    "test/test_lsh.py::TestWeightedMinHashLSH::test_insert": _WEIGHTED,
    "test/test_lsh.py::TestWeightedMinHashLSH::test_query": _WEIGHTED,
    "test/test_lsh.py::TestWeightedMinHashLSH::test_remove": _WEIGHTED,
    "test/test_lsh.py::TestWeightedMinHashLSH::test_pickle": _WEIGHTED,
}

# The test/utils.py the sdist lacks (its tests import fake_hash_func from it).
UTILS = "def fake_hash_func(data):\n    return data\n"

# Stand-ins for what compat does not offer, imported by the files run and used only by skipped tests.
UNAVAILABLE = '''
class WeightedMinHashGenerator:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("gpudedup.compat offers no weighted MinHash")


def mock_redis_client(**kwargs):
    raise NotImplementedError("gpudedup.compat offers no Redis storage")
'''
