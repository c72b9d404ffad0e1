// How many blocks of a kernel fill the current device, asked once per device and kernel: the
// queries cost host time that a 10-microsecond call would otherwise pay on every launch.
#pragma once

#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>

namespace upsweep::detail {

inline constexpr int max_cached_devices = 64;

// A value of `device` (>= 0), which ask(value) computes the first time and `cache` keeps after:
// a slot holds the value plus one, 0 meaning not asked yet. Devices past the cache ask each time.
template <class Ask>
cudaError_t once_per_device(std::atomic<int> (&cache)[max_cached_devices], int device, int& value, Ask&& ask) {
  const bool cacheable = device >= 0 && device < max_cached_devices;
  if (cacheable) {
    const int known = cache[device].load(std::memory_order_relaxed);
    if (known > 0) {
      value = known - 1;
      return cudaSuccess;
    }
  }
  UPSWEEP_CUDA_RETURN(ask(value));
  if (cacheable) cache[device].store(value + 1, std::memory_order_relaxed);
  return cudaSuccess;
}

// once_per_device for the current device.
template <class Ask>
cudaError_t once_per_current_device(std::atomic<int> (&cache)[max_cached_devices], int& value, Ask&& ask) {
  int device = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  return once_per_device(cache, device, value, static_cast<Ask&&>(ask));
}

// Streaming multiprocessors of `device`.
inline cudaError_t sm_count(int device, int& sms) {
  static std::atomic<int> cache[max_cached_devices] = {};
  return once_per_device(cache, device, sms, [device](int& value) {
    return cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, device);
  });
}

// Blocks of `Kernel` (BlockThreads threads, DynamicShared bytes of dynamic shared memory, which
// it first allows the kernel) resident at once on the current device; at least one per SM.
template <auto Kernel, int BlockThreads, std::size_t DynamicShared = 0>
cudaError_t resident_blocks(int& blocks) {
  static std::atomic<int> cache[max_cached_devices] = {};
  return once_per_current_device(cache, blocks, [](int& value) {
    int device = 0, sms = 0, per_sm = 0;
    UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
    UPSWEEP_CUDA_RETURN(sm_count(device, sms));
    if constexpr (DynamicShared > 0)
      UPSWEEP_CUDA_RETURN(
          cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(DynamicShared)));
    UPSWEEP_CUDA_RETURN(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, BlockThreads, DynamicShared));
    value = sms * (per_sm > 0 ? per_sm : 1);
    return cudaSuccess;
  });
}

// The grid of a kernel whose blocks claim tiles until none is left: its resident blocks, or at
// most `limit` when positive (tests use a few, so that each block takes many tiles).
template <auto Kernel, int BlockThreads, std::size_t DynamicShared = 0>
cudaError_t persistent_grid(int limit, int& blocks) {
  UPSWEEP_CUDA_RETURN((resident_blocks<Kernel, BlockThreads, DynamicShared>(blocks)));
  if (limit > 0 && blocks > limit) blocks = limit;
  return cudaSuccess;
}

}  // namespace upsweep::detail
