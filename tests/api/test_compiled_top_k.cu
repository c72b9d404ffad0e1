// The compiled top-k API (<upsweep/top_k.hpp>) against the stable host order: keys and int64
// positions for f32, bf16 and int64 keys, whole inputs and rows, sorted and unsorted, outputs
// poisoned first; and its errors through the convenience form.
#include "../sort/radix_sort_cases.cuh"

#include <upsweep/top_k.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;
using upsweep::top_k_output;
using upsweep::top_k_select;

template <class Key>
class CompiledTopK : public gpu_test {};

using compiled_top_k_types = ::testing::Types<float, __nv_bfloat16, std::int64_t>;
TYPED_TEST_SUITE(CompiledTopK, compiled_top_k_types);

// Positions `got` (sorted: in order; unsorted: as a set) against the first k of `order`, offset by
// `base`; each key out must be its input's, bit for bit.
template <class Key>
void expect_winners(const std::vector<Key>& host, std::int64_t base, const std::vector<index_t>& order,
                    const std::vector<Key>& keys, std::vector<std::int64_t> got, top_k_output output) {
  std::vector<std::int64_t> want(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    want[i] = order[i];
    ASSERT_GE(got[i], 0);
    ASSERT_EQ(std::memcmp(&keys[i], &host[static_cast<std::size_t>(base + got[i])], sizeof(Key)), 0) << i;
  }
  if (output == top_k_output::unsorted) {
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
  }
  ASSERT_EQ(got, want);
}

TYPED_TEST(CompiledTopK, WithIndicesMatchesTheStableOrderWholeAndByRows) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t rows = 16, row_length = max_test_items(160000) / 16, n = rows * row_length, k = 100;
  const std::vector<Key> host = make_keys<Key>(n, distribution::sixteen_values, seed);
  const device_buffer<Key> keys(host);
  device_buffer<Key> keys_out(rows * k);
  device_buffer<std::int64_t> positions(rows * k);
  for (top_k_select which : {top_k_select::largest, top_k_select::smallest}) {
    for (top_k_output output : {top_k_output::sorted, top_k_output::unsorted}) {
      SCOPED_TRACE(std::string(which == top_k_select::largest ? "largest" : "smallest") +
                   (output == top_k_output::sorted ? ", sorted" : ", unsorted"));
      const bool descending = which == top_k_select::largest;
      CUDA_OK(cudaMemset(positions.data(), 0xff, static_cast<std::size_t>(rows * k) * sizeof(std::int64_t)));
      upsweep::top_k_with_indices(keys.data(), keys_out.data(), positions.data(), n, k, which, output);
      CUDA_OK(cudaDeviceSynchronize());
      expect_winners(host, 0, reference_order(host, descending, 0, upsweep::key_bits_v<Key>), keys_out.download(k),
                     positions.download(k), output);
      if (::testing::Test::HasFatalFailure()) return;
      CUDA_OK(cudaMemset(positions.data(), 0xff, static_cast<std::size_t>(rows * k) * sizeof(std::int64_t)));
      upsweep::top_k_rows_with_indices(keys.data(), keys_out.data(), positions.data(), rows, row_length, k, which,
                                       output);
      CUDA_OK(cudaDeviceSynchronize());
      for (std::int64_t r = 0; r < rows; ++r) {
        SCOPED_TRACE("row " + std::to_string(r));
        const std::vector<Key> row(host.begin() + r * row_length, host.begin() + (r + 1) * row_length);
        expect_winners(host, r * row_length, reference_order(row, descending, 0, upsweep::key_bits_v<Key>),
                       keys_out.download(k, r * k), positions.download(k, r * k), output);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(CompiledTopKErrors, ConvenienceThrowsNamingTheCallAndWritesNothing) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const device_buffer<float> keys(std::vector<float>{1, 2, 3});
  device_buffer<float> out(std::vector<float>{7, 7, 7, 7});
  device_buffer<std::int64_t> positions(std::vector<std::int64_t>{-5, -5, -5, -5});
  try {
    upsweep::top_k_with_indices(keys.data(), out.data(), positions.data(), 3, 4);
    FAIL() << "k > n was accepted";
  } catch (const upsweep::cuda_error& e) {
    EXPECT_NE(std::string(e.what()).find("top_k_with_indices"), std::string::npos) << e.what();
  }
  CUDA_OK(cudaDeviceSynchronize());
  for (float v : out.download()) EXPECT_EQ(v, 7.0f);
  for (std::int64_t p : positions.download()) EXPECT_EQ(p, -5);
}

}  // namespace
