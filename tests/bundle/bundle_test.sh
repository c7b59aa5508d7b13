#!/usr/bin/env bash
# ctest "gpu_bundle" (label bundle, tests/CMakeLists.txt): checks the GPU test bundle that
# the target gpu_bundle assembled (cmake/gpu_bundle.cmake, docs/building.md) the way a GPU
# machine without our packages will use it:
#   1. its size is within what the device tool carries (60 MiB);
#   2. it holds a test program for every tests/*/*_test.cpp, the program and the benchmarks
#      gpu-check runs, and every RUNPATH is relative to the program ($ORIGIN);
#   3. a copy of it, moved out of the build tree, runs its own gpu-check --bundle --no-gpu
#      from a fresh folder with an empty environment (PATH=/usr/bin:/bin) and, where
#      `unshare -m` is allowed, with the source and build trees hidden under empty mounts:
#      every library and symbol resolves to the copy or the system set, and the test
#      programs pass (Gpu tests skip without a GPU). The slowest CPU programs are left out
#      (SKIP below): they check algorithms, which the ordinary tests already cover, not the
#      bundle.
#   4. the same copy's end-to-end step (--steps e2e) on a small generated corpus: the CPU
#      rows of minhash, simhash and bloom, each with its seconds per stage.
#   bundle_test.sh BUNDLE_DIR SOURCE_DIR BUILD_DIR
set -euo pipefail
bundle=$1 source=$2 build=$3
limit_mib=60
SKIP='^(bloom|exact_join|index_crash|lsh_params|simhash_search)_test$'

fail() { echo "gpu_bundle: $*" >&2; exit 1; }

[ -f "$bundle/MANIFEST" ] || fail "no bundle in $bundle (build the target gpu_bundle)"

size=$(du -sb "$bundle" | cut -f1)
echo "bundle: $bundle, $size bytes ($(((size + 1048575) / 1048576)) MiB; limit $limit_mib MiB)"
[ "$size" -le $((limit_mib * 1048576)) ] || fail "the bundle is larger than $limit_mib MiB"

for f in bin/gpudedup bench/sketch_bench bench/index_bench lib/libgpudedup.so gpu-check; do
  [ -x "$bundle/$f" ] || [ -f "$bundle/$f" ] || fail "$f is missing"
done
for src in "$source"/tests/*/*_test.cpp; do
  case "$src" in */tests/mpi/*) continue ;; esac  # no MPI in the bundle (tests/CMakeLists.txt)
  name=$(basename "$src" .cpp)
  [ -x "$bundle/tests/$name" ] || fail "tests/$name is missing"
done
for f in "$bundle"/bin/* "$bundle"/tests/* "$bundle"/bench/* "$bundle"/lib/*.so*; do
  paths=$(readelf -d "$f" | sed -nE 's/.*\((RUNPATH|RPATH)\).*\[(.*)\]/\2/p')
  case "$paths" in
    ""|'$ORIGIN'|'$ORIGIN/../lib') ;;
    *) fail "$f: RUNPATH $paths is not relative to \$ORIGIN" ;;
  esac
done

# The copy lives outside the source and build trees, which are hidden from it.
tmp=$(mktemp -d /tmp/gpudedup-bundle-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp -a "$bundle" "$tmp/bundle"
mkdir -p "$tmp/work" "$tmp/tmp"
run=("$tmp/bundle/gpu-check" --bundle "$tmp/bundle" --no-gpu --jobs "$(nproc)" --logs "$tmp/logs" --skip "$SKIP")
clean_env=(env -i PATH=/usr/bin:/bin HOME="$tmp" TMPDIR="$tmp/tmp" LANG=C)
hide='for d in "$1" "$2"; do [ -d "$d" ] && mount -t tmpfs -o ro,size=4k none "$d"; done
      [ ! -e "$1/CMakeLists.txt" ] && [ ! -e "$2/CMakeCache.txt" ] || exit 97
      shift 2; cd "$HOME/work" && exec "$@"'
# Hiding needs a private mount namespace (unshare -m) and a folder that the mounts leave visible.
can_hide=0
case "$tmp/" in
  "$source/"*|"$build/"*) ;;
  *) unshare -m --propagation private mount -t tmpfs -o size=4k none "$tmp/tmp" 2>/dev/null && can_hide=1 ;;
esac
status=0
if [ "$can_hide" = 1 ]; then
  echo "running the copy in $tmp/bundle with $source and $build hidden"
  "${clean_env[@]}" unshare -m --propagation private bash -c "$hide" hide "$source" "$build" "${run[@]}" || status=$?
  [ "$status" != 97 ] || fail "could not hide the source and build trees"
else
  echo "running the copy in $tmp/bundle (no private mounts here: the source and build trees stay visible)"
  (cd "$tmp/work" && "${clean_env[@]}" "${run[@]}") || status=$?
fi
[ "$status" = 0 ] || fail "gpu-check --bundle failed (exit $status)"

# The end-to-end step: no GPU here, so the CPU rows alone; the table must hold one per method.
(cd "$tmp/work" && "${clean_env[@]}" "$tmp/bundle/gpu-check" --bundle "$tmp/bundle" --no-gpu \
   --steps e2e --e2e-documents 20000 --simhash-documents 10000 --bloom-documents 5000 --logs "$tmp/logs") ||
  fail "gpu-check --bundle --steps e2e failed"
for row in minhash:20000 simhash:10000 bloom:5000; do
  grep -Eq "^\| ${row%:*} \| cpu \| ${row#*:} \| [0-9]+ \| [0-9.]+ \|" "$tmp/logs/e2e/e2e.md" ||
    fail "the end-to-end table has no ${row%:*} row of ${row#*:} documents (see above)"
done
[ ! -e "$tmp/logs/e2e/corpus.jsonl" ] || fail "the end-to-end step left its corpus behind"
echo "gpu_bundle: ok"
