#!/usr/bin/env bash
# ncu of one radix sort digit pass at 2^28 (tools/ncu-sort.sh upsweep|cub32|cub64 [CASE], CASE a
# sort row such as keys_u32, the default, or pairs_u32_u32): its time, instructions, occupancy and
# the stall reasons of its warps, largest first. Ours: the second sort's second pass. CUB's with
# 64-bit offsets: n = 2^28 takes two portions a pass (a full one and a one-tile one), so skip 4 is
# its third pass's full portion; NCU_SKIP and NCU_COUNT override the launches profiled (CUB's
# 32-bit portions differ). After gpu-check.sh (its LD_LIBRARY_PATH for --prebuilt runs:
# .prebuilt's libbenchmark in /tmp/upsweep-prebuilt/lib).
b=build/gpu/bench/upsweep-bench
case_row=${2:-keys_u32}
skip=5
[ "$1" = upsweep ] || skip=4
skip=${NCU_SKIP:-$skip}
export LD_LIBRARY_PATH=/tmp/upsweep-prebuilt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
timeout 150 ncu --kernel-name regex:'radix_pass_kernel|DeviceRadixSortOnesweepKernel' --launch-skip "$skip" --launch-count "${NCU_COUNT:-1}" \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section InstructionStats --section Occupancy \
  --section LaunchStats --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
  "$b" --benchmark_filter="^sort/$case_row/$1/268435456/" --benchmark_min_time=0.01 \
  >"$OUT/ncu-sort-$1-$case_row.txt" 2>&1
echo "== ncu sort pass $1 $case_row (rc $?)"
grep -E "Duration|DRAM Throughput|Executed Instructions  |Achieved Occupancy|Registers Per|Block Size|Grid Size|Issue Slots Busy|Executed Ipc Active|Shared Memory Configuration Size|Dynamic Shared|Static Shared" "$OUT/ncu-sort-$1-$case_row.txt" | head -48
grep -E "issue_stalled" "$OUT/ncu-sort-$1-$case_row.txt" | awk '{print $NF, $1}' | sort -rn | head -8
