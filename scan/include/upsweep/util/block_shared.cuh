// A kernel's block storage in shared memory: declared statically up to the 48 KB a block may
// declare, past that in the launch's dynamic shared memory, which the launch then passes
// (dynamic_shared_bytes_v) and the occupancy query counts (persistent_grid's DynamicShared).
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

}  // namespace upsweep::detail
