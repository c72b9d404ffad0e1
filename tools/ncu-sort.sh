#!/usr/bin/env bash
# ncu of one radix sort digit pass at 2^28 u32 keys (tools/ncu-sort.sh upsweep|cub64): its time,
# instructions, occupancy and the stall reasons of its warps, largest first.
b=build/gpu/bench/upsweep-bench
timeout 150 ncu --kernel-name regex:'radix_pass_kernel|DeviceRadixSortOnesweepKernel' --launch-skip 5 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section InstructionStats --section Occupancy \
  --section LaunchStats --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
  "$b" --benchmark_filter="^sort/keys_u32/$1/268435456/" --benchmark_min_time=0.01 \
  >"$OUT/ncu-sort-$1.txt" 2>&1
echo "== ncu sort pass $1 (rc $?)"
grep -E "Duration|DRAM Throughput|Executed Instructions  |Achieved Occupancy|Registers Per|Block Size|Grid Size|Issue Slots Busy" "$OUT/ncu-sort-$1.txt" | head -12
grep -E "issue_stalled" "$OUT/ncu-sort-$1.txt" | awk '{print $NF, $1}' | sort -rn | head -8
