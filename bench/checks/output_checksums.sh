#!/usr/bin/env bash
# Checksums of every output of a fixed set of CPU dedup runs (each method, sampling,
# exact verification, all pairs, SimHash weights and metadata), for refactors that must
# not change any answer: run it before and after, and diff the two listings.
#
# usage: bench/checks/output_checksums.sh CORPUS.jsonl [more dedup args...] > sums.txt
#   env: BIN (default build/gpudedup), OUT (default a temporary folder, removed)
# The stats file is left out (it holds timings); its counts are listed instead.
set -euo pipefail
corpus=${1:?usage: bench/checks/output_checksums.sh CORPUS.jsonl}
shift
bin=${BIN:-build/gpudedup}
out=${OUT:-$(mktemp -d)}
[ -n "${OUT:-}" ] || trap 'rm -rf "$out"' EXIT

run() {  # run NAME ARGS...
  local name=$1
  shift
  local p="$out/$name"
  "$bin" dedup "$corpus" --quiet --backend cpu --output "$p.kept" --removed "$p.removed.tsv" \
    --pairs "$p.pairs.tsv" --clusters "$p.clusters.jsonl" --stats "$p.stats.json" "$@" "${extra[@]}"
  printf '%-22s' "$name"
  for f in kept removed.tsv pairs.tsv clusters.jsonl; do
    printf ' %s' "$(sha256sum <"$p.$f" | cut -c1-16)"
  done
  # Every count of the stats file (not the seconds).
  grep -E '"(records|documents|kept|removed|skipped|empty|clusters|candidate_pairs|pairs|bands|rows|pairs_passing_score)":' \
    "$p.stats.json" | tr -d ' \n'
  echo
}

extra=("$@")
run minhash
run minhash-t0.5 --threshold 0.5 --all-pairs
run minhash-exact --verify exact --similarity containment
run minhash-word --shingle word --ngram 3 --num-perm 128 --seed 7
run minhash-modm --sample modm --sample-mod 4
run minhash-mins --sample mins --sample-size 64 --verify exact
run minhash-minwise --sample minwise --sample-size 64
run minhash-bands --bands 16 --rows 8 --verify none
run exact --method exact --threshold 0.7
run simhash --method simhash --hamming 4
run simhash-tfidf --method simhash --weights tfidf-len --hamming 6 --all-pairs
run simhash-meta --method simhash --meta-field keywords --min-score 0.2
run bloom --method bloom --bloom-measure jaccard --threshold 0.6
run bloom-lsh --method bloom --bloom-all-pairs-max 10 --sample mins --sample-size 100
