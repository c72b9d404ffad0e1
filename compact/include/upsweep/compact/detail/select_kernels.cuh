// Select kernel: one tile routine serves select_if, select_flagged, remove_if, count_if and the
// first pass of partition. A tile loads its items, flags them, counts the survivors before each
// item across the grid (block scan whose prefix callback does the decoupled look-back, Merrill
// and Garland 2016), packs them in output order in shared memory and writes them as contiguous
// runs: one pass over the input. Partition in one pass (partition_one_wave_kernel.cuh) shares
// the flagging, staging and writing.
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_prefetch.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/async_copy.cuh>
#include <upsweep/util/maybe.cuh>
#include <upsweep/util/shuffle.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/iterator>

namespace upsweep::detail {

using count_t = cuda::std::int64_t;

// What a tile does with its flags; one kernel, no copies per variant.
enum class select_output {
  survivors,    // selected items to out[0, count), in input order
  count_only,   // nothing but the count
  partitioned,  // selected to the front in input order, rejected to the back in reverse order
  // Selected to the front, rejected after them, both in input order: needs the split point
  // before any rejected item is written (partition_one_wave_kernel).
  partitioned_in_order,
};

__host__ __device__ constexpr bool is_partition(select_output output) {
  return output == select_output::partitioned || output == select_output::partitioned_in_order;
}

// Where the keep flags come from: a predicate on the item, or a stencil array beside the input.
template <class Pred>
struct predicate_flags {
  Pred pred;
};
template <class FlagIt>
struct stencil_flags {
  FlagIt d_flags;
};

// The stencil's element type and its exchange buffer; predicates load no flags, so no buffer.
struct no_flag_buffer {};
template <class Source, int BlockThreads, int IPT>
struct flag_value {
  using type = bool;
  using buffer = no_flag_buffer;
};
template <class FlagIt, int BlockThreads, int IPT>
struct flag_value<stencil_flags<FlagIt>, BlockThreads, IPT> {
  using type = typename cuda::std::iterator_traits<FlagIt>::value_type;
  using buffer = tile_exchange_storage<type, BlockThreads, IPT>;
};

// Run heads: eq(item i - 1, item i) is false (item 0 always), for unique. d_items is the input
// itself, whose tile is already in registers.
template <class InputIt, class Eq>
struct run_head_flags {
  InputIt d_items;
  Eq eq;
};

template <class Pred>
struct negated {
  Pred pred;
  template <class T>
  __device__ bool operator()(const T& item) {
    return !static_cast<bool>(pred(item));
  }
};

// Where a tile's output starts: from the look-back, handed to the block in shared memory (select
// kernels), or from the tile counts in every thread (partition_one_wave_kernel).
struct tile_bases {
  count_t kept_first;  // survivors before the tile
  count_t split;       // partitioned_in_order: survivors of the whole input
};

template <class Policy, class T, class FlagBuffer>
struct select_tile_storage {
  // Two buffers, not a union: each load is warp-private, but a warp's slice of the item buffer
  // and of the flag buffer sit at different offsets when the sizes differ, so a warp loading
  // flags could overwrite another warp's items still in flight. Predicates use a bool buffer.
  struct {
    tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> items;
    FlagBuffer flags;
  } exchange;
  typename block_scan<int, Policy::block_threads>::storage scan;
  long long tile_idx;
  tile_bases bases;
};

// Position of a thread's i-th item inside its tile (blocked arrangement).
template <int IPT>
__device__ __forceinline__ int item_in_tile(int i) {
  return static_cast<int>(threadIdx.x) * IPT + i;
}

// Items the tile holds: `valid` (items from the tile's first to the end of the input) capped at
// the tile size, so that per-item bounds checks compare 32-bit ints.
template <class Policy>
__device__ __forceinline__ int items_in_tile(long long valid) {
  return valid < Policy::tile_items ? static_cast<int>(valid) : Policy::tile_items;
}

// Items past `valid` (copies made by load_tile) are never kept and never shown to the predicate.
template <class Policy, class Pred, class T, int IPT, class Storage>
__device__ __forceinline__ void flag_items(predicate_flags<Pred>& source, long long, long long valid,
                                           const T (&items)[IPT], bool (&keep)[IPT], Storage&) {
  const int in_tile = items_in_tile<Policy>(valid);
#pragma unroll
  for (int i = 0; i < IPT; ++i) keep[i] = item_in_tile<IPT>(i) < in_tile && static_cast<bool>(source.pred(items[i]));
}

template <class Policy, class FlagIt, class T, int IPT, class Storage>
__device__ __forceinline__ void flag_items(stencil_flags<FlagIt>& source, long long tile_first, long long valid,
                                           const T (&)[IPT], bool (&keep)[IPT], Storage& s) {
  typename flag_value<stencil_flags<FlagIt>, Policy::block_threads, IPT>::type flags[IPT];
  load_tile<Policy::io, Policy::block_threads, IPT>(source.d_flags + tile_first, valid, flags, s.exchange.flags);
  const int in_tile = items_in_tile<Policy>(valid);
#pragma unroll
  for (int i = 0; i < IPT; ++i) keep[i] = item_in_tile<IPT>(i) < in_tile && static_cast<bool>(flags[i]);
}

// Flags the run heads of a tile in blocked registers: eq is called once for each pair of
// neighbours in the input. The item before a thread's first is the previous lane's last (a
// shuffle); lane 0 loads it, one load per warp, no second pass over the input. Full: every item
// of the tile is in the input (no bounds check an item).
template <bool Full = false, int IPT, class InputIt, class T, class Eq>
__device__ __forceinline__ void mark_run_heads(InputIt d_items, long long tile_first, int in_tile,
                                               const T (&items)[IPT], bool (&keep)[IPT], Eq& eq) {
  T before = shfl_up(items[IPT - 1], 1);
  const long long first = tile_first + item_in_tile<IPT>(0);
  const auto in_input = [&](int i) { return Full || item_in_tile<IPT>(i) < in_tile; };
  if (lane_id() == 0 && first > 0 && in_input(0)) before = d_items[first - 1];
  keep[0] = in_input(0) && (first == 0 || !static_cast<bool>(eq(before, items[0])));
#pragma unroll
  for (int i = 1; i < IPT; ++i) keep[i] = in_input(i) && !static_cast<bool>(eq(items[i - 1], items[i]));
}

template <class Policy, class InputIt, class Eq, class T, int IPT, class Storage>
__device__ __forceinline__ void flag_items(run_head_flags<InputIt, Eq>& source, long long tile_first, long long valid,
                                           const T (&items)[IPT], bool (&keep)[IPT], Storage&) {
  mark_run_heads(source.d_items, tile_first, items_in_tile<Policy>(valid), items, keep, source.eq);
}

// block_scan prefix callback that keeps the block scan in 32 bits: a tile's counts fit an int,
// only its base may need 64. Publishes the tile's count to the tile state (count_tile_state's
// 62-bit counts), looks back, and leaves the base in shared memory (read after the block scan's
// barrier); the tile-local scan gets no prefix. Published: the tile's count went out earlier
// (reduce-ahead), so it only looks back.
template <class State, int DelayNs, int SettleNs, bool Published = false>
struct tile_base_look_back {
  const State& state;
  long long tile_idx;
  count_t& kept_first;

