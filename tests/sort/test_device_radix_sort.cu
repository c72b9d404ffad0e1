// Radix sort on the GPU against a stable host sort of the twiddled keys and against
// cub::DeviceRadixSort, bitwise: every key type, sizes around the tile, distributions that leave
// passes trivial, bit windows, descending, pairs stability, special floats, in place.
// The typed suites run the default policy and each ranking method on 384-thread tiles; the
// API's errors and the case past 2^32 keys are in test_device_radix_sort_api.cu.
#include "radix_sort_cases.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;

template <class Case>
class RadixSort : public gpu_test {};

// Every key type with the default policy; each ranking method on 384-thread tiles with the key
// types whose digit passes differ (one pass, a narrow last pass in bit windows, signed, float,
// eight passes).
using sort_cases = ::testing::Types<
    sort_case<std::uint8_t, default_policies>, sort_case<std::uint16_t, default_policies>,
    sort_case<std::uint32_t, default_policies>, sort_case<std::uint64_t, default_policies>,
    sort_case<std::int32_t, default_policies>, sort_case<std::int64_t, default_policies>,
    sort_case<float, default_policies>, sort_case<double, default_policies>,
    sort_case<std::uint8_t, ballot_policies>, sort_case<std::uint16_t, ballot_policies>,
    sort_case<std::uint32_t, ballot_policies>, sort_case<std::uint64_t, ballot_policies>,
    sort_case<std::int32_t, ballot_policies>, sort_case<float, ballot_policies>,
    sort_case<std::uint32_t, match_any_policies>, sort_case<std::uint64_t, match_any_policies>,
    sort_case<std::uint32_t, ballot256_policies<1>>, sort_case<std::uint64_t, ballot256_policies<1>>,
    sort_case<std::uint32_t, ballot256_policies<4>>, sort_case<std::uint64_t, ballot256_policies<4>>,
    sort_case<float, ballot256_policies<4>>, sort_case<std::uint8_t, single_tile_policies>,
    sort_case<std::uint32_t, single_tile_policies>, sort_case<std::uint64_t, single_tile_policies>,
    sort_case<float, single_tile_policies>, sort_case<std::uint32_t, large_input_policies>,
    sort_case<std::uint64_t, large_input_policies>, sort_case<float, large_input_policies>,
    sort_case<std::uint32_t, sized_policies>, sort_case<std::uint64_t, sized_policies>>;

struct sort_case_names {
  template <class Case>
  static std::string GetName(int) {
    return std::string(Case::policies::name) + "_" + type_name<typename Case::key>();
  }
};
TYPED_TEST_SUITE(RadixSort, sort_cases, sort_case_names);

template <class Case>
constexpr std::int64_t tile_items_of(bool pairs) {
  using Key = typename Case::key;
  using Policies = typename Case::policies;
  return pairs ? resolved_policy<Policies, Key, index_t>::tile_items
               : resolved_policy<Policies, Key, upsweep::detail::no_values>::tile_items;
}

