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
  static std::atomic<int> cache[max_cached_devices] = {};
  int attribute = 0;
  UPSWEEP_CUDA_RETURN(once_per_current_device(cache, attribute, [](int& value) {
    int device = 0;
    UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
    return cudaDeviceGetAttribute(&value, cudaDevAttrClusterLaunch, device);
  }));
  supported = attribute != 0;
  return cudaSuccess;
}

// The largest cluster of `Kernel` (BlockThreads threads, no dynamic shared memory) that the
// current device can schedule: 16, 8, or 0 on a GPU without clusters. Asked once per device.
template <auto Kernel, int BlockThreads>
cudaError_t cluster_blocks_limit(int& blocks) {
  static std::atomic<int> cache[max_cached_devices] = {};
  return once_per_current_device(cache, blocks, [](int& value) {
    value = 0;
    bool supported = false;
    UPSWEEP_CUDA_RETURN(clusters_supported(supported));
    if (!supported) return cudaSuccess;
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
    value = clusters > 0 ? largest_cluster_blocks : portable_cluster_blocks;
    return cudaSuccess;
  });
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
