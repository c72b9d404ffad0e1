// Host tests of radix sort's key layer: the ordered bits of every key type sort like CUB's
// DeviceRadixSort (signed order, -0.0 == +0.0, NaNs by bit pattern), round trips, descending,
// digits and bit windows. No GPU needed.
#include <upsweep/sort/radix_traits.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

using upsweep::radix_traits;

template <class Key>
Key key_from_bits(std::uint64_t bits) {
  return radix_traits<Key>::from_bits(static_cast<typename radix_traits<Key>::bits_t>(bits));
}

// Each key's ordered bits must be strictly above the previous key's, except where `equal_to_previous`.
template <class Key>
void expect_ascending(const std::vector<Key>& keys, const std::vector<bool>& equal_to_previous = {}) {
  using traits = radix_traits<Key>;
  for (std::size_t i = 1; i < keys.size(); ++i) {
    const auto lower = traits::to_ordered(keys[i - 1]);
    const auto upper = traits::to_ordered(keys[i]);
    const bool equal = i < equal_to_previous.size() && equal_to_previous[i];
    if (equal) {
      EXPECT_EQ(lower, upper) << "keys " << i - 1 << " and " << i << " should be equal";
    } else {
      EXPECT_LT(lower, upper) << "key " << i - 1 << " should sort before key " << i;
    }
    // Descending is the exact reverse.
    const auto lower_desc = traits::template to_sort_bits<true>(keys[i - 1]);
    const auto upper_desc = traits::template to_sort_bits<true>(keys[i]);
    if (equal) {
      EXPECT_EQ(lower_desc, upper_desc);
    } else {
      EXPECT_GT(lower_desc, upper_desc) << "descending: key " << i << " should sort before key " << i - 1;
    }
  }
}

template <class Key>
void expect_round_trip(Key key) {
  using traits = radix_traits<Key>;
  const auto bits = traits::to_bits(key);
  EXPECT_EQ(bits, traits::to_bits(traits::from_ordered(traits::to_ordered(key)))) << "bits " << +bits;
  // from_sort_bits inverts to_sort_bits both ways, also from a wider word (as the segmented sort's
  // 32-bit words hold 8- and 16-bit keys).
  EXPECT_EQ(bits, traits::to_bits(traits::template from_sort_bits<false>(traits::template to_sort_bits<false>(key))));
  EXPECT_EQ(bits, traits::to_bits(traits::template from_sort_bits<true>(traits::template to_sort_bits<true>(key))));
  if constexpr (sizeof(key) < 8) {
    const auto wide = static_cast<std::uint64_t>(traits::template to_sort_bits<true>(key));
    EXPECT_EQ(bits, traits::to_bits(traits::template from_sort_bits<true>(wide))) << "bits " << +bits;
  }
}

template <class Int>
void check_integer_order() {
  using limits = std::numeric_limits<Int>;
  std::vector<Int> keys = {limits::min(), static_cast<Int>(limits::min() + 1)};
  if constexpr (std::is_signed_v<Int>) {
    keys.push_back(static_cast<Int>(-2));
    keys.push_back(static_cast<Int>(-1));
  }
  if constexpr (std::is_signed_v<Int>) {
    keys.push_back(static_cast<Int>(0));
    keys.push_back(static_cast<Int>(1));
  }
  keys.push_back(static_cast<Int>(2));
  keys.push_back(static_cast<Int>(limits::max() / 2));
  keys.push_back(static_cast<Int>(limits::max() - 1));
  keys.push_back(limits::max());
  expect_ascending(keys);
  for (const Int key : keys) expect_round_trip(key);
}

TEST(RadixTraits, integers_of_every_width_keep_their_numeric_order) {
  check_integer_order<std::uint8_t>();
  check_integer_order<std::uint16_t>();
  check_integer_order<std::uint32_t>();
  check_integer_order<std::uint64_t>();
  check_integer_order<std::int8_t>();
  check_integer_order<std::int16_t>();
  check_integer_order<std::int32_t>();
  check_integer_order<std::int64_t>();
}

TEST(RadixTraits, unsigned_ordered_bits_are_the_key_and_signed_flip_only_the_sign) {
  EXPECT_EQ(0x1234u, radix_traits<std::uint16_t>::to_ordered(0x1234));
  EXPECT_EQ(0x80000000u, radix_traits<std::int32_t>::to_ordered(0));
  EXPECT_EQ(0x7fffffffu, radix_traits<std::int32_t>::to_ordered(-1));
  EXPECT_EQ(0u, radix_traits<std::int8_t>::to_ordered(std::numeric_limits<std::int8_t>::min()));
}

