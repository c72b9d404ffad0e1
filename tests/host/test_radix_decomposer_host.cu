// Host tests of radix sort's struct keys and double buffers, no GPU needed: the bit numbering of a
// decomposed key (which member a bit falls in, digits spanning two members, against the members'
// ordered bits packed by hand), what counts as a decomposer, the pass plans every buffer mode can
// get (no pass reads the buffer it writes, the result ends in out), and the double-buffer
// selector rule and argument checks, which make no CUDA call.
#include <upsweep/sort.cuh>

#include "../sort/sort_test_support.cuh"
#include "../support/seed.hpp"

#include <gtest/gtest.h>

#include <cuda/std/tuple>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

using upsweep::radix_traits;

using upsweep::test::by_group_then_score;
using upsweep::test::by_group_then_score_values;
using upsweep::test::item;

struct wide {
  std::uint8_t tag;
  std::int16_t level;
  double weight;
};
struct by_tag_level_weight {
  __host__ __device__ cuda::std::tuple<std::uint8_t&, std::int16_t&, double&> operator()(wide& w) const {
    return {w.tag, w.level, w.weight};
  }
};

struct triple {
  std::uint64_t hi;
  std::int64_t mid;
  std::uint32_t lo;
};
struct by_hi_mid_lo {
  __host__ __device__ cuda::std::tuple<std::uint64_t&, std::int64_t&, std::uint32_t&> operator()(triple& t) const {
    return {t.hi, t.mid, t.lo};
  }
};

struct not_a_tuple {
  __host__ __device__ std::uint32_t operator()(item& k) const { return k.group; }
};
struct with_a_bool {
  __host__ __device__ cuda::std::tuple<bool> operator()(item& k) const { return {k.group != 0}; }
};
struct empty_tuple {
  __host__ __device__ cuda::std::tuple<> operator()(item&) const { return {}; }
};

static_assert(upsweep::is_decomposer_v<item, by_group_then_score>);
static_assert(upsweep::is_decomposer_v<item, by_group_then_score_values>);
static_assert(upsweep::is_decomposer_v<wide, by_tag_level_weight>);
static_assert(!upsweep::is_decomposer_v<item, int>, "an int is a begin_bit, never a decomposer");
static_assert(!upsweep::is_decomposer_v<item, not_a_tuple>);
static_assert(!upsweep::is_decomposer_v<item, with_a_bool>, "bool is no radix key");
static_assert(!upsweep::is_decomposer_v<item, empty_tuple>);
static_assert(!upsweep::is_decomposer_v<wide, by_group_then_score>, "a decomposer of another key");

using item_traits = upsweep::decomposed_traits<item, by_group_then_score>;
using wide_traits = upsweep::decomposed_traits<wide, by_tag_level_weight>;
using triple_traits = upsweep::decomposed_traits<triple, by_hi_mid_lo>;

TEST(DecomposedKey, bits_are_numbered_from_the_last_members_lowest_bit_up) {
  EXPECT_EQ(item_traits::member_count, 2);
  EXPECT_EQ(item_traits::key_bits, 64);
  EXPECT_EQ((upsweep::decomposed_key_bits_v<item, by_group_then_score>), 64);
  EXPECT_EQ(item_traits::member_low_bit(1), 0);   // score: bits [0, 32)
  EXPECT_EQ(item_traits::member_low_bit(0), 32);  // group: bits [32, 64)
  EXPECT_EQ(item_traits::member_bits(0), 32);
  EXPECT_EQ(item_traits::member_of_bit(0), 1);
  EXPECT_EQ(item_traits::member_of_bit(31), 1);
  EXPECT_EQ(item_traits::member_of_bit(32), 0);
  EXPECT_EQ(item_traits::member_of_bit(63), 0);
  EXPECT_EQ(item_traits::member_of_bit(64), -1);
  EXPECT_EQ(item_traits::member_of_bit(-1), -1);

  EXPECT_EQ(wide_traits::key_bits, 8 + 16 + 64);
  EXPECT_EQ(wide_traits::member_low_bit(2), 0);
  EXPECT_EQ(wide_traits::member_low_bit(1), 64);
  EXPECT_EQ(wide_traits::member_low_bit(0), 80);
  for (int bit = 0; bit < wide_traits::key_bits; ++bit)
    EXPECT_EQ(wide_traits::member_of_bit(bit), bit < 64 ? 2 : (bit < 80 ? 1 : 0)) << "bit " << bit;

  EXPECT_EQ(triple_traits::key_bits, 160);
  EXPECT_EQ(triple_traits::member_of_bit(159), 0);
  EXPECT_EQ(triple_traits::member_of_bit(96), 0);
  EXPECT_EQ(triple_traits::member_of_bit(95), 1);
  EXPECT_EQ(triple_traits::member_of_bit(31), 2);
}