  __device__ maybe<int> operator()(const int& tile_kept) {
    using value_t = typename State::value_type;
    using plus_t = cuda::std::plus<value_t>;
    const maybe<value_t> none_before = {0, true};
    maybe<value_t> base;
    if constexpr (Published) {
      base = prefix_after_publishing<value_t, DelayNs, false>(state, tile_idx, static_cast<value_t>(tile_kept),
                                                              none_before, plus_t{});
    } else {
      look_back_prefix<value_t, State, plus_t, DelayNs, false, SettleNs> prefix{state, tile_idx, plus_t{}, none_before};
      base = prefix(static_cast<value_t>(tile_kept));
    }
    if (detail::lane_id() == 0) kept_first = static_cast<count_t>(base.value);
    return {0, true};
  }
};

// A thread's flags as bits (item i at bit i): counted at once, and kept in a register between the
// reduce-ahead kernel's two visits of a tile.
template <int IPT>
__device__ __forceinline__ unsigned flag_bits(const bool (&flags)[IPT]) {
  static_assert(IPT <= 32, "a bit per item in one word");
  unsigned bits = 0;
#pragma unroll
  for (int i = 0; i < IPT; ++i) bits |= flags[i] ? 1u << i : 0u;
  return bits;
}
template <int IPT>
__device__ __forceinline__ void flags_from_bits(unsigned bits, bool (&flags)[IPT]) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) flags[i] = (bits >> i & 1u) != 0;
}

