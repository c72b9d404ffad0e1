// Random test data generated on the device from (seed, index) with a counter-based hash, so
// billions of items cost milliseconds and the same seed gives the same data anywhere.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

namespace upsweep::test {

__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Integers uniform in [lo, hi] (inclusive); floats uniform in [lo, hi).
template <class T>
__host__ __device__ inline T random_value(std::uint64_t seed, std::uint64_t index, T lo, T hi) {
  const std::uint64_t bits = mix64(seed ^ mix64(index));
  if constexpr (std::is_floating_point_v<T>) {
    const double unit = static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
    return static_cast<T>(lo + (hi - lo) * unit);
  } else {
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;  // 0: full range
    return static_cast<T>(static_cast<std::uint64_t>(lo) + (span == 0 ? bits : bits % span));
  }
}

template <class T>
__global__ void fill_random_kernel(T* out, std::int64_t n, std::uint64_t seed, T lo, T hi) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = random_value<T>(seed, static_cast<std::uint64_t>(i), lo, hi);
}

template <class T>
cudaError_t fill_random(T* d_out, std::int64_t n, std::uint64_t seed, T lo, T hi, cudaStream_t stream = 0) {
  if (n == 0) return cudaSuccess;
  fill_random_kernel<<<1024, 256, 0, stream>>>(d_out, n, seed, lo, hi);
  return cudaGetLastError();
}

template <class T>
__global__ void fill_value_kernel(T* out, std::int64_t n, T value) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = value;
}

// Poisons an output before a run, so an unwritten element cannot pass for a right one.
template <class T>
cudaError_t poison(T* d_out, std::int64_t n, T value, cudaStream_t stream = 0) {
  if (n == 0) return cudaSuccess;
  fill_value_kernel<<<1024, 256, 0, stream>>>(d_out, n, value);
  return cudaGetLastError();
}

}  // namespace upsweep::test
