// Thread block clusters (sm_90 and later): a few blocks launched together on neighbouring SMs that
// can read each other's shared memory and wait for each other. A small input then takes one
// launch and no temporary storage where it would otherwise need two launches (a pass writing
// per-block results to global memory, or a tile state cleared first).
#pragma once

#include <upsweep/util/error.hpp>

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <nv/target>

#include <atomic>
#include <utility>

namespace upsweep::detail {

// Blocks in every cluster launch: the portable maximum.
inline constexpr int cluster_blocks = 8;

// Whether the current device runs clusters (compute capability 9.0 or later), asked once per device.
inline cudaError_t device_has_clusters(bool& has) {
  static std::atomic<int> cached[64] = {};  // 0: not asked, 1: no, 2: yes
  int device = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  const bool cacheable = device >= 0 && device < 64;
  int known = cacheable ? cached[device].load(std::memory_order_relaxed) : 0;
  if (known == 0) {
    int major = 0;
    UPSWEEP_CUDA_RETURN(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    known = major >= 9 ? 2 : 1;
    if (cacheable) cached[device].store(known, std::memory_order_relaxed);
  }
  has = known == 2;
  return cudaSuccess;
}

// Launches one cluster of cluster_blocks blocks.
template <class... Params, class... Args>
cudaError_t launch_one_cluster(void (*kernel)(Params...), int block_threads, cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attribute[1] = {};
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = cluster_blocks;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(cluster_blocks);
  config.blockDim = dim3(static_cast<unsigned>(block_threads));
  config.stream = stream;
  config.attrs = attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

// Device side; only called on sm_90 and later (the host launches cluster kernels only there).
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank = 0;
  NV_IF_TARGET(NV_PROVIDES_SM_90, (rank = cooperative_groups::this_cluster().block_rank();));
  return rank;
}

// Every thread of every block of the cluster arrives; shared memory written before is visible
// to the other blocks after.
__device__ __forceinline__ void cluster_barrier() {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cooperative_groups::this_cluster().sync();), (__trap();));
}

// The value at `local` in block `rank`'s shared memory.
template <class T>
__device__ __forceinline__ T read_block_shared(T* local, unsigned rank) {
  T value{};
  NV_IF_TARGET(NV_PROVIDES_SM_90, (value = *cooperative_groups::this_cluster().map_shared_rank(local, rank);),
               ((void)local; (void)rank; __trap();));
  return value;
}

}  // namespace upsweep::detail
