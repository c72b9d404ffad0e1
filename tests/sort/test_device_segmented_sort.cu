// Segmented sort against a stable host sort of each segment: every key type of the radix sort,
// keys only and pairs, ascending and descending, segments of every tier's edges (0, 1, 31..33,
// 127..129, 1023..1025, 4095..4097, and beyond one tile), one offsets array and begin/end arrays
// with gaps and reversed offsets, on fresh random keys of several shapes. Outputs are poisoned.
#include "segmented_sort_cases.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using namespace upsweep::test;

template <class Key>
class SegmentedSort : public gpu_test {};

using segmented_key_types = ::testing::Types<std::uint8_t, std::int16_t, std::uint32_t, std::int32_t, float,
                                             std::uint64_t, std::int64_t, double, __half, __nv_bfloat16>;
TYPED_TEST_SUITE(SegmentedSort, segmented_key_types);

// Sizes at the edges of the warp, the two tiles and the passes, and some in between.
const std::vector<std::int64_t> edge_sizes = {0,   1,   2,    31,   32,   33,   64,   65,   127,  128,
                                              129, 500, 1023, 1024, 1025, 2000, 4095, 4096, 4097, 9000};

TYPED_TEST(SegmentedSort, EverySegmentMatchesAStableHostSort) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const distribution shapes[] = {distribution::uniform, distribution::all_equal, distribution::two_values,
                                 distribution::sixteen_values, distribution::low_bits};
  std::vector<std::int64_t> with_large = shuffled_sizes(edge_sizes, 60, seed);
  with_large.push_back(max_test_items(70001));  // several tiles of passes
  const segment_layout layouts[] = {contiguous_layout(edge_sizes), contiguous_layout(with_large),
                                    gapped_layout(shuffled_sizes(edge_sizes, 45, seed ^ 7), seed)};
  for (const segment_layout& layout : layouts) {
    for (distribution d : shapes) {
      if (sparse_tests() && !takes_its_own_path(d)) continue;
      const std::vector<Key> keys = make_keys<Key>(layout.num_items, d, seed + static_cast<std::uint64_t>(d));
      for (const bool descending : {false, true}) {
        for (const bool pairs : {true, false}) {
          segmented_options opt;
          opt.descending = descending;
          opt.pairs = pairs;
          SCOPED_TRACE(std::string(name_of(d)) + ", " + segmented_case_name(opt, layout));
          expect_segmented_sort(keys, layout, opt);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

}  // namespace
