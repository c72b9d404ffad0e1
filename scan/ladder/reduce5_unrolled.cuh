// Reduce rung 5 (seed 001 reduce5, seed 004 "fully unrolled"): the block size is a template
// argument, so the fold is unrolled at compile time: each step is one `if constexpr` on the block
// size, with no loop counter; the last warp shuffles as in rung 4.
// Cost: one kernel per block size, fixed at compile time.
#pragma once

#include "reduce4_last_warp_shuffle.cuh"

namespace upsweep::ladder {

template <int BlockThreads>
struct reduce5_unrolled {
  static_assert((BlockThreads & (BlockThreads - 1)) == 0 && BlockThreads >= 2 * warp_threads && BlockThreads <= 1024,
                "a power-of-two block of 64 to 1024 threads");
  static constexpr int block_threads = BlockThreads;
  static constexpr int loads_per_thread = 2;
  static constexpr bool grid_stride = false;

  // One step of the fold, present only when the block has slots above `Stride`.
  template <int Stride, class T>
  __device__ static void fold_step(T& value, T* shared) {
    if constexpr (BlockThreads >= 2 * Stride) {
      if (threadIdx.x < Stride) shared[threadIdx.x] = value = value + shared[threadIdx.x + Stride];
      __syncthreads();
    }
  }

  template <class T>
  __device__ static T reduce_block(T value, T* shared) {
    shared[threadIdx.x] = value;
    __syncthreads();
    fold_step<512>(value, shared);
    fold_step<256>(value, shared);
    fold_step<128>(value, shared);
    fold_step<64>(value, shared);
    return last_two_warps_by_shuffle(value, shared);
  }
};

}  // namespace upsweep::ladder
