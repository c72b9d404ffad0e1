// Plumbing shared by the seed ladder's rungs (scan/ladder/): 64-bit tile geometry, the grid cap of
// tile loops and the launch check. The ladder is sums only, over 4-byte types, so T{} is the
// identity everywhere. Nothing here feeds production code.
#pragma once

#include <upsweep/util/arch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>

namespace upsweep::ladder {

using detail::ceil_div;
using detail::full_warp_mask;
using detail::warp_threads;

// Keeps a parameter out of template deduction (so nullptr may be passed for it).
template <class T>
struct non_deduced {
  using type = T;
};
template <class T>
using non_deduced_t = typename non_deduced<T>::type;

// Kernels that loop over tiles launch at most this many blocks; the loop covers the rest.
inline constexpr std::int64_t max_loop_blocks = 8192;

inline unsigned loop_grid(std::int64_t num_tiles) {
  return static_cast<unsigned>(num_tiles < max_loop_blocks ? num_tiles : max_loop_blocks);
}

// A grid of one block per tile, or 0 when that would be more blocks than a launch may have.
inline unsigned one_block_per_tile_grid(std::int64_t num_tiles) {
  return num_tiles <= INT_MAX ? static_cast<unsigned>(num_tiles) : 0u;
}

// Where a tile starts and how many of its items exist (the last tile may be partial).
struct tile_span {
  std::int64_t base;
  int valid;
};

template <int TileItems>
__device__ __forceinline__ tile_span tile_at(std::int64_t tile, std::int64_t num_items) {
  const std::int64_t base = tile * TileItems;
  const std::int64_t left = num_items - base;
  return {base, static_cast<int>(left < TileItems ? left : TileItems)};
}

__device__ __forceinline__ std::int64_t global_thread_index() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ std::int64_t grid_threads() {
  return static_cast<std::int64_t>(gridDim.x) * blockDim.x;
}

}  // namespace upsweep::ladder
