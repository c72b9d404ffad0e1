// Device scan kernels: one tile routine on shared storage, called by a multi-tile kernel (tile ids
// claimed from the tile state's counter, prefixes by decoupled look-back) and by a one-block
// kernel for small inputs (a running carry instead of look-back: one launch, no state to clear).
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_prefetch.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/async_copy.cuh>
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

// Scans a tile already in registers and stores it; `prefix_of` supplies what precedes it.
// Returns the tile's total.
template <class Policy, bool Exclusive, class OutputIt, class Acc, class Op, class PrefixOf>
__device__ __forceinline__ Acc scan_and_store_tile(Acc (&items)[Policy::items_per_thread], OutputIt d_out,
                                                   long long num_items, long long tile_first, Op op,
                                                   PrefixOf&& prefix_of,
                                                   typename block_scan<Acc, Policy::block_threads>::storage& scan_storage,
                                                   tile_exchange_storage<Acc, Policy::block_threads,
                                                                         Policy::items_per_thread>& store_buffer) {
  block_scan<Acc, Policy::block_threads> scan(scan_storage);
  const Acc total = Exclusive ? scan.exclusive_scan(items, op, prefix_of) : scan.inclusive_scan(items, op, prefix_of);
  store_tile<Policy::io, Policy::block_threads>(d_out + tile_first, num_items - tile_first, items, store_buffer);
  return total;
}

// Loads, scans and stores one tile; `prefix_of` supplies what precedes it. Returns its total.
template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op, class PrefixOf>
__device__ __forceinline__ Acc scan_tile(InputIt d_in, OutputIt d_out, long long num_items, long long tile_first,
                                         Op op, PrefixOf&& prefix_of,
                                         scan_tile_storage<Policy, typename cuda::std::iterator_traits<InputIt>::value_type, Acc>& s) {
  Acc items[Policy::items_per_thread];
  load_tile<Policy::io, Policy::block_threads>(d_in + tile_first, num_items - tile_first, items, s.exchange.load);
  return scan_and_store_tile<Policy, Exclusive>(items, d_out, num_items, tile_first, op, prefix_of, s.scan,
                                                s.exchange.store);
}

// One block per tile, tile ids claimed in a loop (the grid may be smaller than the tile count).
template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op, class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
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
    if (one_claim_each(num_tiles)) return;
  }
}

// Shared storage of the prefetching kernel: two tile buffers, one being scanned while the next
// tile's copy fills the other. The scanned one also carries the store: input and accumulator
// have the same size, so each warp's part of it stays its own.
template <class Policy, class In, class Acc>
struct prefetch_scan_storage {
  static_assert(sizeof(In) == sizeof(Acc), "the store reuses the load buffer warp by warp");
  union stage {
    tile_exchange_storage<In, Policy::block_threads, Policy::items_per_thread> load;
    tile_exchange_storage<Acc, Policy::block_threads, Policy::items_per_thread> store;
  } stages[2];
  typename block_scan<Acc, Policy::block_threads>::storage scan;
  long long first_claims[2];
  long long claims[2];  // claim made in iteration i lands in claims[i % 2]
};

template <class Policy>
__device__ __forceinline__ bool tile_is_full(long long tile, long long num_tiles, long long num_items) {
  return tile < num_tiles - 1 || num_items % Policy::tile_items == 0;
}

// Starts the copy of `tile` when it exists and is full (a partial last tile is loaded when
// scanned); always closes a group, so every iteration has exactly one to wait for.
template <class Policy, class In, class Buffer>
__device__ __forceinline__ void start_tile_copy(const In* d_in, long long tile, long long num_tiles,
                                                long long num_items, Buffer& buffer) {
  if (tile < num_tiles && tile_is_full<Policy>(tile, num_tiles, num_items))
    prefetch_tile<Policy::block_threads>(d_in + tile * Policy::tile_items, buffer);
  commit_async_copies();
}

// Persistent blocks (one resident grid), each holding a claimed tile ahead: while it scans tile
// t, the copy of its next tile is in flight, covering the look-back and barriers. Claims stay
// in block order (each block works through its own claims in increasing order), so the oldest
// unfinished tile is always being scanned and the look-back cannot deadlock. d_in 16-byte aligned.
template <class Policy, bool Exclusive, class In, class OutputIt, class Acc, class Op, class State>
__global__ void __launch_bounds__(Policy::block_threads)
    device_scan_prefetch_kernel(const In* d_in, OutputIt d_out, long long num_items, long long num_tiles, State state,
                                Op op, maybe<Acc> seed) {
  __shared__ prefetch_scan_storage<Policy, In, Acc> storage;
  if (threadIdx.x == 0) {
    storage.first_claims[0] = state.claim_tile();
    storage.first_claims[1] = state.claim_tile();
  }
  __syncthreads();
  long long tile = storage.first_claims[0];
  long long next = storage.first_claims[1];
  if (tile >= num_tiles) return;
  start_tile_copy<Policy>(d_in, tile, num_tiles, num_items, storage.stages[0].load);
  for (int stage = 0, iteration = 0;; stage ^= 1, iteration ^= 1) {
    start_tile_copy<Policy>(d_in, next, num_tiles, num_items, storage.stages[stage ^ 1].load);
    long long after_next = 0;
    if (threadIdx.x == 0) after_next = state.claim_tile();  // its latency hides behind the scan
    wait_async_copies<1>();  // this tile's group; the next tile's stays in flight
    const long long tile_first = tile * Policy::tile_items;
    Acc items[Policy::items_per_thread];
    if (tile_is_full<Policy>(tile, num_tiles, num_items))
      read_prefetched_tile(storage.stages[stage].load, items);
    else
      load_tile<Policy::io, Policy::block_threads>(d_in + tile_first, num_items - tile_first, items,
                                                   storage.stages[stage].load);
    if (threadIdx.x == 0) storage.claims[iteration] = after_next;  // read after the scan's barriers
    look_back_prefix<Acc, State, Op, Policy::look_back_delay_ns, Policy::pipelined_look_back> prefix{state, tile, op,
                                                                                                    seed};
    scan_and_store_tile<Policy, Exclusive>(items, d_out, num_items, tile_first, op, prefix, storage.scan,
                                           storage.stages[stage].store);
    tile = next;
    next = storage.claims[iteration];
    if (tile >= num_tiles) return;
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
