// Run-length encoding in one pass. A run starts where an item differs from the one before it (a
// run head, as for unique). Scanning (heads so far, position of the last head) over the input
// gives every head its run number k and the position where run k - 1 started; so each head writes
// its item as run k's value and the length of run k - 1, and the last tile adds the last run's
// length. The tile's heads are counted by a block scan whose prefix callback does the decoupled
// look-back (Merrill and Garland 2016) on those pairs; values and lengths are packed in shared
// memory and written as contiguous runs, as select does. A block per tile, or resident blocks
// with select's reduce-ahead schedule (run_length_reduce_ahead_kernel).
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/compact/detail/reduce_ahead_schedule.cuh>
#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_prefetch.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/maybe.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/limits>

namespace upsweep::detail {

// Runs begun so far (every run here; the long ones for non_trivial_runs) and where the last run
// head sits (-1: none yet). Positions only grow along the input, so the later part's last head is
// the larger position: the operator is (sum, max), associative with identity {0, -1}. Pos is a
// tile-local int inside a tile, 64-bit across tiles.
template <class Count, class Pos>
struct run_tally {
  Count runs;
  Pos last_head;
};

using tile_run_tally = run_tally<int, int>;
using global_run_tally = run_tally<cuda::std::int64_t, cuda::std::int64_t>;

struct combine_run_tallies {
  template <class Count, class Pos>
  __device__ run_tally<Count, Pos> operator()(const run_tally<Count, Pos>& a, const run_tally<Count, Pos>& b) const {
    return {a.runs + b.runs, a.last_head > b.last_head ? a.last_head : b.last_head};
  }
};

// A tile's tally placed in the whole input.
__device__ __forceinline__ global_run_tally in_input(const tile_run_tally& t, long long tile_first) {
  return {t.runs, t.last_head >= 0 ? tile_first + t.last_head : -1};
}

// What precedes tile 0: no head.
__device__ __forceinline__ maybe<global_run_tally> no_runs_before() { return {{0, -1}, true}; }

template <class Policy, class T>
struct run_length_storage {
  tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> items;  // then the run values
  int lengths[Policy::tile_items];  // slot j: length of the tile's run j - 1 (j >= 1)
  typename block_scan<tile_run_tally, Policy::block_threads>::storage scan;
  long long tile_idx;
  global_run_tally before;  // the tiles before this one, from the look-back
};

// block_scan prefix callback that keeps the block scan tile-local: publishes the tile's tally,
// looks back, leaves what precedes the tile in shared memory and hands the block no prefix.
// Published: the tally went out earlier (reduce-ahead), so it only looks back.
template <class Policy, class State, bool Published = false>
struct run_tally_look_back {
  const State& state;
  long long tile_idx;
  long long tile_first;
  global_run_tally& before;

  __device__ maybe<tile_run_tally> operator()(const tile_run_tally& tile_total) {
    const global_run_tally aggregate = in_input(tile_total, tile_first);
    maybe<global_run_tally> base;
    if constexpr (Published) {
      base = prefix_after_publishing<global_run_tally, Policy::look_back_delay_ns, false>(
          state, tile_idx, aggregate, no_runs_before(), combine_run_tallies{});
    } else {
      look_back_prefix<global_run_tally, State, combine_run_tallies, Policy::look_back_delay_ns, false,
                       Policy::look_back_settle_ns>
          prefix{state, tile_idx, combine_run_tallies{}, no_runs_before()};
      base = prefix(aggregate);
    }
    if (lane_id() == 0) before = base.value;
    return {{0, -1}, true};
  }
};

// Flags the run heads of `tile`, whose items are in registers.
template <class Policy, class T, int IPT, class Eq>
__device__ __forceinline__ void mark_tile_heads(const T* d_in, long long tile, long long num_items,
                                                const T (&items)[IPT], bool (&head)[IPT], Eq& eq) {
  const long long tile_first = tile * Policy::tile_items;
  mark_run_heads(d_in, tile_first, items_in_tile<Policy>(num_items - tile_first), items, head, eq);
}

// This thread's heads and the tile position of its last one.
template <int IPT>
__device__ __forceinline__ tile_run_tally tally_heads(const bool (&head)[IPT]) {
  tile_run_tally t{0, -1};
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    if (head[i]) {
      ++t.runs;
      t.last_head = item_in_tile<IPT>(i);
    }
  }
  return t;
}

