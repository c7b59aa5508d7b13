#!/usr/bin/env bash
# MinHash in memory against the same run under --memory-limit (signatures and band keys
# spilled to --temp-dir): checksums of every output (the same answer), seconds per stage
# (each run's summary), peak RSS and elapsed time (/usr/bin/time -v). Figures:
# docs/benchmarks.md and docs/scaling.md, "Bounded memory on one machine".
# Usage: bench/speed/spill_bench.sh BUILD_DIR WORK_DIR [DOCUMENTS] [LIMIT]
#   WORK_DIR needs ~850 B of corpus and ~1.3 KB of spill per document (P = 256); the
#   corpus is kept for a second call, remove WORK_DIR when done.
set -euo pipefail
build=$(realpath "$1"); work=$2; documents=${3:-2000000}; limit=${4:-1G}
mkdir -p "$work" && cd "$work"
[ -f corpus.jsonl ] || "$build/gpudedup" gen --documents "$documents" --seed 7 --output corpus.jsonl --truth truth.jsonl
mkdir -p spill
run() {  # name, then extra dedup options
  local out=$1; shift
  mkdir -p "$out"
  /usr/bin/time -v "$build/gpudedup" dedup corpus.jsonl --backend cpu -o "$out/kept.jsonl" \
    --removed "$out/removed.tsv" --clusters "$out/clusters.jsonl" --pairs "$out/pairs.tsv" \
    --stats "$out/stats.json" "$@" 2>"$out/log"
  grep -E "gpudedup:|Elapsed|Maximum resident" "$out/log"
  (cd "$out" && sha256sum kept.jsonl removed.tsv clusters.jsonl pairs.tsv)
  sed '/"seconds"/d' "$out/stats.json" | sha256sum | sed 's/-$/stats.json less seconds/'
}
run memory --memory-limit 64G
run spilled --memory-limit "$limit" --temp-dir "$work/spill"
for f in kept.jsonl removed.tsv clusters.jsonl pairs.tsv; do cmp "memory/$f" "spilled/$f"; done
cmp <(sed '/"seconds"/d' memory/stats.json) <(sed '/"seconds"/d' spilled/stats.json)
echo "the same kept records, removed list, clusters, pairs and stats (less seconds) in memory and spilled"
[ -z "$(ls -A spill)" ] && echo "the spill folder is empty"
