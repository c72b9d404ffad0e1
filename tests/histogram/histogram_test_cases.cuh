// The histogram tests' shared pieces: the CPU references (exact 128-bit integer bins; the
// documented float formula), a runner over poisoned counts with a guard, the sample shapes, and
// the fixture both test files use.
#pragma once

#include <upsweep/histogram/device_histogram.cuh>

#include "../scan/scan_test_support.cuh"

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

namespace upsweep::test {

using upsweep::histogram_level_t;
using upsweep::histogram_mode;

// ---- references -------------------------------------------------------------------------------

// Integers: floor((x - lower) * bins / (upper - lower)) in 128 bits. Floats: the documented
// formula, (x - lower) * (bins / (upper - lower)) in the sample type, truncated, clamped.
template <class S>
long long reference_even_bin(S x, int bins, histogram_level_t<S> lower, histogram_level_t<S> upper) {
  if constexpr (std::is_integral_v<S>) {
    const __int128 v = x, lo = lower, hi = upper;
    if (v < lo || v >= hi) return -1;
    return static_cast<long long>((v - lo) * bins / (hi - lo));
  } else {
    if (!(x >= lower && x < upper)) return -1;
    const S scale = static_cast<S>(bins) / (upper - lower);
    const S t = (x - lower) * scale;
    const long long bin = t < static_cast<S>(bins) ? static_cast<long long>(t) : bins - 1;
    return std::min<long long>(bin, bins - 1);
  }
}

template <class Counter, class S>
std::vector<Counter> reference_even(const std::vector<S>& samples, int bins, histogram_level_t<S> lower,
                                    histogram_level_t<S> upper, std::vector<Counter> counts = {}) {
  if (counts.empty()) counts.assign(static_cast<std::size_t>(bins), 0);
  for (S x : samples) {
    const long long b = reference_even_bin(x, bins, lower, upper);
    if (b >= 0) ++counts[static_cast<std::size_t>(b)];
  }
  return counts;
}

template <class Counter, class S>
std::vector<Counter> reference_range(const std::vector<S>& samples, const std::vector<histogram_level_t<S>>& edges) {
  const int bins = static_cast<int>(edges.size()) - 1;
  std::vector<Counter> counts(static_cast<std::size_t>(bins), 0);
  for (S x : samples) {
    const auto v = static_cast<histogram_level_t<S>>(x);
    if (!(v >= edges.front() && v < edges.back())) continue;
    const auto it = std::upper_bound(edges.begin(), edges.end(), v);  // first edge above v
    ++counts[static_cast<std::size_t>(it - edges.begin() - 1)];
  }
  return counts;
}

// ---- runner -----------------------------------------------------------------------------------

struct histogram_run_options {
  int misalign = 0;                             // samples by which the input starts past an aligned allocation
  histogram_mode mode = histogram_mode::overwrite;
  cudaStream_t stream = 0;
};

// Runs `call(d_temp, bytes, d_samples, d_counts, stream)` on a device copy of `samples`. The counts
// start as `initial` (accumulate) or poisoned (overwrite), a guard past them must stay poisoned,
// and the input must be unchanged.
template <class Counter, class S, class Call>
void run_histogram(const std::vector<S>& samples, int bins, Call call, std::vector<Counter>& result,
                   const histogram_run_options& opt = {}, const std::vector<Counter>& initial = {}) {
  const auto n = static_cast<std::int64_t>(samples.size());
  device_buffer<S> in(n + opt.misalign);
  device_buffer<Counter> counts(bins, guard_items);
  if (n > 0) CUDA_OK(cudaMemcpy(in.data() + opt.misalign, samples.data(), n * sizeof(S), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(counts.data(), poison_byte, (bins + guard_items) * sizeof(Counter)));
  if (!initial.empty()) CUDA_OK(cudaMemcpy(counts.data(), initial.data(), bins * sizeof(Counter), cudaMemcpyHostToDevice));
  const S* d_samples = in.data() + opt.misalign;

  std::size_t bytes = 0;
  CUDA_OK(call(nullptr, bytes, d_samples, counts.data(), opt.stream));
  ASSERT_GT(bytes, 0u);
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(call(temp.data(), bytes, d_samples, counts.data(), opt.stream));
  CUDA_OK(cudaStreamSynchronize(opt.stream));
  CUDA_OK(cudaGetLastError());

  result = counts.download(bins);
  std::vector<unsigned char> guard(guard_items * sizeof(Counter));
  CUDA_OK(cudaMemcpy(guard.data(), counts.data() + bins, guard.size(), cudaMemcpyDeviceToHost));
  for (unsigned char b : guard) ASSERT_EQ(b, poison_byte) << "written past the end of the counts";
  std::vector<S> after(static_cast<std::size_t>(n));
  if (n > 0) CUDA_OK(cudaMemcpy(after.data(), d_samples, n * sizeof(S), cudaMemcpyDeviceToHost));
  ASSERT_EQ(0, n == 0 ? 0 : std::memcmp(after.data(), samples.data(), n * sizeof(S))) << "input changed";
}

template <class Policy = void, class Counter = std::uint32_t, class S>
void check_even(const std::vector<S>& samples, int bins, histogram_level_t<S> lower, histogram_level_t<S> upper,
                const histogram_run_options& opt = {}, const std::vector<Counter>& initial = {}) {
  SCOPED_TRACE("n " + std::to_string(samples.size()) + ", bins " + std::to_string(bins) + ", misalign " +
               std::to_string(opt.misalign));
  const auto n = static_cast<std::int64_t>(samples.size());
  std::vector<Counter> got;
  run_histogram<Counter>(
      samples, bins,
      [&](void* d_temp, std::size_t& bytes, const S* d_samples, Counter* d_counts, cudaStream_t stream) {
        return upsweep::histogram_even<Policy>(d_temp, bytes, d_samples, n, d_counts, bins, lower, upper, opt.mode,
                                               stream);
      },
      got, opt, initial);
  if (::testing::Test::HasFatalFailure()) return;
  const std::vector<Counter> want =
      reference_even<Counter>(samples, bins, lower, upper, opt.mode == histogram_mode::accumulate ? initial : std::vector<Counter>{});
  expect_same_bits(got, want);
}

// ---- data -------------------------------------------------------------------------------------

template <class S>
std::vector<S> uniform(std::int64_t n, std::uint64_t seed, S lo, S hi) {
  return random_host<S>(n, seed, lo, hi);
}

// All samples in one bin, or in two hot bins with a sprinkle of others.
template <class S>
std::vector<S> skewed(std::int64_t n, std::uint64_t seed, S hot, S other_hot, S lo, S hi, bool two_hot) {
  std::vector<S> out = random_host<S>(n, seed, lo, hi);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed + 7 * static_cast<std::uint64_t>(i)) % 100;
    if (!two_hot) out[i] = hot;
    else if (r < 48) out[i] = hot;
    else if (r < 96) out[i] = other_hot;
  }
  return out;
}

class Histogram : public gpu_test {};

}  // namespace upsweep::test