// The (group, score) key's ordered bits packed by hand into one word: group above score.
std::uint64_t packed_sort_bits(const item& k, bool descending) {
  const std::uint64_t bits = (std::uint64_t{radix_traits<std::uint32_t>::to_ordered(k.group)} << 32) |
                             radix_traits<float>::to_ordered(k.score);
  return descending ? ~bits : bits;
}

template <bool Descending>
void expect_digits_match_the_packed_key(const std::vector<item>& items) {
  for (const item& k : items) {
    const auto bits = item_traits::to_sort_bits<Descending>(k, by_group_then_score{});
    const std::uint64_t packed = packed_sort_bits(k, Descending);
    for (const int num_bits : {1, 5, 8, 13, 32})
      for (int bit = 0; bit + num_bits <= 64; ++bit) {
        const auto want = static_cast<unsigned>((packed >> bit) & ((std::uint64_t{1} << num_bits) - 1));
        ASSERT_EQ(item_traits::digit(bits, bit, num_bits), want)
            << "bits [" << bit << ", " << bit + num_bits << ") of group " << k.group << ", score " << k.score;
      }
    // By-value decomposers read the same bits.
    const auto by_value = upsweep::decomposed_traits<item, by_group_then_score_values>::to_sort_bits<Descending>(
        k, by_group_then_score_values{});
    ASSERT_EQ(by_value, bits);
  }
}

std::vector<item> sample_items(std::uint64_t seed, int count) {
  std::mt19937_64 random(seed);
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::denorm_min(),
                            -1.5f,
                            1.5f};
  std::vector<item> items;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t r = random();
    float score;
    if (i % 3 == 0) {
      score = specials[(r >> 40) % (sizeof(specials) / sizeof(specials[0]))];
    } else {
      const auto bits = static_cast<std::uint32_t>(r >> 32);
      std::memcpy(&score, &bits, sizeof(score));
    }
    items.push_back({static_cast<std::uint32_t>(r), score, static_cast<std::uint32_t>(i)});
  }
  return items;
}

TEST(DecomposedKey, digits_equal_the_members_ordered_bits_side_by_side_even_across_members) {
  const std::vector<item> items = sample_items(20261122, 400);
  expect_digits_match_the_packed_key<false>(items);
  expect_digits_match_the_packed_key<true>(items);
}

TEST(DecomposedKey, signed_zeros_give_the_same_digits_and_nans_keep_their_bits) {
  const item plus{7, 0.0f, 0}, minus{7, -0.0f, 1};
  for (int bit = 0; bit < 64; bit += 8) {
    EXPECT_EQ(item_traits::digit(item_traits::to_sort_bits<false>(plus, {}), bit, 8),
              item_traits::digit(item_traits::to_sort_bits<false>(minus, {}), bit, 8));
    EXPECT_EQ(item_traits::digit(item_traits::to_sort_bits<true>(plus, {}), bit, 8),
              item_traits::digit(item_traits::to_sort_bits<true>(minus, {}), bit, 8));
  }
  const item nan{7, std::numeric_limits<float>::quiet_NaN(), 0}, inf{7, std::numeric_limits<float>::infinity(), 0};
  EXPECT_GT(packed_sort_bits(nan, false), packed_sort_bits(inf, false)) << "+NaN sorts after +inf";
  EXPECT_EQ(cuda::std::get<1>(item_traits::to_sort_bits<false>(nan, {})), radix_traits<float>::to_ordered(nan.score));
}

// Lexicographic order of the members, each in its radix order, read from the digits top down.
template <class Traits, class Key, class Decomposer>
int compare_by_digits(const Key& a, const Key& b, Decomposer d) {
  const auto x = Traits::template to_sort_bits<false>(a, d);
  const auto y = Traits::template to_sort_bits<false>(b, d);
  for (int bit = Traits::key_bits - 8; bit >= 0; bit -= 8) {
    const unsigned p = Traits::digit(x, bit, 8), q = Traits::digit(y, bit, 8);
    if (p != q) return p < q ? -1 : 1;
  }
  return 0;
}

