#!/usr/bin/env bash
# The GPU check on a GPU machine, one tier per device call (each sized for one 10-minute call):
#   tools/gpu-check.sh [TIER] [--prebuilt DIR] [--filter PATTERN] [--bench SUITES|all] [--bench-filter REGEX]
#                      [--reps N] [--ncu KERNEL_REGEX BENCH_FILTER] [--soak-seconds N]
# TIER (tools/README.md has the times):
#   quick (default)  while working: host tests; every GPU test at small sizes (UPSWEEP_TEST_MAX_ITEMS=100000,
#                    the cases past 2^31 items left out) in parallel shards, a few at the sizes where the
#                    default dispatch changes; memcheck over every primitive at 9000 items; the tools' tests
#                    when their binaries are here. Under 90 s on an H100 is the target.
#   full-tests       host tests, every GPU test at its own sizes (those past 2^31 items aside)
#   full-large       the cases past 2^31 items, the opt-in UPSWEEP_TEST_HUGE ones beside them (two processes,
#                    up to about 50 GB of device memory together; a --filter without "huge" leaves those out)
#   full-sanitizers  memcheck, synccheck and initcheck over every GPU test at 100000 items
#   full-racecheck   racecheck (the slowest tool) alone, at 9000 items, CUB's kernels not instrumented
#   full-rest        the package consumers, the tools' tests and a soak (--soak-seconds, default 240): those
#                    the binaries hold (a --prebuilt bundle holds some, tools/prebuild.sh says which)
#   bench            benchmark suites (--bench, default core) and --bench-filter rows
#   full             every full-* part in turn, for a machine without a time limit
# An issue closes when every full-* part passes. --filter PATTERN (gtest positive patterns, e.g.
# 'DeviceSelect.*:RadixSort/default_u32.*') narrows the GPU tests (then run in one process) and the
# sanitizers of any tier. --bench, --bench-filter and --ncu add a benchmark to any tier. --prebuilt
# DIR takes the binaries tools/prebuild.sh built elsewhere with the same nvcc (DIR/bundle.txz). Logs
# and JSON go to $OUT (default build/gpu-check); the summary, one line per step naming the tier,
# prints last.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-$root/build/gpu-check}
mkdir -p "$out"

tier=quick
user_filter=""
bench_suite=""
bench_filter=""
reps=5
ncu_kernel=""
ncu_filter=""
soak_seconds=240
prebuilt=""
while (($#)); do
  case "$1" in
    quick | full-tests | full-large | full-sanitizers | full-racecheck | full-rest | bench | full) tier=$1; shift ;;
    --filter) user_filter=$2; shift 2 ;;
    --bench) bench_suite=$2; shift 2 ;;
    --bench-filter) bench_filter=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --ncu) ncu_kernel=$2; ncu_filter=$3; shift 3 ;;
    --soak-seconds) soak_seconds=$2; shift 2 ;;
    --prebuilt) prebuilt=/tmp/upsweep-prebuilt; rm -rf "$prebuilt"; mkdir -p "$prebuilt"
                tar -C "$prebuilt" -xJf "$2/bundle.txz" || exit 1; shift 2 ;;
    *) echo "gpu-check: unknown argument $1 (tiers: quick full-tests full-large full-sanitizers" \
            "full-racecheck full-rest bench full)" >&2; exit 2 ;;
  esac
done
[ "$tier" = bench ] && [ -z "$bench_suite$bench_filter$ncu_kernel" ] && bench_suite=core

