#!/usr/bin/env bash
# The program's answer to a fixed set of bad command lines (exit code and message), and a
# checksum of every command's --help: for changes to how options are declared or read
# (the option table, host/cli) that must not change what a user sees. Run it with the
# binary before and after, and diff the two listings.
#
# usage: bench/checks/option_messages.sh > messages.txt
#   env: BIN (default build/gpudedup), OUT (default a temporary folder, removed)
# Paths under OUT are written as OUT/ so that two runs compare.
set -uo pipefail
bin=$(realpath "${BIN:-build/gpudedup}")
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
[ -n "${OUT:-}" ] || trap 'rm -rf "$out"' EXIT
cd "$out" || exit 1

printf '{"text": "alpha beta gamma delta"}\n{"text": "alpha beta gamma delta"}\n{"text": "other words here"}\n' >in.jsonl
printf 'the\nand\n' >stop.txt
"$bin" sketch in.jsonl -o in.sketch -q >/dev/null 2>&1
"$bin" index create idx -q >/dev/null 2>&1 || "$bin" index create idx >/dev/null 2>&1

helps=0
for command in "" dedup sketch filter gen eval tune info "index" "index create" "index add" "index query" \
               "index stats" "index compact"; do
  # shellcheck disable=SC2086
  printf 'help %-14s %s\n' "${command:-(none)}" "$("$bin" $command --help 2>&1 | sha256sum | cut -c1-16)"
  helps=$((helps + 1))
done

lines=0
bad() {  # bad ARGS...: one command line, its exit code and its message
  local err code
  err=$("$bin" "$@" 2>&1 >/dev/null)
  code=$?
  printf '%s => %d: %s\n' "$*" "$code" "$(printf '%s' "$err" | sed "s|$out/||g" | tr '\n' '|')"
  lines=$((lines + 1))
}

# Shared rows: ranges, types, names.
bad dedup in.jsonl --threshold 0
bad dedup in.jsonl --threshold 1.5
bad dedup in.jsonl --threshold x
bad dedup in.jsonl --ngram 0
bad dedup in.jsonl --ngram 65
bad dedup in.jsonl --ngram -1
bad dedup in.jsonl --ngram 2.5
bad dedup in.jsonl --num-perm 0
bad dedup in.jsonl --num-perm 5000
bad dedup in.jsonl --seed -1
bad dedup in.jsonl --seed x
bad dedup in.jsonl --threads 2000
bad dedup in.jsonl --threads -1
bad dedup in.jsonl --device -1
bad dedup in.jsonl --backend gpu
bad dedup in.jsonl --shingle sentence
bad dedup in.jsonl --sketch minwise
bad dedup in.jsonl --tokenizer bert
bad dedup in.jsonl --normalize loud
bad dedup in.jsonl --normalize fold,ascii
bad dedup in.jsonl --keep middle
bad dedup in.jsonl --method nope
bad dedup in.jsonl --first-document-number -3
bad dedup in.jsonl --stopwords missing.txt
bad dedup in.jsonl --stopwords
bad dedup in.jsonl --ngram 0 --normalize loud
bad dedup in.jsonl --normalize loud --tokenizer bert
bad dedup in.jsonl --stopwords missing.txt --normalize loud
bad dedup in.jsonl --shingle word --ngram 3 --stopwords missing.txt --stopword-anchored
# Methods' rows: refused for other methods, ranges, pairs.
bad dedup in.jsonl --bands 4
bad dedup in.jsonl --bands 0 --rows 4
bad dedup in.jsonl --bands 300 --rows 1
bad dedup in.jsonl --bands 16 --rows 32
bad dedup in.jsonl --verify maybe
bad dedup in.jsonl --similarity cosine
bad dedup in.jsonl --hamming 3
bad dedup in.jsonl --method simhash --hamming 40
bad dedup in.jsonl --method simhash --hamming 3 --blocks 2
bad dedup in.jsonl --method simhash --meta-weight 0.5
bad dedup in.jsonl --method simhash --weights idf
bad dedup in.jsonl --method simhash --bloom-bits 64
bad dedup in.jsonl --method bloom --bloom-bits 100
bad dedup in.jsonl --method bloom --bloom-hashes 0
bad dedup in.jsonl --method bloom --bloom-long some
bad dedup in.jsonl --method bloom --verify exact
bad dedup in.jsonl --method exact --bands 4 --rows 4
bad dedup in.jsonl --sample-size 0
bad dedup in.jsonl --sample wide
bad dedup in.jsonl --memory-limit 12X
bad dedup in.jsonl --memory-limit 10
bad dedup in.jsonl --temp-dir missing-dir
bad dedup in.jsonl --method simhash --memory-limit 1G
bad dedup in.jsonl --no-such-option
bad dedup in.jsonl -o k.jsonl --output-dir d
# The staged route: what the sketch files hold is refused.
for flag in "--input-format jsonl" "--text-field t" "--id-field i" --strict "--batch-size 8" "--shingle word" \
            "--ngram 3" "--stopwords stop.txt" --stopword-anchored "--normalize none" "--tokenizer icu" \
            "--num-perm 64" "--sketch oph" "--seed 7"; do
  # shellcheck disable=SC2086
  bad dedup --from-sketches in.sketch $flag
done
bad dedup --from-sketches
bad dedup --from-sketches in.sketch --ngram 3 --seed 7
# sketch.
bad sketch in.jsonl
bad sketch in.jsonl -o s --method bloom
bad sketch in.jsonl -o s --method simhash
bad sketch in.jsonl -o s --format csv
bad sketch in.jsonl -o s --ngram 0
bad sketch in.jsonl -o s --stopwords missing.txt
bad sketch in.jsonl -o s --normalize loud
bad sketch in.jsonl -o s --min-score 0.5
# index: its LSH section, and the options it compares with the index's.
bad index create idx2 --threshold 0
bad index create idx2 --threshold x
bad index create idx2 --bands 4
bad index create idx2 --bands x --rows 4
bad index create idx2 --bands -1 --rows 4
bad index create idx2 --bands 5000 --rows 1
bad index create idx2 --bands 4294967297 --rows 1
bad index create idx2 --bands 8 --rows 8 --num-perm 32
bad index create idx3 --threshold 0.5 --bands 0 --rows 0
bad index create idx2 --similarity cosine
bad index create idx2 --ngram 0
bad index create idx2 --stopwords missing.txt
bad index create idx
bad index add idx in.jsonl --similarity jaccard
bad index add idx in.jsonl --bands 4
bad index query idx in.jsonl --threshold 2
for flag in "--shingle word" "--ngram 3" "--stopwords stop.txt" --stopword-anchored "--normalize none" \
            "--tokenizer icu" "--num-perm 64" "--sketch oph" "--seed 7" "--bands 4 --rows 4" "--ngram 3 --seed 7"; do
  # shellcheck disable=SC2086
  bad index query idx in.jsonl $flag
  # shellcheck disable=SC2086
  bad index add idx in.jsonl -q $flag
done
bad index query idx in.jsonl --ngram 5 --seed 42
bad index query missing-idx in.jsonl
bad index nope idx
# filter, gen, tune.
bad filter in.jsonl
bad filter in.jsonl --removed missing.tsv -o k.jsonl
bad gen --documents 0 --output g.jsonl
bad gen --documents 10
bad tune --threshold 0
echo "# $helps help texts, $lines command lines"