TEST(DecomposedKey, digits_read_top_down_order_keys_by_their_members_most_significant_first) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 2000; ++i) {
    const auto pick_level = [&] { return static_cast<std::int16_t>(static_cast<int>(random() % 5) - 2); };
    const auto pick_weight = [&] { return static_cast<double>(static_cast<int>(random() % 7) - 3) * 0.5; };
    wide a{static_cast<std::uint8_t>(random() % 3), pick_level(), pick_weight()};
    wide b{static_cast<std::uint8_t>(random() % 3), pick_level(), pick_weight()};
    const int want = a.tag != b.tag       ? (a.tag < b.tag ? -1 : 1)
                     : a.level != b.level ? (a.level < b.level ? -1 : 1)
                     : a.weight != b.weight ? (a.weight < b.weight ? -1 : 1)
                                            : 0;
    ASSERT_EQ((compare_by_digits<wide_traits>(a, b, by_tag_level_weight{})), want)
        << +a.tag << " " << a.level << " " << a.weight << " vs " << +b.tag << " " << b.level << " " << b.weight;
  }
  // 160 bits: wider than one sort's window, the digits still cover every member.
  const triple small{1, -5, 0xffffffffu}, large{1, 3, 0};
  EXPECT_EQ((compare_by_digits<triple_traits>(small, large, by_hi_mid_lo{})), -1);
  const triple top{2, std::numeric_limits<std::int64_t>::min(), 0};
  EXPECT_EQ((compare_by_digits<triple_traits>(large, top, by_hi_mid_lo{})), -1);
}

// ---- the pass plans: buffer roles mapped to physical buffers, walked pass by pass --------------
using upsweep::detail::buffer_alt;
using upsweep::detail::buffer_in;
using upsweep::detail::buffer_none;
using upsweep::detail::buffer_out;
using upsweep::detail::max_radix_passes;

struct buffer_mode {
  const char* name;
  int kind;
  int physical[3];  // physical buffer of in, out, alt
  bool input_kept;  // the input buffer must never be written
};

const buffer_mode all_modes[] = {
    {"in -> out", upsweep::detail::plan_out_last, {0, 1, 2}, true},
    {"in place (in == out)", upsweep::detail::plan_first_to_alt, {0, 0, 1}, false},
    {"keys not in place beside values in place", upsweep::detail::plan_first_to_alt, {0, 1, 2}, true},
    {"double buffer keeping its selector", upsweep::detail::plan_first_to_alt, {0, 0, 1}, false},
    {"double buffer flipping its selector", upsweep::detail::plan_first_to_out, {0, 1, 0}, false},
};

TEST(RadixPlan, every_mode_and_skip_pattern_ends_in_out_and_never_reads_the_buffer_it_writes) {
  for (const buffer_mode& mode : all_modes)
    for (int num_passes = 1; num_passes <= max_radix_passes; ++num_passes)
      for (unsigned mask = 0; mask < (1u << num_passes); ++mask) {
        SCOPED_TRACE(std::string(mode.name) + ", " + std::to_string(num_passes) + " passes, trivial mask " +
                     std::to_string(mask));
        bool trivial[max_radix_passes] = {};
        int busy = 0;
        for (int p = 0; p < num_passes; ++p) {
          trivial[p] = (mask >> p) & 1;
          busy += trivial[p] ? 0 : 1;
        }
        upsweep::detail::radix_sort_plan plan{};
        upsweep::detail::plan_passes(trivial, num_passes, mode.kind, plan);
        int version[3] = {0, -1, -1};  // what each physical buffer holds: 0 = the input, j = after j passes
        version[mode.physical[buffer_out]] = mode.physical[buffer_out] == mode.physical[buffer_in] ? 0 : -1;
        version[mode.physical[buffer_alt]] = mode.physical[buffer_alt] == mode.physical[buffer_in] ? 0 : -1;
        int done = 0;
        for (int p = 0; p < max_radix_passes; ++p) {
          const auto& pass = plan.pass[p];
          if (p >= num_passes || trivial[p]) {
            ASSERT_EQ(pass.src, buffer_none) << "pass " << p << " should be skipped";
            continue;
          }
          ASSERT_NE(pass.src, buffer_none) << "pass " << p;
          ASSERT_NE(pass.dst, buffer_in) << "pass " << p << " writes the input role";
          const int src = mode.physical[pass.src], dst = mode.physical[pass.dst];
          ASSERT_NE(src, dst) << "pass " << p << " reads and writes one buffer";
          ASSERT_EQ(version[src], done) << "pass " << p << " reads stale data";
          if (mode.input_kept) ASSERT_NE(dst, mode.physical[buffer_in]) << "pass " << p << " overwrites the input";
          version[dst] = ++done;
        }
        ASSERT_EQ(done, busy);
        const int out = mode.physical[buffer_out];
        bool copies = false;
        if (plan.copy_src != buffer_none) {
          const int from = mode.physical[plan.copy_src];
          ASSERT_EQ(version[from], busy) << "the copy reads stale data";
          copies = from != out;
          version[out] = version[from];
        }
        EXPECT_EQ(version[out], busy) << "the result is not in out";
        // Double buffers and in place: a copy only when the busy passes' parity forces one.
        if (mode.kind == upsweep::detail::plan_first_to_alt && !mode.input_kept) EXPECT_EQ(copies, busy % 2 == 1);
        if (mode.kind == upsweep::detail::plan_first_to_out) EXPECT_EQ(copies, busy % 2 == 0);
        if (mode.kind == upsweep::detail::plan_out_last) EXPECT_EQ(copies, busy == 0);
      }
}

