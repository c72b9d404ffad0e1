// Tuning of the device histogram. Policies are data; the benchmark and the tests can pass their own.
#pragma once

#include <upsweep/histogram/block_histogram.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/util/arch.cuh>

#include <cuda/std/type_traits>

namespace upsweep {

template <int BlockThreads, int VectorsPerThread, int MaxCopies = BlockThreads / detail::warp_threads,
          histogram_aggregation Aggregation = histogram_aggregation::thread_runs, int CopiesBudgetBytes = 32 * 1024,
          int MaxSharedBytes = 96 * 1024, int MaxBlocks = 4096>
struct histogram_policy {
  static constexpr int block_threads = BlockThreads;
  // 16-byte vectors each thread loads per tile (full tiles of aligned input).
  static constexpr int vectors_per_thread = VectorsPerThread;
  static constexpr int tile_bytes = BlockThreads * VectorsPerThread * detail::vector_bytes;
  // Private copies of the block histogram in shared memory; warp w counts into copy w % copies.
  static constexpr int max_copies = MaxCopies;
  static constexpr histogram_aggregation aggregation = Aggregation;
  // Extra copies only while all of them fit in this many bytes, so that many bins keep several
  // blocks per SM (occupancy hides the load latency) rather than many copies.
  static constexpr int copies_budget_bytes = CopiesBudgetBytes;
  // Shared memory a block may use for its copies (and staged edges); more bins than fit in one
  // copy take the global-atomics path.
  static constexpr int max_shared_bytes = MaxSharedBytes;
  // A resident grid on today's GPUs; more blocks only when a block would otherwise see 2^31 samples.
  static constexpr int max_blocks = MaxBlocks;

  static_assert(BlockThreads % detail::warp_threads == 0, "whole warps only");
  static_assert(VectorsPerThread >= 1, "at least one vector per thread");
  static_assert(CopiesBudgetBytes <= MaxSharedBytes, "the copies' budget is part of the shared budget");
  static_assert(MaxCopies >= 1 && MaxCopies <= BlockThreads / detail::warp_threads, "one copy per warp at most");
  // A block's 32-bit shared counters hold at most its samples: the dispatch caps those at 2^31
  // plus a tile and a leftover stride, which this keeps far below 2^32.
  static_assert(static_cast<long long>(BlockThreads) * VectorsPerThread * detail::vector_bytes < (1ll << 24),
                "tiles must stay small next to the 2^31-sample block budget");
};

// One copy per warp while the copies fit in 32 KB (256 threads and 256 bins: 8 copies, 8 KB; 4096
// bins: 2 copies). Wider samples: two 16-byte vectors in flight per thread, thread runs (u32 256
// bins 3.6x CUB, one bin 4.3x, H200 2026-11-21). 8-bit samples: the loads are cheap and the
// run check costs more than it saves on spread data, so four vectors and plain atomics
// (tune/histogram_even_u8_256, H100 2026-11-21: 0.193 ms against 0.269 with runs, 1.39x). With
// dropped samples counted into trash words instead of branched around (block_histogram.cuh):
// 0.119 ms at 2^28, 1.09x CUB (H200 2026-11-21; 512 x 2 the same, 256 x 1 0.125).
// 4-byte samples, thread runs closed without a branch (H200 2026-12-01, f32 256 bins, ms at 2^24 /
// 2^28): 256 x 2 0.0337 / 0.256, 256 x 4 0.0326 / 0.255, 512 x 2 0.0290 / 0.254; half the blocks
// merge their copies into the global counts, which is what a 2^24 input waits for.
template <class Sample>
using default_histogram_policy = cuda::std::conditional_t<
    sizeof(Sample) == 1, histogram_policy<256, 4, 8, histogram_aggregation::none>,
    cuda::std::conditional_t<sizeof(Sample) == 4, histogram_policy<512, 2>, histogram_policy<256, 2>>>;

}  // namespace upsweep
