// Suite `histogram`: even histograms by Upsweep and CUB on the same inputs: 256 bins of uint32
// (a non-power-of-two range, so the reciprocal path, and a power-of-two range, the shift path),
// all samples in one bin, float samples, uint8 samples, RGBA8 pixels (4 x 256 bins), 4096 and
// 65536 bins. Bytes are the samples read (n * sizeof(sample)). Suite `tune`: the aggregation
// variants, through the policy template argument. Temporary storage is allocated outside the timing.
#include "bench_support.cuh"

#include <upsweep/histogram/device_histogram.cuh>

#include <cub/device/device_histogram.cuh>
#include <cuda/std/array>

#include <cstdint>
#include <string>
#include <vector>

namespace upsweep::bench {
namespace {

template <class S>
struct even_case {
  int bins;
  histogram_level_t<S> lower, upper;  // Upsweep's bounds
  S lo, hi;                           // samples drawn uniformly from [lo, hi]
};

template <class Policy = void, class S>
void upsweep_even(benchmark::State& state, const even_case<S>& c) {
  const std::int64_t n = state.range(0);
  device_array<S> in(n);
  device_array<unsigned> counts(c.bins);
  fill_input<S>(in.ptr, n, c.lo, c.hi);
  const S* d_in = in.ptr;
  const double bytes_read = static_cast<double>(n) * sizeof(S);
  time_with_temp_storage(state, n, bytes_read, [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return upsweep::histogram_even<Policy>(temp, bytes, d_in, n, counts.ptr, c.bins, c.lower, c.upper,
                                           histogram_mode::overwrite, s);
  });
}

// CUB's levels: the sample type for 32-bit samples (Upsweep's 64-bit bounds must fit it), int for 8-bit.
template <class S, class Level>
void cub_even(benchmark::State& state, const even_case<S>& c) {
  const std::int64_t n = state.range(0);
  device_array<S> in(n);
  device_array<unsigned> counts(c.bins);
  fill_input<S>(in.ptr, n, c.lo, c.hi);
  const auto lower = static_cast<Level>(c.lower), upper = static_cast<Level>(c.upper);
  const double bytes_read = static_cast<double>(n) * sizeof(S);
  time_with_temp_storage(state, n, bytes_read, [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, in.ptr, counts.ptr, c.bins + 1, lower, upper, cub_count(n),
                                               s);
  });
}

// RGBA8: n samples = n / 4 pixels, 256 bins per channel, all four channels counted. A template, so
// that upsweep-bench-cub35 (which registers no Upsweep row) compiles no Upsweep kernel.
template <class Policy = void>
void upsweep_rgba8(benchmark::State& state) {
  const std::int64_t n = state.range(0), pixels = n / 4;
  device_array<std::uint8_t> in(n);
  device_array<unsigned> counts(4 * 256);
  fill_input<std::uint8_t>(in.ptr, n, 0, 255);
  unsigned* const per_channel[4] = {counts.ptr, counts.ptr + 256, counts.ptr + 512, counts.ptr + 768};
  const int bins[4] = {256, 256, 256, 256};
  const long long lower[4] = {0, 0, 0, 0}, upper[4] = {256, 256, 256, 256};
  const std::uint8_t* d_in = in.ptr;
  time_with_temp_storage(state, n, static_cast<double>(n), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return upsweep::histogram_even_multi<4, 4>(temp, bytes, d_in, pixels, per_channel, bins, lower, upper,
                                               histogram_mode::overwrite, s);
  });
}

void cub_rgba8(benchmark::State& state) {
  const std::int64_t n = state.range(0), pixels = n / 4;
  device_array<std::uint8_t> in(n);
  device_array<unsigned> counts(4 * 256);
  fill_input<std::uint8_t>(in.ptr, n, 0, 255);
  const cuda::std::array<unsigned*, 4> per_channel = {counts.ptr, counts.ptr + 256, counts.ptr + 512, counts.ptr + 768};
  const cuda::std::array<int, 4> levels = {257, 257, 257, 257};
  const cuda::std::array<int, 4> lower = {0, 0, 0, 0}, upper = {256, 256, 256, 256};
  time_with_temp_storage(state, n, static_cast<double>(n), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceHistogram::MultiHistogramEven<4, 4>(temp, bytes, in.ptr, per_channel, levels, lower, upper,
                                                          cub_count(pixels), s);
  });
}

const std::vector<std::int64_t> histogram_sizes{std::int64_t{1} << 24, std::int64_t{1} << 28};
const std::vector<std::int64_t> byte_sizes{std::int64_t{1} << 28, std::int64_t{1} << 30};
constexpr double min_time_s = 0.25;

template <class S, class CubLevel>
void register_pair(const std::string& row, even_case<S> c, const std::vector<std::int64_t>& sizes) {
  add_row("histogram/" + row + "/cub", sizes, min_time_s,
          [c](benchmark::State& state) { cub_even<S, CubLevel>(state, c); });
  if constexpr (!cub_rows_only)
    add_row("histogram/" + row + "/upsweep", sizes, min_time_s,
            [c](benchmark::State& state) { upsweep_even(state, c); });
}

