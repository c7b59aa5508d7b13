#!/usr/bin/env bash
# Containment search on planted excerpts (docs/benchmarks.md, "Containment search"):
# the exact containment join as truth, then MinHash containment (this build; OLD_BIN, if
# given, a build before the size-class search) and MinHash Jaccard at the same threshold
# for the cost. Prints wall, peak memory, candidate pairs, pairs, recall and precision.
#
# usage: bench/accuracy/containment_excerpts.sh SOURCE.jsonl [EXCERPTS] [THRESHOLD]
#   env: BIN (default build/gpudedup), OLD_BIN (optional), OUT (default a temporary folder),
#        MIN_WORDS (sources of at least this many words, default 400)
set -euo pipefail
source=${1:?usage: bench/accuracy/containment_excerpts.sh SOURCE.jsonl [EXCERPTS] [THRESHOLD]}
excerpts=${2:-500}
t=${3:-0.9}
bin=${BIN:-build/gpudedup}
out=${OUT:-$(mktemp -d)}
[ -n "${OUT:-}" ] || trap 'rm -rf "$out"' EXIT
here=$(dirname "$0")
python3 "$here/../data/planted_excerpts.py" "$source" "$out/corpus.jsonl" --excerpts "$excerpts" --seed 1 --min-words "${MIN_WORDS:-400}"
originals=$(wc -l <"$source")
run() {  # run NAME BIN ARGS...
  local name=$1 b=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$out/$name.time" "$b" dedup "$out/corpus.jsonl" --quiet --backend cpu \
    --output /dev/null --threshold "$t" --all-pairs --pairs "$out/$name.tsv" --stats "$out/$name.stats" "$@"
}
run exact "$bin" --method exact --similarity containment
run containment "$bin" --similarity containment
[ -n "${OLD_BIN:-}" ] && run containment_before "$OLD_BIN" --similarity containment
run jaccard "$bin"
python3 - "$out" "$originals" <<'PY'
import json, sys
out, originals = sys.argv[1], int(sys.argv[2])
def pairs(name):
    s = set()
    for line in open(f"{out}/{name}.tsv"):
        a, b, _ = line.split("\t")
        a, b = int(a), int(b)
        s.add((min(a, b), max(a, b)))
    return s
truth = pairs("exact")
planted = {p for p in truth if p[1] >= originals}
print(f"exact containment pairs {len(truth)}, of them with a planted excerpt {len(planted)}")
print("run | wall s | peak MiB | candidate pairs | pairs | recall | precision | recall (excerpt pairs)")
for name in ["exact", "containment", "containment_before", "jaccard"]:
    try:
        wall, rss = open(f"{out}/{name}.time").read().split()
    except FileNotFoundError:
        continue
    got = pairs(name)
    stats = json.load(open(f"{out}/{name}.stats"))
    hit = len(got & truth)
    print(f"{name} | {wall} | {int(rss) // 1024} | {stats.get('candidate_pairs', '-')} | {len(got)} | "
          f"{hit / len(truth):.4f} | {hit / max(1, len(got)):.4f} | {len(got & planted) / max(1, len(planted)):.4f}")
PY
