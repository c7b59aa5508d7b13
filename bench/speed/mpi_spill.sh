#!/usr/bin/env bash
# MinHash across 1, 2 and 4 MPI ranks (oversubscribed on a small machine: mpirun
# --oversubscribe) with every rank in memory and under a per-rank --memory-limit small
# enough that every rank spills, against one process, on a generated corpus (the
# generator's default families: buckets past 64 members). Per run: the same answer (cmp
# against one process; the stats less seconds against the in-memory run), seconds per stage and each rank's peak RSS (VmHWM, on the rank
# report lines), wall time, and the sum over the ranks that /usr/bin/time measures around
# mpirun. Figures: docs/scaling.md ("Bounded memory under MPI"), docs/benchmarks.md.
# Usage: bench/speed/mpi_spill.sh BUILD_DIR WORK_DIR [DOCUMENTS [LIMIT]]
#   DOCUMENTS default 1000000; LIMIT (--memory-limit per rank) default 64M.
# Every run uses --verify estimate (under MPI --verify auto decides by the estimate).
set -euo pipefail
build=$(realpath "$1"); work=$2; documents=${3:-1000000}; limit=${4:-64M}
mkdir -p "$work/spill" && cd "$work"
[ -f corpus.jsonl ] || "$build/gpudedup" gen --documents "$documents" --seed 7 --output corpus.jsonl --truth truth.jsonl
cores=$(nproc)
run() {  # name, then the words before `gpudedup` (none for one process), then -- and dedup's extra options
  local out=$1; shift
  local launcher=()
  while [ "$1" != -- ]; do launcher+=("$1"); shift; done
  shift
  mkdir -p "$out"
  /usr/bin/time -v "${launcher[@]}" "$build/gpudedup" dedup corpus.jsonl -o "$out/kept.jsonl" \
    --removed "$out/removed.tsv" --clusters "$out/clusters.jsonl" --stats "$out/stats.json" --verify estimate "$@" \
    2>"$out/log"
  grep -E "gpudedup:|Elapsed|Maximum resident" "$out/log"
  if [ "$out" != single ]; then
    for f in kept.jsonl removed.tsv clusters.jsonl; do cmp "single/$f" "$out/$f"; done
    echo "$out: the same kept records, removed list and clusters as one process"
    if [ "${out%-spill}" != "$out" ]; then  # the counts of the stats (MPI counts every pair of a bucket)
      diff <(grep -v '"seconds"' "${out%-spill}-memory/stats.json") <(grep -v '"seconds"' "$out/stats.json")
      echo "$out: the same stats, less seconds, as ${out%-spill}-memory"
    fi
    rm -f "$out/kept.jsonl"  # checked; the disk holds one copy
  fi
  [ -z "$(ls -A spill)" ] || { echo "$out: spill files left in $work/spill"; exit 1; }
}
run single --
for n in 1 2 4; do
  threads=$((cores / n)); ((threads >= 1)) || threads=1
  mpirun=(mpirun --oversubscribe --allow-run-as-root -np "$n" -x OMP_NUM_THREADS="$threads")
  run "r$n-memory" "${mpirun[@]}" --
  run "r$n-spill" "${mpirun[@]}" -- --memory-limit "$limit" --temp-dir spill
done
