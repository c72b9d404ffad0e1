#!/usr/bin/env bash
# The file-sort bar of upsweep-sort, on a GPU machine: a binary file of random u32 keys in the page
# cache, sorted to a file, timed beside `cp` of the same file (both wall-clock, the file cached,
# outputs removed between runs); in core and with --memory-limit at a quarter of the file.
#   tools/file-sort-check.sh [SORT_TOOL] [GIB] [DIR]   (defaults: build/gpu/apps/upsweep-sort/upsweep-sort, 4, /tmp)
# Prints one line per run and the ratios to cp; exits non-zero when a run fails or an output is not
# sorted (the tool's --verify in a separate, untimed run, and the last file-to-file output checked
# for order, count and sum).
set -euo pipefail
tool=${1:-build/gpu/apps/upsweep-sort/upsweep-sort}
gib=${2:-4}
dir=${3:-/tmp}
in=$dir/upsweep-file-sort-in.bin
trap 'rm -f "$in" "$dir/upsweep-file-sort-copy.bin" "$dir/upsweep-file-sort-out.bin"' EXIT
python3 -c "import numpy as np, sys; np.random.default_rng(1).integers(0, 2**32, int(sys.argv[1]) * 2**28, dtype=np.uint32).tofile(sys.argv[2])" "$gib" "$in"
cat "$in" >/dev/null
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'; }
best() {  # the fastest of three runs of "$@", outputs removed in between
  local b=""
  for _ in 1 2 3; do
    rm -f "$dir/upsweep-file-sort-copy.bin" "$dir/upsweep-file-sort-out.bin"
    local t; t=$(seconds "$@")
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
  done
  echo "$b"
}
cp_s=$(best cp "$in" "$dir/upsweep-file-sort-copy.bin")
core_s=$(best "$tool" "$in" --type u32 -o "$dir/upsweep-file-sort-out.bin" --no-progress)
quarter=$(awk -v g="$gib" 'BEGIN { print g / 4 }')
ooc_s=$(best "$tool" "$in" --type u32 -o "$dir/upsweep-file-sort-out.bin" --no-progress --memory-limit "$quarter")
"$tool" "$in" --type u32 --verify --no-progress --memory-limit "$quarter" | grep -E "verify|sort "
awk -v g="$gib" -v c="$cp_s" -v s="$core_s" -v q="$quarter" -v o="$ooc_s" 'BEGIN {
  printf "file-sort: %s GiB u32, best of 3 (s): cp %.3f, upsweep-sort %.3f (%.2fx cp, bar 1.5x), --memory-limit %s %.3f (%.2fx cp, bar 2x)\n", g, c, s, s / c, q, o, o / c }'
"$tool" "$in" --type u32 -o "$dir/upsweep-file-sort-out.bin" --no-progress
# The file-to-file output itself: in order, and the same keys (count and 64-bit sum) as the input.
python3 - "$in" "$dir/upsweep-file-sort-out.bin" <<'PY'
import sys, numpy as np
a, b = (np.fromfile(p, dtype=np.uint32) for p in sys.argv[1:3])
ok = a.size == b.size and bool(np.all(b[:-1] <= b[1:])) and int(a.sum(dtype=np.uint64)) == int(b.sum(dtype=np.uint64))
print("file-sort: output", "sorted, same count and sum as the input" if ok else "WRONG")
sys.exit(0 if ok else 1)
PY
