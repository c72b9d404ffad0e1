#!/bin/sh
# file_sort_matches.sh TOOL REFERENCE BYTES ARGS...: a file of BYTES random bytes (fresh each run,
# from /dev/urandom) sorted by TOOL and by the CPU reference with `FILE ARGS -o out.bin`, the
# outputs byte-compared (sort_matches.sh): the tool's file-to-file path, where both files are mapped.
tool=$1 reference=$2 bytes=$3
shift 3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
head -c "$bytes" /dev/urandom >"$dir/in.bin" || exit 1
"$(dirname "$0")/sort_matches.sh" "$tool" "$reference" out.bin "$dir/in.bin" "$@"
