// Three-way partition in one pass: each item goes to the first part (pred1 true), the second part
// (pred1 false, pred2 true) or the unselected ones, each in input order. A tile counts its items
// of the first two parts, a block scan of the pair gives every thread's place and its prefix
// callback does the decoupled look-back over the pairs (one 64-bit word a tile below 2^31 items);
// an unselected item's place is its index minus the items of the two parts before it. The tile's
// items are then staged in shared memory in output order, so each part leaves as a contiguous
// range. A block per tile, or resident blocks reducing ahead (reduce_ahead_schedule.cuh), which
// keep each tile's parts from its first visit so the predicates run once an item. Kernels and
// host dispatch.
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/compact/detail/packed_pair_tile_state.cuh>
#include <upsweep/compact/detail/reduce_ahead_schedule.cuh>
#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/compact/detail/select_tuning.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/pair_tile_state.cuh>
#include <upsweep/scan/tile_prefetch.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>

namespace upsweep {

// 4- and 8-byte items: resident blocks reducing ahead on 256 x 16 and 256 x 8 tiles, at four and
// five blocks an SM. H200 2026-11-28 (A/B harness, 25 % first, 25 % second, ms at 10^8): int32 at
// 4 blocks 0.397, at 5 0.413 (spills), at 3 0.469, 256 x 12 at 5 0.408, pauses of 0 to 1200 ns
// alike (CUB 0.383); int64 at 5 0.558, at 4 0.625, at 3 0.620 (CUB 0.572). The block per tile of
// 256 x 12 it replaced: int32 0.516, int64 0.733. Other sizes: a block per tile loaded straight
// into registers, three resident blocks asked of ptxas, a 600 ns pause.
template <class T>
using default_three_way_policy = cuda::std::conditional_t<
    sizeof(T) == 4 || sizeof(T) == 8,
    select_policy<256, sizeof(T) == 4 ? 16 : 8, tile_io::transpose, default_look_back_delay_ns, sizeof(T) == 4 ? 4 : 5,
                  1200, tile_schedule::reduce_ahead>,
    select_policy<256, sizeof(T) <= 4 ? 12 : detail::default_select_items_per_thread<T>(), tile_io::direct,
                  default_look_back_delay_ns, 3, 600>>;

}  // namespace upsweep

namespace upsweep::detail {

// The default policy's block per tile (inputs too small to reduce ahead), with the same tile:
// int32 512 x 8 loaded straight into registers at two blocks, int64 256 x 8 so at three (H200
// 2026-11-28, 10^2 / 10^4 / 10^5 int32 items, us: 7.42 / 8.93 / 9.38, against 256 x 16 reducing
// ahead's own 9.06 / 10.46 / 11.14 and CUB's 7.71 / 9.47 / 9.89).
template <class Policy, class T>
using three_way_block_per_tile_policy = cuda::std::conditional_t<
    cuda::std::is_same_v<Policy, default_three_way_policy<T>> && (sizeof(T) == 4 || sizeof(T) == 8),
    select_policy<sizeof(T) == 4 ? 512 : 256, 8, tile_io::direct, default_look_back_delay_ns, sizeof(T) == 4 ? 2 : 3,
                  600>,
    Policy>;

// Items of the first and second parts in a stretch of the input.
template <class Count>
struct part_counts {
  Count first, second;
};
struct add_part_counts {
  template <class Count>
  __device__ part_counts<Count> operator()(const part_counts<Count>& a, const part_counts<Count>& b) const {
    return {a.first + b.first, a.second + b.second};
  }
};

// The two counts as packed_pair_tile_state's fields.
struct part_count_fields {
  using value_type = part_counts<long long>;
  __device__ static void split(const value_type& c, long long& high, long long& low) {
    high = c.first;
    low = c.second;
  }
  __device__ static value_type join(long long high, long long low) { return {high, low}; }
};

// Inside a tile the two counts share one word, the first part's in the high 16 bits: the tile
// scans and reduces one int, not a pair (a tile holds fewer than 2^16 items).
using tile_part_counts = unsigned;
__device__ __forceinline__ part_counts<int> unpack_part_counts(tile_part_counts c) {
  return {static_cast<int>(c >> 16), static_cast<int>(c & 0xffffu)};
}

// block_scan prefix callback: the tile scans its packed counts, publishes them as 64-bit pairs
// (unless Published: reduce-ahead did), looks back, and leaves the pair before the tile in shared
// memory.
template <class Policy, class State, bool Published>
struct part_bases_look_back {
  const State& state;
  long long tile_idx;
  part_counts<long long>& before_tile;

