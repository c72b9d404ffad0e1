// Host-only histogram tests (no GPU): the integer bin arithmetic against a 128-bit reference,
// exhaustively for every 8- and 16-bit sample and many ranges and bin counts, sampled for 32- and
// 64-bit; the float formula's clamp and drops; the custom-edge search; argument checks that
// return cudaErrorInvalidValue before any CUDA call; pure size queries.
#include <upsweep/histogram/device_histogram.cuh>

#include "../support/device_random.cuh"
#include "../support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace {

using upsweep::histogram_level_t;

void* fake_device_pointer() { return reinterpret_cast<void*>(std::uintptr_t{1} << 20); }

// floor((x - lower) * bins / (upper - lower)) with an exact divide in Wide, or -1 outside
// [lower, upper). 64 bits are exact for samples of up to 16 bits (the product stays below 2^48);
// wider samples take 128 bits.
template <class Wide, class Sample>
long long reference_bin(Sample x, Wide lower, Wide upper, int bins) {
  const Wide value = x;
  if (value < lower || value >= upper) return -1;
  return static_cast<long long>((value - lower) * bins / (upper - lower));
}

template <class Sample>
std::string describe(long long lower, long long upper, int bins) {
  return "sample bytes " + std::to_string(sizeof(Sample)) + (std::is_signed_v<Sample> ? " signed" : " unsigned") +
         ", [" + std::to_string(lower) + ", " + std::to_string(upper) + "), " + std::to_string(bins) + " bins";
}

// Every sample of a type of at most 16 bits against the reference for one (lower, upper, bins).
template <class Sample>
void check_every_sample(long long lower, long long upper, int bins) {
  upsweep::even_bins<Sample> map;
  ASSERT_EQ(cudaSuccess, upsweep::make_even_bins<Sample>(bins, lower, upper, map)) << describe<Sample>(lower, upper, bins);
  using lim = std::numeric_limits<Sample>;
  for (long long v = lim::min(); v <= lim::max(); ++v) {
    const auto x = static_cast<Sample>(v);
    const long long want = reference_bin<long long>(x, lower, upper, bins);
    const int got = map.bin_of(x);
    if (got != want) {
      FAIL() << describe<Sample>(lower, upper, bins) << ": sample " << v << " got " << got << ", want " << want;
    }
    if (map.shift_only() && map.template bin_of<true>(x) != want) {
      FAIL() << describe<Sample>(lower, upper, bins) << ": shift path, sample " << v << " got "
             << map.template bin_of<true>(x) << ", want " << want;
    }
  }
}

std::vector<int> bin_counts_for(long long range) {
  std::vector<int> bins = {1, 2, 3, 7, 255, 256, 257, 4096, 65535, 65536, 65537, std::numeric_limits<int>::max()};
  for (long long extra : {range - 1, range, range + 1, range / 2, range / 3}) {
    if (extra >= 1 && extra <= std::numeric_limits<int>::max()) bins.push_back(static_cast<int>(extra));
  }
  return bins;
}

template <class Sample>
void check_8bit_every_range() {
  using lim = std::numeric_limits<Sample>;
  const long long lo = lim::min(), hi = static_cast<long long>(lim::max()) + 1;
  for (long long lower = lo; lower < hi; ++lower) {
    for (long long upper = lower + 1; upper <= hi; ++upper) {
      for (int bins : {1, 2, 3, 7, 100, 255, 256, 257, std::numeric_limits<int>::max()})
        check_every_sample<Sample>(lower, upper, bins);
      check_every_sample<Sample>(lower, upper, static_cast<int>(upper - lower));
      if (::testing::Test::HasFatalFailure() || ::testing::Test::HasFailure()) return;
    }
  }
}

TEST(HistogramBins, EveryUint8SampleLandsInTheExactBinForEveryRange) { check_8bit_every_range<std::uint8_t>(); }
TEST(HistogramBins, EveryInt8SampleLandsInTheExactBinForEveryRange) { check_8bit_every_range<std::int8_t>(); }

