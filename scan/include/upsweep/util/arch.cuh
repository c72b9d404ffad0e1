// Warp geometry and small math shared by every layer.
#pragma once

#include <cstdint>

namespace upsweep::detail {

inline constexpr int warp_threads = 32;
inline constexpr unsigned full_warp_mask = 0xffffffffu;

template <class I>
__host__ __device__ constexpr I ceil_div(I a, I b) {
  return (a + b - 1) / b;
}

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x % warp_threads; }
__device__ __forceinline__ unsigned warp_id() { return threadIdx.x / warp_threads; }

}  // namespace upsweep::detail
