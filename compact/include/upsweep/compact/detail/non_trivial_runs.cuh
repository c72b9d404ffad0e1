// Runs longer than one item (CUB's NonTrivialRuns) in one pass, on run-length encoding's tallies,
// tile state and schedules. A long run begins at a head whose next item exists and is not a head
// (a long-run start). Scanning (starts so far, position of the last head) numbers the starts and
// gives each head the position of the head before it, so the head that closes a long run knows
// its length. Offsets and lengths are staged in shared memory and written as contiguous ranges.
// A block per tile, or resident blocks reducing ahead. Kernels and host dispatch.
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/compact/detail/reduce_ahead_schedule.cuh>
#include <upsweep/compact/detail/run_length_dispatch.cuh>
#include <upsweep/compact/detail/run_length_kernels.cuh>
#include <upsweep/compact/detail/run_length_tile_state.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/shuffle.cuh>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

// A tile position or a length closed inside a tile, as staged: 16 bits while the tile allows.
template <class Policy>
using staged_position_t = cuda::std::conditional_t<(Policy::tile_items <= 65536), unsigned short, int>;

// Flags the long-run starts among the heads. The next item's head flag comes from this thread,
// from the next lane, or for a warp's last lane from one more eq call on the input.
template <class Policy, class T, int IPT, class Eq>
__device__ __forceinline__ void mark_long_run_starts(const T* d_in, long long tile_first, long long num_items,
                                                     const T (&items)[IPT], const bool (&head)[IPT],
                                                     bool (&start)[IPT], Eq& eq) {
  const long long after = tile_first + item_in_tile<IPT>(IPT - 1) + 1;  // the item after this thread's last
  bool next_head = shfl_down(head[0], 1);
  if (lane_id() == warp_threads - 1 && after < num_items)
    next_head = !static_cast<bool>(eq(items[IPT - 1], d_in[after]));
  // Items of the tile that exist, plus the next tile's first.
  const long long left = num_items - tile_first;
  const int reach = left > Policy::tile_items ? Policy::tile_items + 1 : static_cast<int>(left);
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const bool next_is_head = i + 1 < IPT ? head[i + 1] : next_head;
    start[i] = head[i] && item_in_tile<IPT>(i) + 1 < reach && !next_is_head;
  }
}

// This thread's long-run starts and the tile position of its last head.
template <int IPT>
__device__ __forceinline__ tile_run_tally tally_long_runs(const bool (&head)[IPT], const bool (&start)[IPT]) {
  tile_run_tally t{0, -1};
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    if (start[i]) ++t.runs;
    if (head[i]) t.last_head = item_in_tile<IPT>(i);
  }
  return t;
}

// Stages the tile's long runs: slot j of `offsets` holds the tile position of the tile's long run
// j, slot j of `lengths` its length once a head of the tile closes it. A long run begun before
// the tile and closed by its first head may be longer than any int: that thread writes its length
// itself. The thread of the tile's last head says whether that head begins a long run left open.
template <int IPT, class Staged, class LengthIt>
__device__ __forceinline__ void stage_long_runs(const bool (&head)[IPT], const bool (&start)[IPT],
                                                tile_run_tally running, int tile_last_head,
                                                const global_run_tally& before, long long tile_first,
                                                Staged* offsets, Staged* lengths, bool& last_run_open,
                                                LengthIt d_lengths) {
  using length_t = typename cuda::std::iterator_traits<LengthIt>::value_type;
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int position = item_in_tile<IPT>(i);
    if (head[i]) {
      if (running.last_head >= 0) {
        if (position - running.last_head > 1) lengths[running.runs - 1] = static_cast<Staged>(position - running.last_head);
      } else if (before.last_head >= 0 && tile_first + position - before.last_head > 1) {
        d_lengths[before.runs - 1] = static_cast<length_t>(tile_first + position - before.last_head);
      }
      running.last_head = position;
      if (position == tile_last_head) last_run_open = start[i];
    }
    if (start[i]) offsets[running.runs++] = static_cast<Staged>(position);
  }
}

// Writes the staged offsets and the lengths closed in the tile as contiguous ranges; the last
// tile also closes the last run and writes the number of long runs.
template <class Policy, class Staged, class OffsetIt, class LengthIt>
__device__ __forceinline__ void write_long_runs(const global_run_tally& before, const tile_run_tally& tile_total,
                                                bool last_run_open, bool last_tile, long long tile_first,
                                                long long num_items, const Staged* offsets, const Staged* lengths,
                                                OffsetIt d_offsets, LengthIt d_lengths,
                                                cuda::std::int64_t* d_num_runs) {
  using offset_t = typename cuda::std::iterator_traits<OffsetIt>::value_type;
  using length_t = typename cuda::std::iterator_traits<LengthIt>::value_type;
  const int closed = tile_total.runs - (tile_total.runs > 0 && last_run_open ? 1 : 0);
  const OffsetIt offsets_out = d_offsets + before.runs;
  const LengthIt lengths_out = d_lengths + before.runs;
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    const int j = k * Policy::block_threads + static_cast<int>(threadIdx.x);
    if (j < tile_total.runs) offsets_out[j] = static_cast<offset_t>(tile_first + offsets[j]);
    if (j < closed) lengths_out[j] = static_cast<length_t>(lengths[j]);
  }
  if (last_tile && threadIdx.x == 0) {
    const global_run_tally all = combine_run_tallies{}(before, in_input(tile_total, tile_first));
    if (all.last_head >= 0 && num_items - all.last_head > 1)
      d_lengths[all.runs - 1] = static_cast<length_t>(num_items - all.last_head);
    *d_num_runs = all.runs;
  }
}