template <class Sample>
void check_16bit_ranges(std::uint64_t seed) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  using lim = std::numeric_limits<Sample>;
  const long long lo = lim::min(), hi = static_cast<long long>(lim::max()) + 1;
  std::set<long long> bounds = {lo, lo + 1, lo + 2, -1000, -1, 0, 1, 255, 256, 1000, 12345, hi - 2, hi - 1, hi};
  for (int i = 0; i < 2; ++i) bounds.insert(upsweep::test::random_value<long long>(seed, i, lo, hi));
  std::vector<long long> sorted;
  for (long long b : bounds)
    if (b >= lo && b <= hi) sorted.push_back(b);
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    for (std::size_t j = i + 1; j < sorted.size(); ++j) {
      for (int bins : bin_counts_for(sorted[j] - sorted[i])) {
        check_every_sample<Sample>(sorted[i], sorted[j], bins);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

TEST(HistogramBins, EveryUint16SampleLandsInTheExactBinForManyRanges) {
  check_16bit_ranges<std::uint16_t>(upsweep::test::fresh_seed());
}
TEST(HistogramBins, EveryInt16SampleLandsInTheExactBinForManyRanges) {
  check_16bit_ranges<std::int16_t>(upsweep::test::fresh_seed());
}

TEST(HistogramBins, FullRangeInt8AndInt16CountEverySampleInOrder) {
  check_every_sample<std::int8_t>(-128, 128, 256);
  check_every_sample<std::int8_t>(-128, 128, 2);
  check_every_sample<std::int16_t>(-32768, 32768, 65536);
  check_every_sample<std::int16_t>(-32768, 32768, 256);
  check_every_sample<std::int16_t>(-32768, 32768, 1000);
  check_every_sample<std::uint16_t>(0, 65536, 7);
}

// 32- and 64-bit: random samples plus the samples on each side of bin edges near the ends.
template <class Sample>
void check_sampled(__int128 lower, __int128 upper, int bins, std::uint64_t seed) {
  using level_t = histogram_level_t<Sample>;
  upsweep::even_bins<Sample> map;
  ASSERT_EQ(cudaSuccess, upsweep::make_even_bins<Sample>(bins, static_cast<level_t>(lower), static_cast<level_t>(upper), map));
  std::vector<Sample> samples;
  const __int128 range = upper - lower;
  for (int k : {0, 1, 2, 3}) {
    for (long long edge_bin : {static_cast<long long>(k), static_cast<long long>(bins) - k, static_cast<long long>(bins) / 2 + k}) {
      if (edge_bin < 0 || edge_bin > bins) continue;
      const __int128 first = lower + (range * edge_bin + bins - 1) / bins;  // first sample of bin edge_bin
      for (int delta = -2; delta <= 2; ++delta) samples.push_back(static_cast<Sample>(first + delta));
    }
  }
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const std::uint64_t bits = upsweep::test::mix64(seed ^ upsweep::test::mix64(i));
    samples.push_back(static_cast<Sample>(static_cast<__int128>(lower) + static_cast<__int128>(bits % static_cast<unsigned __int128>(range))));
    samples.push_back(static_cast<Sample>(bits));
  }
  for (Sample x : samples) {
    const long long want = reference_bin<__int128>(x, lower, upper, bins);
    ASSERT_EQ(map.bin_of(x), want) << "sample " << static_cast<long double>(x) << " in ["
                                   << static_cast<long double>(lower) << ", " << static_cast<long double>(upper)
                                   << "), " << bins << " bins";
    if (map.shift_only()) ASSERT_EQ(map.template bin_of<true>(x), want);
  }
}

template <class Sample>
void check_wide_type(std::uint64_t seed) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  using lim = std::numeric_limits<Sample>;
  const __int128 lo = lim::min();
  const __int128 hi = static_cast<__int128>(lim::max()) + (sizeof(Sample) <= 4 ? 1 : 0);
  std::vector<std::pair<__int128, __int128>> ranges = {{lo, hi}, {lo, lo + 1}, {hi - 1, hi}, {0, 1000},
                                                       {lo, lo + 3}, {lo + 1, hi - 1}, {0, hi}};
  if (std::is_signed_v<Sample>) ranges.push_back({-1000, 1000});
  for (int i = 0; i < 8; ++i) {
    const auto a = static_cast<__int128>(static_cast<Sample>(upsweep::test::mix64(seed + 2 * i)));
    const auto b = static_cast<__int128>(static_cast<Sample>(upsweep::test::mix64(seed + 2 * i + 1)));
    if (a != b) ranges.push_back({std::min(a, b), std::max(a, b)});
  }
  for (const auto& [lower, upper] : ranges) {
    std::vector<int> bins = {1, 2, 3, 255, 256, 257, 4096, 65536, 1000000, std::numeric_limits<int>::max()};
    const __int128 range = upper - lower;
    if (range <= std::numeric_limits<int>::max()) bins.push_back(static_cast<int>(range));
    for (int b : bins) {
      check_sampled<Sample>(lower, upper, b, seed);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(HistogramBins, ThirtyTwoBitSamplesLandInTheExactBin) {
  check_wide_type<std::uint32_t>(upsweep::test::fresh_seed());
  check_wide_type<std::int32_t>(upsweep::test::fresh_seed());
}
TEST(HistogramBins, SixtyFourBitSamplesLandInTheExactBin) {
  check_wide_type<std::uint64_t>(upsweep::test::fresh_seed());
  check_wide_type<std::int64_t>(upsweep::test::fresh_seed());
}

TEST(HistogramBins, PowerOfTwoBinWidthsTakeTheShift) {
  upsweep::even_bins<std::uint32_t> map;
  ASSERT_EQ(cudaSuccess, upsweep::make_even_bins<std::uint32_t>(256, 0, 1ll << 32, map));
  EXPECT_EQ(map.shift, 24);
  EXPECT_EQ(map.bin_of<true>(0xffffffffu), 255);
  ASSERT_EQ(cudaSuccess, upsweep::make_even_bins<std::uint32_t>(256, 0, 1000, map));
  EXPECT_FALSE(map.shift_only());
  upsweep::even_bins<std::int8_t> small;
  ASSERT_EQ(cudaSuccess, upsweep::make_even_bins<std::int8_t>(256, -128, 128, small));
  EXPECT_EQ(small.shift, 0);
  EXPECT_EQ(small.bin_of<true>(std::int8_t{-128}), 0);
  EXPECT_EQ(small.bin_of<true>(std::int8_t{127}), 255);
}

// The documented float formula: (x - lower) * (bins / (upper - lower)), truncated, clamped.
template <class F>
int float_reference(F x, F lower, F upper, int bins) {
  if (!(x >= lower && x < upper)) return -1;
  const F scale = static_cast<F>(bins) / (upper - lower);
  const F t = (x - lower) * scale;
  const long long bin = t < static_cast<F>(bins) ? static_cast<long long>(t) : bins - 1;
  return static_cast<int>(std::min<long long>(bin, bins - 1));
}

template <class F>
void check_float_bins() {
  const F inf = std::numeric_limits<F>::infinity(), nan = std::numeric_limits<F>::quiet_NaN();
  for (auto [lower, upper, bins] : {std::tuple<F, F, int>{0, 1, 10}, {-1, 1, 3}, {0.1f, 0.7f, 6}, {-1e30f, 1e30f, 1000},
                                    {0, 1, 1}, {0, 1, 1 << 20}}) {
    upsweep::even_bins<F> map;
    ASSERT_EQ(cudaSuccess, upsweep::make_even_bins<F>(bins, lower, upper, map));
    EXPECT_EQ(map.bin_of(lower), 0);
    EXPECT_EQ(map.bin_of(upper), -1);
    EXPECT_EQ(map.bin_of(std::nextafter(upper, lower)), bins - 1) << "the clamp keeps x < upper in the last bin";
    EXPECT_EQ(map.bin_of(std::nextafter(lower, -inf)), -1);
    EXPECT_EQ(map.bin_of(nan), -1);
    EXPECT_EQ(map.bin_of(inf), -1);
    EXPECT_EQ(map.bin_of(-inf), -1);
    for (int i = 0; i <= 1000; ++i) {
      const F x = lower + (upper - lower) * static_cast<F>(i) / static_cast<F>(1000);
      ASSERT_EQ(map.bin_of(x), float_reference(x, lower, upper, bins)) << x;
    }
  }
}

TEST(HistogramBins, FloatBinsFollowTheDocumentedFormulaAndDropNaNAndInfinities) {
  check_float_bins<float>();
  check_float_bins<double>();
}

TEST(HistogramBins, CustomEdgesFindTheLastEdgeAtOrBelowTheSample) {
  const std::vector<long long> edges = {-200, -128, -5, -5, 0, 3, 100, 127, 300};  // a repeated edge: an empty bin
  upsweep::range_bins<std::int8_t> map{edges.data(), static_cast<int>(edges.size()) - 1};
  for (int v = -128; v <= 127; ++v) {
    int want = -1;
    for (std::size_t i = 0; i + 1 < edges.size(); ++i)
      if (edges[i] <= v && v < edges[i + 1]) want = static_cast<int>(i);
    ASSERT_EQ(map.bin_of(static_cast<std::int8_t>(v)), want) << v;
  }
  const std::vector<double> float_edges = {0.0, 0.5, 1.0};
  upsweep::range_bins<double> fmap{float_edges.data(), 2};
  EXPECT_EQ(fmap.bin_of(0.5), 1);
  EXPECT_EQ(fmap.bin_of(1.0), -1);
  EXPECT_EQ(fmap.bin_of(std::nan("")), -1);
}

// ---- arguments and size queries ---------------------------------------------------------------

TEST(HistogramArguments, BadBinsAndBoundsAreInvalidEvenInASizeQuery) {
  std::size_t bytes = 0;
  const std::uint8_t* samples = nullptr;
  std::uint32_t* counts = nullptr;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, samples, 10, counts, 0, 0, 256));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, samples, 10, counts, -1, 0, 256));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, samples, 10, counts, 4, 5, 5));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, samples, 10, counts, 4, 6, 5));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, samples, 10, counts, 4, -1, 5));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, samples, 10, counts, 4, 0, 257));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, samples, -1, counts, 4, 0, 256));
  const std::int8_t* signed_samples = nullptr;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, signed_samples, 1, counts, 4, -129, 0));
  EXPECT_EQ(cudaSuccess, upsweep::histogram_even(nullptr, bytes, signed_samples, 1, counts, 4, -128, 128));
  const float* floats = nullptr;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, floats, 1, counts, 4, nan, 1.0f));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, floats, 1, counts, 4, 0.0f, nan));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, floats, 1, counts, 4, -inf, 1.0f));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, floats, 1, counts, 4, 1.0f, 1.0f));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, floats, 1, counts, 4, -3e38f, 3e38f))
      << "upper - lower overflows";
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(nullptr, bytes, floats, 1, counts, 4, 0.0f, 1e-45f))
      << "the scale overflows";
  const long long* edges = nullptr;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_range(nullptr, bytes, samples, 1, counts, edges, 0));
  const int bad_bins[2] = {256, 0};
  const long long lower[2] = {0, 0}, upper[2] = {256, 256};
  std::uint32_t* const two_counts[2] = {counts, counts};
  EXPECT_EQ(cudaErrorInvalidValue,
            (upsweep::histogram_even_multi<4, 2>(nullptr, bytes, samples, 1, two_counts, bad_bins, lower, upper)));
}

