// Device scan kernels: one tile routine on shared storage, called by a multi-tile kernel (tile ids
// claimed from the tile state's counter, prefixes by decoupled look-back) and by a one-block
// kernel for small inputs (a running carry instead of look-back: one launch, no state to clear).
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
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
    tile_exchange_t<Policy::io, In, Policy::block_threads, Policy::items_per_thread> load;
    tile_exchange_t<Policy::io, Acc, Policy::block_threads, Policy::items_per_thread> store;
  } exchange;
  typename block_scan<Acc, Policy::block_threads>::storage scan;
  long long tile_idx;
};

// Scans a tile already in registers and stores it; `prefix_of` supplies what precedes it.
// Returns the tile's total.
template <class Policy, bool Exclusive, class OutputIt, class Acc, class Op, class PrefixOf, class StoreBuffer>
__device__ __forceinline__ Acc scan_and_store_tile(Acc (&items)[Policy::items_per_thread], OutputIt d_out,
                                                   long long num_items, long long tile_first, Op op,
                                                   PrefixOf&& prefix_of,
                                                   typename block_scan<Acc, Policy::block_threads>::storage& scan_storage,
                                                   StoreBuffer& store_buffer) {
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
  join_chain();
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  __shared__ scan_tile_storage<Policy, in_t, Acc> storage;
  for_each_claimed_tile(state, storage.tile_idx, num_tiles, [&](long long tile_idx) {
    look_back_prefix<Acc, State, Op, Policy::look_back_delay_ns, Policy::pipelined_look_back,
                     Policy::look_back_settle_ns>
        prefix{state, tile_idx, op, seed};
    scan_tile<Policy, Exclusive>(d_in, d_out, num_items, tile_idx * Policy::tile_items, op, prefix, storage);
  });
}

// Shared storage of the reduce-ahead kernel: two tile buffers, the claimed tile's copy landing in
// one while the tile before it is scanned from the other. The scanned one also carries the store:
// input and accumulator have the same size, so each warp's part of it stays its own.
template <class Policy, class In, class Acc>
struct reduce_ahead_storage {
  static_assert(sizeof(In) == sizeof(Acc), "the store reuses the load buffer warp by warp");
  union stage {
    tile_exchange_storage<In, Policy::block_threads, Policy::items_per_thread> load;
    tile_exchange_storage<Acc, Policy::block_threads, Policy::items_per_thread> store;
  } stages[2];
  typename block_scan<Acc, Policy::block_threads>::storage scan;
  typename block_reduce<Acc, Policy::block_threads>::storage reduce;
  long long claim;
};

// Total of a tile's first `valid` items, held blocked (load_tile), returned to every thread.
// Barrier before reusing `s`.
template <class Policy, class Acc, class Op>
__device__ __forceinline__ maybe<Acc> tile_total(const Acc (&items)[Policy::items_per_thread], long long valid, Op op,
                                                 typename block_reduce<Acc, Policy::block_threads>::storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  const long long mine = valid - static_cast<long long>(threadIdx.x) * ipt;
  maybe<Acc> thread_total = {items[0], false};
#pragma unroll
  for (int i = 0; i < ipt; ++i)
    if (i < mine) thread_total = combine(thread_total, maybe<Acc>{items[i], true}, op);
  return block_reduce<Acc, Policy::block_threads>(s).reduce(thread_total, op);
}

