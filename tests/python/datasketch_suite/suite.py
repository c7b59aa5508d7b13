"""Copies datasketch's test files out of its sdist, rewrites their imports (plan.IMPORTS),
and runs them with pytest in a process of its own: their package is named `test`, as the
standard library's is. Returns each test's outcome."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Dict, Tuple

from . import plan

ROOT = pathlib.Path(__file__).resolve().parents[3]

_CONFTEST = '''
import pytest
from test._skips import SKIPS


def pytest_collection_modifyitems(items):
    for item in items:
        if item.nodeid in SKIPS:
            item.add_marker(pytest.mark.skip(reason=SKIPS[item.nodeid]))
'''


def sdist_tests() -> pathlib.Path:
    folder = ROOT / plan.SDIST_TESTS
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is missing: scripts/install-deps downloads datasketch {plan.VERSION}'s sdist")
    return folder


def rewrite(source: str, name: str) -> str:
    """`source` with each import line of plan.IMPORTS replaced; any other datasketch import is an error."""
    out = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped in plan.IMPORTS:
            line = line.replace(stripped, plan.IMPORTS[stripped])
        elif "datasketch" in stripped and stripped.startswith(("import ", "from ")):
            raise ValueError(f"{name}: no rewrite for the import {stripped!r} (add it to plan.IMPORTS)")
        out.append(line)
    return "\n".join(out) + "\n"


def prepare(workdir: pathlib.Path) -> pathlib.Path:
    """Writes the rewritten files into workdir/test. @return workdir."""
    src = sdist_tests()
    test = workdir / "test"
    test.mkdir(parents=True)
    (test / "__init__.py").write_text("")
    (test / "utils.py").write_text(plan.UTILS)
    (test / "unavailable.py").write_text(plan.UNAVAILABLE)
    (test / "_skips.py").write_text(f"SKIPS = {plan.SKIPS!r}\n")
    (workdir / "conftest.py").write_text(_CONFTEST)
    for name in plan.RUN:
        (test / name).write_text(rewrite((src / name).read_text(), name))
    return workdir


def run(workdir: pathlib.Path) -> Tuple[Dict[str, Tuple[str, str]], str]:
    """Runs the rewritten files. @return ({node id: (outcome, message)}, pytest's output)."""
    prepare(workdir)
    report = workdir / "report.xml"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
                           f"--junitxml={report}", "test"], cwd=workdir, capture_output=True, text=True,
                          timeout=600)
    if not report.is_file():
        raise RuntimeError(f"pytest wrote no report:\n{proc.stdout}\n{proc.stderr}")
    outcomes = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "").rsplit(".", 1)
        node = f"{module[0].replace('.', '/')}.py::{module[1]}::{case.get('name')}" if len(module) == 2 else case.get("name")
        outcome, message = "passed", ""
        for kind in ("failure", "error", "skipped"):
            found = case.find(kind)
            if found is not None:
                outcome, message = kind, (found.get("message") or "")[:500]
                break
        outcomes[node] = (outcome, message)
    return outcomes, proc.stdout + proc.stderr
