// A kernel's block storage in shared memory: declared statically up to the 48 KB a block may
// declare, past that in the launch's dynamic shared memory, which the launch then passes
// (dynamic_shared_bytes_v) and the occupancy query counts (persistent_grid_sharing).
#pragma once

#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace upsweep::detail {

inline constexpr std::size_t static_shared_limit = 48 * 1024;

// The dynamic shared memory a launch passes for a block storage of type Storage (0: static).
template <class Storage>
inline constexpr std::size_t dynamic_shared_bytes_v = sizeof(Storage) > static_shared_limit ? sizeof(Storage) : 0;

template <class Storage>
__device__ __forceinline__ Storage& block_shared() {
  if constexpr (dynamic_shared_bytes_v<Storage> > 0) {
    extern __shared__ __align__(16) unsigned char dynamic_shared[];
    return *reinterpret_cast<Storage*>(dynamic_shared);
  } else {
    __shared__ Storage storage;
    return storage;
  }
}

// persistent_grid for a kernel launched with DynamicShared bytes of dynamic shared memory, which
// it first allows the kernel on the current device. Past 48 KB it asks on every call (no default
// policy needs that much; resident_blocks caches its answer).
template <auto Kernel, int BlockThreads, std::size_t DynamicShared>
cudaError_t persistent_grid_sharing(int limit, int& blocks) {
  if constexpr (DynamicShared == 0) {
    return persistent_grid<Kernel, BlockThreads>(limit, blocks);
  } else {
    int device = 0, sms = 0, per_sm = 0;
    UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
    UPSWEEP_CUDA_RETURN(sm_count(device, sms));
    UPSWEEP_CUDA_RETURN(
        cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(DynamicShared)));
    UPSWEEP_CUDA_RETURN(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, BlockThreads, DynamicShared));
    blocks = sms * (per_sm > 0 ? per_sm : 1);
    if (limit > 0 && blocks > limit) blocks = limit;
    return cudaSuccess;
  }
}

}  // namespace upsweep::detail
