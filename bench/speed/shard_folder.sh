#!/usr/bin/env bash
# Many tiny shards (docs/benchmarks.md, "A folder of 100,000 shards"): makes N one-record
# JSONL shards in 100 subfolders (a tenth of them gzip-compressed, every fifth record a
# duplicate of another shard's), then times `dedup` on the folder with --output to one
# file and with --output-dir (one output per shard), under /usr/bin/time -v. Prints the
# wall seconds and peak RSS of each, and checks that kept + removed = N.
#
# usage: bench/speed/shard_folder.sh [N]
#   env: BIN (default build/gpudedup), OUT (default /tmp/shard_folder)
set -euo pipefail
n=${1:-100000}
bin=${BIN:-build/gpudedup}
out=${OUT:-/tmp/shard_folder}
rm -rf "$out"
mkdir -p "$out"
python3 - "$out/shards" "$n" <<'PY'
import gzip, json, os, sys
root, n = sys.argv[1], int(sys.argv[2])
for d in range(100):
    os.makedirs(f"{root}/{d:02d}", exist_ok=True)
for i in range(n):
    src = i - i % 5 if i % 5 == 4 else i  # every fifth shard repeats an earlier one's text
    line = json.dumps({"id": f"doc-{i}", "text": f"shard {src} holds one record about topic {src * 7919 % 100003} "
                       f"with a few more words to shingle: alpha beta gamma {src}"}) + "\n"
    name = f"{root}/{i % 100:02d}/part-{i:06d}.jsonl"
    if i % 10 == 3:
        with gzip.open(name + ".gz", "wt") as f:
            f.write(line)
    else:
        with open(name, "w") as f:
            f.write(line)
PY
for mode in output output-dir; do
  target="$out/kept.jsonl"
  [[ $mode == output-dir ]] && target="$out/kept"
  /usr/bin/time -v "$bin" dedup "$out/shards" --id-field id -q --$mode "$target" \
    --removed "$out/$mode.removed.tsv" --stats "$out/$mode.stats.json" 2>"$out/$mode.time"
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/$mode.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$out/$mode.time")
  # Kept lines counted in the outputs themselves (plain and gzip), not taken from the stats.
  if [[ $mode == output ]]; then
    kept=$(wc -l < "$target")
  else
    kept=$(( $(find "$target" -name '*.jsonl' -exec cat {} + | wc -l) + $(find "$target" -name '*.gz' -exec zcat {} + | wc -l) ))
  fi
  removed=$(wc -l < "$out/$mode.removed.tsv")
  files=$( (find "$out/kept" -type f 2>/dev/null || true) | wc -l)
  echo "--$mode: $n shards, wall $wall, peak RSS ${rss} MiB, kept $kept + removed $removed = $((kept + removed)), output files $files"
done
