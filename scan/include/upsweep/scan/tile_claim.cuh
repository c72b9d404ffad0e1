// Tile layer: how a block takes its tiles. Tile ids come from the tile state's atomic counter
// in claim order (progress never depends on block scheduling order); a lone tile is taken without
// a claim, and a one-cluster grid's block takes the tile of its rank. Also the clearing of a tile
// state before its kernel, which a lone tile skips.
#pragma once

#include <upsweep/util/chained_launch.cuh>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace upsweep {

namespace detail {

// Whether a tile state is a one-cluster grid's (cluster_tile_state.cuh): a warp pushes each
// aggregate to the blocks after it, a look-back reads all of its predecessors, a block's tile is
// its rank, and nothing publishes an inclusive value.
template <class State, class = void>
inline constexpr bool in_one_cluster_v = false;
template <class State>
inline constexpr bool in_one_cluster_v<State, cuda::std::void_t<decltype(State::in_one_cluster)>> =
    State::in_one_cluster;

// Clears a tile state's first `bytes` before the kernel that uses it, unless it has one tile:
// nobody looks back on a lone tile, and claim_first_tile hands it out without the counter.
// Without the memset and the claim, select_if of 10^2 int32 took 4.7 us, not 6.1 (H200, 2026-12-03).
inline cudaError_t clear_tiles_before_chained(void* storage, std::size_t bytes, long long num_tiles,
                                              cudaStream_t stream) {
  if (num_tiles <= 1) return cudaSuccess;
  return clear_before_chained(storage, bytes, stream);
}

// A block's first tile: tile 0 when it is the only one (no claim, no cleared counter), else the
// next in claim order. Kernels that claim again after their first tile never take a single tile.
template <class State>
__device__ __forceinline__ long long claim_first_tile(const State& state, long long num_tiles) {
  return num_tiles == 1 ? 0 : state.claim_tile();
}

// For kernels that claim tiles in a loop: a grid with a block for every tile needs one claim per
// block, as the claims hand out every tile. A second claim would only learn that none is left,
// holding the SM for an atomic's round trip.
__device__ __forceinline__ bool one_claim_each(long long num_tiles) {
  return static_cast<long long>(gridDim.x) >= num_tiles;
}

// A block's loop over the tiles it claims: thread 0 claims into `claimed` (shared memory), and
// body(tile) runs for each. The body must hold a barrier (a block scan's) between its start and
// its end, so that the next claim cannot overtake a slow thread's read of this one. A lone tile
// runs at once, without the claim and its barrier.
template <class State, class Body>
__device__ __forceinline__ void for_each_claimed_tile(const State& state, long long& claimed, long long num_tiles,
                                                      Body&& body) {
  if constexpr (in_one_cluster_v<State>) {
    state.open_mailbox();
    body(state.tile());
    state.close_mailbox();
  } else {
    if (num_tiles == 1) {
      body(0ll);
      return;
    }
    for (;;) {
      if (threadIdx.x == 0) claimed = state.claim_tile();
      __syncthreads();
      const long long tile = claimed;
      if (tile >= num_tiles) return;
      body(tile);
      if (one_claim_each(num_tiles)) return;
    }
  }
}

// The grid of a kernel whose blocks claim tiles in a loop: no more blocks than tiles, nor than a
// grid may have.
inline unsigned claiming_grid(long long num_tiles) {
  return static_cast<unsigned>(num_tiles < 0x7fffffffll ? num_tiles : 0x7fffffffll);
}

}  // namespace detail

}  // namespace upsweep