// Items this thread keeps.
template <int IPT>
__device__ __forceinline__ int count_kept(const bool (&keep)[IPT]) {
  if constexpr (IPT <= 32) {
    // One population count: an add an item fewer (H200, 2026-11-29, 10^8 items, reduce-ahead:
    // select_if int32 1 % 0.211 -> 0.203 ms, int64 1 % 0.356 -> 0.347).
    return __popc(flag_bits(keep));
  } else {
    int count = 0;
#pragma unroll
    for (int i = 0; i < IPT; ++i) count += keep[i] ? 1 : 0;
    return count;
  }
}

// Survivors of the tile before this thread's first item; returns the tile's survivors. The
// survivors before the tile go to `kept_first` through the block scan's prefix callback, which
// publishes the count (unless Published) and looks back at the predecessors' (count_tile_state:
// release on publish and acquire on read only when the output may alias the input).
template <class Policy, int IPT, class State, bool Published = false>
__device__ __forceinline__ int count_survivors_before(long long tile_idx, const bool (&keep)[IPT], int& thread_first,
                                                      const State& state, count_t& kept_first,
                                                      typename block_scan<int, Policy::block_threads>::storage& s) {
  int counts[1] = {count_kept(keep)};
  tile_base_look_back<State, Policy::look_back_delay_ns, Policy::look_back_settle_ns, Published> prefix{state, tile_idx,
                                                                                                     kept_first};
  const int tile_kept = block_scan<int, Policy::block_threads>(s).exclusive_scan(counts, cuda::std::plus<int>{}, prefix);
  thread_first = counts[0];
  return tile_kept;
}

// Where a tile's output goes: its kept items to [kept_first, kept_first + kept), and in the
// partition modes its rejected ones after the split point. A rejected item preceded by r rejected
// ones in the whole input lands at num_items - 1 - r (partitioned, reversed) or split + r
// (partitioned_in_order).
struct tile_output {
  long long kept_first;
  int kept;
  int items;  // valid items of the tile
};

// The staging slot of the tile's rejected item preceded by `rejected` others in the tile: from
// the back (reversed) or right after the kept items (in order).
template <select_output Output>
__device__ __forceinline__ int rejected_slot(const tile_output& tile, int rejected) {
  return Output == select_output::partitioned ? tile.items - 1 - rejected : tile.kept + rejected;
}