bin=build/gpu
gpu_tests=$bin/tests/upsweep_gpu_tests
status=0
step=$tier  # the tier a summary line belongs to (full runs several)
# A file, not an array: steps that run side by side in subshells report too.
summary_file=$out/summary.txt
: >"$summary_file"
note() { echo "[$step] $*" >>"$summary_file"; echo "== [$step] $*"; }
print_summary() {
  echo "================ GPU CHECK SUMMARY ($tier) ================"
  cat "$summary_file"
}
# Cut short (the device call's time limit sends TERM): pack the logs and print what is known, since
# only a few files come back and the summary at the end would never print.
cut_short() {
  (cd "$out" && tar czf logs.tgz --remove-files ./*.log 2>/dev/null)
  echo "================ GPU CHECK CUT SHORT ================"
  print_summary
  exit 124
}
trap cut_short TERM INT
started=$(date +%s)
unset UPSWEEP_TEST_HUGE UPSWEEP_TEST_MAX_ITEMS  # each tier sets its own
# NVLink multicast off in NCCL (and PyTorch, NVSHMEM): the multi-GPU machines here are shared, and a
# program using it can take their GPUs out of service.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l)
((gpus > 0)) || gpus=1
gpu_offset=0  # the GPU of a step's first shard

# Tests that want the device to themselves: one compares free memory before and after, the others
# fork or run streams side by side. The shards leave them for one process of their own.
alone_tests='Faults.*:StickyError.*:Concurrency.*'
past_2_31='*.Large*:*_huge*'
# Tests that make a CUDA call fail on purpose, which a sanitizer reports as an error.
deliberate_errors='StickyError.*:Faults.AnAllocationLargerThanTheGpu*'
# Tests whose sizes cross a default dispatch change that a small UPSWEEP_TEST_MAX_ITEMS would hide:
# keys take the large-input tiles from 2^20 items, pairs from 2^20 to 2^24; a partition past one
# wave of tiles takes two passes; keys-only sorts of 8- and 16-bit keys count from 2^19 to 2^22.
dispatch_boundaries='RadixSort/default_u32.pairs_match_cub_bitwise_at_the_largest_test_size'
dispatch_boundaries+=':RadixSort/default_u64.pairs_match_cub_bitwise_at_the_largest_test_size'
dispatch_boundaries+=':StablePartition.CoreCallIsCapturedInACudaGraphAndReplays'
dispatch_boundaries+=':CountingSort/*.the_public_sort_around_the_threshold_matches_cub'
dispatch_boundaries+=':CountingSort/*.the_double_buffer_selector_follows_the_window_rule'
# Every primitive and dispatch form once, for a sanitizer that cannot afford the whole binary.
representative='WarpScan.*:BlockScan.*:TileState.*:DeviceScan.*:DeviceReduce.*:DeviceSelect.*:StablePartition.*'
representative+=':Partition.*:ReduceByKey.*:ScanByKey.*:NonTrivialRuns.*:SegmentedReduce.*'
representative+=':DeviceRunLengthEncode.*:Histogram.*:RadixSort/default_u32.*:RadixSort/default_u64.*'
representative+=':RadixSort/single_tile_u32.*:RadixSort/large_input_u32.*:RadixSortValues/*'
representative+=':RadixSortDoubleBuffer.*:RadixSortDecomposer.*:RadixSortGraph.*:CompiledApi.*'
representative+=':CountingSort/u8.*:CountingSort/f16.*:SegmentedSort/0.*:TopK/0.*:CompiledTopK/0.*:HostRadixSort*'
representative+=':DistLoopback*'

source "$root/tools/gpu-check-steps.sh"

# ---- the tiers ----------------------------------------------------------------------------------
tier_quick() {
  run_host_tests
  run_nccl_tests
  local sanitizer_pid
  ( run_sanitizer memcheck 4 120 9000 "${user_filter:-$representative}-$past_2_31:$deliberate_errors" ) & sanitizer_pid=$!
  if [ -n "$user_filter" ]; then
    run_gpu_tests "gpu tests" gpu-tests 1 150 100000 "$user_filter-$past_2_31"
  else
    ( run_gpu_tests "gpu tests at the dispatch boundaries" gpu-boundaries 1 150 0 "$dispatch_boundaries" ) &
    local boundary_pid=$!
    run_gpu_tests "gpu tests" gpu-tests 8 150 100000 "*-$past_2_31:$alone_tests"
    run_gpu_tests "gpu tests alone" gpu-tests-alone 1 90 100000 "$alone_tests"
    wait "$boundary_pid" || status=1
  fi
  run_tool_tests '^upsweep-soak'
  wait "$sanitizer_pid" || status=1
}

tier_full_tests() {
  run_host_tests
  run_nccl_tests
  if [ -n "$user_filter" ]; then
    run_gpu_tests "gpu tests" gpu-tests 1 560 0 "$user_filter-$past_2_31"
  else
    run_gpu_tests "gpu tests" gpu-tests 12 480 0 "*-$past_2_31:$alone_tests"
    run_gpu_tests "gpu tests alone" gpu-tests-alone 1 60 0 "$alone_tests"
  fi
}

# Two processes side by side: the ladder's huge cases take about 26 GB, the largest of the others 18.
# With two GPUs or more, each has one.
# A --filter without "huge" in it leaves the ladder out (its cases take minutes).
tier_full_large() {
  local pid=""
  if [ -z "$user_filter" ] || [[ $user_filter == *huge* ]]; then
    ( export UPSWEEP_TEST_HUGE=1; gpu_offset=1; run_gpu_tests "gpu tests past 2^31 items (ladder)" gpu-tests-huge 1 560 0 '*_huge*' ) & pid=$!
  else
    note "gpu tests past 2^31 items (ladder): left out by --filter $user_filter"
  fi
  run_gpu_tests "gpu tests past 2^31 items" gpu-tests-large 1 560 0 "${user_filter:-*.Large*}"
  if [ -n "$pid" ]; then wait "$pid" || status=1; fi
}

# The three tools side by side; initcheck and memcheck are the slower.
tier_full_sanitizers() {
  local filter=${user_filter:-*}-$past_2_31:$deliberate_errors pids=() p
  ( run_sanitizer memcheck 5 540 100000 "$filter" ) & pids+=($!)
  ( run_sanitizer synccheck 3 540 100000 "$filter" ) & pids+=($!)
  ( run_sanitizer initcheck 6 540 100000 "$filter" ) & pids+=($!)
  for p in "${pids[@]}"; do wait "$p" || status=1; done
}

# Racecheck instruments every shared-memory access, so it runs every kernel family once rather
# than every test: each primitive's suite, one typed instance of each, each sort policy family
# (ranking method, tile shape, key width), the host sort's two kernels (the chunked tests repeat
# the device sort's), the cross-rank sort, and every seed-ladder rung at 513 items; the sort's
# shape matrix goes sparse (four shapes, descending once). On an H100 (2026-11-25) the whole
# binary kept all 17 shards busy past 570 s, sparse or not; this set with every host-sort test
# finished 10 of 11 shards (no hazards), the slowest test 337 s. 9000 items still give every
# look-back three tiles of 4096.
racecheck_set='WarpScan.*:BlockScan.*:TileState.*:DeviceScan.*:DeviceReduce.*:DeviceSelect.*:StablePartition.*'
racecheck_set+=':Partition.*:ReduceByKey.*:ScanByKey.*:NonTrivialRuns.*:SegmentedReduce.*'
racecheck_set+=':DeviceRunLengthEncode.*:Histogram.*:DeviceScanTyped/0.*:DeviceReduceTyped/0.*:DeviceSelectTyped/0.*'
racecheck_set+=':StablePartitionTyped/0.*:PartitionTyped/0.*:RunLengthEncodeTyped/0.*:HistogramTyped/0.*:RadixSort/default_u32.*'
racecheck_set+=':RadixSort/default_u64.*:RadixSort/default_u8.*:RadixSort/ballot_u32.*:RadixSort/match_any_u64.*'
racecheck_set+=':RadixSort/ballot256_window_f32.*:RadixSort/single_tile_u32.*:RadixSort/large_input_u32.*'
racecheck_set+=':RadixSortValues/u32.*:RadixSortDoubleBuffer.*:RadixSortDecomposer.*:RadixSortGraph.*:CompiledApi.*'
racecheck_set+=':HostRadixSort.MatchesTheDeviceSortBitForBit:HostRadixSort.AScratchSortsOutOfCoreInPlace'
racecheck_set+=':DistRadixSort.*:DistLoopback.*:seed_ladder/*_n513:SegmentedSortCases.EveryTierOnceOnASmallInput'
racecheck_set+=':SegmentedSortCases.TileTiersTakeEachPathOfTheirTopDigit:PartitionThreeWayTyped/0.*:PartitionThreeWayTyped/2.*'
racecheck_set+=':PredicateCalls.TheThreeWayPartitionCallsEachPredicateOnceAnItem:CountingSort/u8.*:CountingSort/f16.*'
tier_full_racecheck() {
  ( export UPSWEEP_TEST_SPARSE=1
    run_sanitizer racecheck 13 570 9000 "${user_filter:-$racecheck_set}-$past_2_31:$deliberate_errors" ) || status=1
}

# What the binaries here hold of it: a --prebuilt bundle has upsweep-sort and the NCCL tests (.prebuilt-tools) or the
# consumers, upsweep-compact and the soak (.prebuilt-bench), a build on the GPU machine everything.
tier_full_rest() {
  [ -n "$prebuilt" ] && [ -x "$bin/tests/upsweep_nccl_tests" ] && run_nccl_tests  # .prebuilt-tools holds them
  if [ -z "$prebuilt" ] || [ -d "$bin/package-consumer" ]; then run_package_consumers  # a build makes them
  else note "package consumers: not in these binaries (.prebuilt-bench has them)"; fi
  run_tool_tests '^upsweep-soak'
  if [ -x "$bin/tools/soak/upsweep-soak" ]; then run_soak "$soak_seconds"
  else note "soak: not in these binaries (.prebuilt-bench has it)"; fi
}

tier_bench() { :; }  # the benchmark runs after every tier

tier_full() {
  local part
  for part in full-tests full-large full-sanitizers full-racecheck full-rest; do
    step=$part
    "tier_${part//-/_}"
  done
  step=$tier
}

# ---- build (or unpack), run the tier, then any benchmark ----------------------------------------
note "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || true)" \
  "($(date -u +%Y-%m-%d))"
unpack_debs
case "$tier" in
  quick | full-tests | full-large | full-sanitizers | full-racecheck) targets="upsweep_gpu_tests upsweep_host_tests" ;;
  bench) targets=upsweep-bench ;;
  *) targets="" ;;  # everything
esac
[ -n "$bench_suite$bench_filter$ncu_kernel" ] && [ -n "$targets" ] && targets+=" upsweep-bench"
build_or_unpack $targets || { print_summary; exit 1; }

"tier_${tier//-/_}"
run_benchmarks
run_ncu

# Only a few files come back from the GPU machine: keep the JSON and tables, pack the logs.
(cd "$out" && tar czf logs.tgz --remove-files ./*.log 2>/dev/null)
# The tables first (long after a whole-suite run), the short summary last.
[ -f "$out/bench.md" ] && { echo; cat "$out/bench.md"; }
echo
print_summary
echo "[$tier] total $(( $(date +%s) - started )) s, status $status"
exit $status
