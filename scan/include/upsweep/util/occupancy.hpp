// How many blocks of a kernel fill the current device, asked once per device and kernel: the
// queries cost host time that a 10-microsecond call would otherwise pay on every launch.
#pragma once

#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <atomic>

namespace upsweep::detail {

inline constexpr int max_cached_devices = 64;

// Streaming multiprocessors of `device`.
inline cudaError_t sm_count(int device, int& sms) {
  static std::atomic<int> cached[max_cached_devices] = {};  // 0: not asked yet
  if (device >= 0 && device < max_cached_devices && (sms = cached[device].load(std::memory_order_relaxed)) > 0)
    return cudaSuccess;
  UPSWEEP_CUDA_RETURN(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (device >= 0 && device < max_cached_devices) cached[device].store(sms, std::memory_order_relaxed);
  return cudaSuccess;
}

// Blocks of `Kernel` (BlockThreads threads, no dynamic shared memory) resident at once on the
// current device; at least one per SM.
template <auto Kernel, int BlockThreads>
cudaError_t resident_blocks(int& blocks) {
  static std::atomic<int> cached[max_cached_devices] = {};
  int device = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  if (device < max_cached_devices && (blocks = cached[device].load(std::memory_order_relaxed)) > 0)
    return cudaSuccess;
  int sms = 0, per_sm = 0;
  UPSWEEP_CUDA_RETURN(sm_count(device, sms));
  UPSWEEP_CUDA_RETURN(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, BlockThreads, 0));
  blocks = sms * (per_sm > 0 ? per_sm : 1);
  if (device < max_cached_devices) cached[device].store(blocks, std::memory_order_relaxed);
  return cudaSuccess;
}

// The grid of a kernel whose blocks claim tiles until none is left: its resident blocks, or at
// most `limit` when positive (tests use a few, so that each block takes many tiles).
template <auto Kernel, int BlockThreads>
cudaError_t persistent_grid(int limit, int& blocks) {
  UPSWEEP_CUDA_RETURN((resident_blocks<Kernel, BlockThreads>(blocks)));
  if (limit > 0 && blocks > limit) blocks = limit;
  return cudaSuccess;
}

}  // namespace upsweep::detail
