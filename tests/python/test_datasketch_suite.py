"""datasketch's own tests (its pinned sdist's test/ folder, imports rewritten to
gpudedup.compat: datasketch_suite/plan.py) pass, but for the skips listed with reasons."""
import collections

from datasketch_suite import plan, suite


def test_the_skip_list_names_tests_that_exist():
    """A skip of a test the sdist does not have would hide nothing and mean a stale list."""
    src = suite.sdist_tests()
    for node in plan.SKIPS:
        path, cls, name = node.split("::")
        text = (src / path.split("/", 1)[1]).read_text()
        assert f"class {cls}(" in text and f"def {name}(" in text, node
    assert set(plan.RUN).isdisjoint(plan.NOT_RUN)
    assert set(plan.RUN) | set(plan.NOT_RUN) == {p.name for p in src.glob("test_*.py")}


def test_datasketch_suite_passes_on_compat(tmp_path):
    outcomes, output = suite.run(tmp_path)
    counts = collections.defaultdict(collections.Counter)
    for node, (outcome, _) in outcomes.items():
        counts[node.split("::")[0]][outcome] += 1
    print({path: dict(c) for path, c in sorted(counts.items())})
    wrong = {node: o for node, o in outcomes.items()
             if o[0] != ("skipped" if node in plan.SKIPS else "passed")}
    assert not wrong, f"{wrong}\n{output[-4000:]}"
    assert set(plan.SKIPS) <= set(outcomes), "a listed skip was not collected"
    assert {n.split("::")[0] for n in outcomes} == {f"test/{name}" for name in plan.RUN}, output[-4000:]
