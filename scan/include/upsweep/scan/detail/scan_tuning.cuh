// Tuning of the device scan: one policy per accumulator size. Policies are data; the benchmark
// can pass its own as a template argument.
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>

namespace upsweep {

// How blocks take tiles: a block per tile that claims, loads, publishes, looks back and scans; or
// persistent blocks that look back one tile behind their loads (device_scan_reduce_ahead_kernel).
// Reduce-ahead needs a 16-byte aligned pointer input and an accumulator of the input's size;
// other inputs take the block per tile.
enum class tile_schedule { block_per_tile, reduce_ahead };

template <int BlockThreads, int ItemsPerThread, tile_io Io = tile_io::transpose, long long SingleBlockMaxTiles = 1,
          int LookBackDelayNs = default_look_back_delay_ns, bool PipelinedLookBack = false,
          tile_schedule Schedule = tile_schedule::block_per_tile, int MinBlocksPerSm = 1, int LookBackSettleNs = 0,
          int PersistentGridLimit = 0>
struct scan_policy {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr tile_io io = Io;
  // Up to this many tiles run in one block and one launch (no tile state to clear).
  static constexpr long long single_block_max_items = SingleBlockMaxTiles * tile_items;
  // Pause between polls of a predecessor window that is not ready yet.
  static constexpr int look_back_delay_ns = LookBackDelayNs;
  // look_back_pipelined instead of look_back (the one-wave scan of scan_dispatch.cuh; it lost at
  // 10^9 items on the reduce-ahead schedule: docs/performance.md).
  static constexpr bool pipelined_look_back = PipelinedLookBack;
  static constexpr tile_schedule schedule = Schedule;
  // Reduce-ahead's grid: the resident blocks, or at most this many when positive (tests use a few
  // blocks to give each several tiles at small sizes).
  static constexpr int persistent_grid_limit = PersistentGridLimit;
  // __launch_bounds__ occupancy hint: more resident blocks hide more look-back barriers, at the
  // price of registers (48 at 256 x 16 gives 5 blocks of 256 per SM).
  static constexpr int min_blocks_per_sm = MinBlocksPerSm;
  // Pause after publishing a tile's partial, before looking back (detail::settle_before_look_back).
  static constexpr int look_back_settle_ns = LookBackSettleNs;
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
// H100 2026-11-21 (09a6385), 10^9 items: asking for 6 resident blocks (40 registers) took
// 3.84 ms against 4.44 ms at the compiler's 48 registers and 5 blocks; 8 blocks spilled (4.59).
// H200 2026-11-22 (e84bcef), 10^9 items, CUB 2.58 ms: block per tile 3.14; with a 1500 ns pause
// before looking back 2.61; reduce-ahead 2.32 (1.11x CUB; 256 x 20 at 5 blocks 2.41, at 4 blocks
// 2.73, 256 x 8 at 8 3.08). Reduce-ahead for 4-byte accumulators, the only ones measured; the
// others keep the block per tile, with the pause, and the compiler's register choice. One cluster
// of 8 blocks scanning 10^4 and 10^5 items in one launch (DSMEM for the block prefixes) measured
// 9.2 and 14.2 us against 7.3 and 7.8 for the tile state and two launches: not kept.
template <class Acc>
using default_scan_policy =
    scan_policy<256, detail::default_scan_items_per_thread<Acc>(), tile_io::transpose, 1, default_look_back_delay_ns,
                false, sizeof(Acc) == 4 ? tile_schedule::reduce_ahead : tile_schedule::block_per_tile,
                sizeof(Acc) <= 4 ? 6 : 1, 1500>;

}  // namespace upsweep
