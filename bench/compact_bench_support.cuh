// Shared pieces of the compaction benchmarks (compact_bench.cu, partition_bench.cu,
// group_bench.cu): uniform data with a keep rate, data made of runs, result checks run after the
// timing (a wrong row is reported as an error), and the row registration of suite `compact`.
#pragma once

#include "bench_support.cuh"

#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/logical.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace upsweep::bench {

// Values are uniform in [1, value_range<T>], so `value < threshold` keeps rate% of them.
template <class T>
inline constexpr T value_range = static_cast<T>(sizeof(T) == 4 ? 1'000'000ll : 1'000'000'000'000ll);

template <class T>
struct below {
  T threshold;
  __host__ __device__ bool operator()(const T& x) const { return x < threshold; }
};

template <class T>
below<T> keep_rate(int rate_percent) {
  return {static_cast<T>(1 + value_range<T> / 100 * rate_percent)};
}

template <class T>
void fill_uniform(T* d, std::int64_t n) { fill_input<T>(d, n, T{1}, value_range<T>); }

// Runs for unique, run-length encode and the by-key rows: item i starts a run with probability
// starts_per_10000 / 10^4 (item 0 always), run ids come from an inclusive scan of those starts, and
// each run gets a hashed non-zero value (adjacent runs sharing a value is a 2^-31 event, so the
// run count is the run-start count).
template <class T>
__global__ void run_starts_kernel(T* out, std::int64_t n, std::uint64_t seed, int starts_per_10000) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const bool starts = i == 0 || test::random_value<std::uint32_t>(seed, static_cast<std::uint64_t>(i), 0, 9999) <
                                      static_cast<std::uint32_t>(starts_per_10000);
    out[i] = starts ? T{1} : T{0};
  }
}

template <class T>
__global__ void run_values_kernel(T* data, std::int64_t n, std::uint64_t seed) {
  constexpr auto largest = static_cast<std::uint64_t>(sizeof(T) == 4 ? 0x7fffffffull : 0x7fffffffffffffffull);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    data[i] = static_cast<T>(1 + test::mix64(seed ^ static_cast<std::uint64_t>(data[i])) % (largest - 1));
}

template <class T>
void fill_runs(T* d, std::int64_t n, int starts_per_10000) {
  auto& ctx = bench_context::get();
  run_starts_kernel<<<1024, 256, 0, ctx.stream>>>(d, n, ++ctx.seed, starts_per_10000);
  BENCH_CUDA(cudaGetLastError());
  thrust::inclusive_scan(thrust::cuda::par_nosync.on(ctx.stream), d, d + n, d);
  run_values_kernel<<<1024, 256, 0, ctx.stream>>>(d, n, ++ctx.seed);
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
}

template <class T>
double select_bytes(std::int64_t n, int rate_percent) {
  return static_cast<double>(n) * sizeof(T) * (1.0 + rate_percent / 100.0);
}

// ---- result checks (Upsweep rows, after the timing, on the last iteration's output) -------------
// A wrong row is reported as an error, not as a time. Order-free fingerprints: equal sums for the
// same multiset of items; the tests check order.

template <class T>
struct item_fingerprint {
  below<T> pred;
  bool only_kept;
  __device__ std::uint64_t operator()(const T& x) const {
    return !only_kept || pred(x) ? test::mix64(static_cast<std::uint64_t>(x)) : 0;
  }
};

template <class T>
std::uint64_t fingerprint(const T* d, std::int64_t n, below<T> pred, bool only_kept) {
  const cudaStream_t s = bench_context::get().stream;
  return thrust::transform_reduce(thrust::cuda::par.on(s), d, d + n, item_fingerprint<T>{pred, only_kept},
                                  std::uint64_t{0}, thrust::plus<std::uint64_t>());
}

inline std::int64_t count_to_host(const std::int64_t* d_count) {
  std::int64_t count = -1;
  BENCH_CUDA(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  return count;
}

template <class T>
std::int64_t expected_count(const T* in, std::int64_t n, below<T> pred) {
  return thrust::count_if(thrust::cuda::par.on(bench_context::get().stream), in, in + n, pred);
}

inline void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("wrong result: ") + what);
}

template <class T>
void check_selected(const T* in, const T* out, const std::int64_t* d_count, std::int64_t n, below<T> pred) {
  const std::int64_t count = count_to_host(d_count);
  require(count == expected_count(in, n, pred), "selected count");
  require(fingerprint(out, count, pred, false) == fingerprint(in, n, pred, true), "not the selected items");
}

template <class T>
void check_partitioned(const T* in, const T* out, const std::int64_t* d_count, std::int64_t n, below<T> pred) {
  const std::int64_t count = count_to_host(d_count);
  require(count == expected_count(in, n, pred), "selected count");
  const auto policy = thrust::cuda::par.on(bench_context::get().stream);
  require(thrust::all_of(policy, out, out + count, pred) && thrust::none_of(policy, out + count, out + n, pred),
          "items on the wrong side of the split");
  require(fingerprint(out, n, pred, false) == fingerprint(in, n, pred, false), "not a permutation of the input");
}

using row_fn = void (*)(benchmark::State&, int);

// 10^2 .. 10^8, or .. 10^9 for the headline rows (UPSWEEP_BENCH_MAX_EXP caps both).
inline void add_compact_row(const std::string& op, const char* type, int rate, const char* impl, row_fn fn, bool headline) {
  const std::string name = "compact/" + op + "_" + type + "_" + std::to_string(rate) + "pct/" + impl;
  add_row(name, decade_sizes(headline ? 9 : 8), 0.1,
          [fn, rate](benchmark::State& state) { guarded(state, [&] { fn(state, rate); }); });
}

}  // namespace upsweep::bench
