// A tile state for a grid that is one thread-block cluster (sm_90; 2 to 16 tiles, a block's tile
// is its rank). A warp pushes its tile's aggregate into the shared memory of every block ranked
// after it, each lane arriving on one block's mbarrier; a look-back waits on its own mbarrier for
// all of its predecessors and reduces their aggregates in rank order. Nothing lives in global
// memory: nothing to clear before the kernel, no tile to claim, no L2 round trip to poll. The
// kernels of tile_state.cuh take it unchanged (for_each_claimed_tile, look_back_prefix): tile 0
// pushes its inclusive value, the others their partials, and no inclusive value is published
// after a look-back, since each look-back reads all of its predecessors.
//
// Contract: every tile past 0 looks back exactly once (the pushes into a block are what its
// look-back waits for), every thread of the grid goes through for_each_claimed_tile (a cluster
// barrier before and after the tile), and the grid is launched by launch_one_cluster.
#pragma once

#include <upsweep/scan/tile_claim.cuh>
#include <upsweep/scan/warp_reduce.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/cluster_launch.cuh>
#include <upsweep/util/shuffle.cuh>

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <nv/target>

#include <cstdint>
#include <utility>

namespace upsweep::detail {

template <class T>
struct cluster_mailbox {
  T aggregate[largest_cluster_blocks];  // slot r: block r's aggregate (tile 0's inclusive value)
  unsigned long long arrivals;          // mbarrier: one arrival per predecessor
};

template <class T>
__device__ __forceinline__ cluster_mailbox<T>& this_blocks_mailbox() {
  __shared__ cluster_mailbox<T> mailbox;
  return mailbox;
}

__device__ __forceinline__ unsigned shared_address(const void* ptr) {
  return static_cast<unsigned>(__cvta_generic_to_shared(ptr));
}

template <class T>
class cluster_tile_state {
 public:
  using value_type = T;
  static constexpr bool in_one_cluster = true;
  static constexpr bool orders_memory = true;  // release arrivals, acquire waits, cluster scope

  // Every thread of every block, before the tile's work: sets up the mailbox, then a cluster
  // barrier, so that no block pushes into a mailbox not yet set up.
  __device__ void open_mailbox() const {
    NV_IF_TARGET(NV_PROVIDES_SM_90, ({
      if (threadIdx.x == 0) {
        const unsigned predecessors = cooperative_groups::this_cluster().block_rank();
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(&this_blocks_mailbox<T>().arrivals)),
                     "r"(predecessors > 0 ? predecessors : 1u)
                     : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      }
      cooperative_groups::this_cluster().sync();
    }));
  }

  // Every thread of every block, after the tile's work: a cluster barrier, so that no block exits
  // while a predecessor may still push into its mailbox. The mbarrier wait already orders every
  // push before the look-back that reads it, but only a cluster barrier shows compute-sanitizer
  // racecheck that the target block is still running (without it: "potential invalid __shared__
  // write ... in a block that might have already exited", H200, 2026-12-03).
  __device__ void close_mailbox() const {
    NV_IF_TARGET(NV_PROVIDES_SM_90, (cooperative_groups::this_cluster().sync();));
  }

  __device__ long long tile() const {
    NV_IF_TARGET(NV_PROVIDES_SM_90, (return cooperative_groups::this_cluster().block_rank();), (return 0;));
  }

  // Every lane of one warp: lane r delivers `aggregate` to block r > tile.
  __device__ void push_aggregate(long long tile, const T& aggregate) const {
    NV_IF_TARGET(NV_PROVIDES_SM_90, ({
      namespace cg = cooperative_groups;
      const cg::cluster_group cluster = cg::this_cluster();
      const int rank = static_cast<int>(lane_id());
      if (rank > tile && rank < static_cast<int>(cluster.num_blocks())) {
        cluster_mailbox<T>& mine = this_blocks_mailbox<T>();
        cluster.map_shared_rank(&mine, rank)->aggregate[tile] = aggregate;
        unsigned remote;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(shared_address(&mine.arrivals)), "r"(rank));
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
      }
    }));
  }

  // Every lane of one warp: op over the aggregates of tiles [0, tile), in order (tile > 0).
  template <class Op>
  __device__ T look_back(long long tile, Op& op) const {
    cluster_mailbox<T>& mailbox = this_blocks_mailbox<T>();
    NV_IF_TARGET(NV_PROVIDES_SM_90, ({
      const unsigned arrivals = shared_address(&mailbox.arrivals);
      unsigned done = 0;
      while (!done)
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(arrivals)
            : "memory");
    }));
    const int lane = static_cast<int>(lane_id()), count = static_cast<int>(tile);
    const T mine = mailbox.aggregate[lane < count ? lane : 0];
    return shfl_idx(warp_reduce_prefix(mine, count, op), 0);
  }
};

// Whether `num_tiles` tiles of a kernel on `Policy` run as one cluster of the portable size (any
// kernel whose block fits an SM is scheduled in clusters of 8): 2 to 8 tiles on a GPU with
// clusters, unless the policy caps its persistent grid (tests do, so that a few blocks reduce
// ahead over many tiles).
template <class Policy>
cudaError_t fits_one_portable_cluster(std::int64_t num_tiles, bool& fits) {
  fits = false;
  if (Policy::persistent_grid_limit > 0 || num_tiles < 2 || num_tiles > portable_cluster_blocks) return cudaSuccess;
  return clusters_supported(fits);
}

// The launch of a tile kernel on `State`: one cluster of a block per tile for a cluster state,
// else chained (the tile state was cleared by the kernel before it).
template <class State, class... Params, class... Args>
cudaError_t launch_tile_kernel(void (*kernel)(Params...), std::int64_t num_tiles, dim3 block, cudaStream_t stream,
                               Args&&... args) {
  if constexpr (in_one_cluster_v<State>)
    return launch_one_cluster(kernel, static_cast<unsigned>(num_tiles), block, stream, std::forward<Args>(args)...);
  else
    return launch_chained(kernel, dim3(claiming_grid(num_tiles)), block, stream, std::forward<Args>(args)...);
}

}  // namespace upsweep::detail
