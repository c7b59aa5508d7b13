"""progress=True when stderr is not a terminal (a log): whole lines for every stage, at
least once a second, as the program writes them."""
import json
import re
import time

import gpudedup
from gpudedup._progress_lines import ProgressLines


def test_a_log_gets_a_line_for_every_stage_with_the_sketch_in_bytes(corpus, tmp_path, capsys):
    with open(tmp_path / "c.jsonl", "w") as f:
        for t in corpus:
            f.write(json.dumps({"text": t}) + "\n")
    gpudedup.dedup_files(tmp_path / "c.jsonl", output=tmp_path / "kept.jsonl", batch_size=16, progress=True,
                         backend="cpu")
    lines = capsys.readouterr().err.splitlines()
    stages = [m.group(1) for m in (re.match(r"gpudedup (\w+): ", line) for line in lines) if m]
    assert {"sketch", "candidates", "write"} <= set(stages), lines
    assert not any("\r" in line for line in lines)  # no redrawn bar in a log
    # The sketch counts the input's bytes once their total is known, up to all of them.
    assert any(re.fullmatch(rf"gpudedup sketch: {len(corpus)} docs, [0-9.]+ [kMG]?B of [0-9.]+ [kMG]?B \(100%\), \d+ s", line)
               for line in lines), lines


def test_a_stage_that_reports_once_still_gets_a_line_a_second(tmp_path):
    with open(tmp_path / "log", "w") as log:
        lines = ProgressLines(log, "doc", every=0.2)
        lines({"stage": "candidates", "documents": 10, "input_bytes": 0, "total_input_bytes": 0, "seconds": 0})
        time.sleep(1.0)  # the candidates stage reports when it starts only
        lines.close()
    written = (tmp_path / "log").read_text().splitlines()
    assert len(written) >= 3 and all(w.startswith("gpudedup candidates: 10 docs") for w in written), written
