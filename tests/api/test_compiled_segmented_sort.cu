// The compiled segmented sort API (<upsweep/segmented_sort.hpp>) against the stable host sort of
// each segment: f32, bf16 and int64 keys, keys only and with 4- and 8-byte values, ascending and
// descending, int64 offsets (one array) and rows; outputs poisoned first; errors through the
// convenience form.
#include "../sort/segmented_sort_cases.cuh"

#include <upsweep/segmented_sort.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;

template <class Key>
class CompiledSegmentedSort : public gpu_test {};

using compiled_segmented_types = ::testing::Types<float, __nv_bfloat16, std::int64_t>;
TYPED_TEST_SUITE(CompiledSegmentedSort, compiled_segmented_types);

TYPED_TEST(CompiledSegmentedSort, SegmentsAndRowsMatchTheStableHostSort) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const segment_layout layout = contiguous_layout(shuffled_sizes({0, 1, 17, 32, 100, 129, 1000, 3000, 5000}, 50, seed));
  const std::int64_t n = layout.num_items, segments = static_cast<std::int64_t>(layout.begins.size());
  const std::vector<Key> host = make_keys<Key>(n, distribution::sixteen_values, seed);
  std::vector<index_t> positions(static_cast<std::size_t>(n));
  std::iota(positions.begin(), positions.end(), index_t{0});
  std::vector<std::int64_t> wide_positions(positions.begin(), positions.end());
  const device_buffer<Key> keys(host);
  const device_buffer<index_t> values(positions);
  const device_buffer<std::int64_t> wide_values(wide_positions);
  const device_buffer<std::int64_t> offsets(layout.offsets());
  const std::int64_t* const begins = offsets.data();  // const: the compiled forms, not the templates
  const std::int64_t* const ends = offsets.data() + 1;
  device_buffer<Key> keys_out(n);
  device_buffer<index_t> values_out(n);
  device_buffer<std::int64_t> wide_out(n);
  for (const bool descending : {false, true}) {
    const auto order = descending ? upsweep::sort_order::descending : upsweep::sort_order::ascending;
    segmented_options opt;
    opt.descending = descending;
    SCOPED_TRACE(segmented_case_name(opt, layout));
    const sorted_output<Key> expected = segmented_reference(host, layout, opt, sorted_output<Key>{host, positions});
    CUDA_OK(cudaMemset(keys_out.data(), poison_byte, static_cast<std::size_t>(n) * sizeof(Key)));
    CUDA_OK(cudaMemset(values_out.data(), poison_byte, static_cast<std::size_t>(n) * sizeof(index_t)));
    upsweep::segmented_sort_pairs(keys.data(), keys_out.data(), values.data(), values_out.data(), n, segments, begins,
                                  ends, order);
    CUDA_OK(cudaDeviceSynchronize());
    expect_same_bits(keys_out.download(), expected.keys);
    expect_same_bits(values_out.download(), expected.values);
    upsweep::segmented_sort_pairs(keys.data(), keys_out.data(), wide_values.data(), wide_out.data(), n, segments,
                                  begins, ends, order);
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<std::int64_t> wide_got = wide_out.download();
    for (std::size_t i = 0; i < wide_got.size(); ++i) ASSERT_EQ(wide_got[i], expected.values[i]) << i;
    CUDA_OK(cudaMemset(keys_out.data(), poison_byte, static_cast<std::size_t>(n) * sizeof(Key)));
    upsweep::segmented_sort_keys(keys.data(), keys_out.data(), n, segments, begins, ends, order);
    CUDA_OK(cudaDeviceSynchronize());
    expect_same_bits(keys_out.download(), expected.keys);
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (const std::int64_t width : {std::int64_t{33}, std::int64_t{700}, std::int64_t{6000}}) {
    const std::int64_t rows = n / width;
    const segment_layout row_layout =
        contiguous_layout(std::vector<std::int64_t>(static_cast<std::size_t>(rows), width));
    const std::vector<Key> row_keys(host.begin(), host.begin() + rows * width);
    segmented_options opt;
    opt.descending = true;
    SCOPED_TRACE(segmented_case_name(opt, row_layout));
    const std::vector<index_t> row_positions(positions.begin(), positions.begin() + rows * width);
    const sorted_output<Key> expected =
        segmented_reference(row_keys, row_layout, opt, sorted_output<Key>{row_keys, row_positions});
    upsweep::sort_rows_pairs(keys.data(), keys_out.data(), values.data(), values_out.data(), rows, width,
                             upsweep::sort_order::descending);
    CUDA_OK(cudaDeviceSynchronize());
    expect_same_bits(keys_out.download(rows * width), expected.keys);
    expect_same_bits(values_out.download(rows * width), expected.values);
    upsweep::sort_rows_keys(keys.data(), keys_out.data(), rows, width, upsweep::sort_order::descending);
    CUDA_OK(cudaDeviceSynchronize());
    expect_same_bits(keys_out.download(rows * width), expected.keys);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(CompiledSegmentedSortErrors, ConvenienceFormThrowsNamingTheCall) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const device_buffer<float> keys(std::vector<float>(10, 1.0f));
  device_buffer<float> out(10);
  const device_buffer<std::int64_t> offsets(std::vector<std::int64_t>{0, 10});
  try {
    const std::int64_t* const begins = offsets.data();
    upsweep::segmented_sort_keys(keys.data(), out.data(), -1, 1, begins, begins + 1, upsweep::sort_order::ascending);
    ADD_FAILURE() << "no exception";
  } catch (const upsweep::cuda_error& e) {
    EXPECT_NE(std::string(e.what()).find("upsweep::segmented_sort_keys"), std::string::npos) << e.what();
  }
}

}  // namespace
