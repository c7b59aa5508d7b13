#!/usr/bin/env bash
# MinHash across 1, 2 and 4 MPI ranks against one process on a generated corpus: the
# same answer (cmp of the three outputs), seconds per stage and bytes sent per rank
# (each run's stderr), peak RSS (/usr/bin/time). Figures: docs/scaling.md.
# Usage: bench/mpi_scaling.sh BUILD_DIR WORK_DIR [DOCUMENTS]
set -euo pipefail
build=$(realpath "$1"); work=$2; documents=${3:-300000}
mkdir -p "$work" && cd "$work"
[ -f corpus.jsonl ] || "$build/gpudedup" gen --documents "$documents" --seed 7 --output corpus.jsonl --truth truth.jsonl
[ -f shard00.jsonl ] || split -n l/8 -d --additional-suffix=.jsonl corpus.jsonl shard
shards=(shard0*.jsonl)
cores=$(nproc)
run() {  # name, then the launcher words (none for one process)
  local out=$1; shift
  mkdir -p "$out"
  /usr/bin/time -v "$@" "$build/gpudedup" dedup "${shards[@]}" -o "$out/kept.jsonl" --removed "$out/removed.tsv" \
    --clusters "$out/clusters.jsonl" --stats "$out/stats.json" 2>"$out/log"
  grep -E "gpudedup:|Elapsed|Maximum resident" "$out/log"
}
run single
for n in 1 2 4; do
  threads=$((cores / n)); ((threads >= 1)) || threads=1
  run "r$n" mpirun --oversubscribe --allow-run-as-root -np "$n" -x OMP_NUM_THREADS="$threads"
  for f in kept.jsonl removed.tsv clusters.jsonl; do cmp "single/$f" "r$n/$f"; done
  echo "r$n: the same kept records, removed list and clusters as one process"
done
