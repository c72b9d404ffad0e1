// Device scan kernels: one tile routine on shared storage, called by a multi-tile kernel (tile ids
// claimed from the tile state's counter, prefixes by decoupled look-back) and by a one-block
// kernel for small inputs (a running carry instead of look-back: one launch, no state to clear).
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/maybe.cuh>

#include <cuda/std/iterator>

namespace upsweep::detail {

template <class Policy, class In, class Acc>
struct scan_tile_storage {
  // Exchange buffers are warp-private and the load's is finished before the store's starts.
  union {
    tile_exchange_storage<In, Policy::block_threads, Policy::items_per_thread> load;
    tile_exchange_storage<Acc, Policy::block_threads, Policy::items_per_thread> store;
  } exchange;
  typename block_scan<Acc, Policy::block_threads>::storage scan;
  long long tile_idx;
};

// Scans one tile; `prefix_of` supplies what precedes it. Returns the tile's total.
template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op, class PrefixOf>
__device__ __forceinline__ Acc scan_tile(InputIt d_in, OutputIt d_out, long long num_items, long long tile_first,
                                         Op op, PrefixOf&& prefix_of,
                                         scan_tile_storage<Policy, typename cuda::std::iterator_traits<InputIt>::value_type, Acc>& s) {
  constexpr int block_threads = Policy::block_threads;
  constexpr int ipt = Policy::items_per_thread;
  const long long valid = num_items - tile_first;
  Acc items[ipt];
  load_tile<Policy::io, block_threads, ipt>(d_in + tile_first, valid, items, s.exchange.load);
  block_scan<Acc, block_threads> scan(s.scan);
  const Acc total = Exclusive ? scan.exclusive_scan(items, op, prefix_of) : scan.inclusive_scan(items, op, prefix_of);
  store_tile<Policy::io, block_threads, ipt>(d_out + tile_first, valid, items, s.exchange.store);
  return total;
}

template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op, class State>
__global__ void __launch_bounds__(Policy::block_threads)
    device_scan_kernel(InputIt d_in, OutputIt d_out, long long num_items, long long num_tiles, State state, Op op,
                       maybe<Acc> seed) {
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  __shared__ scan_tile_storage<Policy, in_t, Acc> storage;
  for (;;) {
    if (threadIdx.x == 0) storage.tile_idx = state.claim_tile();
    __syncthreads();  // the block scan's barriers keep the next claim from overtaking this read
    const long long tile_idx = storage.tile_idx;
    if (tile_idx >= num_tiles) return;
    look_back_prefix<Acc, State, Op, Policy::look_back_delay_ns, Policy::pipelined_look_back> prefix{state, tile_idx, op,
                                                                                                    seed};
    scan_tile<Policy, Exclusive>(d_in, d_out, num_items, tile_idx * Policy::tile_items, op, prefix, storage);
  }
}

template <class T>
struct carried_prefix {
  maybe<T> carry;
  __device__ maybe<T> operator()(const T&) const { return carry; }
};

template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op>
__global__ void __launch_bounds__(Policy::block_threads)
    single_block_scan_kernel(InputIt d_in, OutputIt d_out, long long num_items, Op op, maybe<Acc> seed) {
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  __shared__ scan_tile_storage<Policy, in_t, Acc> storage;
  maybe<Acc> carry = seed;
  for (long long tile_first = 0; tile_first < num_items; tile_first += Policy::tile_items) {
    const Acc total = scan_tile<Policy, Exclusive>(d_in, d_out, num_items, tile_first, op,
                                                   carried_prefix<Acc>{carry}, storage);
    carry = combine(carry, maybe<Acc>{total, true}, op);
  }
}

}  // namespace upsweep::detail
