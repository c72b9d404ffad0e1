// The by-key kernel on the reduce-ahead schedule (reduce_ahead_schedule.cuh), for reduce_by_key
// and the scans by key from 16-byte aligned pointers (the default policies send it the 4-byte
// scans only): a claimed tile's keys and values are copied into shared memory, its heads flagged,
// its pairs scanned and its total published at once, and what needs no look-back is done then
// (reduce stages its runs; in the scans, the warps with a head before every thread store). The
// tile claimed an iteration earlier, whose predecessors have mostly published their inclusive
// pairs by then, looks back and writes the rest (reduce's staged runs; the warps that continue
// the run before the tile). A thread keeps its heads as bits and its scanned pair in registers
// between the two visits, so eq runs once for each pair of neighbours; by_key_kernels.cuh has the
// tile routines both schedules share.
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/compact/detail/by_key_kernels.cuh>
#include <upsweep/compact/detail/reduce_ahead_schedule.cuh>
#include <upsweep/scan/tile_prefetch.cuh>

namespace upsweep::detail {

// What a thread keeps of a tile from its first visit to its second.
template <class Acc>
struct kept_runs {
  unsigned heads;              // bit i: its item i is a run head (flag_bits)
  tile_run_sum<Acc> before;    // the pair before its first item in the tile
  tile_run_sum<Acc> tile_total;
};

template <class Policy, class Key, class Value, class Acc, class Out>
struct by_key_reduce_ahead_storage {
  by_key_stage<Policy, Key, Value, Acc, Out> stages[2];
  typename block_scan<tile_run_sum<Acc>, Policy::block_threads>::storage scan;
  long long claim;
  maybe<run_sum<Acc>> tile_prefix;  // the pair before the tile behind (none in tile 0)
};

// How the scans store on this schedule: through the stage's buffer when the results are the
// values' size (a warp's part of it then holds only its own values), else straight from registers.
template <class Policy, class Value, class Acc>
constexpr tile_io scan_store_io() {
  return sizeof(Acc) == sizeof(Value) ? Policy::io : tile_io::direct;
}

// The claimed tile's keys and values in blocked registers: a full tile is copied into `stage`,
// where it stays for its second visit; the partial last tile is loaded (again on that visit).
template <class Policy, class Key, class Value, class Stage>
__device__ __forceinline__ void copy_claimed_pairs(const Key* d_keys, const Value* d_values, long long tile,
                                                   long long num_tiles, long long num_items, Stage& stage,
                                                   Key (&keys)[Policy::items_per_thread],
                                                   Value (&values)[Policy::items_per_thread]) {
  if (tile_is_full<Policy>(tile, num_tiles, num_items)) {
    prefetch_tile<Policy::block_threads>(d_keys + tile * Policy::tile_items, stage.keys);
    prefetch_tile<Policy::block_threads>(d_values + tile * Policy::tile_items, stage.io.values);
    commit_async_copies();
    wait_async_copies<0>();
  }
  tile_items_of<Policy>(d_keys, tile, num_tiles, num_items, stage.keys, keys);
  tile_items_of<Policy>(d_values, tile, num_tiles, num_items, stage.io.values, values);
}

// The first visit of a tile whose keys and values are in registers: flags the heads, scans the
// tile's pairs and publishes its total, then does all that needs no look-back. reduce stages its
// runs in the tile's buffers (slot 0 still without the run before the tile); in the scans, the
// warps whose threads all have a head before them in the tile store their results.
template <class Policy, by_key_output Output, bool Full, class Key, class Value, class ValueOutIt, class Acc,
          class Eq, class Op, class State, class Stage, class Storage>
__device__ __forceinline__ kept_runs<Acc> visit_ahead(const Key* d_keys, long long tile, long long num_items,
                                                      const Key (&keys)[Policy::items_per_thread],
                                                      const Value (&values)[Policy::items_per_thread],
                                                      ValueOutIt d_values_out, Eq& eq, Op& op, const maybe<Acc>& init,
                                                      const State& state, Stage& stage, Storage& s) {
  const long long tile_first = tile * Policy::tile_items;
  const int in_tile = items_in_tile<Policy>(num_items - tile_first);
  bool head[Policy::items_per_thread];
  mark_run_heads<Full>(d_keys, tile_first, in_tile, keys, head, eq);
  kept_runs<Acc> kept;
  kept.heads = flag_bits(head);
  // The scan's barriers also mean every warp has read its items from the stage.
  kept.before = runs_before_thread<Policy>(thread_run_sum<Acc>(values, head, op), op, s, kept.tile_total);
  if (threadIdx.x == 0)
    publish_aggregate(state, tile, run_sum<Acc>{kept.tile_total.heads, kept.tile_total.value},
                      maybe<run_sum<Acc>>{run_sum<Acc>{}, false}, segmented_op<Op>{op});
  if constexpr (Output == by_key_output::reduce) {
    stage_reduced_runs<Full, Policy>(keys, values, head, kept.before, in_tile, num_items - tile_first <= Policy::tile_items,
                                     kept.tile_total.heads, op, stage.keys.items, stage.io.aggregates);
  } else {
    if (!__any_sync(0xffffffffu, kept.before.heads == 0))
      store_scanned_runs<Policy, Output, scan_store_io<Policy, Value, Acc>()>(
          values, head, kept.before.value, false, init, op, d_values_out + tile_first, num_items - tile_first,
          stage.io.out);
  }
  return kept;
}

// The second visit: warp 0 looks back (its predecessors mostly inclusive by now), then reduce
// writes the staged runs, and in the scans the warps that continue the run before the tile walk
// their items again from the stage and store them.
template <class Policy, by_key_output Output, class Key, class Value, class KeyOutIt, class ValueOutIt, class Acc,
          class Op, class State, class Stage, class Storage>
__device__ __forceinline__ void visit_behind(const Value* d_values, long long tile, long long num_tiles,
                                             long long num_items, const kept_runs<Acc>& kept, KeyOutIt d_keys_out,
                                             ValueOutIt d_values_out, count_t* d_num_runs, Op& op,
                                             const maybe<Acc>& init, const State& state, Stage& stage, Storage& s) {
  const long long tile_first = tile * Policy::tile_items;
  look_back_runs<Policy, true>(tile, kept.tile_total, state, op, s.tile_prefix);
  __syncthreads();
  if constexpr (Output == by_key_output::reduce) {
    write_reduced_runs<Policy>(tile, num_items - tile_first <= Policy::tile_items, kept.tile_total.heads,
                               s.tile_prefix, (kept.heads & 1u) != 0, stage.keys.items, stage.io.aggregates,
                               d_keys_out, d_values_out, d_num_runs, op);
  } else {
    if (!__any_sync(0xffffffffu, kept.before.heads == 0)) return;
    Value values[Policy::items_per_thread];
    bool head[Policy::items_per_thread];
    tile_items_of<Policy>(d_values, tile, num_tiles, num_items, stage.io.values, values);
    __syncwarp();  // the warp's values are read before its stores reuse the buffer
    flags_from_bits(kept.heads, head);
    store_scanned_runs<Policy, Output, scan_store_io<Policy, Value, Acc>()>(
        values, head, join_run(kept.before, s.tile_prefix, op), threadIdx.x == 0 && !s.tile_prefix.valid, init, op,
        d_values_out + tile_first, num_items - tile_first, stage.io.out);
  }
}

// reduce_by_key and the scans by key on resident blocks reducing ahead. Outputs never overlap the
// keys; the scans may write their values in place (a tile writes only its own items, after
// copying them).
template <class Policy, by_key_output Output, class Key, class Value, class KeyOutIt, class ValueOutIt, class Acc,
          class Eq, class Op, class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    by_key_reduce_ahead_kernel(const Key* d_keys, const Value* d_values, KeyOutIt d_keys_out,
                               ValueOutIt d_values_out, count_t* d_num_runs, long long num_items, long long num_tiles,
                               Eq eq, Op op, maybe<Acc> init, State state) {
  join_chain();
  static_assert(Output != by_key_output::unique, "unique_by_key runs a block per tile");
  constexpr int ipt = Policy::items_per_thread;
  using out_t = by_key_out_t<Output, Value, Acc>;
  using stage_t = by_key_stage<Policy, Key, Value, Acc, out_t>;
  __shared__ by_key_reduce_ahead_storage<Policy, Key, Value, Acc, out_t> s;
  const auto ahead = [&](long long tile, stage_t& stage) {
    Key keys[ipt];
    Value values[ipt];
    copy_claimed_pairs<Policy>(d_keys, d_values, tile, num_tiles, num_items, stage, keys, values);
    if (tile_is_full<Policy>(tile, num_tiles, num_items))
      return visit_ahead<Policy, Output, true>(d_keys, tile, num_items, keys, values, d_values_out, eq, op, init,
                                               state, stage, s);
    return visit_ahead<Policy, Output, false>(d_keys, tile, num_items, keys, values, d_values_out, eq, op, init, state,
                                              stage, s);
  };
  const auto behind = [&](long long tile, stage_t& stage, const kept_runs<Acc>& kept) {
    visit_behind<Policy, Output, Key, Value>(d_values, tile, num_tiles, num_items, kept, d_keys_out, d_values_out,
                                             d_num_runs, op, init, state, stage, s);
  };
  reduce_ahead_tiles(num_tiles, state, s.claim, s.stages, ahead, behind);
}

}  // namespace upsweep::detail