template <class Policy>
void register_tuning(const std::string& name) {
  const even_case<std::uint32_t> uniform{256, 0, 1'000'000'000, 0, 999'999'999};
  const even_case<std::uint32_t> one_bin{256, 0, 1'000'000'000, 123'456'789, 123'456'789};
  add_row("tune/histogram_even_u32_256/" + name, histogram_sizes, min_time_s,
          [uniform](benchmark::State& state) { upsweep_even<Policy>(state, uniform); });
  add_row("tune/histogram_one_bin_u32_256/" + name, histogram_sizes, min_time_s,
          [one_bin](benchmark::State& state) { upsweep_even<Policy>(state, one_bin); });
}

// Float samples: one subtract, multiply, conversion and clamp a sample on top of the counting.
template <class Policy>
void register_float_tuning(const std::string& name) {
  const even_case<float> uniform{256, 0.0f, 1.0f, 0.0f, 1.0f};
  add_row("tune/histogram_even_f32_256/" + name, histogram_sizes, min_time_s,
          [uniform](benchmark::State& state) { upsweep_even<Policy>(state, uniform); });
}

// 8-bit samples: per-sample instructions and shared atomics are the limit, not the loads.
template <class Policy>
void register_byte_tuning(const std::string& name) {
  const even_case<std::uint8_t> bytes{256, 0, 256, 0, 255};
  add_row("tune/histogram_even_u8_256/" + name, byte_sizes, min_time_s,
          [bytes](benchmark::State& state) { upsweep_even<Policy>(state, bytes); });
}

const bool registered = register_later([] {
  // 256 bins over [0, 10^9): bin width 3906250, not a power of two (the reciprocal path).
  register_pair<std::uint32_t, std::uint32_t>("even_u32_256", {256, 0, 1'000'000'000, 0, 999'999'999}, histogram_sizes);
  // 256 bins over [0, 2^31): the shift path.
  register_pair<std::uint32_t, std::uint32_t>("even_u32_256_pow2", {256, 0, 1ll << 31, 0, 0x7fffffffu}, histogram_sizes);
  register_pair<std::uint32_t, std::uint32_t>("one_bin_u32_256", {256, 0, 1'000'000'000, 123'456'789, 123'456'789},
                                              histogram_sizes);
  register_pair<float, float>("even_f32_256", {256, 0.0f, 1.0f, 0.0f, 1.0f}, histogram_sizes);
  register_pair<std::uint8_t, int>("even_u8_256", {256, 0, 256, 0, 255}, byte_sizes);
  register_pair<std::uint32_t, std::uint32_t>("even_u32_4096", {4096, 0, 1'000'000'000, 0, 999'999'999}, histogram_sizes);
  register_pair<std::uint32_t, std::uint32_t>("even_u32_65536", {65536, 0, 1'000'000'000, 0, 999'999'999},
                                              histogram_sizes);
  add_row("histogram/rgba8_4x256/cub", byte_sizes, min_time_s, cub_rgba8, "u8");
#ifndef UPSWEEP_BENCH_CUB35
  add_row("histogram/rgba8_4x256/upsweep", byte_sizes, min_time_s, upsweep_rgba8<>, "u8");

  register_tuning<histogram_policy<256, 2, 8, histogram_aggregation::none>>("t256_v2_c8_none");
  register_tuning<histogram_policy<256, 2, 8, histogram_aggregation::thread_runs>>("t256_v2_c8_runs");
  register_tuning<histogram_policy<256, 2, 8, histogram_aggregation::warp_match>>("t256_v2_c8_match");
  register_tuning<histogram_policy<256, 4, 8, histogram_aggregation::thread_runs>>("t256_v4_c8_runs");
  register_tuning<histogram_policy<512, 1, 16, histogram_aggregation::thread_runs>>("t512_v1_c16_runs");
  register_tuning<histogram_policy<256, 2, 2, histogram_aggregation::thread_runs>>("t256_v2_c2_runs");
  register_float_tuning<histogram_policy<256, 2, 8, histogram_aggregation::thread_runs>>("t256_v2_c8_runs");
  register_float_tuning<histogram_policy<256, 4, 8, histogram_aggregation::thread_runs>>("t256_v4_c8_runs");
  register_float_tuning<histogram_policy<256, 2, 8, histogram_aggregation::none>>("t256_v2_c8_none");
  register_float_tuning<histogram_policy<256, 4, 8, histogram_aggregation::none>>("t256_v4_c8_none");
  register_float_tuning<histogram_policy<256, 2, 8, histogram_aggregation::warp_match>>("t256_v2_c8_match");
  register_float_tuning<histogram_policy<512, 2, 16, histogram_aggregation::thread_runs>>("t512_v2_c16_runs");
  register_byte_tuning<histogram_policy<256, 2, 8, histogram_aggregation::thread_runs>>("t256_v2_c8_runs");
  register_byte_tuning<histogram_policy<256, 2, 8, histogram_aggregation::none>>("t256_v2_c8_none");
  register_byte_tuning<histogram_policy<256, 4, 8, histogram_aggregation::none>>("t256_v4_c8_none");
  register_byte_tuning<histogram_policy<512, 2, 16, histogram_aggregation::none>>("t512_v2_c16_none");
  register_byte_tuning<histogram_policy<1024, 1, 32, histogram_aggregation::none>>("t1024_v1_c32_none");
  register_byte_tuning<histogram_policy<256, 1, 8, histogram_aggregation::none>>("t256_v1_c8_none");
#endif
});

}  // namespace
}  // namespace upsweep::bench
