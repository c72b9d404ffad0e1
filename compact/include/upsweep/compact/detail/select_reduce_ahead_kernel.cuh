// The select kernel on the reduce-ahead schedule (reduce_ahead_schedule.cuh), for 4- and 8-byte
// items from a 16-byte aligned pointer; select_kernels.cuh has the tile routines it shares.
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/compact/detail/reduce_ahead_schedule.cuh>
#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/util/block_shared.cuh>

namespace upsweep::detail {

// Shared storage of the reduce-ahead select: the item buffers (the claimed tile's copy lands in
// one while the tile before it is flagged, scanned and staged from another; a third when the
// policy copies a tile ahead), the flag buffer, the scans.
template <class Policy, class T, class FlagBuffer>
struct select_reduce_ahead_storage {
  tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> stages[reduce_ahead_buffers_v<Policy>];
  struct {
    FlagBuffer flags;
  } exchange;
  typename block_scan<int, Policy::block_threads>::storage scan;
  typename block_reduce<int, Policy::block_threads>::storage reduce;
  long long claim;
  tile_bases bases;
};

template <class Policy, class T, class Source>
using select_reduce_ahead_storage_t =
    select_reduce_ahead_storage<Policy, T,
                                typename flag_value<Source, Policy::block_threads, Policy::items_per_thread>::buffer>;

// Whether the flags of a tile's first visit are kept for its second (the predicate then runs once
// an item) or computed again. Kept, select_if i32 50 % at 10^9 took 2.18 ms against 2.22 and
// unique 2.24 against 2.33; the partition's first pass with them took 5.82 ms against 4.32 (H200,
// 2026-11-26, one call), so it flags a tile on each visit (device_partition.cuh says so).
template <select_output Output>
inline constexpr bool keeps_flags = Output != select_output::partitioned;

// Select with the reduce-ahead schedule: each iteration claims a tile, copies it into shared
// memory, flags it and publishes its count at once, then scans and writes the tile claimed one
// iteration earlier (keeps_flags). In place stays safe as in select_tile: a tile writes only
// after its look-back, and every tile's items are in shared memory before its count is
// published. d_in 16-byte aligned.
template <class Policy, select_output Output, class T, class OutputIt, class Source, class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    select_reduce_ahead_kernel(const T* d_in, OutputIt d_out, count_t* d_num_selected, long long num_items,
                               long long num_tiles, Source source, State state) {
  join_chain();
  static_assert(State::orders_memory, "in-place select needs a tile state that can order memory");
  static_assert(Output != select_output::partitioned_in_order, "partition in order: partition_one_wave_kernel");
  constexpr int ipt = Policy::items_per_thread;
  using buffer_t = tile_exchange_storage<T, Policy::block_threads, ipt>;
  auto& s = block_shared<select_reduce_ahead_storage_t<Policy, T, Source>>();
  const auto fetch = [&](long long tile, buffer_t& buffer) {
    if (tile_is_full<Policy>(tile, num_tiles, num_items))
      prefetch_tile<Policy::block_threads>(d_in + tile * Policy::tile_items, buffer);
  };
  const auto ahead = [&](long long tile, buffer_t& buffer) {  // the tile's copy waited for
    const long long tile_first = tile * Policy::tile_items;
    T items[ipt];
    bool keep[ipt];
    tile_items_of<Policy>(d_in, tile, num_tiles, num_items, buffer, items);
    flag_items<Policy>(source, tile_first, num_items - tile_first, items, keep, s);
    const int kept = block_reduce<int, Policy::block_threads>(s.reduce).reduce(count_kept(keep), cuda::std::plus<int>{});
    if (threadIdx.x == 0)
      publish_aggregate(state, tile, static_cast<count_t>(kept), maybe<count_t>{0, true}, cuda::std::plus<count_t>{});
    return keeps_flags<Output> ? flag_bits(keep) : 0u;
  };
  const auto behind = [&](long long tile, buffer_t& buffer, unsigned flags) {
    T items[ipt];
    bool keep[ipt];
    int thread_first;
    tile_items_of<Policy>(d_in, tile, num_tiles, num_items, buffer, items);
    if constexpr (keeps_flags<Output>) {
      flags_from_bits(flags, keep);
    } else {
      const long long tile_first = tile * Policy::tile_items;
      flag_items<Policy>(source, tile_first, num_items - tile_first, items, keep, s);
    }
    const int kept =
        count_survivors_before<Policy, ipt, State, true>(tile, keep, thread_first, state, s.bases.kept_first, s.scan);
    constexpr bool predicated_staging = false;  // the branch an item is cheaper here (stage_survivors)
    write_tile_output<Policy, Output, predicated_staging>(tile, num_tiles, num_items, items, keep, kept, thread_first,
                                                          s.bases, d_out, d_num_selected, buffer.items);
  };
  if constexpr (tiles_copied_ahead_v<Policy> == 1) {
    copying_ahead_tiles(num_tiles, state, s.claim, s.stages, fetch, ahead, behind);
  } else {
    const auto copy_then_ahead = [&](long long tile, buffer_t& buffer) {
      fetch(tile, buffer);
      commit_async_copies();
      wait_async_copies<0>();
      return ahead(tile, buffer);
    };
    reduce_ahead_tiles(num_tiles, state, s.claim, s.stages, copy_then_ahead, behind);
  }
}

}  // namespace upsweep::detail
