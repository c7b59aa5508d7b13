#!/usr/bin/env bash
# Checksums of every output of a fixed set of CPU dedup runs (each method, sampling,
# exact verification, all pairs, SimHash weights and metadata, every keep policy, an
# output per input), through every route of the job: records from files, the staged
# route's sketch files (dedup --from-sketches over two shards), and MPI ranks (when the
# program was built with MPI and mpiexec is found). For refactors that must not change
# any answer: run it before and after, and diff the two listings.
#
# usage: bench/checks/output_checksums.sh CORPUS.jsonl [more dedup args...] > sums.txt
#   env: BIN (default build/gpudedup), OUT (default a temporary folder, removed),
#        MPIEXEC (default mpiexec; MPIEXEC=none leaves the MPI routes out), RANKS (2)
# The stats file is left out (it holds timings); its counts are listed instead.
set -euo pipefail
corpus=${1:?usage: bench/checks/output_checksums.sh CORPUS.jsonl}
shift
bin=${BIN:-build/gpudedup}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
[ -n "${OUT:-}" ] || trap 'rm -rf "$out"' EXIT

list() {  # list NAME: the checksums of run NAME's outputs (- for one not written)
  local name=$1
  local p="$out/$name"
  printf '%-22s' "$name"
  for f in kept removed.tsv pairs.tsv clusters.jsonl; do
    if [ -e "$p.$f" ]; then
      # The staged route's removed list names the shards by path: under $out, any folder.
      printf ' %s' "$(sed "s|$out/|OUT/|g" "$p.$f" | sha256sum | cut -c1-16)"
    else
      printf ' -'
    fi
  done
  # Every count of the stats file (not the seconds).
  grep -E '"(records|documents|kept|removed|skipped|empty|clusters|candidate_pairs|pairs|bands|rows|pairs_passing_score)":' \
    "$p.stats.json" | tr -d ' \n'
  echo
}

run() {  # run NAME ARGS...: one process over the corpus
  local p="$out/$1"
  "$bin" dedup "$corpus" --quiet --backend cpu --output "$p.kept" --removed "$p.removed.tsv" \
    --pairs "$p.pairs.tsv" --clusters "$p.clusters.jsonl" --stats "$p.stats.json" "${@:2}" "${extra[@]}"
  list "$1"
}

run_dir() {  # run_dir NAME ARGS...: one process, an output per input (the two shards)
  local p="$out/$1"
  "$bin" dedup "$out/shards/a.jsonl" "$out/shards/b.jsonl" --quiet --backend cpu --output-dir "$p.dir" \
    --removed "$p.removed.tsv" --clusters "$p.clusters.jsonl" --stats "$p.stats.json" "${@:2}" "${extra[@]}"
  cat "$p.dir/a.jsonl" "$p.dir/b.jsonl" >"$p.kept"
  list "$1"
}

staged() {  # staged NAME ARGS...: dedup --from-sketches over the two shards' sketches
  local p="$out/$1"
  "$bin" dedup --from-sketches "$out/shards/a.sketch" "$out/shards/b.sketch" --quiet --backend cpu \
    --removed "$p.removed.tsv" --pairs "$p.pairs.tsv" --clusters "$p.clusters.jsonl" --stats "$p.stats.json" \
    "${@:2}" "${extra[@]}"
  list "$1"
}

mpi() {  # mpi NAME ARGS...: the corpus over $RANKS ranks (--pairs only with --all-pairs)
  local p="$out/$1"
  local pairs=()
  case " ${*:2} " in *" --all-pairs "*) pairs=(--pairs "$p.pairs.tsv") ;; esac
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" "$bin" dedup "$corpus" --quiet --backend cpu \
    --output "$p.kept" --removed "$p.removed.tsv" "${pairs[@]}" --clusters "$p.clusters.jsonl" \
    --stats "$p.stats.json" "${@:2}" "${extra[@]}" 2>"$p.stderr"
  list "$1"
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
run keep-longest --keep longest
run keep-shortest --keep shortest --threshold 0.6
run keep-none --keep none

# The corpus with records the reader skips (a malformed line every 7th, a blank line every
# 11th, a record without text after every 13th), so that document and record numbers differ.
awk '{ if (NR % 7 == 0) print "{not json"; if (NR % 11 == 0) print ""; print; if (NR % 13 == 0) print "{\"id\": \"none\"}" }' \
  "$corpus" >"$out/skips.jsonl"
skips() {  # skips NAME ARGS...: one process over that corpus
  local p="$out/$1"
  "$bin" dedup "$out/skips.jsonl" --quiet --quiet-errors --backend cpu --output "$p.kept" \
    --removed "$p.removed.tsv" --pairs "$p.pairs.tsv" --clusters "$p.clusters.jsonl" --stats "$p.stats.json" \
    "${@:2}" "${extra[@]}"
  list "$1"
}
skips skips
skips skips-longest --keep longest --threshold 0.6
skips skips-simhash --method simhash

# The two shards of the corpus (its first half of lines, then the rest) and their sketches.
mkdir -p "$out/shards"
lines=$(wc -l <"$corpus")
head -n $((lines / 2)) "$corpus" >"$out/shards/a.jsonl"
tail -n +$((lines / 2 + 1)) "$corpus" >"$out/shards/b.jsonl"
for shard in a b; do
  "$bin" sketch "$out/shards/$shard.jsonl" --quiet --backend cpu -o "$out/shards/$shard.sketch"
done
run_dir dir-minhash
run_dir dir-keep-longest --keep longest
staged staged
staged staged-t0.5 --threshold 0.5 --all-pairs
staged staged-keep-longest --keep longest
staged staged-keep-none --keep none

mpiexec=${MPIEXEC:-mpiexec}
ranks=${RANKS:-2}
# A program built without MPI refuses to run under mpiexec (exit 2): MPIEXEC=none then.
if [ "$mpiexec" != none ] && command -v "$mpiexec" >/dev/null; then
  mpi mpi
  mpi mpi-estimate --verify estimate --all-pairs
  mpi mpi-t0.5 --threshold 0.5 --verify none --all-pairs
  mpi mpi-keep-longest --keep longest
else
  echo "# MPI routes left out (MPIEXEC=none, or no $mpiexec)"
fi