// Packs the tile's output into shared memory in output order: kept items at [0, kept), and in
// the partition modes the rejected ones in slots [kept, items) (rejected_slot). Scattering in
// shared memory turns the global writes below into contiguous runs; written straight from
// registers, every item was its own scattered store.
// Predicated: in the partition modes each item's slot is a select and its store one predicated
// store, no branch an item. It pays on a block per tile (partition of 10^4 int32 7.80 us against
// 8.60) and not on reduce-ahead at 1 % and 99 %, where most items take one side (10^8: 301.5 us
// against 291.2; H200, 2026-11-29). The branches are kept exactly as they were: the same
// branches with the index and the count hoisted out of them ran 10 % slower at 10^9.
template <select_output Output, bool Predicated, int IPT, class T>
__device__ __forceinline__ void stage_survivors(const tile_output& tile, const T (&items)[IPT], const bool (&keep)[IPT],
                                                int thread_first, T* staging) {
  int kept_before = thread_first;  // survivors of the tile before item i
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    if constexpr (is_partition(Output) && Predicated) {
      const int index = item_in_tile<IPT>(i);  // items past the tile's end are never kept
      const int slot = keep[i] ? kept_before : rejected_slot<Output>(tile, index - kept_before);
      if (index < tile.items) staging[slot] = items[i];
      kept_before += keep[i] ? 1 : 0;
    } else if (keep[i]) {
      staging[kept_before++] = items[i];
    } else if constexpr (is_partition(Output)) {
      const int index = item_in_tile<IPT>(i);
      if (index < tile.items) staging[rejected_slot<Output>(tile, index - kept_before)] = items[i];
    }
  }
}

// Where the staged slot j >= kept goes, minus j. Reversed: slot j holds rejected item items - 1 - j
// of the tile, bound for num_items - 1 - (rejected before the tile) - (items - 1 - j). In order:
// slot j holds rejected item j - kept, bound for split + (rejected before the tile) + j - kept.
// Either rises with j, so both runs are contiguous and ascending.
template <select_output Output>
__device__ __forceinline__ long long rejected_base(const tile_output& tile, long long tile_first, long long num_items,
                                                   long long split) {
  const long long rejected_before_tile = tile_first - tile.kept_first;
  if constexpr (Output == select_output::partitioned) return num_items - rejected_before_tile - tile.items;
  return split + rejected_before_tile - tile.kept;
}

// Writes the staged tile: slot j < kept to kept_first + j, in the partition modes slot j >= kept
// to rejected_base + j. Unrolled to the tile's size, so that a thread's shared loads and global
// stores issue back to back; each run goes through one base iterator with int offsets, and a
// thread stops at its first slot past the end (with a 64-bit index formed for every slot: a
// partition of 10^2 int32 7.75 us against 7.33, select of 10^8 222 against 219; H200, 2026-11-29).
template <class Policy, select_output Output, class T, class OutputIt>
__device__ __forceinline__ void write_staged(const tile_output& tile, long long tile_first, long long num_items,
                                             long long split, const T* staging, OutputIt d_out) {
  const OutputIt kept_out = d_out + tile.kept_first;
  if constexpr (is_partition(Output)) {
    const OutputIt rejected_out = d_out + detail::rejected_base<Output>(tile, tile_first, num_items, split);
#pragma unroll
    for (int k = 0; k < Policy::items_per_thread; ++k) {
      const int j = k * Policy::block_threads + static_cast<int>(threadIdx.x);
      if (j >= tile.items) break;
      if (j < tile.kept) kept_out[j] = staging[j];
      else rejected_out[j] = staging[j];
    }
  } else {
#pragma unroll
    for (int k = 0; k < Policy::items_per_thread; ++k) {
      const int j = k * Policy::block_threads + static_cast<int>(threadIdx.x);
      if (j >= tile.kept) break;
      kept_out[j] = staging[j];
    }
  }
}


