#!/bin/sh
# sort_matches.sh TOOL EXPECTED NAME ARGS...: runs TOOL ARGS -o DIR/NAME and passes when it exits 0
# and every file it writes is byte-identical to the expected one. EXPECTED is either a program
# (the CPU reference, run with the same ARGS) or a file to compare DIR/NAME with.
tool=$1 expected=$2 name=$3
shift 3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/tool" "$dir/expected"
if [ -f "$expected" ] && [ ! -x "$expected" ]; then
  cp "$expected" "$dir/expected/$name"
else
  "$expected" "$@" -o "$dir/expected/$name" || { echo "sort_matches.sh: the reference failed"; exit 1; }
fi
"$tool" "$@" -o "$dir/tool/$name"
rc=$?
if [ "$rc" -ne 0 ]; then echo "sort_matches.sh: $tool exited $rc"; exit 1; fi
status=0
for f in "$dir/expected"/* "$dir/expected"/.[!.]*; do
  [ -e "$f" ] || continue
  base=$(basename "$f")
  if [ ! -e "$dir/tool/$base" ]; then echo "sort_matches.sh: no $base written"; status=1; continue; fi
  if cmp "$f" "$dir/tool/$base"; then echo "sort_matches.sh: $base identical ($(wc -c < "$f") bytes)"; else status=1; fi
done
extra=$(ls -A "$dir/tool" | while read -r f; do [ -e "$dir/expected/$f" ] || echo "$f"; done)
if [ -n "$extra" ]; then echo "sort_matches.sh: unexpected files: $extra"; status=1; fi
[ "$status" -eq 0 ] && echo "sort_matches.sh: ok"
exit "$status"