  __device__ maybe<tile_part_counts> operator()(const tile_part_counts& tile_counts) {
    using wide_t = part_counts<long long>;
    const part_counts<int> counts = unpack_part_counts(tile_counts);
    const wide_t wide{counts.first, counts.second};
    const maybe<wide_t> none_before = {{0, 0}, true};
    maybe<wide_t> base;
    if constexpr (Published) {
      base = prefix_after_publishing<wide_t, Policy::look_back_delay_ns, false>(state, tile_idx, wide, none_before,
                                                                                add_part_counts{});
    } else {
      look_back_prefix<wide_t, State, add_part_counts, Policy::look_back_delay_ns, false, Policy::look_back_settle_ns>
          prefix{state, tile_idx, add_part_counts{}, none_before};
      base = prefix(wide);
    }
    if (lane_id() == 0) before_tile = base.value;
    return {0u, true};
  }
};

// Tile buffers (a tile's items, then the same tile staged in output order), the scans.
template <class Policy, class T, int Stages>
struct three_way_storage {
  tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> stages[Stages];
  static_assert(Policy::tile_items < 65536, "a tile's counts take 16 bits each");
  typename block_scan<tile_part_counts, Policy::block_threads>::storage scan;
  typename block_reduce<tile_part_counts, Policy::block_threads>::storage reduce;
  long long claim;
  part_counts<long long> before_tile;
};

// 0: first part, 1: second part, 2: unselected, 3: past the end. pred2 runs only where pred1 is
// false.
template <class Policy, class T, class Pred1, class Pred2>
__device__ __forceinline__ void parts_of(const T (&items)[Policy::items_per_thread], int in_tile,
                                         int (&part)[Policy::items_per_thread], Pred1& pred1, Pred2& pred2) {
#pragma unroll
  for (int i = 0; i < Policy::items_per_thread; ++i) {
    if (item_in_tile<Policy::items_per_thread>(i) >= in_tile) part[i] = 3;
    else if (static_cast<bool>(pred1(items[i]))) part[i] = 0;
    else part[i] = static_cast<bool>(pred2(items[i])) ? 1 : 2;
  }
}

template <int IPT>
__device__ __forceinline__ tile_part_counts count_parts(const int (&part)[IPT]) {
  tile_part_counts c = 0;
#pragma unroll
  for (int i = 0; i < IPT; ++i) c += part[i] == 0 ? 0x10000u : (part[i] == 1 ? 1u : 0u);
  return c;
}

// A thread's parts in two bits an item, kept from a tile's first visit to its second.
template <int IPT>
__device__ __forceinline__ unsigned part_bits(const int (&part)[IPT]) {
  static_assert(IPT <= 16, "two bits per item in one word");
  unsigned bits = 0;
#pragma unroll
  for (int i = 0; i < IPT; ++i) bits |= static_cast<unsigned>(part[i]) << (2 * i);
  return bits;
}
template <int IPT>
__device__ __forceinline__ void parts_from_bits(unsigned bits, int (&part)[IPT]) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) part[i] = static_cast<int>(bits >> (2 * i) & 3u);
}