// Shared storage: tile buffers whose space then stages the offsets, the staged lengths, the scan.
template <class Policy, class T, int Stages>
struct long_runs_storage {
  union stage {
    tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> items;
    staged_position_t<Policy> offsets[Policy::tile_items];
  } stages[Stages];
  staged_position_t<Policy> lengths[Policy::tile_items];
  typename block_scan<tile_run_tally, Policy::block_threads>::storage scan;
  typename block_reduce<tile_run_tally, Policy::block_threads>::storage reduce;
  long long claim;
  global_run_tally before;
  bool last_run_open;
};

// A tile whose items are in registers: flags its heads and starts, counts the starts across the
// grid (publishing the tile's tally unless Published), stages and writes its long runs.
template <class Policy, bool Published, class T, class OffsetIt, class LengthIt, class State, class Eq, class Storage>
__device__ __forceinline__ void encode_long_runs_of_tile(long long tile_idx, long long num_tiles, long long num_items,
                                                         const T (&items)[Policy::items_per_thread], const T* d_in,
                                                         OffsetIt d_offsets, LengthIt d_lengths,
                                                         cuda::std::int64_t* d_num_runs, const State& state, Eq& eq,
                                                         Storage& s, typename Storage::stage& buffer) {
  constexpr int ipt = Policy::items_per_thread;
  const long long tile_first = tile_idx * Policy::tile_items;
  bool head[ipt], start[ipt];
  mark_tile_heads<Policy>(d_in, tile_idx, num_items, items, head, eq);
  mark_long_run_starts<Policy>(d_in, tile_first, num_items, items, head, start, eq);
  tile_run_tally running[1] = {tally_long_runs(head, start)};
  run_tally_look_back<Policy, State, Published> prefix{state, tile_idx, tile_first, s.before};
  const tile_run_tally tile_total = block_scan<tile_run_tally, Policy::block_threads>(s.scan).exclusive_scan(
      running, combine_run_tallies{}, prefix);
  const global_run_tally before = s.before;  // written before the scan's last barrier
  stage_long_runs(head, start, running[0], tile_total.last_head, before, tile_first, buffer.offsets, s.lengths,
                  s.last_run_open, d_lengths);
  __syncthreads();
  write_long_runs<Policy>(before, tile_total, s.last_run_open, tile_idx == num_tiles - 1, tile_first, num_items,
                          buffer.offsets, s.lengths, d_offsets, d_lengths, d_num_runs);
  // The next tile's claim and barrier come before anything overwrites the staging area.
}

template <class Policy, class T, class OffsetIt, class LengthIt, class State, class Eq>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    non_trivial_runs_kernel(const T* d_in, OffsetIt d_offsets, LengthIt d_lengths, cuda::std::int64_t* d_num_runs,
                            long long num_items, long long num_tiles, State state, Eq eq) {
  join_chain();
  constexpr int ipt = Policy::items_per_thread;
  __shared__ long_runs_storage<Policy, T, 1> s;
  for_each_claimed_tile(state, s.claim, num_tiles, [&](long long tile_idx) {
    const long long tile_first = tile_idx * Policy::tile_items;
    T items[ipt];
    load_tile<Policy::io, Policy::block_threads, ipt>(d_in + tile_first, num_items - tile_first, items,
                                                      s.stages[0].items);
    encode_long_runs_of_tile<Policy, false>(tile_idx, num_tiles, num_items, items, d_in, d_offsets, d_lengths,
                                            d_num_runs, state, eq, s, s.stages[0]);
  });
}

