// Device histogram against a CPU reference (exact 128-bit integer bins; the documented float
// formula) and against CUB where CUB is right: every sample type; bin counts from 1 to 10^6;
// uniform, one-bin, two-hot-bin, out-of-range, NaN and infinite samples; edges; full-range int8
// and int16; n = 0 in both modes; accumulate; misaligned pointers; custom edges; RGBA8 with a
// skipped channel; every aggregation; graph capture; past 2^31 samples with 64-bit counters.
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

namespace upsweep::test {
namespace {

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

struct run_options {
  int misalign = 0;                             // samples by which the input starts past an aligned allocation
  histogram_mode mode = histogram_mode::overwrite;
  cudaStream_t stream = 0;
};

// Runs `call(d_temp, bytes, d_samples, d_counts, stream)` on a device copy of `samples`. The counts
// start as `initial` (accumulate) or poisoned (overwrite), a guard past them must stay poisoned,
// and the input must be unchanged.
template <class Counter, class S, class Call>
void run_histogram(const std::vector<S>& samples, int bins, Call call, std::vector<Counter>& result,
                   const run_options& opt = {}, const std::vector<Counter>& initial = {}) {
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
                const run_options& opt = {}, const std::vector<Counter>& initial = {}) {
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

// ---- bin counts, types, distributions ---------------------------------------------------------

TEST_F(Histogram, EvenBinsMatchTheReferenceForEveryBinCount) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(1'000'003);
  for (int bins : {1, 2, 255, 256, 257, 4096, 65536, 1'000'000}) {
    // Samples spill past both ends of [1000, 2^24 + 1000) so some are dropped.
    const auto samples = uniform<std::uint32_t>(n, seed + bins, 0, (1u << 24) + 5000);
    check_even(samples, bins, 1000, (1ll << 24) + 1000);
    check_even<void, std::uint64_t>(samples, bins, 1000, (1ll << 24) + 1000);
  }
}

TEST_F(Histogram, SizesAroundTilesAndTheGrid) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t tile = default_histogram_policy<std::uint8_t>::tile_bytes;
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{31}, std::int64_t{33}, tile - 1, tile, tile + 1,
                         3 * tile + 17, std::int64_t{999983}}) {
    check_even(uniform<std::uint8_t>(n, seed + n, 0, 255), 256, 0, 256);
    check_even(uniform<std::int32_t>(n, seed + n, -5000, 5000), 100, -4000, 4000);
  }
}

template <class S>
class HistogramTyped : public gpu_test {};
using sample_types = ::testing::Types<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t,
                                      std::int32_t, std::uint64_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(HistogramTyped, sample_types);

TYPED_TEST(HistogramTyped, EverySampleTypeMatchesTheReferenceWithNegativeAndOutOfRangeSamples) {
  using S = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(300'007);
  const S lo = std::is_signed_v<S> ? static_cast<S>(-100) : S{0};
  const S hi = static_cast<S>(120);
  const auto samples = uniform<S>(n, seed, lo, hi);
  const histogram_level_t<S> lower = std::is_signed_v<S> ? -90 : 3, upper = 110;
  for (int bins : {1, 7, 256, 257, 3000}) check_even(samples, bins, lower, upper);
  // The whole type for integers (every sample counted); a wide float range.
  if constexpr (std::is_integral_v<S>) {
    const auto everything = uniform<S>(n, seed + 1, std::numeric_limits<S>::min(), std::numeric_limits<S>::max());
    using lim = std::numeric_limits<S>;
    const histogram_level_t<S> top =
        sizeof(S) <= 4 ? static_cast<histogram_level_t<S>>(lim::max()) + 1 : static_cast<histogram_level_t<S>>(lim::max());
    for (int bins : {1, 3, 256, 1000}) check_even(everything, bins, static_cast<histogram_level_t<S>>(lim::min()), top);
  } else {
    check_even(uniform<S>(n, seed + 1, static_cast<S>(-1e30), static_cast<S>(1e30)), 1000, static_cast<S>(-1e30),
               static_cast<S>(1e30));
  }
}

TEST_F(Histogram, FullRangeInt8AndInt16CountEverySample) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto i8 = uniform<std::int8_t>(max_test_items(1'000'000), seed, -128, 127);
  const auto i16 = uniform<std::int16_t>(max_test_items(1'000'000), seed + 1, -32768, 32767);
  for (int bins : {256, 255, 2, 1000}) check_even(i8, bins, -128, 128);
  for (int bins : {65536, 256, 1000, 3}) check_even(i16, bins, -32768, 32768);
}

