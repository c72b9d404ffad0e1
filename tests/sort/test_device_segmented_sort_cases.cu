// Segmented sort: CUB's DeviceSegmentedSort and DeviceSegmentedRadixSort as bitwise oracles, bit
// windows, in place, values of 1 to 16 bytes, a million tiny segments, one segment holding
// everything, the rows forms, the convenience layer on a stream, and bad arguments.
#include "segmented_sort_cases.cuh"

#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace {

using namespace upsweep::test;

// Random sizes in [0, 2 * mean], `count` of them.
std::vector<std::int64_t> random_sizes(std::size_t count, std::int64_t mean, std::uint64_t seed) {
  std::vector<std::int64_t> sizes(count);
  for (std::size_t i = 0; i < count; ++i)
    sizes[i] = static_cast<std::int64_t>(mix64(seed ^ (i * 31 + 7)) % (2 * mean + 1));
  return sizes;
}

// CUB on the same input and offsets: DeviceSegmentedSort (stable) for the whole key, else
// DeviceSegmentedRadixSort for a bit window; values are input positions.
template <class Key>
sorted_output<Key> run_cub_segmented(const std::vector<Key>& host_keys, const segment_layout& layout,
                                     const segmented_options& opt) {
  const std::int64_t n = layout.num_items;
  const auto segments = static_cast<std::int64_t>(layout.begins.size());
  std::vector<index_t> positions(static_cast<std::size_t>(n));
  std::iota(positions.begin(), positions.end(), index_t{0});
  device_buffer<Key> keys_in(host_keys), keys_out(n);
  device_buffer<index_t> values_in(positions), values_out(n);
  std::vector<int> int_offsets;
  for (const std::int64_t o : layout.offsets()) int_offsets.push_back(static_cast<int>(o));
  const device_buffer<int> offsets(int_offsets);
  const int end_bit = opt.end_bit < 0 ? upsweep::key_bits_v<Key> : opt.end_bit;
  const bool window = opt.begin_bit != 0 || end_bit != upsweep::key_bits_v<Key>;
  const auto call = [&](void* d_temp, std::size_t& bytes) {
    if (window)
      return opt.descending ? cub::DeviceSegmentedRadixSort::SortPairsDescending(
                                  d_temp, bytes, keys_in.data(), keys_out.data(), values_in.data(), values_out.data(),
                                  static_cast<int>(n), static_cast<int>(segments), offsets.data(), offsets.data() + 1,
                                  opt.begin_bit, end_bit)
                            : cub::DeviceSegmentedRadixSort::SortPairs(
                                  d_temp, bytes, keys_in.data(), keys_out.data(), values_in.data(), values_out.data(),
                                  static_cast<int>(n), static_cast<int>(segments), offsets.data(), offsets.data() + 1,
                                  opt.begin_bit, end_bit);
    return opt.descending ? cub::DeviceSegmentedSort::StableSortPairsDescending(
                                d_temp, bytes, keys_in.data(), keys_out.data(), values_in.data(), values_out.data(), n,
                                segments, offsets.data(), offsets.data() + 1)
                          : cub::DeviceSegmentedSort::StableSortPairs(d_temp, bytes, keys_in.data(), keys_out.data(),
                                                                      values_in.data(), values_out.data(), n, segments,
                                                                      offsets.data(), offsets.data() + 1);
  };
  std::size_t bytes = 0;
  check(call(nullptr, bytes), "cub size query");
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  check(call(temp.data(), bytes), "cub segmented sort");
  check(cudaDeviceSynchronize(), "cub kernels");
  return {keys_out.download(), values_out.download()};
}