TEST(HistogramArguments, NullPointersAreInvalidBeforeAnyCudaCall) {
  std::size_t bytes = 256;
  void* temp = fake_device_pointer();
  const auto* samples = static_cast<const std::uint32_t*>(fake_device_pointer());
  auto* counts = static_cast<std::uint64_t*>(fake_device_pointer());
  const std::uint32_t* no_samples = nullptr;
  std::uint64_t* no_counts = nullptr;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(temp, bytes, no_samples, 5, counts, 4, 0, 100));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(temp, bytes, samples, 5, no_counts, 4, 0, 100));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(temp, bytes, no_samples, 0, no_counts, 4, 0, 100))
      << "the counts are always written or read";
  const long long* no_edges = nullptr;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_range(temp, bytes, samples, 5, counts, no_edges, 4));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_range(temp, bytes, no_samples, 5, counts,
                                                            static_cast<const long long*>(fake_device_pointer()), 4));
  const auto* pixels = static_cast<const std::uint8_t*>(fake_device_pointer());
  std::uint32_t* const some_missing[3] = {static_cast<std::uint32_t*>(fake_device_pointer()), nullptr,
                                          static_cast<std::uint32_t*>(fake_device_pointer())};
  const int bins[3] = {256, 256, 256};
  const long long lower[3] = {0, 0, 0}, upper[3] = {256, 256, 256};
  EXPECT_EQ(cudaErrorInvalidValue,
            (upsweep::histogram_even_multi<4, 3>(temp, bytes, pixels, 10, some_missing, bins, lower, upper)));
  std::size_t too_few = 0;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::histogram_even(temp, too_few, samples, 5, counts, 4, 0, 100))
      << "too little temporary storage";
}