template <class Policy, class S>
void check_distributions(std::uint64_t seed, S lo, S hi, histogram_level_t<S> lower, histogram_level_t<S> upper) {
  const std::int64_t n = max_test_items(2'000'003);
  const S hot = static_cast<S>(lo + (hi - lo) / 3), other = static_cast<S>(hi - 1);
  for (int bins : {1, 2, 256, 4096}) {
    check_even<Policy>(uniform<S>(n, seed, lo, hi), bins, lower, upper);
    check_even<Policy>(skewed<S>(n, seed, hot, other, lo, hi, false), bins, lower, upper);
    check_even<Policy>(skewed<S>(n, seed, hot, other, lo, hi, true), bins, lower, upper);
    check_even<Policy>(skewed<S>(n, seed, hot, other, lo, hi, true), bins, lower, upper, {3});  // misaligned
  }
}

TEST_F(Histogram, OneBinAndTwoHotBinsWithEveryAggregation) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  using none = histogram_policy<256, 2, 8, histogram_aggregation::none>;
  using runs = histogram_policy<256, 2, 8, histogram_aggregation::thread_runs>;
  using match = histogram_policy<256, 2, 8, histogram_aggregation::warp_match>;
  using one_copy = histogram_policy<128, 1, 1, histogram_aggregation::thread_runs>;
  // 1 KB of shared memory and the trash words: 256 bins in one copy, 4096 bins through global atomics.
  using small_shared = histogram_policy<256, 2, 8, histogram_aggregation::warp_match, 1152, 1152>;
  using small_shared_runs = histogram_policy<256, 2, 8, histogram_aggregation::thread_runs, 1152, 1152>;
  check_distributions<none, std::uint8_t>(seed, 0, 255, 0, 256);
  check_distributions<runs, std::uint8_t>(seed, 0, 255, 0, 256);
  check_distributions<match, std::uint8_t>(seed, 0, 255, 0, 256);
  check_distributions<one_copy, std::uint8_t>(seed, 0, 255, 0, 256);
  check_distributions<small_shared, std::uint8_t>(seed, 0, 255, 0, 256);
  check_distributions<small_shared_runs, std::uint16_t>(seed, 0, 65535, 0, 65536);
  check_distributions<none, std::uint32_t>(seed, 0, 1'000'000, 0, 1'000'000);
  check_distributions<runs, std::uint32_t>(seed, 0, 1'000'000, 0, 1'000'000);
  check_distributions<match, std::uint32_t>(seed, 0, 1'000'000, 0, 1'000'000);
}

TEST_F(Histogram, FloatNaNInfinitiesAndValuesOnEdgesFollowTheFormula) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (auto [lower, upper, bins] : {std::tuple<float, float, int>{0.0f, 1.0f, 10}, {-1.0f, 1.0f, 3}, {0.1f, 0.7f, 6},
                                    {-3.0f, 5.0f, 256}}) {
    std::vector<float> samples = uniform<float>(max_test_items(100'000), seed, lower - 1, upper + 1);
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                              std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                              lower, upper, std::nextafter(upper, lower), std::nextafter(lower, -1e30f), -0.0f, 0.0f};
    for (std::size_t i = 0; i < samples.size(); i += 7) samples[i] = specials[(i / 7) % std::size(specials)];
    for (int i = 0; i <= bins; ++i) samples.push_back(lower + (upper - lower) * static_cast<float>(i) / static_cast<float>(bins));
    check_even(samples, bins, lower, upper);
    const std::vector<double> wide(samples.begin(), samples.end());
    check_even(wide, bins, static_cast<double>(lower), static_cast<double>(upper));
  }
}