// Pairs of both key types, in place and not, ascending and descending.
template <class KeyA, class KeyB>
void expect_two_key_types_sorted_each_way(const std::vector<KeyA>& a, const std::vector<KeyB>& b,
                                          const segment_layout& layout) {
  for (const bool in_place : {false, true}) {
    for (const bool descending : {false, true}) {
      segmented_options opt;
      opt.in_place = in_place;
      opt.descending = descending;
      SCOPED_TRACE(segmented_case_name(opt, layout));
      expect_segmented_sort(a, layout, opt);
      expect_segmented_sort(b, layout, opt);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

class SegmentedSortCases : public gpu_test {};

// Bitwise equal to CUB (contiguous segments cover every item), for whole keys and windows.
TEST_F(SegmentedSortCases, MatchesCubBitForBit) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const segment_layout layouts[] = {contiguous_layout(random_sizes(3000, 32, seed)),
                                    contiguous_layout(random_sizes(300, 1000, seed + 1)),
                                    contiguous_layout({max_test_items(100000), 5, max_test_items(20000)})};
  for (const segment_layout& layout : layouts) {
    // Floats without NaNs (CUB's merge sort of small segments compares with <, which leaves
    // NaNs unordered): small integers with ties, both zeros among them.
    std::vector<float> floats;
    for (const std::int16_t v : make_keys<std::int16_t>(layout.num_items, distribution::uniform, seed))
      floats.push_back(v % 7 == 0 ? (v < 0 ? -0.0f : 0.0f) : static_cast<float>(v % 1000));
    const std::vector<std::uint32_t> words =
        make_keys<std::uint32_t>(layout.num_items, distribution::sixteen_values, seed);
    for (const bool descending : {false, true}) {
      for (const auto& [begin_bit, end_bit] : {std::pair{0, -1}, std::pair{3, 17}}) {
        segmented_options opt;
        opt.descending = descending;
        opt.begin_bit = begin_bit;
        opt.end_bit = end_bit;
        SCOPED_TRACE(segmented_case_name(opt, layout));
        const sorted_output<std::uint32_t> ours = run_segmented(words, layout, opt);
        const sorted_output<std::uint32_t> cubs = run_cub_segmented(words, layout, opt);
        expect_same_bits(ours.keys, cubs.keys);
        expect_same_bits(ours.values, cubs.values);
        if (end_bit < 0) {  // floats: CUB's DeviceSegmentedSort takes whole keys only
          const sorted_output<float> ours_f = run_segmented(floats, layout, opt);
          const sorted_output<float> cubs_f = run_cub_segmented(floats, layout, opt);
          expect_same_bits(ours_f.keys, cubs_f.keys);
          expect_same_bits(ours_f.values, cubs_f.values);
        }
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST_F(SegmentedSortCases, BitWindowsAndInPlace) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const segment_layout layouts[] = {contiguous_layout(random_sizes(500, 700, seed)),
                                    gapped_layout(random_sizes(200, 40, seed + 3), seed),
                                    contiguous_layout({max_test_items(50001)})};
  for (const segment_layout& layout : layouts) {
    const std::vector<std::uint64_t> keys = make_keys<std::uint64_t>(layout.num_items, distribution::uniform, seed);
    const std::vector<double> doubles = make_keys<double>(layout.num_items, distribution::uniform, seed + 1);
    for (const auto& [begin_bit, end_bit] :
         {std::pair{0, 0}, std::pair{5, 13}, std::pair{0, 8}, std::pair{8, 64}, std::pair{20, 41}}) {
      for (const bool in_place : {false, true}) {
        for (const bool descending : {false, true}) {
          segmented_options opt;
          opt.in_place = in_place;
          opt.descending = descending;
          opt.begin_bit = begin_bit;
          opt.end_bit = end_bit;
          SCOPED_TRACE(segmented_case_name(opt, layout));
          expect_segmented_sort(keys, layout, opt);
          expect_segmented_sort(doubles, layout, opt);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

// Every tier once on a small input (the racecheck run's test: the others take minutes under it).
TEST_F(SegmentedSortCases, EveryTierOnceOnASmallInput) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const segment_layout layout =
      contiguous_layout({0, 1, 2, 31, 33, 64, 65, 127, 128, 129, 1000, 1025, 4096, 4097, 9000});
  const std::vector<std::uint32_t> words =
      make_keys<std::uint32_t>(layout.num_items, distribution::sixteen_values, seed);
  const std::vector<double> doubles = make_keys<double>(layout.num_items, distribution::uniform, seed);
  expect_two_key_types_sorted_each_way(words, doubles, layout);
}

// A key of one of five patterns, one for each path of the tile tiers (segmented_sort_tile.cuh),
// from the random word r: random keys (buckets of a few keys, then compares), keys that differ
// only in their low 6 bits (one digit holds every difference), one repeated key beside random
// ones (a bucket over the limit: digit by digit), 64 values with top bits of their own (a bucket
// of equal keys each, within the limit), and every key equal.
std::uint32_t tile_path_key(int pattern, std::uint64_t r, std::uint64_t seed) {
  switch (pattern) {
    case 0: return static_cast<std::uint32_t>(r);
    case 1: return 0xabc00000u | static_cast<std::uint32_t>(r & 63);
    case 2: return r % 4 == 0 ? 0x12345678u : static_cast<std::uint32_t>(r >> 32);
    case 3: {
      const std::uint64_t v = r % 64;
      return static_cast<std::uint32_t>(v << 26 | (mix64(seed ^ v) & 0x3ffffffu));
    }
    default: return 0x5a5a5a5au;
  }
}

// The five patterns on segments of 1000 and 4000 keys.
TEST_F(SegmentedSortCases, TileTiersTakeEachPathOfTheirTopDigit) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const segment_layout layout = contiguous_layout({1000, 4000, 1000, 4000, 1000, 4000, 1000, 4000, 1000, 4000});
  const auto n = static_cast<std::size_t>(layout.num_items);
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int segment = i < 5000 ? 0 : i < 10000 ? 1 : i < 15000 ? 2 : i < 20000 ? 3 : 4;
    keys[i] = tile_path_key(segment, mix64(seed ^ i), seed);
  }
  for (const bool descending : {false, true}) {
    for (const bool pairs : {true, false}) {
      segmented_options opt;
      opt.descending = descending;
      opt.pairs = pairs;
      SCOPED_TRACE(segmented_case_name(opt, layout));
      expect_segmented_sort(keys, layout, opt);
      if (HasFatalFailure()) return;
    }
  }
}

// The float whose sort bits (sign flipped if clear, else every bit) are `bits`.
float float_of_sort_bits(std::uint32_t bits) {
  const std::uint32_t word = bits & 0x80000000u ? bits ^ 0x80000000u : ~bits;
  float f;
  std::memcpy(&f, &word, sizeof f);
  return f;
}

// More small-tile segments than resident blocks, so that each block sorts several in turn (pairs
// of keys of up to 32 bits load the next segment's keys during the current one's last steps:
// loads_next_keys_early_v). Each segment takes one of the five patterns above at random, so a
// block's consecutive segments leave by every path; integer keys come back from their words,
// floats (the same sort bits) from their staging.
TEST_F(SegmentedSortCases, BlocksSortSeveralSmallTilesInTurn) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::vector<std::int64_t> sizes(3000);
  for (std::size_t s = 0; s < sizes.size(); ++s) sizes[s] = 33 + static_cast<std::int64_t>(mix64(seed + s) % 992);
  const segment_layout layout = contiguous_layout(sizes);
  std::vector<std::uint32_t> words;
  std::vector<float> floats;
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const int pattern = static_cast<int>(mix64(seed ^ (s << 20)) % 5);
    for (std::int64_t j = 0; j < sizes[s]; ++j) {
      const std::uint32_t key = tile_path_key(pattern, mix64(seed ^ words.size()), seed);
      words.push_back(key);
      floats.push_back(float_of_sort_bits(key));
    }
  }
  expect_two_key_types_sorted_each_way(words, floats, layout);
  if (HasFatalFailure()) return;
  segmented_options keys_alone;
  keys_alone.pairs = false;
  SCOPED_TRACE(segmented_case_name(keys_alone, layout));
  expect_segmented_sort(words, layout, keys_alone);
}

template <int Bytes>
struct value_of_bytes {
  unsigned char bytes[Bytes];
};

// Values of 1, 2, 8, 12 and 16 bytes move with their keys: each value's bytes name its input
// position, checked against the keys-and-positions result.
template <class Value>
void expect_values_follow_keys(const std::vector<std::uint32_t>& keys, const segment_layout& layout) {
  const std::int64_t n = layout.num_items;
  std::vector<Value> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::size_t b = 0; b < sizeof(Value); ++b)
      reinterpret_cast<unsigned char*>(&values[static_cast<std::size_t>(i)])[b] =
          static_cast<unsigned char>(mix64(static_cast<std::uint64_t>(i)) >> (8 * (b % 8)));
  const std::vector<std::int64_t> offsets = layout.offsets();
  const device_buffer<std::uint32_t> keys_in(keys);
  const device_buffer<Value> values_in(values);
  device_buffer<std::uint32_t> keys_out(n);
  device_buffer<Value> values_out(n);
  const device_buffer<std::int64_t> d_offsets(offsets);
  upsweep::segmented_sort_pairs(keys_in.data(), keys_out.data(), values_in.data(), values_out.data(), n,
                                static_cast<std::int64_t>(layout.begins.size()), d_offsets.data(),
                                d_offsets.data() + 1);
  CUDA_OK(cudaDeviceSynchronize());
  segmented_options opt;
  sorted_output<std::uint32_t> outside{std::vector<std::uint32_t>(static_cast<std::size_t>(n)),
                                       std::vector<index_t>(static_cast<std::size_t>(n))};
  const sorted_output<std::uint32_t> expected = segmented_reference(keys, layout, opt, outside);
  expect_same_bits(keys_out.download(), expected.keys);
  const std::vector<Value> got = values_out.download();
  for (std::int64_t i = 0; i < n; ++i)
    ASSERT_EQ(0, std::memcmp(&got[static_cast<std::size_t>(i)], &values[expected.values[static_cast<std::size_t>(i)]],
                             sizeof(Value)))
        << "value at " << i << ", " << sizeof(Value) << " bytes";
}

TEST_F(SegmentedSortCases, ValuesOfOneToSixteenBytes) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::vector<std::int64_t> sizes = random_sizes(400, 300, seed);
  sizes.push_back(max_test_items(30000));
  const segment_layout layout = contiguous_layout(sizes);
  const std::vector<std::uint32_t> keys =
      make_keys<std::uint32_t>(layout.num_items, distribution::sixteen_values, seed);
  expect_values_follow_keys<std::uint8_t>(keys, layout);
  expect_values_follow_keys<std::uint16_t>(keys, layout);
  expect_values_follow_keys<std::uint64_t>(keys, layout);
  expect_values_follow_keys<value_of_bytes<12>>(keys, layout);
  expect_values_follow_keys<value_of_bytes<16>>(keys, layout);
  expect_values_follow_keys<double2>(keys, layout);
}

// A million segments of 0 to 8 items (most go through the warp kernel's copy and lists), and one
// segment holding everything.
TEST_F(SegmentedSortCases, AMillionTinySegmentsAndOneSegmentHoldingEverything) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t count = max_test_items(1000000);
  const segment_layout tiny = contiguous_layout(random_sizes(static_cast<std::size_t>(count), 4, seed));
  const segment_layout whole = contiguous_layout({max_test_items(3000000)});
  for (const segment_layout* layout : {&tiny, &whole}) {
    const std::vector<std::int32_t> keys = make_keys<std::int32_t>(layout->num_items, distribution::uniform, seed);
    for (const bool descending : {false, true}) {
      segmented_options opt;
      opt.descending = descending;
      SCOPED_TRACE(segmented_case_name(opt, *layout));
      expect_segmented_sort(keys, *layout, opt);
      if (HasFatalFailure()) return;
    }
  }
}

// Rows through the convenience layer on a stream: the same as segments of one width.
TEST_F(SegmentedSortCases, RowsOnAStream) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreate(&stream));
  for (const auto& [rows, width] : {std::pair<std::int64_t, std::int64_t>{1000, 33}, {77, 1000}, {3, 5000}, {5, 0}}) {
    const segment_layout layout = contiguous_layout(std::vector<std::int64_t>(static_cast<std::size_t>(rows), width));
    const std::vector<float> keys = make_keys<float>(layout.num_items, distribution::uniform, seed);
    std::vector<index_t> positions(keys.size());
    std::iota(positions.begin(), positions.end(), index_t{0});
    const device_buffer<float> keys_in(keys);
    const device_buffer<index_t> values_in(positions);
    device_buffer<float> keys_out(layout.num_items);
    device_buffer<index_t> values_out(layout.num_items);
    for (const bool descending : {false, true}) {
      const auto order = descending ? upsweep::sort_order::descending : upsweep::sort_order::ascending;
      upsweep::sort_rows_pairs(keys_in.data(), keys_out.data(), values_in.data(), values_out.data(), rows, width, order,
                               stream);
      CUDA_OK(cudaStreamSynchronize(stream));
      segmented_options opt;
      opt.descending = descending;
      SCOPED_TRACE(segmented_case_name(opt, layout));
      const sorted_output<float> expected =
          segmented_reference(keys, layout, opt, sorted_output<float>{keys, positions});
      expect_same_bits(keys_out.download(), expected.keys);
      expect_same_bits(values_out.download(), expected.values);
      upsweep::sort_rows_keys(keys_in.data(), keys_out.data(), rows, width, order, stream);
      CUDA_OK(cudaStreamSynchronize(stream));
      expect_same_bits(keys_out.download(), expected.keys);
    }
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

// Bad arguments are refused before anything is enqueued (the output keeps its poison); the
// convenience layer throws naming the call.
TEST_F(SegmentedSortCases, BadArgumentsAreErrorsAndWriteNothing) {
  const std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(100, distribution::uniform, 1);
  const std::vector<std::int64_t> offsets = {0, 50, 100};
  const device_buffer<std::uint32_t> keys_in(keys);
  device_buffer<std::uint32_t> keys_out(100);
  CUDA_OK(cudaMemset(keys_out.data(), poison_byte, 100 * sizeof(std::uint32_t)));
  const device_buffer<std::int64_t> d_offsets(offsets);
  const std::int64_t* begins = d_offsets.data();
  const std::int64_t* ends = d_offsets.data() + 1;
  device_buffer<unsigned char> temp(1 << 20);
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::segmented_sort_keys(temp.data(), bytes, keys_in.data(), keys_out.data(), -1, 2, begins, ends));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::segmented_sort_keys(temp.data(), bytes, keys_in.data(), keys_out.data(), 100, -1, begins, ends));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::segmented_sort_keys(temp.data(), bytes, keys_in.data(), keys_out.data(),
                                                                100, 2, begins, ends, 5, 4));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::segmented_sort_keys(temp.data(), bytes, keys_in.data(), keys_out.data(),
                                                                100, 2, begins, ends, 0, 33));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::segmented_sort_keys(temp.data(), bytes, static_cast<const std::uint32_t*>(nullptr),
                                         keys_out.data(), 100, 2, begins, ends));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::segmented_sort_pairs(temp.data(), bytes, keys_in.data(), keys_out.data(),
                                                                 static_cast<const index_t*>(nullptr),
                                                                 static_cast<index_t*>(nullptr), 100, 2, begins, ends));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_rows_keys(temp.data(), bytes, keys_in.data(), keys_out.data(), -2, 5));
  std::size_t tiny = 1;
  EXPECT_NE(cudaSuccess,
            upsweep::segmented_sort_keys(temp.data(), tiny, keys_in.data(), keys_out.data(), 100, 2, begins, ends));
  CUDA_OK(cudaDeviceSynchronize());
  for (const std::uint32_t k : keys_out.download()) ASSERT_EQ(k, 0xA5A5A5A5u) << "written by a refused call";
  try {
    upsweep::segmented_sort_keys(keys_in.data(), keys_out.data(), 100, 2, begins, ends, 0, 40);
    ADD_FAILURE() << "no exception";
  } catch (const upsweep::cuda_error& e) {
    EXPECT_NE(std::string(e.what()).find("upsweep::segmented_sort_keys"), std::string::npos) << e.what();
  }
}

}  // namespace