TEST(HistogramArguments, ConvenienceLayerThrowsBeforeTouchingTheDevice) {
  const auto* samples = static_cast<const float*>(fake_device_pointer());
  auto* counts = static_cast<std::uint32_t*>(fake_device_pointer());
  EXPECT_THROW(upsweep::histogram_even(samples, 10, counts, 0, 0.0f, 1.0f), upsweep::cuda_error);
  EXPECT_THROW(upsweep::histogram_even(samples, 10, counts, 4, 1.0f, 0.0f), upsweep::cuda_error);
  try {
    upsweep::histogram_even(samples, -1, counts, 4, 0.0f, 1.0f);
    FAIL() << "no exception";
  } catch (const upsweep::cuda_error& e) {
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
    EXPECT_NE(std::string(e.what()).find("upsweep::histogram_even"), std::string::npos) << e.what();
  }
}

TEST(HistogramArguments, SizeQueryNeedsNoDeviceAndNoData) {
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1} << 40}) {
    std::size_t bytes = 0;
    const std::uint16_t* samples = nullptr;
    std::uint32_t* counts = nullptr;
    ASSERT_EQ(cudaSuccess, upsweep::histogram_even(nullptr, bytes, samples, n, counts, 1000000, 0, 65536)) << n;
    EXPECT_GT(bytes, 0u);
    bytes = 0;
    const long long* edges = nullptr;
    ASSERT_EQ(cudaSuccess, upsweep::histogram_range(nullptr, bytes, samples, n, counts, edges, 17)) << n;
    EXPECT_GT(bytes, 0u);
  }
}

}  // namespace
