// Tuning of the device scan: one policy per accumulator size. Policies are data; the benchmark
// can pass its own as a template argument.
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>

namespace upsweep {

template <int BlockThreads, int ItemsPerThread, tile_io Io = tile_io::transpose, long long SingleBlockMaxTiles = 1,
          int LookBackDelayNs = default_look_back_delay_ns, bool PipelinedLookBack = false,
          bool PrefetchNextTile = false, int MinBlocksPerSm = 1>
struct scan_policy {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr tile_io io = Io;
  // Up to this many tiles run in one block and one launch (no tile state to clear).
  static constexpr long long single_block_max_items = SingleBlockMaxTiles * tile_items;
  // Pause between polls of a predecessor window that is not ready yet.
  static constexpr int look_back_delay_ns = LookBackDelayNs;
  // look_back_pipelined instead of look_back (an experiment until measured: see scan_tuning).
  static constexpr bool pipelined_look_back = PipelinedLookBack;
  // Persistent blocks copy their next tile into shared memory while scanning the current one
  // (device_scan_prefetch_kernel), where the input allows: see detail::prefetches. Off by
  // default: it measured 5x slower (bench/NOTES.md, claimed-ahead tiles stall the look-back).
  static constexpr bool prefetch_next_tile = PrefetchNextTile;
  // __launch_bounds__ occupancy hint: more resident blocks hide more look-back barriers, at the
  // price of registers (48 at 256 x 16 gives 5 blocks of 256 per SM).
  static constexpr int min_blocks_per_sm = MinBlocksPerSm;
  static_assert(BlockThreads % detail::warp_threads == 0, "whole warps only");
  static_assert(BlockThreads <= 1024, "at most 1024 threads per block");
  static_assert(ItemsPerThread >= 1, "at least one item per thread");
};

namespace detail {

// About 64 bytes of accumulators per thread: four 16-byte vectors of 4-byte items.
template <class Acc>
constexpr int default_scan_items_per_thread() {
  constexpr int by_size = static_cast<int>(64 / sizeof(Acc));
  return by_size < 1 ? 1 : (by_size > 32 ? 32 : by_size);
}

}  // namespace detail

// upsweep-bench tune/inclusive_sum_i32 H200 2026-11-21, 10^9 items: 256 x 16 transpose 3.45 ms;
// direct loads 4.12; 256 x 32 3.91; 512 x 16 3.64; 128 x 24 5.58. Look-back delay 0/100/350/1000 ns:
// 3.45/3.45/3.46/3.48 (no effect). One block only up to one tile: at 10^4 three tiles in one
// block took 8 us against 7 us for CUB's two launches.
// H100 2026-11-21 (session 3), 10^9 items: asking for 6 resident blocks (40 registers) took
// 3.84 ms against 4.44 ms at the compiler's 48 registers and 5 blocks; 8 blocks spilled (4.59).
// Only measured for 4-byte accumulators; wider ones keep the compiler's choice.
template <class Acc>
using default_scan_policy = scan_policy<256, detail::default_scan_items_per_thread<Acc>(), tile_io::transpose, 1,
                                        default_look_back_delay_ns, false, false, sizeof(Acc) <= 4 ? 6 : 1>;

}  // namespace upsweep