// Packs the tile's run values (slot j: the tile's run j) and the lengths of the runs its heads
// close (slot j >= 1: run j - 1, inside the tile, so shorter than the tile). The run closed by
// the tile's first head began in an earlier tile and may be longer than any int: its thread
// writes that length itself.
template <int IPT, class T, class Staged, class LengthT>
__device__ __forceinline__ void stage_runs(const T (&items)[IPT], const bool (&head)[IPT], tile_run_tally running,
                                           const global_run_tally& before, long long tile_first, T* values,
                                           Staged* lengths, LengthT* d_run_lengths) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    if (!head[i]) continue;
    const int position = item_in_tile<IPT>(i);
    values[running.runs] = items[i];
    if (running.runs > 0)
      lengths[running.runs] = static_cast<Staged>(position - running.last_head);
    else if (before.runs > 0)
      d_run_lengths[before.runs - 1] = static_cast<LengthT>(tile_first + position - before.last_head);
    ++running.runs;
    running.last_head = position;
  }
}

// Writes the staged runs as two contiguous ranges; the last tile also closes the last run and
// writes the number of runs.
template <class Policy, class T, class Staged, class LengthT>
__device__ __forceinline__ void write_runs(const global_run_tally& before, const tile_run_tally& tile_total,
                                           bool last_tile, long long tile_first, long long num_items, const T* values,
                                           const Staged* lengths, T* d_unique_out, LengthT* d_run_lengths,
                                           cuda::std::int64_t* d_num_runs) {
  // Unrolled to the tile's size so a thread's loads and stores issue back to back.
  T* const values_out = d_unique_out + before.runs;
  LengthT* const lengths_out = d_run_lengths + before.runs;  // slot j closes run j - 1
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    const int j = k * Policy::block_threads + static_cast<int>(threadIdx.x);
    if (j < tile_total.runs) {
      values_out[j] = values[j];
      if (j > 0) lengths_out[j - 1] = static_cast<LengthT>(lengths[j]);
    }
  }
  if (last_tile && threadIdx.x == 0) {
    const global_run_tally all = combine_run_tallies{}(before, in_input(tile_total, tile_first));
    d_run_lengths[all.runs - 1] = static_cast<LengthT>(num_items - all.last_head);
    *d_num_runs = all.runs;
  }
}

// A tile whose items and heads are in registers: counts the heads across the grid (publishing the
// tile's tally unless Published), stages the runs through `values` (the tile's item buffer, free
// once the scan's barriers have passed) and s.lengths, and writes them.
template <class Policy, bool Published, class T, class LengthT, class State, class Storage>
__device__ __forceinline__ void encode_marked_tile(long long tile_idx, long long num_tiles, long long num_items,
                                                   const T (&items)[Policy::items_per_thread],
                                                   const bool (&head)[Policy::items_per_thread], T* d_unique_out,
                                                   LengthT* d_run_lengths, cuda::std::int64_t* d_num_runs,
                                                   const State& state, Storage& s, T* values) {
  const long long tile_first = tile_idx * Policy::tile_items;
  tile_run_tally running[1] = {tally_heads(head)};
  run_tally_look_back<Policy, State, Published> prefix{state, tile_idx, tile_first, s.before};
  const tile_run_tally tile_total = block_scan<tile_run_tally, Policy::block_threads>(s.scan).exclusive_scan(
      running, combine_run_tallies{}, prefix);
  const global_run_tally before = s.before;  // written before the scan's last barrier
  stage_runs(items, head, running[0], before, tile_first, values, s.lengths, d_run_lengths);
  __syncthreads();
  write_runs<Policy>(before, tile_total, tile_idx == num_tiles - 1, tile_first, num_items, values, s.lengths,
                     d_unique_out, d_run_lengths, d_num_runs);
  // The next tile's claim and barrier come before anything overwrites the staging area.
}

// One tile: load, flag the heads, count them across the grid, stage and write the runs.
template <class Policy, class T, class LengthT, class State, class Eq>
__device__ __forceinline__ void encode_tile(long long tile_idx, long long num_tiles, long long num_items, const T* d_in,
                                            T* d_unique_out, LengthT* d_run_lengths, cuda::std::int64_t* d_num_runs,
                                            const State& state, Eq& eq, run_length_storage<Policy, T>& s) {
  constexpr int ipt = Policy::items_per_thread;
  const long long tile_first = tile_idx * Policy::tile_items;
  T items[ipt];
  bool head[ipt];
  load_tile<Policy::io, Policy::block_threads, ipt>(d_in + tile_first, num_items - tile_first, items, s.items);
  mark_tile_heads<Policy>(d_in, tile_idx, num_items, items, head, eq);
  encode_marked_tile<Policy, false>(tile_idx, num_tiles, num_items, items, head, d_unique_out, d_run_lengths,
                                    d_num_runs, state, s, s.items.items);
}

