#!/usr/bin/env bash
# Method comparison on a real corpus (docs/benchmarks.md, "Method comparison"): runs
# minhash, simhash, bloom (each measure), exact, and minhash under each shingle sampling
# rate (and each method at its defaults: ONLY=default), each with --stats --clusters
# --pairs under /usr/bin/time -v, then scores every
# run against the exact ground truth with bench/check_accuracy.py. Prints a Markdown
# table: run, parameters, wall seconds, peak RSS, recall@0.85, precision@0.75.
#
# usage: bench/accuracy/method_compare.sh [CORPUS.jsonl] [EXACT_PAIRS.tsv]
#   env: BIN (default build/gpudedup), OUT (default /tmp/method_compare),
#        ONLY (a regular expression: run only the matching run names)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:-/work/data/debian160.jsonl}
exact=${2:-/work/data/exact.pairs.tsv}
bin=${BIN:-build/gpudedup}
out=${OUT:-/tmp/method_compare}
only=${ONLY:-.}
mkdir -p "$out"

echo "| run | parameters | wall s | peak RSS MiB | recall@0.85 | precision@0.75 | pairs reported |"
echo "|---|---|---:|---:|---:|---:|---:|"

run() {  # run NAME ARGS...: one dedup run and its row
  local name=$1
  shift
  [[ $name =~ $only ]] || return 0
  local p="$out/$name"
  local rc=0
  /usr/bin/time -v "$bin" dedup "$corpus" --id-field id --quiet --backend cpu \
    --stats "$p.stats.json" --clusters "$p.clusters.jsonl" --pairs "$p.pairs.tsv" "$@" 2>"$p.time" || rc=$?
  if [ "$rc" = 2 ]; then  # refused (a Bloom threshold that does not separate unrelated documents)
    echo "| $name | ${*} | refused: $(grep -m1 'gpudedup dedup:' "$p.time" | cut -c1-120)... | | | | |"
    return 0
  fi
  [ "$rc" = 0 ] || { cat "$p.time" >&2; exit "$rc"; }
  local wall rss score
  wall=$(python3 -c "import json,sys; print('%.1f' % json.load(open(sys.argv[1]))['seconds']['total'])" "$p.stats.json")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%d", $2 / 1024}' "$p.time")
  score=$("$here/check_accuracy.py" "$exact" "$p.clusters.jsonl" "$p.pairs.tsv" | tail -1)
  local recall=${score#recall@0.85=}
  recall=${recall%% *}
  local precision=${score##*precision@0.75=}
  echo "| $name | ${*} | $wall | $rss | $recall | $precision | $(wc -l <"$p.pairs.tsv") |"
}

# Each method with every option at its default (ONLY=default runs these alone): the
# per-method table of docs/user-guide.md.
for m in minhash simhash bloom exact; do
  run "default-$m" --method "$m"
done
run minhash --threshold 0.8
run simhash --method simhash
run simhash-k3 --method simhash --hamming 3 --verify none
run exact --method exact --threshold 0.8
for m in cosine overlap dice jaccard; do
  run "bloom-$m" --method bloom --bloom-measure "$m" --threshold 0.8
done
for m in cosine overlap dice jaccard; do
  run "bloom-$m-16k" --method bloom --bloom-measure "$m" --bloom-bits 16384 --bloom-hashes 1 --threshold 0.8
done
# Dice (and cosine, for sets of equal size) of sets with Jaccard J is 2J/(1+J): 0.889 at 0.8.
for m in cosine dice; do
  run "bloom-$m-16k-t889" --method bloom --bloom-measure "$m" --bloom-bits 16384 --bloom-hashes 1 --threshold 0.889
done
run bloom-jaccard-mins256 --method bloom --bloom-measure jaccard --sample mins --sample-size 256 --threshold 0.8
for s in 64 256 1024; do
  run "minhash-mins$s" --threshold 0.8 --sample mins --sample-size "$s"
  run "minhash-mins$s-verify" --threshold 0.8 --sample mins --sample-size "$s" --verify exact
done
run minhash-minwise256-verify --threshold 0.8 --sample minwise --sample-size 256 --verify exact
for m in 4 16 64; do
  run "minhash-mod$m" --threshold 0.8 --sample modm --sample-mod "$m"
done
run exact-mod16 --method exact --threshold 0.8 --sample modm --sample-mod 16
