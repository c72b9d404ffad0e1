// Reduce rung "unrolled last warp" (seed 004, the classic form of reduce4): as rung 3, but once 64
// slots are left, warp 0 finishes in volatile shared memory, unrolled, with no block barrier.
// Seed 004 relies on the warp running in lockstep; since Volta it need not, so each step reads,
// __syncwarp()s, then writes. Cost against rung 4: shared-memory round trips instead of
// register shuffles, and two warp barriers per step.
#pragma once

#include "reduce2_sequential.cuh"

namespace upsweep::ladder {

template <class T>
__device__ T last_two_warps_volatile(T value, T* shared) {
  if (threadIdx.x < warp_threads) {
    volatile T* const slots = shared;
    const unsigned t = threadIdx.x;
    // Lanes past the live prefix add stale slots; their sums are never read by the live ones.
#pragma unroll
    for (unsigned offset = warp_threads; offset > 0; offset /= 2) {
      value += slots[t + offset];
      __syncwarp();
      slots[t] = value;
      __syncwarp();
    }
  }
  return value;
}

struct unrolled_last_warp_volatile {
  static constexpr int block_threads = 256;
  static constexpr int loads_per_thread = 2;
  static constexpr bool grid_stride = false;
  static_assert(block_threads >= 2 * warp_threads, "the fold stops at two warps' worth of slots");

  template <class T>
  __device__ static T reduce_block(T value, T* shared) {
    value = fold_sequential<block_threads, 2 * warp_threads>(value, shared);
    return last_two_warps_volatile(value, shared);
  }
};

}  // namespace upsweep::ladder
