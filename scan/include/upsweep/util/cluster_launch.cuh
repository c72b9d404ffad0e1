// Launches of one thread-block cluster (sm_90 and later): the blocks of a cluster are scheduled
// together on one GPU processing cluster and may read each other's shared memory, so a grid that
// is one cluster needs no state in global memory to share results between its blocks.
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>

#include <cuda_runtime.h>

#include <atomic>
#include <utility>

namespace upsweep::detail {

// Every GPU with clusters runs clusters of 8; some run 16 when the kernel allows sizes past that.
inline constexpr int portable_cluster_blocks = 8;
inline constexpr int largest_cluster_blocks = 16;

// Whether the current device launches thread-block clusters. Asked once per device.
inline cudaError_t clusters_supported(bool& supported) {
  static std::atomic<int> cached[max_cached_devices] = {};  // 0: not asked yet, 1: no, 2: yes
  int device = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  const int known = device < max_cached_devices ? cached[device].load(std::memory_order_relaxed) : 0;
  if (known != 0) {
    supported = known == 2;
    return cudaSuccess;
  }
  int attribute = 0;
  UPSWEEP_CUDA_RETURN(cudaDeviceGetAttribute(&attribute, cudaDevAttrClusterLaunch, device));
  supported = attribute != 0;
  if (device < max_cached_devices) cached[device].store(supported ? 2 : 1, std::memory_order_relaxed);
  return cudaSuccess;
}

// The largest cluster of `Kernel` (BlockThreads threads, no dynamic shared memory) that the
// current device can schedule: 16, 8, or 0 on a GPU without clusters. Asked once per device.
template <auto Kernel, int BlockThreads>
cudaError_t cluster_blocks_limit(int& blocks) {
  static std::atomic<int> cached[max_cached_devices] = {};  // 0: not asked yet, -1: none
  int device = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  const int known = device < max_cached_devices ? cached[device].load(std::memory_order_relaxed) : 0;
  if (known != 0) {
    blocks = known > 0 ? known : 0;
    return cudaSuccess;
  }
  bool supported = false;
  UPSWEEP_CUDA_RETURN(clusters_supported(supported));
  blocks = 0;
  if (supported) {
    UPSWEEP_CUDA_RETURN(cudaFuncSetAttribute(Kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchAttribute cluster = {};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim = {static_cast<unsigned>(largest_cluster_blocks), 1, 1};
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(largest_cluster_blocks);
    config.blockDim = dim3(BlockThreads);
    config.attrs = &cluster;
    config.numAttrs = 1;
    int clusters = 0;
    UPSWEEP_CUDA_RETURN(cudaOccupancyMaxActiveClusters(&clusters, Kernel, &config));
    blocks = clusters > 0 ? largest_cluster_blocks : portable_cluster_blocks;
  }
  if (device < max_cached_devices) cached[device].store(blocks > 0 ? blocks : -1, std::memory_order_relaxed);
  return cudaSuccess;
}

// A grid of `blocks` blocks that is one cluster (at most cluster_blocks_limit).
template <class... Params, class... Args>
cudaError_t launch_one_cluster(void (*kernel)(Params...), unsigned blocks, dim3 block, cudaStream_t stream,
                               Args&&... args) {
  cudaLaunchAttribute cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim = {blocks, 1, 1};
  return launch_with_attribute(kernel, dim3(blocks), block, 0, stream, cluster, std::forward<Args>(args)...);
}

}  // namespace upsweep::detail
