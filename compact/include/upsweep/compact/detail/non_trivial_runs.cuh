// Runs longer than one item (CUB's NonTrivialRuns) in one pass: the offset and length of each.
// A run is non-trivial when its second item exists, so a scan of "second item of a run" flags
// numbers them; the same scan carries the position of the last run head, so the head that closes
// a run knows where it started. Kernel and host dispatch.
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
#include <cuda/std/limits>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

// A stretch of items: the non-trivial runs whose second item it holds, and its last run head
// (-1: none).
struct long_run_tally {
  long long runs;
  long long last_head;
};
struct combine_long_run_tallies {
  __device__ long_run_tally operator()(const long_run_tally& a, const long_run_tally& b) const {
    return {a.runs + b.runs, b.last_head >= 0 ? b.last_head : a.last_head};
  }
};

template <class Policy, class T>
struct non_trivial_runs_storage {
  tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> items;
  typename block_scan<long_run_tally, Policy::block_threads>::storage scan;
  bool last_heads[Policy::block_threads];  // each thread's last head flag
  long long tile_idx;
};

// Whether each item is the second of its run: not a head, after a head. The flag of the item
// before a thread's first comes from the thread before it, or for the tile's first thread from
// the keys (one more eq call per tile edge).
template <class Policy, class T, class Eq, class Storage>
__device__ __forceinline__ void mark_second_items(const T* d_in, long long tile_first, int in_tile,
                                                  const bool (&head)[Policy::items_per_thread],
                                                  bool (&second)[Policy::items_per_thread], Eq& eq, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  s.last_heads[threadIdx.x] = head[ipt - 1];
  __syncthreads();
  bool previous_head;
  if (threadIdx.x > 0) {
    previous_head = s.last_heads[threadIdx.x - 1];
  } else {
    const long long before = tile_first - 1;  // the item before the tile
    previous_head = before == 0 || (before > 0 && !static_cast<bool>(eq(d_in[before - 1], d_in[before])));
  }
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    second[i] = !head[i] && previous_head && item_in_tile<ipt>(i) < in_tile && tile_first + item_in_tile<ipt>(i) > 0;
    previous_head = head[i];
  }
}

template <class Policy, class T, class OffsetIt, class LengthIt, class Eq, class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    non_trivial_runs_kernel(const T* d_in, OffsetIt d_offsets, LengthIt d_lengths, std::int64_t* d_num_runs,
                            long long num_items, long long num_tiles, Eq eq, State state) {
  using offset_t = typename cuda::std::iterator_traits<OffsetIt>::value_type;
  using length_t = typename cuda::std::iterator_traits<LengthIt>::value_type;
  constexpr int ipt = Policy::items_per_thread;
  __shared__ non_trivial_runs_storage<Policy, T> s;
  for_each_claimed_tile(state, s.tile_idx, num_tiles, [&](long long tile_idx) {
    const long long tile_first = tile_idx * Policy::tile_items;
    T items[ipt];
    bool head[ipt], second[ipt];
    load_tile<Policy::io, Policy::block_threads>(d_in + tile_first, num_items - tile_first, items, s.items);
    const int in_tile = items_in_tile<Policy>(num_items - tile_first);
    mark_run_heads(d_in, tile_first, in_tile, items, head, eq);
    mark_second_items<Policy>(d_in, tile_first, in_tile, head, second, eq, s);
    long_run_tally before[ipt];
#pragma unroll
    for (int i = 0; i < ipt; ++i) before[i] = {second[i] ? 1 : 0, head[i] ? tile_first + item_in_tile<ipt>(i) : -1};
    look_back_prefix<long_run_tally, State, combine_long_run_tallies, Policy::look_back_delay_ns, false,
                     Policy::look_back_settle_ns>
        prefix{state, tile_idx, combine_long_run_tallies{}, {{0, -1}, false}};
    block_scan<long_run_tally, Policy::block_threads>(s.scan).exclusive_scan(before, combine_long_run_tallies{},
                                                                            prefix);
#pragma unroll
    for (int i = 0; i < ipt; ++i) {
      const long long index = tile_first + item_in_tile<ipt>(i);
      if (index >= num_items) break;
      const long_run_tally b = index == 0 ? long_run_tally{0, -1} : before[i];
      if (second[i]) d_offsets[b.runs] = static_cast<offset_t>(index - 1);
      if (head[i] && index > 0 && index - b.last_head > 1)
        d_lengths[b.runs - 1] = static_cast<length_t>(index - b.last_head);
      if (index == num_items - 1) {
        const long long runs = b.runs + (second[i] ? 1 : 0);
        const long long start = head[i] ? index : b.last_head;
        if (num_items - start > 1) d_lengths[runs - 1] = static_cast<length_t>(num_items - start);
        *d_num_runs = runs;
      }
    }
  });
}

template <class Policy, class T, class OffsetIt, class LengthIt, class Eq>
cudaError_t dispatch_non_trivial_runs(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                                      OffsetIt d_offsets, LengthIt d_lengths, std::int64_t* d_num_runs,
                                      std::int64_t num_items, Eq eq, cudaStream_t stream) {
  using offset_t = typename cuda::std::iterator_traits<OffsetIt>::value_type;
  using length_t = typename cuda::std::iterator_traits<LengthIt>::value_type;
  static_assert(cuda::std::is_integral_v<offset_t> && cuda::std::is_integral_v<length_t>, "integer offsets, lengths");
  using state_t = counted_tile_state_t<long_run_tally>;
  if (num_items < 0 || num_items > count_tile_state::max_count) return cudaErrorInvalidValue;
  // Every offset and length must fit its type.
  const auto largest = static_cast<std::uint64_t>(num_items);
  if (largest > static_cast<std::uint64_t>(cuda::std::numeric_limits<offset_t>::max()) ||
      largest > static_cast<std::uint64_t>(cuda::std::numeric_limits<length_t>::max()))
    return cudaErrorInvalidValue;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  void* allocations[1] = {};
  const std::size_t sizes[1] = {num_items > 0 ? state_t::bytes(num_tiles) : 0};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (d_num_runs == nullptr) return cudaErrorInvalidValue;
  if (num_items > 0 && (d_in == nullptr || is_null(d_offsets) || is_null(d_lengths))) return cudaErrorInvalidValue;
  if (ranges_overlap(d_in, d_offsets, num_items) || ranges_overlap(d_in, d_lengths, num_items))
    return cudaErrorInvalidValue;
  if (num_items == 0) return cudaMemsetAsync(d_num_runs, 0, sizeof(std::int64_t), stream);
  UPSWEEP_CUDA_RETURN(state_t::initialize(allocations[0], num_tiles, stream));
  non_trivial_runs_kernel<Policy><<<claiming_grid(num_tiles), Policy::block_threads, 0, stream>>>(
      d_in, d_offsets, d_lengths, d_num_runs, num_items, num_tiles, eq,
      make_counted_tile_state<long_run_tally>(allocations[0], num_tiles));
  return cudaGetLastError();
}

}  // namespace upsweep::detail