// Orders the tile's items in `staged` as they go out: its first part, its second part, then its
// unselected items, each in input order. `before` holds the thread's exclusive counts.
// Predicated: each item's slot a select and one predicated store (items past the tile's end, part
// 3, store nothing), no branch an item, as select's stage_survivors. H200, 2026-11-29: int32 10^6
// 14.7 -> 12.6 us, 10^9 3.87 -> 3.66 ms; but int64 on reduce-ahead 10^8 0.558 -> 0.698 ms, so
// 8-byte items branch there.
template <class Policy, bool Predicated, class T>
__device__ __forceinline__ void stage_parts(const T (&items)[Policy::items_per_thread],
                                            const int (&part)[Policy::items_per_thread], part_counts<int> before,
                                            const part_counts<int>& tile_counts, T* staged) {
  constexpr int ipt = Policy::items_per_thread;
  const int unselected_begin = tile_counts.first + tile_counts.second;
  int first_at = before.first, second_at = before.second;  // the parts' items before item i in the tile
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    if constexpr (Predicated) {
      const int unselected_at = unselected_begin + item_in_tile<ipt>(i) - first_at - second_at;
      const int slot = part[i] == 0 ? first_at : (part[i] == 1 ? tile_counts.first + second_at : unselected_at);
      if (part[i] != 3) staged[slot] = items[i];
      first_at += part[i] == 0 ? 1 : 0;
      second_at += part[i] == 1 ? 1 : 0;
    } else {
      if (part[i] == 0) staged[first_at++] = items[i];
      else if (part[i] == 1) staged[tile_counts.first + second_at++] = items[i];
      else if (part[i] == 2) staged[unselected_begin + item_in_tile<ipt>(i) - first_at - second_at] = items[i];
    }
  }
  __syncthreads();
}

// Each part's items leave as one contiguous range: consecutive threads write consecutive places.
// Scattered from registers, a warp's stores to each part touched up to 32 lines at a time.
template <class Policy, class T, class FirstIt, class SecondIt, class UnselectedIt>
__device__ __forceinline__ void write_staged_parts(long long tile_first, int in_tile,
                                                   const part_counts<int>& tile_counts,
                                                   const part_counts<long long>& before_tile, const T* staged,
                                                   FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected) {
  const long long unselected_base = tile_first - before_tile.first - before_tile.second;
  const int second_begin = tile_counts.first, unselected_begin = tile_counts.first + tile_counts.second;
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    const int j = k * Policy::block_threads + static_cast<int>(threadIdx.x);
    if (j >= in_tile) break;
    const T item = staged[j];
    if (j < second_begin) d_first[before_tile.first + j] = item;
    else if (j < unselected_begin) d_second[before_tile.second + (j - second_begin)] = item;
    else d_unselected[unselected_base + (j - unselected_begin)] = item;
  }
}

// A tile whose items and parts are in registers: scans the counts across the grid, stages the
// tile in output order in `staged` (free once the scan's barriers have passed) and writes it.
template <class Policy, bool Published, class T, class FirstIt, class SecondIt, class UnselectedIt, class State,
          class Storage>
__device__ __forceinline__ void partition_tile_three_ways(long long tile_idx, long long num_tiles, long long num_items,
                                                          const T (&items)[Policy::items_per_thread],
                                                          const int (&part)[Policy::items_per_thread],
                                                          FirstIt d_first, SecondIt d_second,
                                                          UnselectedIt d_unselected, std::int64_t* d_num_selected,
                                                          const State& state, Storage& s, T* staged) {
  const long long tile_first = tile_idx * Policy::tile_items;
  tile_part_counts counts[1] = {count_parts(part)};
  part_bases_look_back<Policy, State, Published> prefix{state, tile_idx, s.before_tile};
  const part_counts<int> tile_counts = unpack_part_counts(block_scan<tile_part_counts, Policy::block_threads>(s.scan)
                                                              .exclusive_scan(counts, cuda::std::plus<unsigned>{}, prefix));
  const part_counts<long long> before_tile = s.before_tile;  // written before the scan's last barrier
  if (tile_idx == num_tiles - 1 && threadIdx.x == 0) {
    d_num_selected[0] = before_tile.first + tile_counts.first;
    d_num_selected[1] = before_tile.second + tile_counts.second;
  }
  constexpr bool predicated_staging = sizeof(T) <= 4 || !Published;  // Published: on reduce-ahead
  stage_parts<Policy, predicated_staging>(items, part, unpack_part_counts(counts[0]), tile_counts, staged);
  write_staged_parts<Policy>(tile_first, items_in_tile<Policy>(num_items - tile_first), tile_counts, before_tile,
                             staged, d_first, d_second, d_unselected);
  // The next tile's claim and barrier come before anything overwrites the staging area.
}