// ---- modes, n = 0, alignment ------------------------------------------------------------------

TEST_F(Histogram, NoSamplesZeroTheCountsInOverwriteModeAndLeaveThemInAccumulateMode) {
  const std::vector<std::uint32_t> none;
  std::vector<std::uint32_t> got;
  const int bins = 300;
  const auto call = [&](histogram_mode mode) {
    return [=](void* d_temp, std::size_t& bytes, const std::uint32_t* d_samples, std::uint32_t* d_counts, cudaStream_t s) {
      return upsweep::histogram_even(d_temp, bytes, d_samples, 0, d_counts, bins, 0, 1000, mode, s);
    };
  };
  run_histogram<std::uint32_t>(none, bins, call(histogram_mode::overwrite), got);
  EXPECT_EQ(got, std::vector<std::uint32_t>(bins, 0));
  std::vector<std::uint32_t> initial(bins);
  for (int i = 0; i < bins; ++i) initial[i] = static_cast<std::uint32_t>(i * 7 + 1);
  run_histogram<std::uint32_t>(none, bins, call(histogram_mode::accumulate), got, {0, histogram_mode::accumulate}, initial);
  EXPECT_EQ(got, initial);
}

TEST_F(Histogram, AccumulateAddsToTheCountsAlreadyThere) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (int bins : {256, 100'000}) {
    std::vector<std::uint64_t> initial(static_cast<std::size_t>(bins));
    for (int i = 0; i < bins; ++i) initial[i] = (std::uint64_t{1} << 40) + static_cast<std::uint64_t>(i);
    run_options opt;
    opt.mode = histogram_mode::accumulate;
    check_even<void, std::uint64_t>(uniform<std::uint16_t>(max_test_items(500'000), seed, 0, 65535), bins, 0, 65536, opt,
                                    initial);
  }
}

TEST_F(Histogram, MisalignedSamplesTakeTheScalarHeadAndTail) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (int misalign : {1, 3, 4, 7, 8, 11, 12, 16}) {
    run_options opt;
    opt.misalign = misalign;
    check_even(uniform<std::uint8_t>(max_test_items(200'003), seed + misalign, 0, 255), 256, 0, 256, opt);
    check_even(uniform<std::uint32_t>(max_test_items(200'003), seed + misalign, 0, 99'999), 4096, 0, 100'000, opt);
    check_even(uniform<std::int16_t>(max_test_items(200'003), seed + misalign, -32768, 32767), 257, -32768, 32768, opt);
  }
}

TEST_F(Histogram, ConvenienceLayerRunsOnAStreamAndThrowsOnBadArguments) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  cudaStream_t stream{};
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto samples = uniform<std::uint8_t>(100'000, seed, 0, 255);
  device_buffer<std::uint8_t> in(samples);
  device_buffer<std::uint32_t> counts(64);
  upsweep::histogram_even(in.data(), in.size(), counts.data(), 64, 0, 256, histogram_mode::overwrite, stream);
  CUDA_OK(cudaStreamSynchronize(stream));
  EXPECT_EQ(counts.download(), reference_even<std::uint32_t>(samples, 64, 0, 256));
  EXPECT_THROW(upsweep::histogram_even(in.data(), in.size(), counts.data(), 0, 0, 256, histogram_mode::overwrite, stream),
               upsweep::cuda_error);
  CUDA_OK(cudaStreamDestroy(stream));
}

TEST_F(Histogram, CoreLayerCanBeCapturedInAGraph) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto samples = uniform<std::uint32_t>(300'000, seed, 0, 9999);
  device_buffer<std::uint32_t> in(samples);
  device_buffer<std::uint32_t> counts(1000);
  cudaStream_t stream{};
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::size_t bytes = 0;
  CUDA_OK(upsweep::histogram_even(nullptr, bytes, in.data(), in.size(), counts.data(), 1000, 0, 10000));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  cudaGraph_t graph{};
  CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  CUDA_OK(upsweep::histogram_even(temp.data(), bytes, static_cast<const std::uint32_t*>(in.data()), in.size(),
                                  counts.data(), 1000, 0, 10000, histogram_mode::overwrite, stream));
  CUDA_OK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec{};
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaGraphLaunch(exec, stream));  // overwrite: the second run gives the same counts
  CUDA_OK(cudaStreamSynchronize(stream));
  EXPECT_EQ(counts.download(), reference_even<std::uint32_t>(samples, 1000, 0, 10000));
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaStreamDestroy(stream));
}

// ---- custom edges -----------------------------------------------------------------------------

template <class S>
void check_range(const std::vector<S>& samples, const std::vector<histogram_level_t<S>>& edges, int misalign = 0) {
  const int bins = static_cast<int>(edges.size()) - 1;
  SCOPED_TRACE("n " + std::to_string(samples.size()) + ", bins " + std::to_string(bins));
  device_buffer<histogram_level_t<S>> d_edges(edges);
  const auto n = static_cast<std::int64_t>(samples.size());
  std::vector<std::uint32_t> got;
  run_options opt;
  opt.misalign = misalign;
  run_histogram<std::uint32_t>(
      samples, bins,
      [&](void* d_temp, std::size_t& bytes, const S* d_samples, std::uint32_t* d_counts, cudaStream_t stream) {
        return upsweep::histogram_range(d_temp, bytes, d_samples, n, d_counts,
                                        static_cast<const histogram_level_t<S>*>(d_edges.data()), bins,
                                        histogram_mode::overwrite, stream);
      },
      got, opt);
  if (::testing::Test::HasFatalFailure()) return;
  expect_same_bits(got, reference_range<std::uint32_t>(samples, edges));
}

TEST_F(Histogram, CustomEdgesMatchTheReferenceInSharedAndGlobalMemory) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(500'009);
  for (int bins : {1, 2, 257, 4096, 1'000'000}) {  // 10^6 edges do not fit in shared memory
    std::vector<long long> edges = random_host<long long>(bins + 1, seed + bins, -2'000'000, 2'000'000);
    std::sort(edges.begin(), edges.end());
    if (bins > 2) edges[bins / 2] = edges[bins / 2 + 1];  // a repeated edge: an empty bin
    check_range(uniform<std::int32_t>(n, seed, -2'100'000, 2'100'000), edges);
    check_range(uniform<std::int32_t>(n, seed, -2'100'000, 2'100'000), edges, 1);
    std::vector<float> float_edges(edges.begin(), edges.end());
    std::sort(float_edges.begin(), float_edges.end());
    auto floats = uniform<float>(n, seed, -2.1e6f, 2.1e6f);
    floats[0] = std::numeric_limits<float>::quiet_NaN();
    floats[1] = float_edges[bins / 2];
    check_range(floats, float_edges);
  }
  const std::vector<long long> byte_edges = {-1000, -128, -1, 0, 1, 127, 128, 1000};  // beyond int8 on both sides
  check_range(uniform<std::int8_t>(n, seed, -128, 127), byte_edges);
}

// ---- multi-channel ----------------------------------------------------------------------------

TEST_F(Histogram, RgbaPixelsGetOneHistogramPerActiveChannelAndSkipAlpha) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (std::int64_t pixels : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1023}, max_test_items(1'000'003)}) {
    for (int misalign_bytes : {0, 4, 1}) {  // 1 byte: vectors would split pixels, so all pixels go scalar
      const auto rgba = uniform<std::uint8_t>(pixels * 4, seed + pixels, 0, 255);
      const int bins[3] = {256, 17, 1000};
      const long long lower[3] = {0, 10, 0}, upper[3] = {256, 200, 256};
      device_buffer<std::uint8_t> in(pixels * 4 + misalign_bytes);
      if (pixels > 0) CUDA_OK(cudaMemcpy(in.data() + misalign_bytes, rgba.data(), rgba.size(), cudaMemcpyHostToDevice));
      device_buffer<std::uint32_t> c0(bins[0]), c1(bins[1]), c2(bins[2]);
      CUDA_OK(poison(c0.data(), bins[0], 0xdeadbeefu));
      CUDA_OK(poison(c1.data(), bins[1], 0xdeadbeefu));
      CUDA_OK(poison(c2.data(), bins[2], 0xdeadbeefu));
      std::uint32_t* const counts[3] = {c0.data(), c1.data(), c2.data()};
      std::size_t bytes = 0;
      const std::uint8_t* d_pixels = in.data() + misalign_bytes;
      CUDA_OK((upsweep::histogram_even_multi<4, 3>(nullptr, bytes, d_pixels, pixels, counts, bins, lower, upper)));
      device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
      CUDA_OK((upsweep::histogram_even_multi<4, 3>(temp.data(), bytes, d_pixels, pixels, counts, bins, lower, upper)));
      CUDA_OK(cudaDeviceSynchronize());
      const device_buffer<std::uint32_t>* outs[3] = {&c0, &c1, &c2};
      for (int c = 0; c < 3; ++c) {
        std::vector<std::uint8_t> channel(static_cast<std::size_t>(pixels));
        for (std::int64_t p = 0; p < pixels; ++p) channel[p] = rgba[p * 4 + c];
        SCOPED_TRACE("pixels " + std::to_string(pixels) + ", misalign " + std::to_string(misalign_bytes) + ", channel " +
                     std::to_string(c));
        expect_same_bits(outs[c]->download(), reference_even<std::uint32_t>(channel, bins[c], lower[c], upper[c]));
      }
    }
  }
}

// ---- CUB where CUB is right -------------------------------------------------------------------

TEST_F(Histogram, AgreesWithCubOnU32AndFloatWithModerateRanges) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const int n = static_cast<int>(max_test_items(2'000'000));
  for (int bins : {1, 2, 255, 256, 257, 4096, 65536}) {
    const auto samples = uniform<std::uint32_t>(n, seed + bins, 0, 1'100'000);
    device_buffer<std::uint32_t> in(samples);
    device_buffer<unsigned int> ours(bins), theirs(bins);
    upsweep::histogram_even(static_cast<const std::uint32_t*>(in.data()), n, ours.data(), bins, 0, 1'000'000);
    std::size_t bytes = 0;
    CUDA_OK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, in.data(), theirs.data(), bins + 1, 0u, 1'000'000u, n));
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    CUDA_OK(cub::DeviceHistogram::HistogramEven(temp.data(), bytes, in.data(), theirs.data(), bins + 1, 0u, 1'000'000u, n));
    CUDA_OK(cudaDeviceSynchronize());
    SCOPED_TRACE("u32, bins " + std::to_string(bins));
    expect_same_bits(ours.download(), theirs.download());
  }
  for (int bins : {10, 256, 1000}) {  // random floats: no sample sits on an edge CUB might round differently
    const auto samples = uniform<float>(n, seed + bins, -0.5f, 1.5f);
    device_buffer<float> in(samples);
    device_buffer<unsigned int> ours(bins), theirs(bins);
    upsweep::histogram_even(static_cast<const float*>(in.data()), n, ours.data(), bins, 0.0f, 1.0f);
    std::size_t bytes = 0;
    CUDA_OK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, in.data(), theirs.data(), bins + 1, 0.0f, 1.0f, n));
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    CUDA_OK(cub::DeviceHistogram::HistogramEven(temp.data(), bytes, in.data(), theirs.data(), bins + 1, 0.0f, 1.0f, n));
    CUDA_OK(cudaDeviceSynchronize());
    SCOPED_TRACE("float, bins " + std::to_string(bins));
    expect_same_bits(ours.download(), theirs.download());
  }
}

