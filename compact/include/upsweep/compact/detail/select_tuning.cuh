// Tuning of select, count and partition: one policy per element size. Policies are data; the
// benchmark can pass its own as a template argument.
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>

namespace upsweep {

template <int BlockThreads, int ItemsPerThread, tile_io Io = tile_io::transpose,
          int LookBackDelayNs = default_look_back_delay_ns, bool PackedCounts = false>
struct select_policy {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr tile_io io = Io;
  static constexpr int look_back_delay_ns = LookBackDelayNs;
  // Below 2^32 items every count fits 32 bits: status and count share one word
  // (ordered_tile_state), one load per look-back poll instead of a status and then its value.
  // Off: slower where it was measured (H100 2026-11-21, select_if int32 50 % at 10^9: 10.2 ms
  // packed against 7.06 ms; partition 10.8 against 11.0), though its GPU tests pass.
  static constexpr bool packed_counts = PackedCounts;
  static_assert(BlockThreads % detail::warp_threads == 0, "whole warps only");
  static_assert(BlockThreads <= 1024, "at most 1024 threads per block");
  static_assert(ItemsPerThread >= 1, "at least one item per thread");
};

namespace detail {

// Each item also holds a 64-bit running count in registers, so wide items get fewer per thread.
// Every choice keeps a thread's run a whole number of 16-byte vectors for 1, 2, 4, 8, 16 bytes.
template <class T>
constexpr int default_select_items_per_thread() {
  return sizeof(T) <= 4 ? 16 : (sizeof(T) <= 8 ? 8 : 4);
}

}  // namespace detail

// Untuned first draft: no benchmark row yet.
template <class T>
using default_select_policy = select_policy<256, detail::default_select_items_per_thread<T>()>;

}  // namespace upsweep