template <class Policy, class T, class LengthT, class State, class Eq>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    run_length_encode_kernel(const T* d_in, T* d_unique_out, LengthT* d_run_lengths, cuda::std::int64_t* d_num_runs,
                             long long num_items, long long num_tiles, State state, Eq eq) {
  join_chain();
  __shared__ run_length_storage<Policy, T> storage;
  for_each_claimed_tile(state, storage.tile_idx, num_tiles, [&](long long tile_idx) {
    encode_tile<Policy>(tile_idx, num_tiles, num_items, d_in, d_unique_out, d_run_lengths, d_num_runs, state, eq,
                        storage);
  });
}

// Shared storage of the reduce-ahead encoder: select's two item buffers (the claimed tile's copy
// lands in one while the tile before it is encoded from the other, whose buffer then stages its
// run values) and the staged lengths in 16 bits: with int ones, 256 x 16 4-byte items would pass
// the 48 KB of static shared memory.
template <class Policy, class T>
struct run_length_reduce_ahead_storage {
  static_assert(Policy::tile_items - 1 <= cuda::std::numeric_limits<unsigned short>::max(),
                "a run closed inside a tile has its length staged in 16 bits");
  tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> stages[2];
  unsigned short lengths[Policy::tile_items];  // as run_length_storage's
  typename block_scan<tile_run_tally, Policy::block_threads>::storage scan;
  typename block_reduce<tile_run_tally, Policy::block_threads>::storage reduce;
  long long claim;
  global_run_tally before;
};

// Run-length encoding on the reduce-ahead schedule (reduce_ahead_schedule.cuh): each iteration
// claims a tile, copies it into shared memory, marks its heads and publishes its tally at once,
// then encodes the tile claimed one iteration earlier, marking its heads again, so eq runs twice
// for each pair of neighbours (kept as bits
// from the first visit, 10^9 i32 took 4.22 ms against 3.16; H200, 2026-11-26, one call). The
// outputs never alias the input and tiles write disjoint outputs, so the tile state needs to
// carry the tallies alone (the packed words order nothing else). d_in 16-byte aligned.
template <class Policy, class T, class LengthT, class State, class Eq>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    run_length_reduce_ahead_kernel(const T* d_in, T* d_unique_out, LengthT* d_run_lengths,
                                   cuda::std::int64_t* d_num_runs, long long num_items, long long num_tiles,
                                   State state, Eq eq) {
  join_chain();
  constexpr int ipt = Policy::items_per_thread;
  using buffer_t = tile_exchange_storage<T, Policy::block_threads, ipt>;
  __shared__ run_length_reduce_ahead_storage<Policy, T> s;
  const auto ahead = [&](long long tile, buffer_t& buffer) {
    T items[ipt];
    bool head[ipt];
    copy_claimed_tile<Policy>(d_in, tile, num_tiles, num_items, buffer, items);
    mark_tile_heads<Policy>(d_in, tile, num_items, items, head, eq);
    const tile_run_tally tally =
        block_reduce<tile_run_tally, Policy::block_threads>(s.reduce).reduce(tally_heads(head), combine_run_tallies{});
    if (threadIdx.x == 0)
      publish_aggregate(state, tile, in_input(tally, tile * Policy::tile_items), no_runs_before(),
                        combine_run_tallies{});
    return 0u;
  };
  const auto behind = [&](long long tile, buffer_t& buffer, unsigned) {
    T items[ipt];
    bool head[ipt];
    tile_items_of<Policy>(d_in, tile, num_tiles, num_items, buffer, items);
    mark_tile_heads<Policy>(d_in, tile, num_items, items, head, eq);
    encode_marked_tile<Policy, true>(tile, num_tiles, num_items, items, head, d_unique_out, d_run_lengths, d_num_runs,
                                     state, s, buffer.items);
  };
  reduce_ahead_tiles(num_tiles, state, s.claim, s.stages, ahead, behind);
}

}  // namespace upsweep::detail