// A look-back word counts as ready for pass p exactly when it carries a status and p's stamp:
// the kernel's 32-bit test against the 64-bit masks, for every status, stamp and pass, with
// counts across the whole 59-bit range.
TEST(RadixLookBack, a_word_is_ready_only_for_the_pass_that_stamped_it) {
  namespace d = upsweep::detail;
  const auto seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const unsigned long long statuses[] = {0, d::look_back_partial, d::look_back_inclusive};
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const unsigned long long count = trial == 0 ? 0 : trial == 1 ? d::look_back_count_mask : rng() & d::look_back_count_mask;
    for (const unsigned long long status : statuses) {
      for (int stamp = 0; stamp < d::max_radix_passes; ++stamp) {
        const unsigned long long word = status | d::look_back_stamp(stamp) | count;
        for (int pass = 0; pass < d::max_radix_passes; ++pass) {
          const bool expected = (word & d::look_back_status_mask) != 0 && (word & d::look_back_pass_mask) == d::look_back_stamp(pass);
          ASSERT_EQ(expected, d::look_back_ready(word, pass)) << "status " << (status >> 62) << " stamp " << stamp << " pass " << pass << " count " << count;
          ASSERT_EQ(count, word & d::look_back_count_mask);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 200 * 3 * d::max_radix_passes * d::max_radix_passes);
}

// ---- double buffers: the selector rule and argument checks, with no CUDA call ---------------
// With num_items == 0 or a rejected argument the core form returns before any launch, so host
// pointers stand in for device ones (never dereferenced).
template <class T>
T* fake_device_pointer(int which) {
  return reinterpret_cast<T*>(std::uintptr_t{1} << (20 + which));
}

TEST(DoubleBuffer, the_selector_flips_when_the_window_needs_an_odd_number_of_digit_passes) {
  std::size_t bytes = 0;
  upsweep::double_buffer<std::uint32_t> keys(fake_device_pointer<std::uint32_t>(0),
                                             fake_device_pointer<std::uint32_t>(1));
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, bytes, keys, 0));
  EXPECT_EQ(keys.selector, 0) << "a size query leaves the selector";
  void* temp = fake_device_pointer<void>(3);
  struct window {
    int begin_bit, end_bit, flips;
  };
  for (const window w : {window{0, 32, 0}, window{0, 24, 1}, window{0, 8, 1}, window{3, 4, 1}, window{5, 5, 0},
                         window{0, 17, 1}, window{16, 32, 0}}) {
    for (const int start : {0, 1}) {
      keys.selector = start;
      ASSERT_EQ(cudaSuccess, upsweep::sort_keys(temp, bytes, keys, 0, w.begin_bit, w.end_bit));
      EXPECT_EQ(keys.selector, start ^ w.flips) << "[" << w.begin_bit << ", " << w.end_bit << ")";
      keys.selector = start;
      ASSERT_EQ(cudaSuccess, upsweep::sort_keys_descending(temp, bytes, keys, 0, w.begin_bit, w.end_bit));
      EXPECT_EQ(keys.selector, start ^ w.flips) << "descending [" << w.begin_bit << ", " << w.end_bit << ")";
    }
  }
  // Values flip with their keys, each from its own selector.
  upsweep::double_buffer<std::uint64_t> values(fake_device_pointer<std::uint64_t>(4),
                                               fake_device_pointer<std::uint64_t>(6));
  keys.selector = 0;
  values.selector = 1;
  std::size_t pair_bytes = 0;
  ASSERT_EQ(cudaSuccess, upsweep::sort_pairs(nullptr, pair_bytes, keys, values, 0));
  ASSERT_EQ(cudaSuccess, upsweep::sort_pairs(temp, pair_bytes, keys, values, 0, 0, 24));
  EXPECT_EQ(keys.selector, 1);
  EXPECT_EQ(values.selector, 0);
  // Struct keys: 64 bits by default (8 passes), windows past 64 bits counted over all their passes.
  upsweep::double_buffer<item> items(fake_device_pointer<item>(0), fake_device_pointer<item>(2));
  std::size_t item_bytes = 0;
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, item_bytes, items, 0, by_group_then_score{}));
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(temp, item_bytes, items, 0, by_group_then_score{}));
  EXPECT_EQ(items.selector, 0);
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(temp, item_bytes, items, 0, by_group_then_score{}, 0, 56));
  EXPECT_EQ(items.selector, 1);
  upsweep::double_buffer<triple> triples(fake_device_pointer<triple>(0), fake_device_pointer<triple>(2));
  std::size_t triple_bytes = 0;
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, triple_bytes, triples, 0, by_hi_mid_lo{}));
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(temp, triple_bytes, triples, 0, by_hi_mid_lo{}, 0, 160));
  EXPECT_EQ(triples.selector, 0) << "20 passes";
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(temp, triple_bytes, triples, 0, by_hi_mid_lo{}, 4, 140));
  EXPECT_EQ(triples.selector, 1) << "17 passes: 8 + 8 + 1";
}

