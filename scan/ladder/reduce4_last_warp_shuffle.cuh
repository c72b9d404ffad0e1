// Reduce rung 4 (seed 001 reduce4): as rung 3, but the fold stops at 64 slots; warp 0 adds the
// upper 32 and finishes with __shfl_down_sync in registers, with no block barriers for the last
// five steps.
// Cost: the block-size-dependent loop is still a loop (counter, compare, branch per step).
#pragma once

#include "reduce2_sequential.cuh"

namespace upsweep::ladder {

// Lane 0 ends with the sum of the warp's 32 values.
template <class T>
__device__ T warp_sum_by_shuffle(T value) {
#pragma unroll
  for (unsigned offset = warp_threads / 2; offset > 0; offset /= 2)
    value += __shfl_down_sync(full_warp_mask, value, offset);
  return value;
}

// The 64 slots left by the fold, summed by warp 0 (which is whole: the block has >= 64 threads).
template <class T>
__device__ T last_two_warps_by_shuffle(T value, const T* shared) {
  if (threadIdx.x < warp_threads) value = warp_sum_by_shuffle(value + shared[threadIdx.x + warp_threads]);
  return value;
}

struct reduce4_last_warp_shuffle {
  static constexpr int block_threads = 256;
  static constexpr int loads_per_thread = 2;
  static constexpr bool grid_stride = false;
  static_assert(block_threads >= 2 * warp_threads, "the fold stops at two warps' worth of slots");

  template <class T>
  __device__ static T reduce_block(T value, T* shared) {
    value = fold_sequential<block_threads, 2 * warp_threads>(value, shared);
    return last_two_warps_by_shuffle(value, shared);
  }
};

}  // namespace upsweep::ladder
