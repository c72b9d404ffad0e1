// Three-way partition in one pass: each item goes to the first part (pred1 true), the second part
// (pred1 false, pred2 true) or the unselected ones, each in input order. A tile counts its items
// of the first two parts, a block scan of the pair gives every thread's place and its prefix
// callback does the decoupled look-back over 64-bit pairs; an unselected item's place is its
// index minus the items of the two parts before it. Kernel and host dispatch.
#pragma once

#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/iterator>

#include <climits>
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
    long long first_at = s.before_tile.first + counts[0].first;
    long long second_at = s.before_tile.second + counts[0].second;
    if (tile_idx == num_tiles - 1 && threadIdx.x == 0) {
      d_num_selected[0] = s.before_tile.first + tile_counts.first;
      d_num_selected[1] = s.before_tile.second + tile_counts.second;
    }
#pragma unroll
    for (int i = 0; i < ipt; ++i) {
      const long long index = tile_first + item_in_tile<ipt>(i);
      if (part[i] == 0) d_first[first_at++] = items[i];
      else if (part[i] == 1) d_second[second_at++] = items[i];
      else if (part[i] == 2) d_unselected[index - first_at - second_at] = items[i];
    }
  });
}

template <class Policy, class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2>
cudaError_t dispatch_three_way_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                         FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected,
                                         std::int64_t* d_num_selected, std::int64_t num_items, Pred1 pred1,
                                         Pred2 pred2, cudaStream_t stream) {
  using state_t = tile_state<part_counts<long long>>;
  if (num_items < 0) return cudaErrorInvalidValue;
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
      make_tile_state<part_counts<long long>>(allocations[0], num_tiles));
  return cudaGetLastError();
}

}  // namespace upsweep::detail