template <class Policy, class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2,
          class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    three_way_partition_kernel(InputIt d_in, FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected,
                               std::int64_t* d_num_selected, long long num_items, long long num_tiles, Pred1 pred1,
                               Pred2 pred2, State state) {
  join_chain();
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  constexpr int ipt = Policy::items_per_thread;
  __shared__ three_way_storage<Policy, item_t, 1> s;
  for_each_claimed_tile(state, s.claim, num_tiles, [&](long long tile_idx) {
    const long long tile_first = tile_idx * Policy::tile_items;
    item_t items[ipt];
    int part[ipt];
    load_tile<Policy::io, Policy::block_threads>(d_in + tile_first, num_items - tile_first, items, s.stages[0]);
    parts_of<Policy>(items, items_in_tile<Policy>(num_items - tile_first), part, pred1, pred2);
    partition_tile_three_ways<Policy, false>(tile_idx, num_tiles, num_items, items, part, d_first, d_second,
                                             d_unselected, d_num_selected, state, s, s.stages[0].items);
  });
}

// On the reduce-ahead schedule: a claimed tile is copied, its parts found and its counts
// published at once; the tile claimed an iteration earlier is scanned with the parts kept from
// then, staged in its own buffer and written. d_in 16-byte aligned.
template <class Policy, class T, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2,
          class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    three_way_partition_reduce_ahead_kernel(const T* d_in, FirstIt d_first, SecondIt d_second,
                                            UnselectedIt d_unselected, std::int64_t* d_num_selected,
                                            long long num_items, long long num_tiles, Pred1 pred1, Pred2 pred2,
                                            State state) {
  join_chain();
  constexpr int ipt = Policy::items_per_thread;
  using buffer_t = tile_exchange_storage<T, Policy::block_threads, ipt>;
  __shared__ three_way_storage<Policy, T, 2> s;
  const auto ahead = [&](long long tile, buffer_t& buffer) {
    const long long tile_first = tile * Policy::tile_items;
    T items[ipt];
    int part[ipt];
    copy_claimed_tile<Policy>(d_in, tile, num_tiles, num_items, buffer, items);
    parts_of<Policy>(items, items_in_tile<Policy>(num_items - tile_first), part, pred1, pred2);
    const part_counts<int> c = unpack_part_counts(block_reduce<tile_part_counts, Policy::block_threads>(s.reduce).reduce(
        count_parts(part), cuda::std::plus<unsigned>{}));
    if (threadIdx.x == 0)
      publish_aggregate(state, tile, part_counts<long long>{c.first, c.second},
                        maybe<part_counts<long long>>{{0, 0}, true}, add_part_counts{});
    return part_bits(part);
  };
  const auto behind = [&](long long tile, buffer_t& buffer, unsigned bits) {
    T items[ipt];
    int part[ipt];
    tile_items_of<Policy>(d_in, tile, num_tiles, num_items, buffer, items);
    parts_from_bits(bits, part);
    partition_tile_three_ways<Policy, true>(tile, num_tiles, num_items, items, part, d_first, d_second, d_unselected,
                                            d_num_selected, state, s, buffer.items);
  };
  reduce_ahead_tiles(num_tiles, state, s.claim, s.stages, ahead, behind);
}

template <class Policy, class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2,
          class State>
