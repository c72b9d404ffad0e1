// Three-way partition in one pass: each item goes to the first part (pred1 true), the second part
// (pred1 false, pred2 true) or the unselected ones, each in input order. A tile counts its items
// of the first two parts, a block scan of the pair gives every thread's place and its prefix
// callback does the decoupled look-back over 64-bit pairs (one 128-bit word a tile); an unselected
// item's place is its index minus the items of the two parts before it. The tile's items are then
// staged in shared memory in output order, so each part leaves as a contiguous range. Kernel and
// host dispatch.
#pragma once

#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/pair_tile_state.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/iterator>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

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

// block_scan prefix callback: the tile scans its counts in 32 bits, publishes them as 64-bit
// pairs, looks back, and leaves the pair before the tile in shared memory.
template <class Policy, class State>
struct part_bases_look_back {
  const State& state;
  long long tile_idx;
  part_counts<long long>& before_tile;

  __device__ maybe<part_counts<int>> operator()(const part_counts<int>& tile_counts) {
    const part_counts<long long> wide{tile_counts.first, tile_counts.second};
    look_back_prefix<part_counts<long long>, State, add_part_counts, Policy::look_back_delay_ns, false,
                     Policy::look_back_settle_ns>
        prefix{state, tile_idx, add_part_counts{}, {{0, 0}, true}};
    const maybe<part_counts<long long>> base = prefix(wide);
    if (lane_id() == 0) before_tile = base.value;
    return {{0, 0}, true};
  }
};

template <class Policy, class T>
struct three_way_storage {
  tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> items;
  typename block_scan<part_counts<int>, Policy::block_threads>::storage scan;
  long long tile_idx;
  part_counts<long long> before_tile;
};

// 0: first part, 1: second part, 2: unselected. pred2 runs only where pred1 is false.
template <class T, class Pred1, class Pred2>
__device__ __forceinline__ int part_of(const T& item, Pred1& pred1, Pred2& pred2) {
  if (static_cast<bool>(pred1(item))) return 0;
  return static_cast<bool>(pred2(item)) ? 1 : 2;
}

// Orders the tile's items in shared memory as they go out: its first part, its second part, then
// its unselected items, each in input order. `before` holds the thread's exclusive counts.
template <class Policy, class T, class Storage>
__device__ __forceinline__ void stage_parts(const T (&items)[Policy::items_per_thread],
                                            const int (&part)[Policy::items_per_thread], part_counts<int> before,
                                            const part_counts<int>& tile_counts, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  const int unselected_begin = tile_counts.first + tile_counts.second;
  int first_at = before.first, second_at = before.second;  // the parts' items before item i in the tile
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    if (part[i] == 0) s.items.items[first_at++] = items[i];
    else if (part[i] == 1) s.items.items[tile_counts.first + second_at++] = items[i];
    else if (part[i] == 2) s.items.items[unselected_begin + item_in_tile<ipt>(i) - first_at - second_at] = items[i];
  }
  __syncthreads();
}

// Each part's items leave as one contiguous range: consecutive threads write consecutive places.
// Scattered from registers, a warp's stores to each part touched up to 32 lines at a time.
template <class Policy, class FirstIt, class SecondIt, class UnselectedIt, class Storage>
__device__ __forceinline__ void write_staged_parts(long long tile_first, int in_tile,
                                                   const part_counts<int>& tile_counts, FirstIt d_first,
                                                   SecondIt d_second, UnselectedIt d_unselected, Storage& s) {
  const long long first_base = s.before_tile.first, second_base = s.before_tile.second;
  const long long unselected_base = tile_first - first_base - second_base;
  const int second_begin = tile_counts.first, unselected_begin = tile_counts.first + tile_counts.second;
  for (int j = static_cast<int>(threadIdx.x); j < in_tile; j += Policy::block_threads) {
    const auto item = s.items.items[j];
    if (j < second_begin) d_first[first_base + j] = item;
    else if (j < unselected_begin) d_second[second_base + (j - second_begin)] = item;
    else d_unselected[unselected_base + (j - unselected_begin)] = item;
  }
}

template <class Policy, class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2,
          class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    three_way_partition_kernel(InputIt d_in, FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected,
                               std::int64_t* d_num_selected, long long num_items, long long num_tiles, Pred1 pred1,
                               Pred2 pred2, State state) {
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  constexpr int ipt = Policy::items_per_thread;
  __shared__ three_way_storage<Policy, item_t> s;
  for_each_claimed_tile(state, s.tile_idx, num_tiles, [&](long long tile_idx) {
    const long long tile_first = tile_idx * Policy::tile_items;
    const int in_tile = items_in_tile<Policy>(num_items - tile_first);
    item_t items[ipt];
    int part[ipt];
    load_tile<Policy::io, Policy::block_threads>(d_in + tile_first, num_items - tile_first, items, s.items);
    part_counts<int> counts[1] = {{0, 0}};
#pragma unroll
    for (int i = 0; i < ipt; ++i) {
      part[i] = item_in_tile<ipt>(i) < in_tile ? part_of(items[i], pred1, pred2) : 3;
      counts[0].first += part[i] == 0;
      counts[0].second += part[i] == 1;
    }
    part_bases_look_back<Policy, State> prefix{state, tile_idx, s.before_tile};
    const part_counts<int> tile_counts =
        block_scan<part_counts<int>, Policy::block_threads>(s.scan).exclusive_scan(counts, add_part_counts{}, prefix);
    if (tile_idx == num_tiles - 1 && threadIdx.x == 0) {
      d_num_selected[0] = s.before_tile.first + tile_counts.first;
      d_num_selected[1] = s.before_tile.second + tile_counts.second;
    }
    stage_parts<Policy>(items, part, counts[0], tile_counts, s);
    write_staged_parts<Policy>(tile_first, in_tile, tile_counts, d_first, d_second, d_unselected, s);
  });
}

template <class Policy, class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2>
cudaError_t dispatch_three_way_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                         FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected,
                                         std::int64_t* d_num_selected, std::int64_t num_items, Pred1 pred1,
                                         Pred2 pred2, cudaStream_t stream) {
  using state_t = counted_tile_state_t<part_counts<long long>>;
  if (num_items < 0 || num_items > count_tile_state::max_count) return cudaErrorInvalidValue;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  void* allocations[1] = {};
  const std::size_t sizes[1] = {num_items > 0 ? state_t::bytes(num_tiles) : 0};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (d_num_selected == nullptr) return cudaErrorInvalidValue;
  if (num_items > 0 && (is_null(d_in) || is_null(d_first) || is_null(d_second) || is_null(d_unselected)))
    return cudaErrorInvalidValue;
  if (ranges_overlap(d_in, d_first, num_items) || ranges_overlap(d_in, d_second, num_items) ||
      ranges_overlap(d_in, d_unselected, num_items))
    return cudaErrorInvalidValue;
  if (num_items == 0) return cudaMemsetAsync(d_num_selected, 0, 2 * sizeof(std::int64_t), stream);
  UPSWEEP_CUDA_RETURN(state_t::initialize(allocations[0], num_tiles, stream));
  three_way_partition_kernel<Policy><<<claiming_grid(num_tiles), Policy::block_threads, 0, stream>>>(
      d_in, d_first, d_second, d_unselected, d_num_selected, num_items, num_tiles, pred1, pred2,
      make_counted_tile_state<part_counts<long long>>(allocations[0], num_tiles));
  return cudaGetLastError();
}

}  // namespace upsweep::detail
