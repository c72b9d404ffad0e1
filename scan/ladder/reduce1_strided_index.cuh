// Reduce rung 1 (seed 001 reduce1): contiguous threads, strided index. Thread t works on slot
// 2 s t, so the active threads are the lowest ones and whole warps retire early.
// Cost: the slots 2 s t of one warp fall in few banks: shared-memory bank conflicts grow with s.
#pragma once

#include "reduce_passes.cuh"

namespace upsweep::ladder {

struct reduce1_strided_index {
  static constexpr int block_threads = 256;
  static constexpr int loads_per_thread = 1;
  static constexpr bool grid_stride = false;

  template <class T>
  __device__ static T reduce_block(T value, T* shared) {
    const unsigned t = threadIdx.x;
    shared[t] = value;
    for (unsigned stride = 1; stride < block_threads; stride *= 2) {
      __syncthreads();
      const unsigned slot = 2 * stride * t;
      if (slot < block_threads) shared[slot] += shared[slot + stride];
    }
    return shared[t];  // thread 0 wrote slot 0 last
  }
};

}  // namespace upsweep::ladder
