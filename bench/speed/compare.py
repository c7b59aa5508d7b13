#!/usr/bin/env python3
"""bench/speed/compare.py: gpudedup against datasketch on one generated corpus per scale.

For every scale (documents) it generates a corpus with planted near-duplicate clusters
(`gpudedup gen`), then runs on that same corpus:

  * gpudedup, CPU backend, 1 thread and all threads (`--threads`)
  * gpudedup, CUDA backend, when `gpudedup info` lists a device
  * gpudedup `--method exact` (exact similarity join; up to --exact-max documents, given up
    after --exact-timeout seconds)
  * datasketch MinHash + MinHashLSH with the same P, b, r (b and r read from gpudedup's
    stats.json) and the same shingles: gpudedup's default normalization (`fold`: simple
    case folding, runs of Unicode White_Space folded to one space, trimmed) and char
    k-grams over code points, replicated in Python (fold_shingles.py). Candidate pairs
    are clustered by gpudedup's rule: a pair is kept
    when datasketch's estimated Jaccard (MinHash.jaccard) >= threshold, pairs already in
    one cluster are not verified again, union-find, representative = first in input order.

Every run is scored with `gpudedup eval` against the planted truth. Reported per run:
documents/s and MB/s (text bytes of the corpus / wall seconds), peak RSS, pair precision,
recall, F1. gpudedup's time is the wall time of the whole `dedup` command (reading,
parsing and writing included); datasketch's time covers normalization + shingling +
sketching + LSH insert/query + verification + clustering, not reading the JSONL file.
Peak RSS is the kernel's ru_maxrss of the process (what /usr/bin/time -v reports).

The table is printed and written into docs/benchmarks.md under the heading
"## Comparison with datasketch (bench/speed/compare.py)" (that section is replaced, others kept),
with the machine, the load average, the date and the command that reproduces it.

datasketch and its dependencies are installed from PyPI with pip when missing; where the
registry cannot be reached the datasketch rows are skipped with a message.
"""
import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fold_shingles import char_shingles as fold_char_shingles  # noqa: E402

SECTION = "## Comparison with datasketch (bench/speed/compare.py)"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def char_shingles(text, k):
    """Set of UTF-8 encoded windows of k code points of the normalized text
    (fold_shingles.py: gpudedup's default normalization, replicated)."""
    return {g.encode("utf-8", "surrogatepass") for g in fold_char_shingles(text, k)}


def parse_count(s):
    s = s.strip().upper()
    mult = 1
    if s.endswith("K"):
        mult, s = 1000, s[:-1]
    elif s.endswith("M"):
        mult, s = 1000000, s[:-1]
    return int(float(s) * mult)


def human(n):
    if n == 0:
        return "0"
    if n % 1000000 == 0:
        return f"{n // 1000000}M"
    if n % 1000 == 0:
        return f"{n // 1000}K"
    return str(n)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def machine_description():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "unknown"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
                    break
    except OSError:
        pass
    return cpu, os.cpu_count() or 1, mem


# ---------------------------------------------------------------- process measurement

def measured_run(cmd, timeout=None, stdout=subprocess.DEVNULL):
    """Runs cmd; returns (returncode, wall seconds, peak RSS in bytes, stderr). Peak RSS is
    ru_maxrss from wait4, the figure /usr/bin/time -v prints. returncode None = timeout."""
    return measured_run_cpu(cmd, timeout, stdout)[:4]


def measured_run_cpu(cmd, timeout=None, stdout=subprocess.DEVNULL):
    """measured_run, and the child's CPU seconds (user + system, all its threads): the
    figure that a shared machine's load does not inflate."""
    import tempfile
    errfile = tempfile.TemporaryFile()   # a file, not a pipe: a chatty child cannot block
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=errfile)
    deadline = None if timeout is None else start + timeout
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if deadline is not None and time.perf_counter() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            return None, time.perf_counter() - start, 0, b"", 0.0
        time.sleep(0.02)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    errfile.seek(0)
    err = errfile.read()
    errfile.close()
    return proc.returncode, wall, ru.ru_maxrss * 1024, err, ru.ru_utime + ru.ru_stime


def check_call(cmd, what):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"bench/speed/compare.py: {what} failed (exit {r.returncode}): {shlex.join(cmd)}\n{r.stderr}")
    return r.stdout


