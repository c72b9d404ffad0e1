// Tuning of the device reduce. Policies are data; the benchmark can pass its own.
#pragma once

#include <upsweep/util/arch.cuh>

namespace upsweep {

template <int BlockThreads, int ItemsPerThread, int MaxBlocks = 2048, long long SingleBlockMaxTiles = 4>
struct reduce_policy {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  // The first pass runs at most this many blocks (a resident grid on today's GPUs); the
  // temporary storage holds one partial per block, so its size is known without a CUDA call.
  static constexpr int max_blocks = MaxBlocks;
  static constexpr long long single_block_max_items = SingleBlockMaxTiles * tile_items;
  static_assert(BlockThreads % detail::warp_threads == 0, "whole warps only");
};

namespace detail {

// Four 16-byte loads in flight per thread and tile.
template <class In>
constexpr int default_reduce_items_per_thread() {
  constexpr int by_size = static_cast<int>(64 / sizeof(In));
  return by_size < 4 ? 4 : (by_size > 64 ? 64 : by_size);
}

}  // namespace detail

// upsweep-bench core/reduce_sum_i32 H200 2026-11-21: 10^9 items 0.895 ms (CUB 0.892); 10^4 in one
// block 7.1 us (CUB 7.6). A 1024-thread one-block path up to 10^5 took 10 us (CUB 7.3).
// H200 2026-11-22: one cluster of 8 blocks of 1024 threads (distributed shared memory, one launch)
// took 10^5 from 9.6 us to 8.5 (CUB 7.7); once the passes reduced their blocks without maybe<T>
// flags (reduce_prefix), the two launches took 7.43 us against the cluster's 8.23 (CUB 7.71), and
// the cluster path is gone.
template <class In>
using default_reduce_policy = reduce_policy<256, detail::default_reduce_items_per_thread<In>()>;

}  // namespace upsweep
