// The top-k rows' shared pieces, for upsweep-bench and upsweep-bench-cub35 alike: sizes, k, the
// logit-like keys and the check of a row's result against a sort of the whole input.
#pragma once

#include "bench_support.cuh"

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <cuda_bf16.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace upsweep::bench {

// 2^20, 2^26, 2^28 (capped by UPSWEEP_BENCH_MAX_LOG2).
inline std::vector<std::int64_t> top_k_bench_sizes() {
  int max_log2 = 28;
  if (const char* cap = std::getenv("UPSWEEP_BENCH_MAX_LOG2")) max_log2 = std::atoi(cap);
  std::vector<std::int64_t> sizes;
  for (int log2 : {20, 26, 28})
    if (log2 <= max_log2) sizes.push_back(std::int64_t{1} << log2);
  return sizes;
}

inline std::vector<std::int64_t> top_k_bench_ks() { return {1, 32, 1024, 65536}; }

// The batched rows: 64 rows of 128k keys, k = 50 of each.
inline constexpr std::int64_t top_k_bench_rows = 64;
inline constexpr std::int64_t top_k_bench_row_length = 131072;
inline constexpr std::int64_t top_k_bench_row_k = 50;

template <class Key>
__global__ void logits_kernel(Key* out, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<Key>(upsweep::test::random_value<float>(seed, static_cast<std::uint64_t>(i), -1.0f, 1.0f));
}

// Fresh keys uniform in [-1, 1), rounded to Key (bf16: many ties, as in a model's logits).
template <class Key>
void fill_logits(Key* d, std::int64_t n) {
  auto& ctx = bench_context::get();
  logits_kernel<<<1024, 256, 0, ctx.stream>>>(d, n, ++ctx.seed);
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
}

struct greater_as_float {
  template <class Key>
  __host__ __device__ bool operator()(const Key& a, const Key& b) const {
    return static_cast<float>(a) > static_cast<float>(b);
  }
};

// The k keys out, in any order, must be the k largest of the input as a multiset (ties may be
// any of the equal keys). A wrong row is reported as an error.
template <class Key>
void check_top_k_keys(const Key* d_keys, std::int64_t n, const Key* d_out, std::int64_t k) {
  const cudaStream_t s = bench_context::get().stream;
  BENCH_CUDA(cudaStreamSynchronize(s));
  thrust::device_vector<Key> all(d_keys, d_keys + n), got(d_out, d_out + k);
  thrust::sort(thrust::cuda::par.on(s), all.begin(), all.end(), greater_as_float{});
  thrust::sort(thrust::cuda::par.on(s), got.begin(), got.end(), greater_as_float{});
  std::vector<Key> want_host(static_cast<std::size_t>(k)), got_host(static_cast<std::size_t>(k));
  thrust::copy(all.begin(), all.begin() + k, want_host.begin());
  thrust::copy(got.begin(), got.end(), got_host.begin());
  for (std::int64_t i = 0; i < k; ++i)
    if (static_cast<float>(want_host[static_cast<std::size_t>(i)]) != static_cast<float>(got_host[static_cast<std::size_t>(i)]))
      throw std::runtime_error("wrong result: not the k largest keys");
}

}  // namespace upsweep::bench