TYPED_TEST(RadixSort, keys_and_pairs_match_a_stable_host_sort_at_every_size_and_distribution) {
  using Key = typename TypeParam::key;
  using Policies = typename TypeParam::policies;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const bool pairs : {false, true}) {
    const std::int64_t tile = tile_items_of<TypeParam>(pairs);
    // 100003: past the sized policy's one tile, below small_radix_input_items (the small tiles' passes).
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{1000}, tile - 1, tile,
                                 tile + 1, 3 * tile + 7, max_test_items(100003),
                                 max_test_items((std::int64_t{1} << 20) + 3)}) {
      for (const distribution d : all_distributions) {
        if (n > 4 * tile && d != distribution::uniform && d != distribution::sixteen_values &&
            d != distribution::low_bits)
          continue;  // the big size only for a few distributions: the host sort is the slow part
        if (sparse_tests() && !takes_its_own_path(d)) continue;
        for (const bool descending : {false, true}) {
          if (sparse_tests() && descending && d != distribution::uniform) continue;
          SCOPED_TRACE(std::string(name_of(d)) + ", n = " + std::to_string(n) + (pairs ? ", pairs" : ", keys") +
                       (descending ? ", descending" : ", ascending"));
          const std::vector<Key> keys = make_keys<Key>(n, d, seed + static_cast<std::uint64_t>(d));
          sort_options opt;
          opt.descending = descending;
          opt.pairs = pairs;
          expect_matches_reference(keys, run_upsweep<Policies>(keys, opt), opt);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

TYPED_TEST(RadixSort, pairs_match_cub_bitwise_at_the_largest_test_size) {
  using Key = typename TypeParam::key;
  using Policies = typename TypeParam::policies;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(std::int64_t{1} << 24);
  for (const distribution d : {distribution::uniform, distribution::sixteen_values, distribution::high_bits}) {
    for (const bool descending : {false, true}) {
      SCOPED_TRACE(std::string(name_of(d)) + (descending ? ", descending" : ", ascending"));
      const std::vector<Key> keys = make_keys<Key>(n, d, seed);
      sort_options opt;
      opt.descending = descending;
      const sorted_output<Key> ours = run_upsweep<Policies>(keys, opt);
      const sorted_output<Key> theirs = run_cub(keys, opt);
      expect_same_bits(ours.keys, theirs.keys);
      expect_same_bits(ours.values, theirs.values);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TYPED_TEST(RadixSort, bit_windows_sort_by_their_bits_only_and_keep_ties_in_input_order) {
  using Key = typename TypeParam::key;
  using Policies = typename TypeParam::policies;
  constexpr int bits = static_cast<int>(sizeof(Key) * 8);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::vector<Key> keys = make_keys<Key>(3 * tile_items_of<TypeParam>(true) + 5, distribution::uniform, seed);
  const int cuts[] = {0, bits / 3, 3 * bits / 4, bits};
  for (const int begin_bit : cuts)
    for (const int end_bit : cuts) {
      if (end_bit < begin_bit) continue;
      for (const bool descending : {false, true}) {
        SCOPED_TRACE("bits [" + std::to_string(begin_bit) + ", " + std::to_string(end_bit) + ")" +
                     (descending ? ", descending" : ""));
        sort_options opt;
        opt.descending = descending;
        opt.begin_bit = begin_bit;
        opt.end_bit = end_bit;
        const sorted_output<Key> ours = run_upsweep<Policies>(keys, opt);
        expect_matches_reference(keys, ours, opt);
        if (begin_bit < end_bit) {  // the empty window is a copy; the host reference covers it
          const sorted_output<Key> theirs = run_cub(keys, opt);
          expect_same_bits(ours.keys, theirs.keys);
          expect_same_bits(ours.values, theirs.values);
        }
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
}

TYPED_TEST(RadixSort, in_place_sorts_give_the_same_result_for_any_number_of_busy_passes) {
  using Key = typename TypeParam::key;
  using Policies = typename TypeParam::policies;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 5 * tile_items_of<TypeParam>(true) + 11;
  // all equal: no busy pass; low bits: one; uniform: every pass.
  for (const distribution d : {distribution::all_equal, distribution::low_bits, distribution::high_bits,
                               distribution::uniform}) {
    for (const bool pairs : {false, true}) {
      SCOPED_TRACE(std::string(name_of(d)) + (pairs ? ", pairs" : ", keys"));
      const std::vector<Key> keys = make_keys<Key>(n, d, seed);
      sort_options opt;
      opt.pairs = pairs;
      opt.in_place = true;
      expect_matches_reference(keys, run_upsweep<Policies>(keys, opt), opt);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// Floats with every special value sprinkled among ordinary ones.
template <class Key>
std::vector<Key> special_floats(std::int64_t n, std::uint64_t seed) {
  using limits = std::numeric_limits<Key>;
  constexpr int width = static_cast<int>(sizeof(Key) * 8);
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  const Key specials[] = {Key(0.0),
                          Key(-0.0),
                          limits::infinity(),
                          -limits::infinity(),
                          limits::quiet_NaN(),
                          -limits::quiet_NaN(),
                          limits::signaling_NaN(),
                          key_of_bits<Key>(sign | upsweep::radix_traits<Key>::to_bits(limits::signaling_NaN())),
                          key_of_bits<Key>(~std::uint64_t{0}),
                          limits::denorm_min(),
                          -limits::denorm_min(),
                          limits::min(),
                          -limits::min(),
                          limits::max(),
                          limits::lowest(),
                          Key(1.0),
                          Key(-1.0)};
  constexpr std::uint64_t kinds = sizeof(specials) / sizeof(specials[0]);
  std::vector<Key> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed ^ mix64(static_cast<std::uint64_t>(i)));
    keys[static_cast<std::size_t>(i)] =
        (r & 3) == 0 ? random_value<Key>(seed, static_cast<std::uint64_t>(i), Key(-2), Key(2)) : specials[(r >> 2) % kinds];
  }
  return keys;
}

template <class Case>
class RadixSortFloat : public gpu_test {};
using float_cases = ::testing::Types<sort_case<float, default_policies>, sort_case<double, default_policies>,
                                     sort_case<float, ballot_policies>, sort_case<double, ballot_policies>>;
TYPED_TEST_SUITE(RadixSortFloat, float_cases, sort_case_names);

TYPED_TEST(RadixSortFloat, signed_zeros_stay_in_input_order_and_nans_sort_by_their_bits_like_cub) {
  using Key = typename TypeParam::key;
  using Policies = typename TypeParam::policies;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::vector<Key> keys = special_floats<Key>(100003, seed);
  for (const bool descending : {false, true}) {
    SCOPED_TRACE(descending ? "descending" : "ascending");
    sort_options opt;
    opt.descending = descending;
    const sorted_output<Key> ours = run_upsweep<Policies>(keys, opt);
    expect_matches_reference(keys, ours, opt);
    const sorted_output<Key> theirs = run_cub(keys, opt);
    expect_same_bits(ours.keys, theirs.keys);
    expect_same_bits(ours.values, theirs.values);
  }
}

}  // namespace