// On the reduce-ahead schedule (reduce_ahead_schedule.cuh), as run-length encoding's: a claimed
// tile is copied, flagged and its tally published at once; the tile claimed an iteration earlier
// is flagged again (eq runs twice for each pair of neighbours) and written. d_in 16-byte aligned.
template <class Policy, class T, class OffsetIt, class LengthIt, class State, class Eq>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    non_trivial_runs_reduce_ahead_kernel(const T* d_in, OffsetIt d_offsets, LengthIt d_lengths,
                                         cuda::std::int64_t* d_num_runs, long long num_items, long long num_tiles,
                                         State state, Eq eq) {
  join_chain();
  constexpr int ipt = Policy::items_per_thread;
  using storage_t = long_runs_storage<Policy, T, 2>;
  __shared__ storage_t s;
  const auto ahead = [&](long long tile, typename storage_t::stage& buffer) {
    const long long tile_first = tile * Policy::tile_items;
    T items[ipt];
    bool head[ipt], start[ipt];
    copy_claimed_tile<Policy>(d_in, tile, num_tiles, num_items, buffer.items, items);
    mark_tile_heads<Policy>(d_in, tile, num_items, items, head, eq);
    mark_long_run_starts<Policy>(d_in, tile_first, num_items, items, head, start, eq);
    const tile_run_tally tally = block_reduce<tile_run_tally, Policy::block_threads>(s.reduce).reduce(
        tally_long_runs(head, start), combine_run_tallies{});
    if (threadIdx.x == 0)
      publish_aggregate(state, tile, in_input(tally, tile_first), no_runs_before(), combine_run_tallies{});
    return 0u;
  };
  const auto behind = [&](long long tile, typename storage_t::stage& buffer, unsigned) {
    T items[ipt];
    tile_items_of<Policy>(d_in, tile, num_tiles, num_items, buffer.items, items);
    encode_long_runs_of_tile<Policy, true>(tile, num_tiles, num_items, items, d_in, d_offsets, d_lengths, d_num_runs,
                                           state, eq, s, buffer);
  };
  reduce_ahead_tiles(num_tiles, state, s.claim, s.stages, ahead, behind);
}

template <class Policy, class T, class OffsetIt, class LengthIt, class State, class Eq>
cudaError_t launch_non_trivial_runs(const T* d_in, OffsetIt d_offsets, LengthIt d_lengths, std::int64_t* d_num_runs,
                                    std::int64_t num_items, std::int64_t num_tiles, const State& state, Eq eq,
                                    cudaStream_t stream) {
  if constexpr (reduces_runs_ahead_v<Policy, T> && !in_one_cluster_v<State>) {
    bool launched = false;
    UPSWEEP_CUDA_RETURN(
        (launch_reducing_ahead<non_trivial_runs_reduce_ahead_kernel<Policy, T, OffsetIt, LengthIt, State, Eq>, Policy>(
            launched, d_in, num_tiles, stream, d_offsets, d_lengths, d_num_runs, num_items, num_tiles, state, eq)));
    if (launched) return cudaSuccess;
  }
  using block_policy = few_tiles_policy_t<Policy>;  // the same tile, so the same tile state
  return launch_tile_kernel<State>(non_trivial_runs_kernel<block_policy, T, OffsetIt, LengthIt, State, Eq>, num_tiles,
                                   dim3(block_policy::block_threads), stream, d_in, d_offsets, d_lengths, d_num_runs,
                                   static_cast<long long>(num_items), static_cast<long long>(num_tiles), state, eq);
}

template <class Policy, class T, class OffsetIt, class LengthIt, class Eq>
cudaError_t dispatch_non_trivial_runs(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                                      OffsetIt d_offsets, LengthIt d_lengths, std::int64_t* d_num_runs,
                                      std::int64_t num_items, Eq eq, cudaStream_t stream) {
  using offset_t = typename cuda::std::iterator_traits<OffsetIt>::value_type;
  using length_t = typename cuda::std::iterator_traits<LengthIt>::value_type;
  static_assert(cuda::std::is_integral_v<offset_t> && cuda::std::is_integral_v<length_t>, "integer offsets, lengths");
  if (num_items < 0) return cudaErrorInvalidValue;
  // Every offset and length must fit its type.
  const auto largest = static_cast<std::uint64_t>(num_items);
  if (largest > static_cast<std::uint64_t>(cuda::std::numeric_limits<offset_t>::max()) ||
      largest > static_cast<std::uint64_t>(cuda::std::numeric_limits<length_t>::max()))
    return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {run_length_state_bytes<Policy>(num_items)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (d_num_runs == nullptr) return cudaErrorInvalidValue;
  if (num_items > 0 && (d_in == nullptr || is_null(d_offsets) || is_null(d_lengths))) return cudaErrorInvalidValue;
  if (ranges_overlap(d_in, d_offsets, num_items) || ranges_overlap(d_in, d_lengths, num_items))
    return cudaErrorInvalidValue;
  if (num_items == 0) return cudaMemsetAsync(d_num_runs, 0, sizeof(std::int64_t), stream);

  return with_run_tally_state<Policy>(allocations[0], num_items, stream, [&](const auto& state, std::int64_t tiles) {
    return launch_non_trivial_runs<Policy>(d_in, d_offsets, d_lengths, d_num_runs, num_items, tiles, state, eq,
                                           stream);
  });
}

}  // namespace upsweep::detail
