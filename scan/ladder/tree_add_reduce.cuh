// Reduce rung "tree addition" (seed 003): rung 0's interleaved tree, with the active threads chosen
// by a bit mask instead of a modulo: at stride s a thread adds when (t & (2s - 1)) == 0, with the
// offset doubling and the mask growing by it each step (offset 1 mask 1, offset 2 mask 3, ...).
// Cost: cheaper than `%`, but the same scattered, divergent warps as rung 0.
#pragma once

#include "reduce_passes.cuh"

namespace upsweep::ladder {

struct tree_add_mask {
  static constexpr int block_threads = 256;
  static constexpr int loads_per_thread = 1;
  static constexpr bool grid_stride = false;

  template <class T>
  __device__ static T reduce_block(T value, T* shared) {
    const unsigned t = threadIdx.x;
    shared[t] = value;
    for (unsigned offset = 1, mask = 1; offset < block_threads; offset += offset, mask += offset) {
      __syncthreads();
      if ((t & mask) == 0) shared[t] += shared[t + offset];
    }
    return shared[t];  // thread 0 wrote slot 0 last
  }
};

}  // namespace upsweep::ladder