// Float-like keys from their bit patterns, in CUB's ascending order. Sign, exponent and mantissa
// positions are given by the type's width and mantissa bits.
template <class Key>
void check_float_order(int mantissa_bits) {
  constexpr int width = static_cast<int>(sizeof(Key) * 8);
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  const std::uint64_t all = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  const std::uint64_t inf = (sign - 1) & ~((std::uint64_t{1} << mantissa_bits) - 1);  // exponent all ones
  const std::uint64_t quiet = std::uint64_t{1} << (mantissa_bits - 1);
  const std::uint64_t one = (inf >> 1) & inf;  // biased exponent 0111..1, mantissa 0
  const std::uint64_t min_normal = std::uint64_t{1} << mantissa_bits;
  const std::uint64_t max_finite = inf - 1;
  const std::vector<std::uint64_t> ascending = {
      all,                        // -NaN, every bit set: first of all
      sign | inf | quiet | 1,     // negative quiet NaN with payload
      sign | inf | quiet,         // negative quiet NaN
      sign | inf | 1,             // negative signalling NaN
      sign | inf,                 // -inf
      sign | max_finite,          // lowest
      sign | one,                 // -1
      sign | min_normal,          // -min normal
      sign | (min_normal - 1),    // largest negative denormal magnitude
      sign | 1,                   // -denorm_min
      sign,                       // -0.0
      0,                          // +0.0, equal to -0.0
      1,                          // denorm_min
      min_normal - 1,             // largest denormal
      min_normal,                 // min normal
      one,                        // 1
      max_finite,                 // max
      inf,                        // +inf
      inf | 1,                    // signalling NaN
      inf | quiet,                // quiet NaN
      inf | quiet | 1,            // quiet NaN with payload
      sign - 1,                   // +NaN, every bit but the sign: last of all
  };
  std::vector<Key> keys;
  std::vector<bool> equal_to_previous;
  for (const std::uint64_t bits : ascending) {
    equal_to_previous.push_back(bits == 0);  // +0.0 right after -0.0
    keys.push_back(key_from_bits<Key>(bits));
  }
  expect_ascending(keys, equal_to_previous);
  for (const std::uint64_t bits : ascending)
    if (bits != sign) expect_round_trip(key_from_bits<Key>(bits));
  // -0.0 comes back as +0.0: the sort writes each key's own bits, never these.
  EXPECT_EQ(radix_traits<Key>::to_bits(radix_traits<Key>::from_ordered(radix_traits<Key>::to_ordered(key_from_bits<Key>(sign)))),
            0u);
}

TEST(RadixTraits, floats_order_like_cub_with_signed_zeros_equal_and_nans_by_bits) {
  check_float_order<float>(23);
  check_float_order<double>(52);
  check_float_order<__half>(10);
  check_float_order<__nv_bfloat16>(7);
}

TEST(RadixTraits, float_ordered_bits_agree_with_arithmetic_comparison) {
  const std::vector<float> values = {-std::numeric_limits<float>::infinity(), -3.5e38f, -2.0f, -1.0f, -1e-30f,
                                     -std::numeric_limits<float>::denorm_min(), 0.0f,
                                     std::numeric_limits<float>::denorm_min(), 1e-30f, 0.5f, 1.0f, 1.5f, 3.0e38f,
                                     std::numeric_limits<float>::infinity()};
  for (const float a : values)
    for (const float b : values) {
      const auto oa = radix_traits<float>::to_ordered(a);
      const auto ob = radix_traits<float>::to_ordered(b);
      EXPECT_EQ(a < b, oa < ob) << a << " vs " << b;
      EXPECT_EQ(a == b, oa == ob) << a << " vs " << b;
    }
  const std::vector<double> doubles = {-1e300, -1.0, -0.0, 0.0, 1e-310, 1.0, 1e300};
  for (const double a : doubles)
    for (const double b : doubles)
      EXPECT_EQ(a < b, radix_traits<double>::to_ordered(a) < radix_traits<double>::to_ordered(b)) << a << " vs " << b;
}

TEST(RadixTraits, digits_are_the_requested_bits_of_the_ordered_key) {
  using upsweep::radix_digit;
  EXPECT_EQ(0x34u, radix_digit(std::uint32_t{0x12345678}, 16, 8));
  EXPECT_EQ(0x12u, radix_digit(std::uint32_t{0x12345678}, 24, 8));
  EXPECT_EQ(0x7u, radix_digit(std::uint32_t{0x12345678}, 4, 3));  // 0x...67 >> 4 keeps 0b111
  EXPECT_EQ(0xffu, radix_digit(~std::uint64_t{0}, 56, 8));
  EXPECT_EQ(0x1u, radix_digit(std::uint8_t{0x80}, 7, 1));
}

TEST(RadixTraits, bit_windows_cut_after_the_twiddle_and_descending_inverts_them) {
  using upsweep::radix_window;
  EXPECT_EQ(0x34u, (radix_window<false>(std::uint32_t{0x12345678}, 16, 24)));
  EXPECT_EQ(0xcbu, (radix_window<true>(std::uint32_t{0x12345678}, 16, 24)));
  EXPECT_EQ(0u, (radix_window<false>(std::uint32_t{0x12345678}, 8, 8)));
  // int32 -1: ordered 0x7fffffff, so its top bit (the flipped sign) is 0.
  EXPECT_EQ(0u, (radix_window<false>(std::int32_t{-1}, 31, 32)));
  EXPECT_EQ(1u, (radix_window<false>(std::int32_t{0}, 31, 32)));
  EXPECT_EQ(~std::uint64_t{0}, (radix_window<true>(std::uint64_t{0}, 0, 64)));
  // -0.0f and +0.0f agree in every window.
  for (int begin = 0; begin <= 32; begin += 4)
    for (int end = begin; end <= 32; end += 4)
      EXPECT_EQ((radix_window<false>(-0.0f, begin, end)), (radix_window<false>(0.0f, begin, end)));
}

}  // namespace
