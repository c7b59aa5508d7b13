"""The type stubs of the extension name what it has, and the public API has docstrings."""
import ast
import inspect

import gpudedup
import gpudedup.compat
from gpudedup import _core


def stub_names():
    with open(gpudedup.__path__[0] + "/_core.pyi") as f:
        tree = ast.parse(f.read())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = set()
    return out


def test_core_stubs_match_the_extension():
    stubs = stub_names()
    public = {n for n in dir(_core) if not n.startswith("_") or n == "__version__"}
    assert public == set(stubs)
    for name, members in stubs.items():
        obj = getattr(_core, name)
        if inspect.isclass(obj) and not issubclass(obj, Exception):
            have = {m for m in vars(obj) if not m.startswith("_") or m == "__len__"}
            assert have == members - {"__init__"}, name


def test_public_api_has_docstrings():
    for module in (gpudedup, gpudedup.compat):
        for name in module.__all__:
            obj = getattr(module, name)
            assert inspect.getdoc(obj), f"{module.__name__}.{name}"
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if not member.startswith("_") and callable(value):
                        assert inspect.getdoc(value), f"{module.__name__}.{name}.{member}"
