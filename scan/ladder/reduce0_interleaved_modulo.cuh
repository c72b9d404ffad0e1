// Reduce rung 0 (seed 001 reduce0, seed 004 step 1): interleaved addressing chosen by a modulo.
// At stride s, threads whose id is a multiple of 2s add the slot s above them.
// Cost: `%` is slow, and the active threads are scattered over every warp, so all warps stay busy
// (divergent) at every step while doing ever less.
#pragma once

#include "reduce_passes.cuh"

namespace upsweep::ladder {

struct reduce0_interleaved_modulo {
  static constexpr int block_threads = 256;
  static constexpr int loads_per_thread = 1;
  static constexpr bool grid_stride = false;

  template <class T>
  __device__ static T reduce_block(T value, T* shared) {
    const unsigned t = threadIdx.x;
    shared[t] = value;
    for (unsigned stride = 1; stride < block_threads; stride *= 2) {
      __syncthreads();
      // Writers are multiples of 2s; the slot they read is an odd multiple of s: nobody writes it now.
      if (t % (2 * stride) == 0) shared[t] += shared[t + stride];
    }
    return shared[t];  // thread 0 wrote slot 0 last
  }
};

}  // namespace upsweep::ladder