cudaError_t launch_three_way_partition(InputIt d_in, FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected,
                                       std::int64_t* d_num_selected, std::int64_t num_items, std::int64_t num_tiles,
                                       Pred1 pred1, Pred2 pred2, const State& state, cudaStream_t stream) {
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  if constexpr (Policy::schedule == tile_schedule::reduce_ahead && cuda::std::is_pointer_v<InputIt> &&
                prefetchable_v<item_t, Policy::items_per_thread>) {
    bool launched = false;
    UPSWEEP_CUDA_RETURN(
        (launch_reducing_ahead<three_way_partition_reduce_ahead_kernel<Policy, item_t, FirstIt, SecondIt, UnselectedIt,
                                                                       Pred1, Pred2, State>,
                               Policy>(launched, static_cast<const item_t*>(d_in), num_tiles, stream, d_first,
                                       d_second, d_unselected, d_num_selected, num_items, num_tiles, pred1, pred2,
                                       state)));
    if (launched) return cudaSuccess;
  }
  using block_policy = three_way_block_per_tile_policy<Policy, item_t>;
  static_assert(block_policy::tile_items == Policy::tile_items, "the tile state counts the policy's tiles");
  constexpr auto kernel =
      three_way_partition_kernel<block_policy, InputIt, FirstIt, SecondIt, UnselectedIt, Pred1, Pred2, State>;
  return launch_chained(kernel, dim3(claiming_grid(num_tiles)), dim3(block_policy::block_threads), stream, d_in,
                        d_first, d_second, d_unselected, d_num_selected, static_cast<long long>(num_items),
                        static_cast<long long>(num_tiles), pred1, pred2, state);
}

using packed_part_counts_state = packed_pair_tile_state<part_count_fields>;
using wide_part_counts_state = counted_tile_state_t<part_counts<long long>>;

inline bool packs_part_counts(std::int64_t num_items) { return num_items <= packed_part_counts_state::max_field; }

template <class Policy, class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2>
cudaError_t dispatch_three_way_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                         FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected,
                                         std::int64_t* d_num_selected, std::int64_t num_items, Pred1 pred1,
                                         Pred2 pred2, cudaStream_t stream) {
  if (num_items < 0 || num_items > count_tile_state::max_count) return cudaErrorInvalidValue;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  void* allocations[1] = {};
  const std::size_t sizes[1] = {num_items <= 0                 ? 0
                                : packs_part_counts(num_items) ? packed_part_counts_state::bytes(num_tiles)
                                                               : wide_part_counts_state::bytes(num_tiles)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (d_num_selected == nullptr) return cudaErrorInvalidValue;
  if (num_items > 0 && (is_null(d_in) || is_null(d_first) || is_null(d_second) || is_null(d_unselected)))
    return cudaErrorInvalidValue;
  if (ranges_overlap(d_in, d_first, num_items) || ranges_overlap(d_in, d_second, num_items) ||
      ranges_overlap(d_in, d_unselected, num_items))
    return cudaErrorInvalidValue;
  if (num_items == 0) return cudaMemsetAsync(d_num_selected, 0, 2 * sizeof(std::int64_t), stream);
  if (packs_part_counts(num_items)) {
    UPSWEEP_CUDA_RETURN(packed_part_counts_state::initialize(allocations[0], num_tiles, stream));
    return launch_three_way_partition<Policy>(d_in, d_first, d_second, d_unselected, d_num_selected, num_items,
                                              num_tiles, pred1, pred2, packed_part_counts_state(allocations[0]),
                                              stream);
  }
  UPSWEEP_CUDA_RETURN(wide_part_counts_state::initialize(allocations[0], num_tiles, stream));
  return launch_three_way_partition<Policy>(d_in, d_first, d_second, d_unselected, d_num_selected, num_items,
                                            num_tiles, pred1, pred2,
                                            make_counted_tile_state<part_counts<long long>>(allocations[0], num_tiles),
                                            stream);
}

}  // namespace upsweep::detail
