#!/usr/bin/env bash
# The staged route against one dedup run on a generated corpus: wall time and peak RSS of
# each step, and a check that the answers are equal (kept records, removed list, clusters).
#   bench/speed/staged_route.sh [DOCUMENTS] [SHARDS] [GPUDEDUP]
set -euo pipefail
docs=${1:-200000}
shards=${2:-4}
bin=$(realpath "${3:-build-cpu/gpudedup}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
timed() {  # label, command...: prints "label  wall s  peak RSS MiB"
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o t.txt "$@" >/dev/null 2>err.txt || { cat err.txt; exit 1; }
  read -r wall rss < t.txt
  printf '%-28s %8.2f s %8.0f MiB\n' "$label" "$wall" "$((rss / 1024))"
}
"$bin" gen --documents "$docs" --seed 11 --output all.jsonl --truth truth.jsonl 2>/dev/null
split -n "l/$shards" -d -a 3 --additional-suffix=.jsonl all.jsonl shard-
timed "one dedup" "$bin" dedup -q all.jsonl --id-field id -o one.jsonl --removed one.tsv --clusters one-clusters.jsonl
for s in shard-*.jsonl; do timed "sketch $s" "$bin" sketch -q "$s" --id-field id -o "${s%.jsonl}.sketch"; done
timed "dedup --from-sketches" "$bin" dedup -q --from-sketches shard-*.sketch --removed staged.tsv \
    --clusters staged-clusters.jsonl
for s in shard-*.jsonl; do timed "filter $s" "$bin" filter -q "$s" --id-field id --removed staged.tsv -o "kept-$s"; done
grep -v '^#input' staged.tsv | cut -f1,2 | cmp - one.tsv  # #input lines: the shards' checksums
cmp staged-clusters.jsonl one-clusters.jsonl
cat kept-shard-*.jsonl | cmp - one.jsonl
echo "same answer: kept records, removed list and clusters ($(wc -l < one.tsv) removed of $docs)"