// ---- past 2^31 samples ------------------------------------------------------------------------

TEST_F(Histogram, LargeU8PastTwoToThe31WithSixtyFourBitCounters) {
  const std::int64_t n = (std::int64_t{1} << 31) + 4099;
  if (max_test_items(n) < n) GTEST_SKIP() << "UPSWEEP_TEST_MAX_ITEMS is below 2^31";
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  device_buffer<std::uint8_t> in(n);
  CUDA_OK(fill_random<std::uint8_t>(in.data(), n, seed, 0, 255));
  device_buffer<std::uint64_t> counts(256);
  device_buffer<std::uint64_t> skewed_counts(3);
  CUDA_OK(poison(counts.data(), 256, std::uint64_t{0xdeadbeef}));
  std::size_t bytes = 0;
  const std::uint8_t* d_in = in.data();
  CUDA_OK(upsweep::histogram_even(nullptr, bytes, d_in, n, counts.data(), 256, 0, 256));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(upsweep::histogram_even(temp.data(), bytes, d_in, n, counts.data(), 256, 0, 256));
  // Three wide bins over the same samples: each bin gets about 2^31 / 3 samples in 64-bit counters.
  CUDA_OK(upsweep::histogram_even(temp.data(), bytes, d_in, n, skewed_counts.data(), 3, 0, 256));
  CUDA_OK(cudaDeviceSynchronize());
  // The reference counts values once, then maps each of the 256 values to its bin.
  const std::vector<std::uint8_t> host = in.download();
  std::vector<std::uint64_t> by_value(256, 0);
  for (std::uint8_t x : host) ++by_value[x];
  std::vector<std::uint64_t> want(256, 0), want_wide(3, 0);
  for (int v = 0; v < 256; ++v) {
    want[reference_even_bin(static_cast<std::uint8_t>(v), 256, 0, 256)] += by_value[v];
    want_wide[reference_even_bin(static_cast<std::uint8_t>(v), 3, 0, 256)] += by_value[v];
  }
  expect_same_bits(counts.download(), want);
  expect_same_bits(skewed_counts.download(), want_wide);
  std::uint64_t total = 0;
  for (std::uint64_t c : want) total += c;
  EXPECT_EQ(total, static_cast<std::uint64_t>(n));
}

// 32-bit counts wrap modulo 2^32 (documented); every block's 32-bit shared counters stay exact.
TEST_F(Histogram, LargeU32CountsWrapModuloTwoToThe32) {
  const std::int64_t n = (std::int64_t{1} << 32) + 12345;
  if (max_test_items(n) < n) GTEST_SKIP() << "UPSWEEP_TEST_MAX_ITEMS is below 2^32";
  device_buffer<std::uint8_t> in(n);
  CUDA_OK(poison(in.data(), n, std::uint8_t{77}));
  device_buffer<std::uint32_t> narrow(2);
  device_buffer<std::uint64_t> wide(2);
  const std::uint8_t* d_in = in.data();
  upsweep::histogram_even(d_in, n, narrow.data(), 2, 0, 256);
  upsweep::histogram_even(d_in, n, wide.data(), 2, 0, 256);
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(narrow.download(), (std::vector<std::uint32_t>{12345, 0}));
  EXPECT_EQ(wide.download(), (std::vector<std::uint64_t>{static_cast<std::uint64_t>(n), 0}));
}

}  // namespace
}  // namespace upsweep::test
