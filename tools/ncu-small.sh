#!/usr/bin/env bash
# ncu of the one-block reduce at 100 items, ours and CUB's, one launch each.
b=build/gpu/bench/upsweep-bench
export LD_LIBRARY_PATH=/tmp/upsweep-prebuilt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for who in upsweep cub; do
  timeout 60 ncu --kernel-name regex:'reduce_kernel|reduce_single_tile_kernel|DeviceReduceSingleTileKernel' --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section LaunchStats --section InstructionStats \
    $b --benchmark_filter="^core/reduce_sum_i32/$who/100/" --benchmark_min_time=0.01 > $OUT/ncu-$who.txt 2>&1
  echo "== ncu $who (rc $?)"
  grep -E "^  [a-zA-Z_].*\(|Duration|Elapsed Cycles|Registers Per|Shared Memory Config|Static Shared|Stall|Warp Cycles Per Issued|Executed Instructions  " $OUT/ncu-$who.txt | head -24
done
