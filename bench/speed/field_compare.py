#!/usr/bin/env python3
"""bench/speed/field_compare.py: gpudedup's default against rensa, gaoya and datasketch on one
JSONL corpus, paired in one run (issue 28).

Every tool does one task: threshold t (0.8), P values (256), char k-grams (5) over gpudedup's
normalization (bench/speed/fold_shingles.py replicates it), LSH with the b x r bands
gpudedup chooses (read from the stats of its first run). The runs are interleaved
(gpudedup, rensa, gaoya, datasketch at 1 thread, the same at 2 threads, then again, for
--repeats rounds), so the machine's load falls on every tool alike; the table gives medians.

  gpudedup    `gpudedup dedup` with the program's defaults (`--verify auto`), `--threads T`,
              writing --clusters, --pairs and --stats (no kept records: the peers write none
              either); its stage seconds come from --stats
  rensa       bench/speed/peer_rensa.py: RMinHash + RMinHashLSH, Rayon pool of T threads
  gaoya       bench/speed/peer_gaoya.py: MinHashStringIndex, par_bulk_*, Rayon pool of T
  datasketch  bench/speed/peer_datasketch.py: MinHash + MinHashLSH, one thread only

The peers' shingles are made in Python (one thread at every T; gaoya shingles itself in
Rust). Wall is the whole process (Python start, reading the JSONL, writing clusters and
pairs included), CPU seconds its user + system time (every thread: the figure the load of a
shared machine does not inflate), peak RSS its ru_maxrss. A tool that runs past --timeout is stopped and left
out of later rounds at that thread count, with a note.

Scoring, every run: with an exact truth (TSV of `gpudedup dedup --method exact --all-pairs
--pairs`, at a threshold <= t - 0.05), recall = exact pairs with Jaccard >= t whose two
documents end in one output cluster, precision = reported pairs (--pairs: those that joined
two clusters) whose exact Jaccard is >= t - 0.05 (bench/accuracy/check_accuracy.py's
definitions, seed_sweep.py's scoring); with planted truth (`gpudedup gen --truth`, JSONL),
pair precision and recall of `gpudedup eval`.

rensa==0.5.0, gaoya==0.2.2 and datasketch==2.0.0 are installed from PyPI into a virtual
environment of their own (--venv, default BUILD/field-venv next to the gpudedup binary) when
missing; a tool that cannot be installed (registry unreachable) is skipped with a message.
The table is printed and, unless --no-doc, written into docs/benchmarks.md under
"## gpudedup against rensa, gaoya and datasketch (bench/speed/field_compare.py)", in a
subsection of its own per --label (other subsections and sections are kept).

  bench/speed/field_compare.py CORPUS.jsonl [--truth EXACT.tsv|TRUTH.jsonl] [--label NAME]
      [--gpudedup build-cpu/gpudedup] [--threads 1,2] [--repeats 3]
      [--tools gpudedup,rensa,gaoya,datasketch] [--timeout 900]
"""
import argparse
import datetime
import json
import os
import shlex
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "accuracy"))
from compare import loadavg, machine_description, measured_run_cpu  # noqa: E402
from seed_sweep import read_pairs, score_run  # noqa: E402

SECTION = "## gpudedup against rensa, gaoya and datasketch (bench/speed/field_compare.py)"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PINS = {"rensa": "rensa==0.5.0", "gaoya": "gaoya==0.2.2", "datasketch": "datasketch==2.0.0"}
THREADED = {"gpudedup", "rensa", "gaoya"}  # datasketch has no threads of its own


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def fail(msg, code=2):
    print(f"bench/speed/field_compare.py: {msg}", file=sys.stderr)
    sys.exit(code)


# ---------------------------------------------------------------- the peers' environment