def evaluate(gd, truth, clusters, documents):
    out = check_call([gd, "eval", "--truth", truth, "--clusters", clusters,
                      "--documents", str(documents)], "gpudedup eval")
    last = out.strip().splitlines()[-1]
    vals = dict(kv.split("=") for kv in last.split())
    return {k: float(v) for k, v in vals.items()}


# ---------------------------------------------------------------- datasketch

def ensure_datasketch():
    try:
        import datasketch  # noqa: F401
        return True, None
    except ImportError:
        pass
    log("datasketch not installed: pip install datasketch ...")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "datasketch"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        tail = r.stdout.strip().splitlines()[-1:] or ["(no output)"]
        return False, f"pip install datasketch failed (registry unreachable?): {tail[0]}"
    try:
        import importlib
        importlib.invalidate_caches()
        import datasketch  # noqa: F401
        return True, None
    except ImportError as e:
        return False, f"datasketch still not importable after pip install: {e}"


def datasketch_worker(args):
    """Runs inside its own process so that its peak RSS is its own. Writes clusters in
    gpudedup's --clusters JSONL format and a JSON with timings."""
    from datasketch import MinHash, MinHashLSH
    import datasketch

    ids, texts = [], []
    with open(args.corpus, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            ids.append(str(rec["id"]))
            texts.append(rec["text"])
    n = len(texts)
    P, b, r, t, k = args.num_perm, args.bands, args.rows, args.threshold, args.ngram

    start = time.perf_counter()
    shingle_sets = (list(char_shingles(x, k)) for x in texts)
    lsh = MinHashLSH(num_perm=P, params=(b, r))
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    candidates = verified = 0
    sketches = []
    for i, m in enumerate(MinHash.generator(shingle_sets, num_perm=P, seed=args.ds_seed)):
        sketches.append(m)
        if m.is_empty():           # no shingles: never a duplicate (gpudedup: "empty")
            continue
        for j in lsh.query(m):     # earlier documents sharing a whole band with i
            candidates += 1
            ri, rj = find(i), find(j)
            if ri == rj:           # already joined: not verified again
                continue
            if m.jaccard(sketches[j]) >= t:
                verified += 1
                if ri < rj:        # the root is the smallest index = first in input order
                    parent[rj] = ri
                else:
                    parent[ri] = rj
        lsh.insert(i, m)
    groups = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    seconds = time.perf_counter() - start

    with open(args.clusters_out, "w", encoding="utf-8", errors="surrogateescape") as f:
        number = 0
        for root in sorted(groups):
            members = groups[root]
            if len(members) < 2:
                continue
            f.write(json.dumps({"cluster": number, "representative": ids[members[0]],
                                "members": [ids[x] for x in members]}) + "\n")
            number += 1
    with open(args.result_out, "w") as f:
        json.dump({"seconds": seconds, "documents": n, "candidates": candidates,
                   "verified": verified, "version": getattr(datasketch, "__version__", "?")}, f)


# ---------------------------------------------------------------- shingle check

def shingle_check(gd, corpus, workdir, args, limit=2000):
    """Checks that the Python shingles equal gpudedup's: gpudedup --verify exact reports
    each verified pair's exact Jaccard of its shingle sets (6 decimals); the Python sets
    must give the same value."""
    pairs_path = os.path.join(workdir, "shingle-check-pairs.tsv")
    check_call([gd, "dedup", corpus, "--id-field", "id", "--num-perm", str(args.num_perm),
                "--threshold", "0.5", "--verify", "exact", "--all-pairs", "--pairs", pairs_path,
                "--quiet"], "gpudedup dedup --verify exact (shingle check)")
    pairs = []
    with open(pairs_path) as f:
        for line in f:
            a, b, s = line.rstrip("\n").split("\t")
            pairs.append((a, b, float(s)))
            if len(pairs) >= limit:
                break
    wanted = {x for a, b, _ in pairs for x in (a, b)}
    texts = {}
    with open(corpus, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            rec = json.loads(line)
            if str(rec["id"]) in wanted:
                texts[str(rec["id"])] = rec["text"]
    bad = 0
    for a, b, s in pairs:
        A, B = char_shingles(texts[a], args.ngram), char_shingles(texts[b], args.ngram)
        j = len(A & B) / len(A | B)
        if abs(j - s) > 1.5e-6:
            bad += 1
            if bad <= 3:
                log(f"  shingle check: pair {a} {b}: gpudedup {s:.6f}, python {j:.6f}")
    return len(pairs), bad


# ---------------------------------------------------------------- driver

def text_bytes(corpus):
    """UTF-8 bytes of the text fields (cached next to the corpus)."""
    cache = corpus + ".textbytes"
    if os.path.exists(cache) and os.path.getmtime(cache) >= os.path.getmtime(corpus):
        with open(cache) as f:
            return int(f.read())
    total = 0
    with open(corpus, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.strip():
                total += len(json.loads(line)["text"].encode("utf-8", "surrogatepass"))
    with open(cache, "w") as f:
        f.write(str(total))
    return total


def has_cuda_device(gd):
    r = subprocess.run([gd, "info"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = r.stdout
    # `gpudedup info` prints "cuda device N: NAME, ..." per device, or "cuda devices: none (why)".
    return bool(re.search(r"^cuda device \d+:", out, re.M)), out


def run_gpudedup(gd, corpus, truth, n, tbytes, workdir, label, extra, timeout=None):
    tag = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
    clusters = os.path.join(workdir, f"clusters-{tag}.jsonl")
    stats_path = os.path.join(workdir, f"stats-{tag}.json")
    cmd = [gd, "dedup", corpus, "--id-field", "id", "--clusters", clusters,
           "--stats", stats_path, "--quiet"] + extra
    log(f"  {label}: {shlex.join(cmd)}")
    load = os.getloadavg()[0]
    rc, wall, rss, err = measured_run(cmd, timeout=timeout)
    if rc is None:
        log(f"  {label}: stopped after {timeout} s (--exact-timeout)")
        return None, f"{label}: skipped at {human(n)}, did not finish within {timeout} s"
    if rc != 0:
        sys.exit(f"bench/speed/compare.py: {shlex.join(cmd)} failed (exit {rc}):\n{err.decode(errors='replace')}")
    with open(stats_path) as f:
        stats = json.load(f)
    scores = evaluate(gd, truth, clusters, n)
    row = dict(label=label, documents=n, wall=wall, rss=rss, tbytes=tbytes, stats=stats, load=load, **scores)
    log(f"  {label}: {wall:.2f} s, {n / wall:,.0f} docs/s, peak RSS {rss / 2**20:.0f} MiB, "
        f"P={scores['precision']:.4f} R={scores['recall']:.4f}")
    return row, None


def run_datasketch(corpus, truth, gd, n, tbytes, workdir, args, b, r, seed=1):
    clusters = os.path.join(workdir, f"clusters-datasketch-seed{seed}.jsonl")
    result = os.path.join(workdir, f"datasketch-seed{seed}.json")
    cmd = [sys.executable, os.path.abspath(__file__), "--datasketch-worker",
           "--corpus", corpus, "--num-perm", str(args.num_perm), "--bands", str(b),
           "--rows", str(r), "--threshold", str(args.threshold), "--ngram", str(args.ngram),
           "--clusters-out", clusters, "--result-out", result, "--ds-seed", str(seed)]
    log(f"  datasketch: MinHash + MinHashLSH(num_perm={args.num_perm}, params=({b}, {r}))")
    load = os.getloadavg()[0]
    rc, wall, rss, err = measured_run(cmd)
    if rc != 0:
        sys.exit(f"bench/speed/compare.py: datasketch worker failed (exit {rc}):\n{err.decode(errors='replace')}")
    with open(result) as f:
        res = json.load(f)
    scores = evaluate(gd, truth, clusters, n)
    row = dict(label=f"datasketch {res['version']} (Python, 1 thread)", documents=n,
               wall=res["seconds"], rss=rss, tbytes=tbytes, process_wall=wall, load=load, **scores)
    log(f"  datasketch: {res['seconds']:.2f} s timed ({wall:.1f} s process), "
        f"{n / res['seconds']:,.0f} docs/s, peak RSS {rss / 2**20:.0f} MiB, "
        f"P={scores['precision']:.4f} R={scores['recall']:.4f}, {res['candidates']} candidates")
    return row


def fmt_row(row):
    n, w = row["documents"], row["wall"]
    return (f"| {human(n)} | {row['label']} | {w:.2f} | {n / w:,.0f} | {row['tbytes'] / w / 1e6:.2f} | "
            f"{row['rss'] / 2**20:.0f} | {row['precision']:.4f} | {row['recall']:.4f} | {row['f1']:.4f} | "
            f"{row['load']:.2f} |")


def write_section(doc_path, section):
    text = ""
    if os.path.exists(doc_path):
        with open(doc_path) as f:
            text = f.read()
    if not text:
        text = "# Benchmarks\n\nEvery figure here comes with the command that reproduces it.\n"
    lines = text.splitlines(keepends=True)
    start = next((i for i, l in enumerate(lines) if l.rstrip("\n") == SECTION), None)
    if start is None:
        new = text.rstrip("\n") + "\n\n" + section
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        rest = "".join(lines[end:])
        new = "".join(lines[:start]) + section + ("\n" + rest if rest else "")
    tmp = doc_path + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, doc_path)


def main():
    ap = argparse.ArgumentParser(
        prog="bench/speed/compare.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: bench/speed/compare.py --scales 10K,100K,1M --datasketch-max 100K")
    ap.add_argument("--gpudedup", default=os.path.join(ROOT, "build", "gpudedup"),
                    help="the gpudedup binary (default: build/gpudedup)")
    ap.add_argument("--scales", default="10K,100K", help="comma-separated document counts (10K, 100K, 1M)")
    ap.add_argument("--seed", type=int, default=7, help="gpudedup gen --seed")
    ap.add_argument("--num-perm", type=int, default=256, help="P, MinHash values per document")
    ap.add_argument("--threshold", type=float, default=0.8, help="Jaccard threshold (b, r chosen by gpudedup)")
    ap.add_argument("--ngram", type=int, default=5, help="char k-gram length")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="'all threads' (default: cores)")
    ap.add_argument("--datasketch-max", type=parse_count, default=100000,
                    help="largest scale datasketch runs at (default 100K); 0 skips datasketch")
    ap.add_argument("--exact-max", type=parse_count, default=10000,
                    help="largest scale --method exact runs at (default 10K: the join on this "
                         "branch is brute force, quadratic); 0 skips it")
    ap.add_argument("--exact-timeout", type=int, default=600,
                    help="seconds before --method exact is given up and reported as skipped (default 600)")
    ap.add_argument("--seeds", type=int, default=1,
                    help="accuracy over this many permutation seeds (gpudedup --seed, datasketch "
                         "MinHash(seed=)) at scales up to --seeds-max; timings use seed 1 (default 1)")
    ap.add_argument("--seeds-max", type=parse_count, default=10000,
                    help="largest scale the extra seeds run at (default 10K)")
    ap.add_argument("--no-cuda", action="store_true", help="skip the CUDA backend even with a device")
    ap.add_argument("--no-shingle-check", action="store_true",
                    help="skip checking Python's shingle sets against gpudedup --verify exact")
    ap.add_argument("--workdir", default=os.path.join(ROOT, "out", "compare"),
                    help="corpora and run outputs (kept for reuse: gen is deterministic)")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "benchmarks.md"),
                    help="markdown file to write the section into")
    ap.add_argument("--no-doc", action="store_true", help="print only, do not write --doc")
    # internal: the datasketch run in its own process
    ap.add_argument("--datasketch-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--corpus", help=argparse.SUPPRESS)
    ap.add_argument("--bands", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--rows", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--clusters-out", help=argparse.SUPPRESS)
    ap.add_argument("--result-out", help=argparse.SUPPRESS)
    ap.add_argument("--ds-seed", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.datasketch_worker:
        datasketch_worker(args)
        return

    gd = args.gpudedup
    if not (os.path.isfile(gd) and os.access(gd, os.X_OK)):
        sys.exit(f"bench/speed/compare.py: gpudedup binary not found or not executable: {gd}\n"
                 f"  build it first: BUILD_DIR=build scripts/build -DGPUDEDUP_ENABLE_CUDA=OFF\n"
                 f"  or pass --gpudedup PATH")
    gd = os.path.abspath(gd)
    try:
        scales = [parse_count(s) for s in args.scales.split(",") if s.strip()]
    except ValueError:
        sys.exit(f"bench/speed/compare.py: --scales: cannot read '{args.scales}' (e.g. 10K,100K,1M)")
    if not scales or min(scales) <= 0:
        sys.exit("bench/speed/compare.py: --scales needs positive document counts")
    os.makedirs(args.workdir, exist_ok=True)

    cpu, cores, mem = machine_description()
    load_start = loadavg()
    started = datetime.datetime.now().astimezone()
    log(f"machine: {cpu}, {cores} cores, {mem}; load average {load_start}")
    if os.getloadavg()[0] > 1.5:
        log("warning: load average above 1.5: timings are noisy")

    cuda, info = (False, "")
    if not args.no_cuda:
        cuda, info = has_cuda_device(gd)
    notes = []
    if args.no_cuda:
        notes.append("CUDA backend: skipped (--no-cuda).")
    elif not cuda:
        notes.append("CUDA backend: skipped, `gpudedup info` lists no CUDA device on this machine.")

    ds_ok, ds_why = (False, "--datasketch-max 0")
    if args.datasketch_max > 0:
        ds_ok, ds_why = ensure_datasketch()
        if not ds_ok:
            log(f"datasketch: skipped: {ds_why}")
    if not ds_ok:
        notes.append(f"datasketch: skipped ({ds_why}).")

    rows, ratios, side_by_side, seed_rows = [], [], [], []
    checked = None
    for n in scales:
        log(f"== {human(n)} documents")
        workdir = os.path.join(args.workdir, f"n{n}-s{args.seed}")
        os.makedirs(workdir, exist_ok=True)
        corpus = os.path.join(workdir, "corpus.jsonl")
        truth = os.path.join(workdir, "truth.jsonl")
        if not (os.path.exists(corpus) and os.path.exists(truth)):
            check_call([gd, "gen", "--documents", str(n), "--seed", str(args.seed),
                        "--output", corpus, "--truth", truth], "gpudedup gen")
        tbytes = text_bytes(corpus)
        common = ["--num-perm", str(args.num_perm), "--threshold", str(args.threshold),
                  "--shingle", "char", "--ngram", str(args.ngram)]

        if ds_ok and not args.no_shingle_check and checked is None:
            total, bad = shingle_check(gd, corpus, workdir, args)
            checked = (total, bad)
            log(f"  shingle check: {total - bad}/{total} pairs have equal exact Jaccard in Python and gpudedup")
            if bad:
                notes.append(f"WARNING: shingle check failed on {bad} of {total} pairs.")

        one, _ = run_gpudedup(gd, corpus, truth, n, tbytes, workdir, "gpudedup CPU, 1 thread",
                              common + ["--backend", "cpu", "--threads", "1"])
        one["label"] = "gpudedup CPU, 1 thread"
        rows.append(one)
        b, r = one["stats"]["bands"], one["stats"]["rows"]
        if args.threads != 1:
            allt, _ = run_gpudedup(gd, corpus, truth, n, tbytes, workdir,
                                   f"gpudedup CPU, {args.threads} threads",
                                   common + ["--backend", "cpu", "--threads", str(args.threads)])
            rows.append(allt)
        if cuda:
            gpu, _ = run_gpudedup(gd, corpus, truth, n, tbytes, workdir, "gpudedup CUDA",
                                  common + ["--backend", "cuda"])
            rows.append(gpu)
        if 0 < n <= args.exact_max:
            ex, why = run_gpudedup(gd, corpus, truth, n, tbytes, workdir,
                                   "gpudedup --method exact",
                                   ["--method", "exact", "--threshold", str(args.threshold),
                                    "--shingle", "char", "--ngram", str(args.ngram),
                                    "--threads", str(args.threads)],
                                   timeout=args.exact_timeout)
            if ex:
                rows.append(ex)
            else:
                notes.append(why)
        else:
            notes.append(f"--method exact: skipped at {human(n)} (above --exact-max {human(args.exact_max)}).")
        if ds_ok and n <= args.datasketch_max:
            ds = run_datasketch(corpus, truth, gd, n, tbytes, workdir, args, b, r)
            rows.append(ds)
            st = one["stats"]["seconds"]
            stage = st["sketch"] + st["candidates"] + st["cluster"]
            ratios.append((n, (n / one["wall"]) / (n / ds["wall"]), ds["wall"] / stage))
            side_by_side.append((n, b, r, one, ds))
            if args.seeds > 1 and n <= args.seeds_max:
                g_scores, d_scores = [one], [ds]
                for sd in range(2, args.seeds + 1):
                    log(f"  accuracy, permutation seed {sd}:")
                    g, _ = run_gpudedup(gd, corpus, truth, n, tbytes, workdir, f"gpudedup CPU seed {sd}",
                                        common + ["--backend", "cpu", "--threads", str(args.threads),
                                                  "--seed", str(sd)])
                    g_scores.append(g)
                    d_scores.append(run_datasketch(corpus, truth, gd, n, tbytes, workdir, args, b, r, seed=sd))
                seed_rows.append((n, g_scores, d_scores))
        elif ds_ok:
            notes.append(f"datasketch: skipped at {human(n)} (above --datasketch-max "
                         f"{human(args.datasketch_max)}; one Python thread would take too long).")

    load_end = loadavg()
    header = ("| documents | run | wall s | documents/s | MB/s | peak RSS MiB | precision | recall | F1 | load |\n"
              "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    table = header + "\n" + "\n".join(fmt_row(x) for x in rows)
    cmdline = "bench/speed/compare.py " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "bench/speed/compare.py"
    out = [SECTION, "",
           f"Measured {started:%Y-%m-%d %H:%M %Z} on {cpu}, {cores} cores, {mem} of memory; "
           f"load average (1, 5, 15 min) {load_start} at the start and {load_end} at the end"
           + (" — the machine was shared, so timings are noisy." if max(
               float(load_start.split()[0]), float(load_end.split()[0])) > 1.5 else "."),
           "",
           "Reproduce (after `BUILD_DIR=build scripts/build -DGPUDEDUP_ENABLE_CUDA=OFF`):", "",
           "```sh", cmdline, "```", "",
           f"Corpus: `gpudedup gen --documents N --seed {args.seed}` (planted clusters, defaults of "
           f"docs/tools.md). P = {args.num_perm}, threshold {args.threshold}, char {args.ngram}-grams; "
           "b and r are gpudedup's automatic choice (from its stats.json), given to datasketch as "
           "`MinHashLSH(num_perm=P, params=(b, r))`. MB/s = UTF-8 bytes of the documents' text / "
           "wall seconds. gpudedup's wall time is the whole `dedup` command (read, parse, sketch, "
           "LSH, verify, cluster, write); datasketch's covers normalization, shingling, "
           "`MinHash` sketching, `MinHashLSH` query + insert, verification by `MinHash.jaccard` "
           "and union-find, but not reading the JSONL. Precision, recall and F1 are pair metrics "
           "of `gpudedup eval` against the planted clusters. `load` is the 1-minute load average "
           f"just before the run ({cores} cores).", "",
           table, ""]
    if ratios:
        out.append("gpudedup CPU backend, 1 thread, against datasketch (target: ≥ 30× documents/s):")
        out.append("")
        out.append("| documents | b × r | docs/s ratio (whole dedup command) | ratio of sketch + LSH + cluster stage times | "
                   "precision gpudedup / datasketch | recall gpudedup / datasketch |")
        out.append("|---:|---|---:|---:|---|---|")
        for (n, ratio, stage_ratio), (_, b, r, one, ds) in zip(ratios, side_by_side):
            out.append(f"| {human(n)} | {b} × {r} | {ratio:.1f}× | {stage_ratio:.1f}× | "
                       f"{one['precision']:.4f} / {ds['precision']:.4f} | {one['recall']:.4f} / {ds['recall']:.4f} |")
        out.append("")
        out.append("The stage-time ratio divides datasketch's timed work by the `sketch + candidates + "
                   "cluster` seconds of gpudedup's stats.json (reading and writing left out of both).")
        out.append("")
    if seed_rows:
        def spread(xs, key):
            v = [x[key] for x in xs]
            return f"{sum(v) / len(v):.4f} ({min(v):.4f}–{max(v):.4f})"
        out.append("Accuracy over permutation seeds 1.." + str(args.seeds) + " (gpudedup `--seed s`, datasketch "
                   "`MinHash(seed=s)`), mean (min–max). Pair recall is dominated by the largest planted "
                   "clusters: one member of a 1000-member cluster left out costs ~1000 pairs, so one "
                   "seed's recall is a noisy figure.")
        out.append("")
        out.append("| documents | seeds | precision gpudedup | precision datasketch | recall gpudedup | recall datasketch |")
        out.append("|---:|---:|---|---|---|---|")
        for n, g, d in seed_rows:
            out.append(f"| {human(n)} | {len(g)} | {spread(g, 'precision')} | {spread(d, 'precision')} | "
                       f"{spread(g, 'recall')} | {spread(d, 'recall')} |")
        out.append("")
    if checked:
        out.append(f"Shingle check: for {checked[0] - checked[1]} of {checked[0]} pairs reported by "
                   "`gpudedup dedup --verify exact --threshold 0.5 --all-pairs` on the smallest "
                   "corpus, the exact Jaccard of the Python shingle sets given to datasketch equals "
                   "gpudedup's (6 decimals), so both work on the same shingle sets.")
        out.append("")
    for note in notes:
        out.append(f"- {note}")
    if notes:
        out.append("")
    section = "\n".join(out)
    print(section)
    if not args.no_doc:
        write_section(args.doc, section)
        log(f"wrote the section '{SECTION[3:]}' into {args.doc}")


if __name__ == "__main__":
    main()
