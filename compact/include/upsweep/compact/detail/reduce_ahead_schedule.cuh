// The reduce-ahead schedule that select, count and run-length encoding share (as the scan's
// device_scan_reduce_ahead_kernel): a persistent block claims a tile, copies it into shared
// memory and publishes its aggregate at once, then finishes the tile it claimed one iteration
// earlier, whose look-back finds its predecessors mostly inclusive.
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/tile_prefetch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/async_copy.cuh>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace upsweep::detail {

// The items of `tile` in blocked registers: from its copy when full (copied by this block), else
// loaded (the partial last tile).
template <class Policy, class T, int IPT>
__device__ __forceinline__ void tile_items_of(const T* d_in, long long tile, long long num_tiles, long long num_items,
                                              tile_exchange_storage<T, Policy::block_threads, IPT>& buffer,
                                              T (&items)[IPT]) {
  const long long tile_first = tile * Policy::tile_items;
  if (tile_is_full<Policy>(tile, num_tiles, num_items))
    read_prefetched_tile(buffer, items);
  else
    load_tile<Policy::io, Policy::block_threads, IPT>(d_in + tile_first, num_items - tile_first, items, buffer);
}

// The items of a tile just claimed: a full tile is copied into `buffer`, where it stays for its
// second visit an iteration later (tile_items_of).
template <class Policy, class T, int IPT>
__device__ __forceinline__ void copy_claimed_tile(const T* d_in, long long tile, long long num_tiles,
                                                  long long num_items,
                                                  tile_exchange_storage<T, Policy::block_threads, IPT>& buffer,
                                                  T (&items)[IPT]) {
  if (tile_is_full<Policy>(tile, num_tiles, num_items)) {
    prefetch_tile<Policy::block_threads>(d_in + tile * Policy::tile_items, buffer);
    commit_async_copies();
    wait_async_copies<0>();
  }
  tile_items_of<Policy>(d_in, tile, num_tiles, num_items, buffer, items);
}

// The reduce-ahead schedule of one resident block: claims tiles until none is left. Each claimed
// tile goes to ahead(tile, buffer) (copy it into `buffer`, publish its aggregate at once), then
// the tile claimed one iteration earlier to behind(tile, buffer, kept), with the buffer it was
// copied into and what ahead() returned for it (this thread's flags as bits, flag_bits, or more),
// so no flag is computed twice and a user's predicate sees each item once. The barrier after a
// claim keeps the next copy off what behind() staged; the barriers in ahead() and behind() (a
// reduction, a scan) keep the next claim from overtaking this one's read.
template <class State, class Buffer, class Ahead, class Behind>
__device__ __forceinline__ void reduce_ahead_tiles(long long num_tiles, const State& state, long long& claim,
                                                   Buffer (&stages)[2], Ahead&& ahead, Behind&& behind) {
  using kept_t = decltype(ahead(0ll, stages[0]));
  long long waiting = -1;  // the tile whose aggregate is published and output is not written
  kept_t waiting_kept{};
  for (int stage = 0;; stage ^= 1) {
    if (threadIdx.x == 0) claim = state.claim_tile();
    __syncthreads();
    const long long claimed = claim;
    kept_t claimed_kept{};
    if (claimed < num_tiles) claimed_kept = ahead(claimed, stages[stage ^ 1]);
    if (waiting >= 0) behind(waiting, stages[stage], waiting_kept);
    if (claimed >= num_tiles) return;
    waiting = claimed;
    waiting_kept = claimed_kept;
  }
}

// How many tiles a policy has a block copy beyond the one it reduces: 0 (reduce_ahead_tiles, two
// buffers) unless it names `tiles_copied_ahead` (1: copying_ahead_tiles, three buffers).
template <class Policy, class = void>
inline constexpr int tiles_copied_ahead_v = 0;
template <class Policy>
inline constexpr int tiles_copied_ahead_v<Policy, cuda::std::void_t<decltype(Policy::tiles_copied_ahead)>> =
    Policy::tiles_copied_ahead;

template <class Policy>
inline constexpr int reduce_ahead_buffers_v = 2 + tiles_copied_ahead_v<Policy>;

// The reduce-ahead schedule with the next tile's copy in flight: a block claims a tile and starts
// its copy, fetch(tile, buffer) (no commit: this commits), then reduces and publishes the tile
// whose copy it started an iteration earlier, ahead(tile, buffer) (the copy waited for here), and
// finishes the one before, behind(tile, buffer, kept). The copy's latency overlaps both. Three
// buffers in turn; the barrier after a claim keeps a copy off the buffer behind() staged in the
// iteration before. A claimed tile waits for nothing but its block's current look-back to be
// published, so every look-back still ends: the lowest unpublished tile's block only looks back
// at tiles below it.
template <class State, class Buffer, class Fetch, class Ahead, class Behind>
__device__ __forceinline__ void copying_ahead_tiles(long long num_tiles, const State& state, long long& claim,
                                                    Buffer (&stages)[3], Fetch&& fetch, Ahead&& ahead,
                                                    Behind&& behind) {
  using kept_t = decltype(ahead(0ll, stages[0]));
  if (threadIdx.x == 0) claim = state.claim_tile();
  __syncthreads();
  long long current = claim;  // copy started, aggregate not published
  if (current < num_tiles) fetch(current, stages[0]);
  commit_async_copies();
  __syncthreads();  // every thread has read the claim before the next one overwrites it
  long long waiting = -1;  // aggregate published, output not written
  kept_t waiting_kept{};
  for (int slot = 0;; slot = slot == 2 ? 0 : slot + 1) {
    const int next_slot = slot == 2 ? 0 : slot + 1;
    const int behind_slot = next_slot == 2 ? 0 : next_slot + 1;
    if (threadIdx.x == 0) claim = state.claim_tile();
    __syncthreads();
    const long long next = claim;
    if (next < num_tiles) fetch(next, stages[next_slot]);
    commit_async_copies();
    kept_t current_kept{};
    if (current < num_tiles) {
      wait_async_copies<1>();
      current_kept = ahead(current, stages[slot]);
    }
    if (waiting >= 0) behind(waiting, stages[behind_slot], waiting_kept);
    if (current >= num_tiles) return;
    waiting = current;
    waiting_kept = current_kept;
    current = next;
  }
}

// Launches a reduce-ahead Kernel(d_in, args...) on the resident blocks when it is worth it (blocks
// take several tiles, as for select and the scan) and d_in is 16-byte aligned; `launched` says
// whether it was.
template <auto Kernel, class Policy, class T, class... Args>
cudaError_t launch_reducing_ahead(bool& launched, const T* d_in, std::int64_t num_tiles, cudaStream_t stream,
                                  Args... args) {
  int resident = 0;
  UPSWEEP_CUDA_RETURN((persistent_grid<Kernel, Policy::block_threads>(Policy::persistent_grid_limit, resident)));
  launched = num_tiles > resident && is_aligned_16(d_in);
  if (!launched) return cudaSuccess;
  return launch_chained(Kernel, dim3(resident), dim3(Policy::block_threads), stream, d_in, args...);
}

}  // namespace upsweep::detail
