// Device histogram against a CPU reference (exact 128-bit integer bins; the documented float
// formula): every sample type; bin counts from 1 to 10^6; uniform, one-bin, two-hot-bin,
// out-of-range, NaN and infinite samples; edges; full-range int8 and int16; n = 0 in both modes;
// accumulate; misaligned pointers; every aggregation; graph capture. Custom edges, channels, CUB
// and past 2^31 samples: test_device_histogram_edges.cu.
#include "histogram_test_cases.cuh"

namespace upsweep::test {
namespace {

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
  // Each sample type's own tile (16-byte vectors, so a tile of bytes holds tile_bytes samples).
  const std::int64_t byte_tile = default_histogram_policy<std::uint8_t>::tile_bytes;
  const std::int64_t int_tile = default_histogram_policy<std::int32_t>::tile_bytes / 4;
  for (const std::int64_t tile : {byte_tile, int_tile}) {
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{31}, std::int64_t{33}, tile - 1, tile,
                           tile + 1, 3 * tile + 17, std::int64_t{999983}}) {
      check_even(uniform<std::uint8_t>(n, seed + n, 0, 255), 256, 0, 256);
      check_even(uniform<std::int32_t>(n, seed + n, -5000, 5000), 100, -4000, 4000);
    }
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
    histogram_run_options opt;
    opt.mode = histogram_mode::accumulate;
    check_even<void, std::uint64_t>(uniform<std::uint16_t>(max_test_items(500'000), seed, 0, 65535), bins, 0, 65536, opt,
                                    initial);
  }
}

TEST_F(Histogram, MisalignedSamplesTakeTheScalarHeadAndTail) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (int misalign : {1, 3, 4, 7, 8, 11, 12, 16}) {
    histogram_run_options opt;
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

}  // namespace
}  // namespace upsweep::test