// After the block scan: the count (last tile) and the tile's output, staged through `staging`
// (the tile's item buffer, free once the scan's barriers have passed). The bases were published
// by the scan's last barrier; items past the end were flagged 0. PredicatedStaging: see
// stage_survivors (a block per tile: true; reduce-ahead: false).
template <class Policy, select_output Output, bool PredicatedStaging = true, class T, int IPT, class OutputIt>
__device__ __forceinline__ void write_tile_output(long long tile_idx, long long num_tiles, long long num_items,
                                                  const T (&items)[IPT], const bool (&keep)[IPT], int kept,
                                                  int thread_first, const tile_bases& bases, OutputIt d_out,
                                                  count_t* d_num_selected, T* staging) {
  const count_t kept_first = bases.kept_first;
  if (tile_idx == num_tiles - 1 && threadIdx.x == 0) *d_num_selected = kept_first + kept;
  if constexpr (Output != select_output::count_only) {
    const long long tile_first = tile_idx * Policy::tile_items;
    const long long valid = num_items - tile_first;
    const tile_output tile{kept_first, kept, static_cast<int>(valid < Policy::tile_items ? valid : Policy::tile_items)};
    stage_survivors<Output, PredicatedStaging>(tile, items, keep, thread_first, staging);
    __syncthreads();
    const long long split = Output == select_output::partitioned_in_order ? bases.split : 0;
    write_staged<Policy, Output>(tile, tile_first, num_items, split, staging, d_out);
    // The next tile's claim and barrier come before anything overwrites the staging area.
  }
}

// In place (d_out == d_in, survivors mode) is safe:
//  - tile t writes only below p_t + c_t <= (its first index) + (its item count), p_t and c_t being
//    the survivors before it and in it; so it never touches a later tile's input;
//  - its own input was loaded before the block scan's first barrier, and it writes after it;
//  - it scatters only once its look-back has returned, which needs every earlier tile to have
//    published; each publishes (a release store of its status, by one lane, after a barrier in
//    its own block) only after it loaded its items. The release and the look-back's acquire,
//    followed by the barrier that hands the prefix to the block, order those loads before
//    tile t's writes; tiles the look-back skipped are covered transitively through the inclusive
//    tile it stopped at, which itself looked back before publishing.
// That needs a tile state that orders memory: the dispatch constructs count_tile_state ordered
// whenever the output may alias the input; out of place its relaxed words carry the counts alone.
template <class Policy, select_output Output, class InputIt, class OutputIt, class Source, class State, class Storage>
__device__ __forceinline__ void select_tile(long long tile_idx, long long num_tiles, long long num_items, InputIt d_in,
                                            OutputIt d_out, count_t* d_num_selected, Source& source,
                                            const State& state, Storage& s) {
  static_assert(State::orders_memory, "in-place select needs a tile state that can order memory");
  constexpr int ipt = Policy::items_per_thread;
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  const long long tile_first = tile_idx * Policy::tile_items;
  const long long valid = num_items - tile_first;  // past a tile's size except in the last tile
  in_t items[ipt];
  bool keep[ipt];
  int thread_first;
  load_tile<Policy::io, Policy::block_threads, ipt>(d_in + tile_first, valid, items, s.exchange.items);
  flag_items<Policy>(source, tile_first, valid, items, keep, s);
  const int kept = count_survivors_before<Policy>(tile_idx, keep, thread_first, state, s.bases.kept_first, s.scan);
  write_tile_output<Policy, Output>(tile_idx, num_tiles, num_items, items, keep, kept, thread_first, s.bases, d_out,
                                    d_num_selected, s.exchange.items.items);
}

template <class Policy, select_output Output, class InputIt, class OutputIt, class Source, class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    select_kernel(InputIt d_in, OutputIt d_out, count_t* d_num_selected, long long num_items, long long num_tiles,
                  Source source, State state) {
  join_chain();
  static_assert(Output != select_output::partitioned_in_order, "partition in order: partition_one_wave_kernel");
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  __shared__ select_tile_storage<Policy, in_t,
                                 typename flag_value<Source, Policy::block_threads, Policy::items_per_thread>::buffer>
      storage;
  for_each_claimed_tile(state, storage.tile_idx, num_tiles, [&](long long tile_idx) {
    select_tile<Policy, Output>(tile_idx, num_tiles, num_items, d_in, d_out, d_num_selected, source, state, storage);
  });
}

}  // namespace upsweep::detail
