#!/usr/bin/env bash
# ncu of one radix sort digit pass at 2^28 u32 keys (tools/ncu-sort.sh upsweep|cub64): its time,
# instructions, occupancy and the stall reasons of its warps, largest first. Ours: the second sort's
# second pass. CUB's: n = 2^28 takes two portions a pass (a full one and a one-tile one), so skip 4
# is its third pass's full portion. After gpu-check.sh (its LD_LIBRARY_PATH for --prebuilt runs:
# .prebuilt's libbenchmark in /tmp/upsweep-prebuilt/lib).
b=build/gpu/bench/upsweep-bench
skip=5
[ "$1" = upsweep ] || skip=4
export LD_LIBRARY_PATH=/tmp/upsweep-prebuilt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
timeout 150 ncu --kernel-name regex:'radix_pass_kernel|DeviceRadixSortOnesweepKernel' --launch-skip $skip --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section InstructionStats --section Occupancy \
  --section LaunchStats --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
  "$b" --benchmark_filter="^sort/keys_u32/$1/268435456/" --benchmark_min_time=0.01 \
  >"$OUT/ncu-sort-$1.txt" 2>&1
echo "== ncu sort pass $1 (rc $?)"
grep -E "Duration|DRAM Throughput|Executed Instructions  |Achieved Occupancy|Registers Per|Block Size|Grid Size|Issue Slots Busy|Executed Ipc Active|Shared Memory Configuration Size|Dynamic Shared|Static Shared" "$OUT/ncu-sort-$1.txt" | head -16
grep -E "issue_stalled" "$OUT/ncu-sort-$1.txt" | awk '{print $NF, $1}' | sort -rn | head -8
