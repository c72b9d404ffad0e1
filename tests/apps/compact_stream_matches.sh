#!/bin/sh
# compact_stream_matches.sh TOOL BYTES LIMIT_GIB ARGS...: a file of BYTES random bytes (fresh each
# run, from /dev/urandom; in.bin, and mask.bin of one random 0/1 flag per byte for --mask) given to
# upsweep-compact twice, `in.bin ARGS -o whole.bin` in one pass and with `--memory-limit LIMIT_GIB`
# streamed in chunks; the report must say it streamed, and the two outputs must be byte-identical.
tool=$1 bytes=$2 limit=$3
shift 3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
head -c "$bytes" /dev/urandom >"$dir/in.bin" || exit 1
head -c "$bytes" /dev/urandom | LC_ALL=C tr '\000-\377' '[\000*128][\001*128]' >"$dir/mask.bin" || exit 1
cd "$dir" || exit 1
"$tool" in.bin "$@" -o whole.bin >whole.log 2>&1 || { cat whole.log; echo "FAILED: the one-pass run"; exit 1; }
"$tool" in.bin "$@" --memory-limit "$limit" -o streamed.bin >streamed.log 2>&1 ||
  { cat streamed.log; echo "FAILED: the streamed run"; exit 1; }
cat streamed.log
grep -q "chunks of" streamed.log || { echo "FAILED: the run with --memory-limit $limit did not stream"; exit 1; }
cmp whole.bin streamed.bin || { echo "FAILED: the streamed output differs from the one-pass output"; exit 1; }
echo "streamed output matches the one-pass output ($(wc -c <streamed.bin) bytes)"
