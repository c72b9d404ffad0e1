// Block layer: copying a full tile into shared memory with asynchronous copies, in the same
// warp-striped, swizzled layout as load_tile's transpose path. The reduce-ahead scan keeps a
// claimed tile there from its reduction (published at once) to its scan an iteration later.
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/async_copy.cuh>

namespace upsweep {

// Whether tiles of IPT items of T per thread can be prefetched: whole 16-byte vectors.
template <class T, int IPT>
inline constexpr bool prefetchable_v = detail::vectorizable_v<T, IPT>;

// Starts copying a full tile (16-byte aligned) into `exchange`; each warp copies its own part and
// closes no group: the caller commits. Call by every thread of the block.
template <int BlockThreads, int IPT, class T>
__device__ __forceinline__ void prefetch_tile(const T* tile_begin, tile_exchange_storage<T, BlockThreads, IPT>& exchange) {
  static_assert(prefetchable_v<T, IPT>, "prefetch moves whole 16-byte vectors");
  constexpr int vectors = IPT / detail::items_per_vector<T>;
  const int lane = detail::lane_id();
  const int warp = detail::warp_id();
  auto* buffer = reinterpret_cast<detail::vector16*>(exchange.items + warp * detail::warp_threads * IPT);
  const auto* src = reinterpret_cast<const detail::vector16*>(tile_begin) + warp * detail::warp_threads * vectors;
#pragma unroll
  for (int k = 0; k < vectors; ++k) {
    const int chunk = k * detail::warp_threads + lane;
    detail::copy_16_bytes_async(buffer + detail::swizzled_chunk(chunk), src + chunk);
  }
}

namespace detail {

// Whether `tile` holds a whole tile of items (every tile but a partial last one).
template <class Policy>
__device__ __forceinline__ bool tile_is_full(long long tile, long long num_tiles, long long num_items) {
  return tile < num_tiles - 1 || num_items % Policy::tile_items == 0;
}

}  // namespace detail

// Blocked registers from a tile whose copy this thread has waited for (wait_async_copies). The
// __syncwarp inside makes the other lanes' copies visible: each warp reads only its own part.
template <int BlockThreads, int IPT, class T, class Acc>
__device__ __forceinline__ void read_prefetched_tile(tile_exchange_storage<T, BlockThreads, IPT>& exchange,
                                                     Acc (&items)[IPT]) {
  __syncwarp();
  const auto* buffer =
      reinterpret_cast<const detail::vector16*>(exchange.items + detail::warp_id() * detail::warp_threads * IPT);
  detail::read_blocked_vectors<T>(buffer, items);
}

}  // namespace upsweep
