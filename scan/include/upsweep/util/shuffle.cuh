// Warp shuffles for any trivially copyable type, moved as 32-bit words.
#pragma once

#include <upsweep/util/arch.cuh>

#include <cuda/std/type_traits>

namespace upsweep::detail {

template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(const T& value, Shuffle shuffle) {
  static_assert(cuda::std::is_trivially_copyable_v<T>, "shuffled types must be trivially copyable");
  constexpr int words = (sizeof(T) + sizeof(unsigned) - 1) / sizeof(unsigned);
  unsigned in[words] = {};
  unsigned out[words];
  memcpy(in, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) out[i] = shuffle(in[i]);
  T result;
  memcpy(&result, out, sizeof(T));
  return result;
}

template <class T>
__device__ __forceinline__ T shfl_up(const T& value, unsigned delta) {
  return shuffle_words(value, [delta](unsigned w) { return __shfl_up_sync(full_warp_mask, w, delta); });
}

template <class T>
__device__ __forceinline__ T shfl_down(const T& value, unsigned delta) {
  return shuffle_words(value, [delta](unsigned w) { return __shfl_down_sync(full_warp_mask, w, delta); });
}

template <class T>
__device__ __forceinline__ T shfl_idx(const T& value, int src_lane) {
  return shuffle_words(value, [src_lane](unsigned w) { return __shfl_sync(full_warp_mask, w, src_lane); });
}

}  // namespace upsweep::detail
