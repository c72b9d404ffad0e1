// Device histogram with custom edges (in shared and in global memory), RGBA8 with a skipped
// channel, against CUB where CUB is right, and past 2^31 samples with 64-bit counters (32-bit
// ones wrapping, as documented).
#include "histogram_test_cases.cuh"

namespace upsweep::test {
namespace {

// ---- custom edges -----------------------------------------------------------------------------

template <class S>
void check_range(const std::vector<S>& samples, const std::vector<histogram_level_t<S>>& edges, int misalign = 0) {
  const int bins = static_cast<int>(edges.size()) - 1;
  SCOPED_TRACE("n " + std::to_string(samples.size()) + ", bins " + std::to_string(bins));
  device_buffer<histogram_level_t<S>> d_edges(edges);
  const auto n = static_cast<std::int64_t>(samples.size());
  std::vector<std::uint32_t> got;
  histogram_run_options opt;
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
