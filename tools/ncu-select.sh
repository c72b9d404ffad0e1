#!/usr/bin/env bash
# ncu of the select kernel at 10^8 int32 50 % (tools/ncu-select.sh upsweep|cub): its time, memory
# throughput and the stall reasons of its warps, largest first.
b=build/gpu/bench/upsweep-bench
timeout 150 ncu --kernel-name regex:'select_reduce_ahead_kernel|DeviceSelectSweepKernel' --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section InstructionStats --section Occupancy \
  --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
  "$b" --benchmark_filter="^compact/select_if_i32_50pct/$1/100000000/" --benchmark_min_time=0.01 \
  >"$OUT/ncu-select-$1.txt" 2>&1
echo "== ncu select $1 (rc $?)"
grep -E "Duration|DRAM Throughput|Executed Instructions  |Achieved Occupancy|Registers Per" "$OUT/ncu-select-$1.txt" | head
grep -E "issue_stalled" "$OUT/ncu-select-$1.txt" | awk '{print $NF, $1}' | sort -rn | head -8
