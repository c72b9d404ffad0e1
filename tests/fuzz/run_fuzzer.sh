#!/usr/bin/env bash
# Runs one libFuzzer target for a short time, as a ctest: first over every seed and regression
# input in the source corpus (read only), then mutating for SECONDS. New inputs go to a scratch
# corpus in the build tree; a crash leaves its input there as crash-* and fails the test.
# usage: run_fuzzer.sh FUZZER SOURCE_CORPUS SCRATCH_DIR SECONDS
set -euo pipefail
fuzzer=$1 corpus=$2 scratch=$3 seconds=$4
mkdir -p "$scratch/corpus"
cd "$scratch"
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -print_final_stats=1 "$scratch/corpus" "$corpus"