// Publishes the aggregate of `tile`, whose copy into `buffer` (full tiles) this thread started:
// waits for the copy, reduces the tile across the block. A partial last tile is loaded here
// instead and only its valid items count.
template <class Policy, class In, class Acc, class Op, class State, class Buffer>
__device__ __forceinline__ void reduce_and_publish(const In* d_in, long long tile, long long num_tiles,
                                                   long long num_items, Buffer& buffer, const State& state, Op op,
                                                   const maybe<Acc>& seed,
                                                   typename block_reduce<Acc, Policy::block_threads>::storage& s) {
  Acc items[Policy::items_per_thread];
  const long long tile_first = tile * Policy::tile_items;
  if (tile_is_full<Policy>(tile, num_tiles, num_items)) {
    wait_async_copies<0>();
    read_prefetched_tile(buffer, items);
  } else {
    load_tile<Policy::io, Policy::block_threads>(d_in + tile_first, num_items - tile_first, items, buffer);
  }
  const maybe<Acc> total = tile_total<Policy>(items, num_items - tile_first, op, s);
  if (threadIdx.x == 0) publish_aggregate(state, tile, total.value, seed, op);
}

// Scans `tile`, whose aggregate is published: from its buffer when full, from memory otherwise.
template <class Policy, bool Exclusive, class In, class OutputIt, class Acc, class Op, class State, class Storage>
__device__ __forceinline__ void scan_published_tile(const In* d_in, OutputIt d_out, long long tile, long long num_tiles,
                                                    long long num_items, const State& state, Op op,
                                                    const maybe<Acc>& seed, typename Storage::stage& buffer,
                                                    Storage& s) {
  const long long tile_first = tile * Policy::tile_items;
  Acc items[Policy::items_per_thread];
  if (tile_is_full<Policy>(tile, num_tiles, num_items))
    read_prefetched_tile(buffer.load, items);
  else
    load_tile<Policy::io, Policy::block_threads>(d_in + tile_first, num_items - tile_first, items, buffer.load);
  published_look_back_prefix<Acc, State, Op, Policy::look_back_delay_ns> prefix{state, tile, op, seed};
  scan_and_store_tile<Policy, Exclusive>(items, d_out, num_items, tile_first, op, prefix, s.scan, buffer.store);
}

// Persistent blocks (one resident grid) that look back one tile behind their loads. Each
// iteration claims a tile, copies it into shared memory, publishes its aggregate, and then scans
// the tile claimed one iteration earlier. A tile's aggregate waits on nothing but its own copy,
// and its look-back starts an iteration after publishing, when its nearest predecessors are
// mostly inclusive already: the time settle_before_look_back sleeps through goes to the next
// tile's copy. Publishing only after the earlier tile's scan (the copy in flight through it)
// measured 3x slower: aggregates that wait on look-backs chain the tiles. No tile's aggregate
// waits on another tile, so every look-back ends. d_in 16-byte aligned.
template <class Policy, bool Exclusive, class In, class OutputIt, class Acc, class Op, class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    device_scan_reduce_ahead_kernel(const In* d_in, OutputIt d_out, long long num_items, long long num_tiles,
                                    State state, Op op, maybe<Acc> seed) {
  join_chain();
  using storage_t = reduce_ahead_storage<Policy, In, Acc>;
  __shared__ storage_t s;
  long long waiting = -1;  // the tile whose aggregate is published and scan is not done
  for (int stage = 0;; stage ^= 1) {
    if (threadIdx.x == 0) s.claim = state.claim_tile();
    __syncthreads();  // the reduction's and the scan's barriers keep the next claim from overtaking this read
    const long long claimed = s.claim;
    const bool has_claim = claimed < num_tiles;
    auto& claimed_buffer = s.stages[stage ^ 1];
    if (has_claim && tile_is_full<Policy>(claimed, num_tiles, num_items)) {
      prefetch_tile<Policy::block_threads>(d_in + claimed * Policy::tile_items, claimed_buffer.load);
      commit_async_copies();
    }
    if (has_claim)
      reduce_and_publish<Policy>(d_in, claimed, num_tiles, num_items, claimed_buffer.load, state, op, seed, s.reduce);
    if (waiting >= 0)
      scan_published_tile<Policy, Exclusive>(d_in, d_out, waiting, num_tiles, num_items, state, op, seed,
                                             s.stages[stage], s);
    if (!has_claim) return;
    waiting = claimed;
  }
}

// block_scan prefix callback returning a known prefix (or none).
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
