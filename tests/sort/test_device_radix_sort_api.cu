// Radix sort's API on the GPU: invalid bit ranges and storage, the convenience forms on a
// non-blocking stream, 16-byte values, and more than 2^32 keys (64-bit counts throughout).
#include "radix_sort_cases.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;

class RadixSortApi : public gpu_test {};

TEST_F(RadixSortApi, bit_ranges_outside_the_key_are_invalid_values) {
  std::size_t bytes = 0;
  const std::uint32_t* in = nullptr;
  std::uint32_t* out = nullptr;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(nullptr, bytes, in, out, 10, -1, 32));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(nullptr, bytes, in, out, 10, 0, 33));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(nullptr, bytes, in, out, 10, 9, 8));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(nullptr, bytes, in, out, -1));
  EXPECT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, bytes, in, out, 0));
  EXPECT_GT(bytes, 0u);
}

TEST_F(RadixSortApi, a_too_small_temporary_storage_is_an_error_not_a_corruption) {
  device_buffer<std::uint32_t> keys(std::vector<std::uint32_t>(1000, 7u));
  device_buffer<std::uint32_t> out(1000);
  std::size_t bytes = 0;
  CUDA_OK(upsweep::sort_keys(nullptr, bytes, keys.data(), out.data(), 1000));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  std::size_t short_bytes = bytes - 1;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(temp.data(), short_bytes, keys.data(), out.data(), 1000));
}

TEST_F(RadixSortApi, convenience_forms_sort_on_a_non_blocking_stream) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const std::vector<std::int64_t> host = make_keys<std::int64_t>(50000, distribution::sixteen_values, seed);
  std::vector<index_t> idx(host.size());
  std::iota(idx.begin(), idx.end(), index_t{0});
  device_buffer<std::int64_t> keys(host), keys_out(static_cast<std::int64_t>(host.size()));
  device_buffer<index_t> values(idx), values_out(static_cast<std::int64_t>(host.size()));
  upsweep::sort_pairs_descending(keys.data(), keys_out.data(), values.data(), values_out.data(),
                                 static_cast<std::int64_t>(host.size()), 0, 64, stream);
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaStreamDestroy(stream));
  sort_options opt;
  opt.descending = true;
  expect_matches_reference(host, sorted_output<std::int64_t>{keys_out.download(), values_out.download()}, opt);
}

struct wide_value {
  std::uint64_t lo, hi;
};

TEST_F(RadixSortApi, sixteen_byte_values_travel_with_their_keys) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::vector<std::uint16_t> host = make_keys<std::uint16_t>(70001, distribution::uniform, seed);
  std::vector<wide_value> vals(host.size());
  for (std::size_t i = 0; i < host.size(); ++i) vals[i] = {i, ~static_cast<std::uint64_t>(i)};
  device_buffer<std::uint16_t> keys(host), keys_out(static_cast<std::int64_t>(host.size()));
  device_buffer<wide_value> values(vals), values_out(static_cast<std::int64_t>(host.size()));
  upsweep::sort_pairs(keys.data(), keys_out.data(), values.data(), values_out.data(),
                      static_cast<std::int64_t>(host.size()));
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<index_t> order = reference_order(host, false, 0, 16);
  const std::vector<wide_value> got = values_out.download();
  for (std::size_t i = 0; i < host.size(); ++i) {
    ASSERT_EQ(got[i].lo, order[i]) << "at " << i;
    ASSERT_EQ(got[i].hi, ~static_cast<std::uint64_t>(order[i])) << "at " << i;
  }
}

// Past 2^32 keys: 64-bit counts and indices all the way. Checked by sortedness and per-value
// counts, which a host sort of this size would take too long to provide.
TEST(RadixSortLarge, Large_u8_keys_past_two_to_the_32_sort) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 32) + 4099;
  device_buffer<std::uint8_t> keys(n), out(n);
  CUDA_OK(fill_random<std::uint8_t>(keys.data(), n, seed, 0, 255));
  std::vector<std::uint64_t> counts(256, 0);
  {
    const std::vector<std::uint8_t> host = keys.download();
    for (const std::uint8_t k : host) ++counts[k];
  }
  upsweep::sort_keys(keys.data(), out.data(), n);
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<std::uint8_t> sorted = out.download();
  std::int64_t position = 0;
  for (int value = 0; value < 256; ++value) {
    for (std::uint64_t c = 0; c < counts[value]; ++c, ++position)
      if (sorted[static_cast<std::size_t>(position)] != value)
        FAIL() << "value " << +sorted[static_cast<std::size_t>(position)] << " at " << position << ", expected " << value;
  }
  EXPECT_EQ(position, n);
}

}  // namespace
