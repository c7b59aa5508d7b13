#!/usr/bin/env bash
# MinHash across 1, 2 and 4 MPI ranks against one process on a generated corpus, in two
# layouts: 8 shards (whole files per rank) and the one corpus file (split into line
# ranges across the ranks). Per run: the same answer (cmp against one process, and the
# first 16 hex digits of each output's sha256), seconds per stage and bytes sent per rank
# (the run's stderr), wall time and peak RSS (/usr/bin/time). Figures: docs/scaling.md,
# docs/benchmarks.md.
# Usage: bench/speed/mpi_scaling.sh BUILD_DIR WORK_DIR [DOCUMENTS [MAX_CLUSTER]]
#   DOCUMENTS default 1000000; MAX_CLUSTER (gen --max-cluster-size) default 64 (the
#   figures of docs/scaling.md; 5000, the generator's default and docs/benchmarks.md's
#   "MPI scaling" table, makes families whose
#   buckets pass 64 members, which the ranks walk with a union-find of the bucket).
# Every run uses the default options (--verify auto: the ranks decide the borderline
# pairs exactly, as one process does, from shingle sets their owners read again).
#   env LAYOUTS: "shards file" (default), or one of them.
set -euo pipefail
build=$(realpath "$1"); work=$2; documents=${3:-1000000}; max_cluster=${4:-64}
mkdir -p "$work" && cd "$work"
[ -f corpus.jsonl ] || "$build/gpudedup" gen --documents "$documents" --seed 7 --max-cluster-size "$max_cluster" \
  --output corpus.jsonl --truth truth.jsonl
[ -f shard00.jsonl ] || split -n l/8 -d --additional-suffix=.jsonl corpus.jsonl shard
shards=(shard0*.jsonl)
cores=$(nproc)
run() {  # name, layout (shards or file), then the launcher words (none for one process)
  local out=$1 layout=$2; shift 2
  local inputs=("${shards[@]}")
  [ "$layout" = file ] && inputs=(corpus.jsonl)
  mkdir -p "$out"
  /usr/bin/time -v "$@" "$build/gpudedup" dedup "${inputs[@]}" -o "$out/kept.jsonl" --removed "$out/removed.tsv" \
    --clusters "$out/clusters.jsonl" --stats "$out/stats.json" 2>"$out/log"
  grep -E "gpudedup:|Elapsed|Maximum resident" "$out/log"
  printf '%s sha256:' "$out"
  for f in kept.jsonl removed.tsv clusters.jsonl; do printf ' %s %s' "$f" "$(sha256sum <"$out/$f" | cut -c1-16)"; done
  echo
}
run single shards
for layout in ${LAYOUTS:-shards file}; do
  for n in 1 2 4; do
    threads=$((cores / n)); ((threads >= 1)) || threads=1
    out="r$n-$layout"
    run "$out" "$layout" mpirun --oversubscribe --allow-run-as-root -np "$n" -x OMP_NUM_THREADS="$threads"
    for f in kept.jsonl removed.tsv clusters.jsonl; do cmp "single/$f" "$out/$f"; done
    echo "$out: the same kept records, removed list and clusters as one process"
    rm -f "$out/kept.jsonl"  # checked; the disk holds one copy
  done
done
