// Reduce rung 2 (seed 001 reduce2): sequential addressing. At stride s the first s threads add
// the slot s above them: consecutive threads touch consecutive slots, so no bank conflicts and
// no divergence inside the busy warps.
// Cost: half the threads idle from the first step, and the last steps (one warp) still pay a
// block barrier each.
#pragma once

#include "reduce_passes.cuh"

namespace upsweep::ladder {

// Folds the upper half of the slots onto the lower half until `Remaining` slots are left; the
// value returned is this thread's slot for t < Remaining (and its own value otherwise).
template <int BlockThreads, int Remaining, class T>
__device__ T fold_sequential(T value, T* shared) {
  const unsigned t = threadIdx.x;
  shared[t] = value;
  for (unsigned stride = BlockThreads / 2; stride >= Remaining && stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) shared[t] = value = value + shared[t + stride];
  }
  __syncthreads();
  return value;
}

struct reduce2_sequential {
  static constexpr int block_threads = 256;
  static constexpr int loads_per_thread = 1;
  static constexpr bool grid_stride = false;

  template <class T>
  __device__ static T reduce_block(T value, T* shared) {
    return fold_sequential<block_threads, 1>(value, shared);
  }
};

}  // namespace upsweep::ladder