TEST(DoubleBuffer, needs_no_n_sized_temporary_storage) {
  const std::int64_t n = 1 << 24;
  std::size_t plain = 0, doubled = 0, pairs = 0, doubled_pairs = 0;
  upsweep::double_buffer<std::uint32_t> keys(fake_device_pointer<std::uint32_t>(0),
                                             fake_device_pointer<std::uint32_t>(6));
  upsweep::double_buffer<std::uint32_t> values(fake_device_pointer<std::uint32_t>(7),
                                               fake_device_pointer<std::uint32_t>(8));
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, plain, keys.current(), keys.alternate(), n));
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, doubled, keys, n));
  ASSERT_EQ(cudaSuccess, upsweep::sort_pairs(nullptr, pairs, keys.current(), keys.alternate(), values.current(),
                                             values.alternate(), n));
  ASSERT_EQ(cudaSuccess, upsweep::sort_pairs(nullptr, doubled_pairs, keys, values, n));
  EXPECT_GE(plain - doubled, static_cast<std::size_t>(n) * sizeof(std::uint32_t));
  EXPECT_GE(pairs - doubled_pairs, static_cast<std::size_t>(n) * 2 * sizeof(std::uint32_t));
  EXPECT_LT(doubled, static_cast<std::size_t>(n) * sizeof(std::uint32_t) / 4);
}

TEST(DoubleBuffer, rejects_a_bad_selector_one_buffer_twice_overlap_and_bad_windows_before_any_launch) {
  const std::int64_t n = 1000;
  std::size_t bytes = 0;
  upsweep::double_buffer<std::uint32_t> keys(fake_device_pointer<std::uint32_t>(0),
                                             fake_device_pointer<std::uint32_t>(1));
  ASSERT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, bytes, keys, n));
  void* temp = fake_device_pointer<void>(3);
  keys.selector = 2;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(temp, bytes, keys, n));
  keys.selector = 0;
  upsweep::double_buffer<std::uint32_t> same(keys.current(), keys.current());
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(temp, bytes, same, n));
  upsweep::double_buffer<std::uint32_t> overlapping(keys.current(), keys.current() + n / 2);
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(temp, bytes, overlapping, n));
  upsweep::double_buffer<std::uint32_t> missing(keys.current(), nullptr);
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(temp, bytes, missing, n));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(temp, bytes, keys, n, 0, 33));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(temp, bytes, keys, n, 9, 8));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(temp, bytes, keys, -1));
  EXPECT_EQ(keys.selector, 0) << "a rejected call leaves the selector";
  std::size_t item_bytes = 0;
  const item* items = fake_device_pointer<item>(0);
  item* sorted = fake_device_pointer<item>(2);
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(nullptr, item_bytes, items, sorted, n, by_group_then_score{}, 0, 65));
  EXPECT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, item_bytes, items, sorted, n, by_group_then_score{}, 0, 64));
  std::uint32_t* indices = fake_device_pointer<std::uint32_t>(4);
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::argsort(nullptr, item_bytes, items, indices, (std::int64_t{1} << 32) + 1, by_group_then_score{}));
}

}  // namespace