def ensure_venv(venv, tools):
    """The venv's python and {tool: why skipped} for the peers that cannot be imported."""
    python = os.path.join(venv, "bin", "python")
    skipped = {}
    peers = [t for t in tools if t in PINS]
    if not peers:
        return python, skipped
    if not os.path.exists(python):
        log(f"making the peers' virtual environment {venv}")
        r = subprocess.run([sys.executable, "-m", "venv", venv], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            return python, {t: f"no virtual environment at {venv}: {r.stdout.strip()}" for t in peers}
    for tool in peers:
        if _has_version(python, tool):
            continue
        log(f"installing {PINS[tool]} into {venv}")
        r = subprocess.run([python, "-m", "pip", "install", "--quiet", PINS[tool]],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0 or not _has_version(python, tool):
            tail = (r.stdout.strip().splitlines() or ["(no output)"])[-1]
            skipped[tool] = f"pip install {PINS[tool]} failed (registry unreachable?): {tail}"
            log(f"{tool}: skipped: {skipped[tool]}")
    return python, skipped


def _has_version(python, tool):
    want = PINS[tool].split("==")[1]
    r = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version('{tool}'))"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return r.returncode == 0 and r.stdout.strip() == want


# ---------------------------------------------------------------- scoring

class ExactTruth:
    """Pairs of `--method exact --all-pairs --pairs`, scored by seed_sweep.py's score_run."""

    def __init__(self, path, threshold):
        self.high, self.low = threshold, round(threshold - 0.05, 6)
        self.exact = list(read_pairs(path))
        if min((s for _, _, s in self.exact), default=1.0) > self.low + 1e-9:
            log(f"warning: {path} lists no pair below {self.low:.2f}: was it made at a threshold "
                f"<= {self.low:.2f}? precision counts a pair missing from it as below")

    def score(self, clusters_path, pairs_path):
        recall, precision = score_run(self.exact, self.high, self.low, clusters_path, pairs_path)[:2]
        return {"recall": recall, "precision": precision}


class PlantedTruth:
    """Clusters of `gpudedup gen --truth`, scored by `gpudedup eval`."""

    def __init__(self, path, gd, documents):
        self.path, self.gd, self.documents = path, gd, documents

    def score(self, clusters_path, pairs_path):
        r = subprocess.run([self.gd, "eval", "--truth", self.path, "--clusters", clusters_path,
                            "--documents", str(self.documents)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            fail(f"gpudedup eval --truth {self.path} failed (exit {r.returncode}): {r.stderr.strip()}", 1)
        vals = dict(kv.split("=") for kv in r.stdout.strip().splitlines()[-1].split())
        return {"recall": float(vals["recall"]), "precision": float(vals["precision"])}


# ---------------------------------------------------------------- runs

def gpudedup_command(args, threads, out):
    return [args.gpudedup, "dedup", args.corpus, "--id-field", "id", "--threshold", str(args.threshold),
            "--num-perm", str(args.num_perm), "--shingle", "char", "--ngram", str(args.ngram),
            "--threads", str(threads), "--clusters", out["clusters"], "--pairs", out["pairs"],
            "--stats", out["result"], "--quiet"]


def peer_command(args, python, tool, threads, bands, rows, out):
    return [python, os.path.join(HERE, f"peer_{tool}.py"), "--corpus", args.corpus,
            "--num-perm", str(args.num_perm), "--bands", str(bands), "--rows", str(rows),
            "--threshold", str(args.threshold), "--ngram", str(args.ngram), "--seed", "1",
            "--threads", str(threads), "--clusters", out["clusters"], "--pairs", out["pairs"],
            "--result", out["result"]]


def run_once(args, python, tool, threads, rnd, lsh, truth):
    tag = f"{tool}-t{threads}-r{rnd}"
    out = {k: os.path.join(args.workdir, f"{tag}.{k}") for k in ("clusters", "pairs", "result")}
    if tool == "gpudedup":
        cmd = gpudedup_command(args, threads, out)
    else:
        cmd = peer_command(args, python, tool, threads, lsh[0], lsh[1], out)
    load = os.getloadavg()[0]
    rc, wall, rss, err, cpu = measured_run_cpu(cmd, timeout=args.timeout)
    if rc is None:
        return None, f"stopped after {args.timeout} s (--timeout)"
    if rc != 0:
        fail(f"{shlex.join(cmd)} failed (exit {rc}):\n{err.decode(errors='replace')[-2000:]}", 1)
    with open(out["result"]) as f:
        result = json.load(f)
    run = {"wall": wall, "cpu": cpu, "rss": rss, "load": load, "result": result}
    if tool == "gpudedup":
        run["stages"] = {k: v for k, v in result["seconds"].items() if k != "total"}
        run["version"] = args.commit
    else:
        run["stages"] = result["seconds"]
        run["version"] = result["version"]
    if truth:
        run.update(truth.score(out["clusters"], out["pairs"]))
    for path in out.values():
        if tool != "gpudedup" or path != out["result"]:
            os.remove(path)
    log(f"  {tool} {threads}t round {rnd}: {wall:.2f} s ({cpu:.2f} CPU s), peak RSS {rss / 2**20:.0f} MiB"
        + (f", recall {run['recall']:.4f} precision {run['precision']:.4f}" if truth else ""))
    return run, None


def median_row(tool, threads, runs):
    walls = [r["wall"] for r in runs]
    stages = {}
    for r in runs:
        for k, v in r["stages"].items():
            stages.setdefault(k, []).append(v)
    row = {"tool": tool, "threads": threads, "runs": len(runs), "wall": statistics.median(walls),
           "wall_min": min(walls), "wall_max": max(walls), "cpu": statistics.median(r["cpu"] for r in runs),
           "rss": statistics.median(r["rss"] for r in runs), "load": statistics.median(r["load"] for r in runs),
           "stages": {k: statistics.median(v) for k, v in stages.items()}, "version": runs[0]["version"]}
    for key in ("recall", "precision"):
        if key in runs[0]:
            vals = [r[key] for r in runs]
            row[key] = (min(vals), max(vals))
    return row


def fmt_score(pair):
    lo, hi = pair
    return f"{lo:.4f}" if abs(hi - lo) < 5e-5 else f"{lo:.4f}–{hi:.4f}"


def table(rows, base, base_cpu):
    lines = ["| tool | threads | wall s, median (min–max) | × gpudedup wall | CPU s | × gpudedup CPU | peak RSS MiB "
             "| stage seconds (medians) | recall | precision | load |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in rows:
        ref = base.get(r["threads"]) or base.get(1)
        ratio = f"{r['wall'] / ref:.1f}×" if ref else ""
        ref_cpu = base_cpu.get(r["threads"]) or base_cpu.get(1)
        cpu_ratio = f"{r['cpu'] / ref_cpu:.1f}×" if ref_cpu else ""
        stages = ", ".join(f"{k} {v:.2f}" for k, v in r["stages"].items())
        lines.append(f"| {r['tool']} {r['version']} | {r['threads']} | {r['wall']:.2f} ({r['wall_min']:.2f}–"
                     f"{r['wall_max']:.2f}) | {ratio} | {r['cpu']:.2f} | {cpu_ratio} | {r['rss'] / 2**20:,.0f} | "
                     f"{stages} | "
                     f"{fmt_score(r['recall']) if 'recall' in r else ''} | "
                     f"{fmt_score(r['precision']) if 'precision' in r else ''} | {r['load']:.2f} |")
    return "\n".join(lines)


# ---------------------------------------------------------------- docs/benchmarks.md

SECTION_INTRO = """gpudedup's default (`--verify auto`) against rensa 0.5.0, gaoya 0.2.2 and datasketch 2.0.0 on one
task: threshold 0.8, P = 256, char 5-grams over gpudedup's normalization (`fold`, replicated
in Python by `bench/speed/fold_shingles.py`), LSH with gpudedup's b × r (rensa's RMinHashLSH
needs P divisible by b, so it sketches b × r values; gaoya's signature is b × r values),
candidates kept when the tool's estimate reaches 0.8, clustered by gpudedup's rule. Runs are
interleaved (every tool once per thread count per round) and the table gives medians. Wall is
the whole process (start, reading the JSONL, writing clusters and pairs); the peers' shingles
are made in Python on one thread at every thread count (gaoya shingles in Rust), and
datasketch has no threads of its own. CPU s is user + system time of the process. "×
gpudedup wall" and "× gpudedup CPU" divide by gpudedup's median at the same thread count.
How each tool is driven: `bench/speed/peer_*.py`.
"""


def write_subsection(doc, label, body):
    text = open(doc).read() if os.path.exists(doc) else "# Benchmarks\n"
    lines = text.splitlines(keepends=True)
    sub = f"### {label}\n"
    start = next((i for i, l in enumerate(lines) if l.rstrip("\n") == SECTION), None)
    if start is None:
        new = text.rstrip("\n") + "\n\n" + SECTION + "\n\n" + SECTION_INTRO + "\n" + sub + "\n" + body
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        at = next((i for i in range(start + 1, end) if lines[i] == sub), None)
        if at is None:
            block = "".join(lines[start:end]).rstrip("\n") + "\n\n" + sub + "\n" + body
        else:
            stop = next((i for i in range(at + 1, end) if lines[i].startswith("### ")), end)
            block = "".join(lines[start:at]) + sub + "\n" + body + ("\n" + "".join(lines[stop:end])
                                                                     if stop < end else "")
        rest = "".join(lines[end:])
        new = "".join(lines[:start]) + block.rstrip("\n") + "\n" + ("\n" + rest if rest else "")
    with open(doc + ".tmp", "w") as f:
        f.write(new)
    os.replace(doc + ".tmp", doc)


def report(args, setup, runs, notes, lsh, final):
    """Writes the table of the runs so far: after every run (a stopped benchmark leaves what it
    measured), and once more at the end, printed."""
    thread_counts, tools, truth, documents, (cpu, cores, mem), load_start, started = setup
    load_end = loadavg()
    rows = [median_row(tool, threads, runs[(tool, threads)])
            for threads in thread_counts for tool in tools if (tool, threads) in runs]
    base = {r["threads"]: r["wall"] for r in rows if r["tool"] == "gpudedup"}
    base_cpu = {r["threads"]: r["cpu"] for r in rows if r["tool"] == "gpudedup"}
    size_mb = os.path.getsize(args.corpus) / 1e6
    cmdline = "bench/speed/field_compare.py " + shlex.join(sys.argv[1:])
    out = [f"Measured {started:%Y-%m-%d %H:%M} UTC on the 2-core CPU machine ({cpu}, {cores} cores, {mem}), "
           f"shared with other builds: load average (1, 5, 15 min) {load_start} at the start, {load_end} at "
           f"the {'end' if final else 'last run so far'}; `load` is the 1-minute load just before each run "
           f"(median). {documents:,} documents, {size_mb:,.0f} MB; b × r = {lsh[0]} × {lsh[1]} (gpudedup's "
           f"choice); {args.repeats} round(s). gpudedup: built from {args.commit}, Release, CPU backend.", "",
           "```sh", cmdline, "```", "", table(rows, base, base_cpu), ""]
    if not final:
        out += ["**Unfinished**: the benchmark is still running or was stopped; these are the runs it finished.", ""]
    if truth:
        what = ("`gpudedup eval` pair precision and recall against the planted clusters"
                if isinstance(truth, PlantedTruth) else
                f"recall over the exact pairs with Jaccard ≥ {args.threshold}, precision over the reported "
                f"pairs with exact Jaccard ≥ {args.threshold - 0.05:.2f} (`{os.path.basename(args.truth)}`)")
        out += [f"Scores: {what}; a range where the rounds differ.", ""]
    rensa1, gd1 = runs.get(("rensa", 1)), base.get(1)
    if rensa1 and gd1:
        ratio = statistics.median(r["wall"] for r in rensa1) / gd1
        cpu_ratio = statistics.median(r["cpu"] for r in rensa1) / base_cpu[1]
        out += [f"Issue 28's goal, one thread: rensa's wall time ≥ 20× gpudedup's default's. Measured "
                f"{ratio:.1f}× ({ratio / 20:.0%} of the goal); in CPU seconds {cpu_ratio:.1f}×.", ""]
    if 1 in base and 2 in base:
        out += [f"gpudedup, 2 threads against 1: {base[1] / base[2]:.2f}× (issue 28's goal: ≥ 1.8×).", ""]
    out += [f"- {n}" for n in notes]
    body = "\n".join(out).rstrip("\n") + "\n"
    if final:
        print(body)
    if not args.no_doc:
        label = args.label or os.path.basename(args.corpus)
        write_subsection(args.doc, label, body)
        if final:
            log(f"wrote '### {label}' under '{SECTION[3:]}' in {args.doc}")


# ---------------------------------------------------------------- driver

def main():
    ap = argparse.ArgumentParser(prog="bench/speed/field_compare.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", help="JSONL corpus with id and text fields")
    ap.add_argument("--truth", help="exact pairs TSV (dedup --method exact --all-pairs --pairs) or "
                                    "planted clusters JSONL (gpudedup gen --truth); none: no scores")
    ap.add_argument("--label", help="subsection title in docs/benchmarks.md (default: the corpus file name)")
    ap.add_argument("--gpudedup", default=os.path.join(ROOT, "build-cpu", "gpudedup"),
                    help="the gpudedup binary (default build-cpu/gpudedup)")
    ap.add_argument("--venv", help="the peers' virtual environment (default: field-venv next to the binary)")
    ap.add_argument("--tools", default="gpudedup,rensa,gaoya,datasketch",
                    help="comma-separated, in the order of each round; gpudedup is always run first")
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved rounds (medians over them)")
    ap.add_argument("--timeout", type=int, default=900, help="seconds before one run is stopped")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--num-perm", type=int, default=256)
    ap.add_argument("--ngram", type=int, default=5)
    ap.add_argument("--workdir", default="/tmp/field_compare", help="run outputs (removed as scored)")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    ap.add_argument("--no-doc", action="store_true", help="print only")
    args = ap.parse_args()

    if not os.path.isfile(args.corpus):
        fail(f"corpus {args.corpus}: no such file (give a JSONL file with id and text fields)")
    if not (os.path.isfile(args.gpudedup) and os.access(args.gpudedup, os.X_OK)):
        fail(f"--gpudedup {args.gpudedup}: not an executable; build it (scripts/build) or pass --gpudedup PATH")
    if args.truth and not os.path.isfile(args.truth):
        fail(f"--truth {args.truth}: no such file")
    args.gpudedup = os.path.abspath(args.gpudedup)
    args.corpus = os.path.abspath(args.corpus)
    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = [t for t in tools if t != "gpudedup" and t not in PINS]
    if unknown:
        fail(f"--tools: unknown {', '.join(unknown)} (choose from gpudedup, {', '.join(PINS)})")
    tools = ["gpudedup"] + [t for t in tools if t != "gpudedup"]
    try:
        thread_counts = [int(x) for x in args.threads.split(",")]
    except ValueError:
        fail(f"--threads {args.threads}: give comma-separated thread counts, e.g. 1,2")
    if args.repeats < 1 or min(thread_counts) < 1:
        fail("--repeats and --threads need values >= 1")
    os.makedirs(args.workdir, exist_ok=True)
    # the last commit that changed the program (bench/ and docs/ changes do not)
    r = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h", "--", ".", ":!bench", ":!docs"],
                       stdout=subprocess.PIPE, text=True)
    args.commit = r.stdout.strip() or "?"

    venv = args.venv or os.path.join(os.path.dirname(args.gpudedup), "field-venv")
    python, skipped = ensure_venv(venv, tools)
    notes = [f"{t}: skipped ({why})." for t, why in skipped.items()]
    tools = [t for t in tools if t not in skipped]

    documents = sum(1 for line in open(args.corpus, "rb") if line.strip())
    truth = None
    if args.truth:
        log(f"reading the truth {args.truth}")
        truth = (PlantedTruth(args.truth, args.gpudedup, documents) if args.truth.endswith(".jsonl")
                 else ExactTruth(args.truth, args.threshold))

    cpu, cores, mem = machine_description()
    load_start = loadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    log(f"{documents} documents; {cpu}, {cores} cores, {mem}; load average {load_start}")

    setup = (thread_counts, tools, truth, documents, (cpu, cores, mem), load_start, started)
    runs, stopped, lsh = {}, set(), None
    for rnd in range(1, args.repeats + 1):
        for threads in thread_counts:
            for tool in tools:
                if (tool not in THREADED and threads != thread_counts[0]) or (tool, threads) in stopped:
                    continue
                run, why = run_once(args, python, tool, threads, rnd, lsh, truth)
                if run is None:
                    stopped.add((tool, threads))
                    notes.append(f"{tool} at {threads} thread(s): {why} in round {rnd}; left out from then on.")
                    log(f"  {tool} {threads}t: {why}")
                    continue
                if tool == "gpudedup" and lsh is None:
                    lsh = (run["result"]["bands"], run["result"]["rows"])
                runs.setdefault((tool, threads), []).append(run)
                report(args, setup, runs, notes, lsh, final=False)
    report(args, setup, runs, notes, lsh, final=True)


if __name__ == "__main__":
    main()
