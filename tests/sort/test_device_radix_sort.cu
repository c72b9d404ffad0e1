// Radix sort on the GPU against a stable host sort of the twiddled keys and against
// cub::DeviceRadixSort, bitwise: every key type, sizes around the tile, distributions that leave
// passes trivial, bit windows, descending, pairs stability, special floats, in place, errors.
// The typed suites run the default policy and each ranking method on 384-thread tiles.
#include "../scan/scan_test_support.cuh"
#include "sort_test_support.cuh"

#include <upsweep/sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace upsweep::test;

// zeros_and_ones: keys of bits 0 or 1, so the one busy pass is mostly digit 0, the digit whose low
// bits the padding past a partial tile shares.
enum class distribution {
  uniform,
  sorted,
  reversed,
  all_equal,
  two_values,
  sixteen_values,
  low_bits,
  high_bits,
  zeros_and_ones
};

const char* name_of(distribution d) {
  switch (d) {
    case distribution::uniform: return "uniform";
    case distribution::sorted: return "sorted";
    case distribution::reversed: return "reversed";
    case distribution::all_equal: return "all equal";
    case distribution::two_values: return "two values";
    case distribution::sixteen_values: return "sixteen values";
    case distribution::low_bits: return "only low bits varying";
    case distribution::high_bits: return "only high bits varying";
    case distribution::zeros_and_ones: return "zeros and ones";
  }
  return "?";
}

const distribution all_distributions[] = {distribution::uniform,        distribution::sorted,
                                          distribution::reversed,       distribution::all_equal,
                                          distribution::two_values,     distribution::sixteen_values,
                                          distribution::low_bits,       distribution::high_bits,
                                          distribution::zeros_and_ones};

// The shapes a sparse run keeps: random digits, one digit everywhere (passes skipped), two
// values (heavy ties in the ranking) and digits only in the low pass.
bool takes_its_own_path(distribution d) {
  return d == distribution::uniform || d == distribution::all_equal || d == distribution::two_values ||
         d == distribution::low_bits;
}

template <class Key>
using bits_of = typename upsweep::radix_traits<Key>::bits_t;

template <class Key>
Key key_of_bits(std::uint64_t bits) {
  return upsweep::radix_traits<Key>::from_bits(static_cast<bits_of<Key>>(bits));
}

// Keys as random bit patterns (floats then include NaNs, infinities and denormals).
template <class Key>
std::vector<Key> make_keys(std::int64_t n, distribution d, std::uint64_t seed) {
  constexpr int width = static_cast<int>(sizeof(Key) * 8);
  const auto random_bits = [&](std::uint64_t i) { return mix64(seed ^ mix64(i)); };
  std::vector<Key> keys(static_cast<std::size_t>(n));
  const std::uint64_t fixed = random_bits(~std::uint64_t{0});
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = random_bits(static_cast<std::uint64_t>(i));
    std::uint64_t bits = r;
    switch (d) {
      case distribution::all_equal: bits = fixed; break;
      case distribution::two_values: bits = random_bits(1000 + (r & 1)); break;
      case distribution::sixteen_values: bits = random_bits(1000 + (r & 15)); break;
      case distribution::low_bits: bits = (fixed & ~std::uint64_t{0xff}) | (r & 0xff); break;
      case distribution::high_bits: bits = (fixed & ~(std::uint64_t{0xff} << (width - 8))) | (r << (width - 8)); break;
      case distribution::zeros_and_ones: bits = (r >> 7) % 8 == 0 ? 1 : 0; break;
      default: break;
    }
    keys[static_cast<std::size_t>(i)] = key_of_bits<Key>(bits);
  }
  if (d == distribution::sorted || d == distribution::reversed) {
    std::stable_sort(keys.begin(), keys.end(), [](Key a, Key b) {
      return upsweep::radix_traits<Key>::to_ordered(a) < upsweep::radix_traits<Key>::to_ordered(b);
    });
    if (d == distribution::reversed) std::reverse(keys.begin(), keys.end());
  }
  return keys;
}

// A family of policies, one per (key, value) type: `policy<Key, Value>` is what the core layer's
// Policy argument receives (void: the library's default).
struct default_policies {
  static constexpr const char* name = "default";
  template <class Key, class Value>
  using policy = void;
};

// The default's large-input policy (the shape it takes from large_radix_input_items on), run at
// every test size: the default itself reaches it only past that size. Void where it has none.
template <class Key, class Value, class Large = typename upsweep::default_radix_sort_policy<Key, Value>::large_input_policy>
using large_input_policy_or_default = Large;

struct large_input_policies {
  static constexpr const char* name = "large_input";
  template <class Key, class Value>
  using policy = large_input_policy_or_default<Key, Value>;
};

// 384 threads with the widest element at most 8 bytes: 20 items (10 for 8-byte ones) keep the tile
// at 30 KiB of shared memory, next to 12 warps' digit counters.
constexpr int t384_items_per_thread(std::size_t widest) { return widest >= 8 ? 10 : 20; }

template <upsweep::radix_rank_method Method>
struct t384_policies {
  static constexpr const char* name = Method == upsweep::radix_rank_method::ballot ? "ballot" : "match_any";
  template <class Key, class Value>
  using policy = upsweep::radix_sort_policy<384, t384_items_per_thread(std::max(sizeof(Key), sizeof(Value))), 256,
                                            upsweep::default_look_back_delay_ns, Method>;
};
using ballot_policies = t384_policies<upsweep::radix_rank_method::ballot>;
using match_any_policies = t384_policies<upsweep::radix_rank_method::match_any>;

// The default tile shape with ballot ranking and a look-back window: the candidates the tune
// rows measure (window 1 is today's walk, tile by tile).
template <int Window>
struct ballot256_policies {
  static constexpr const char* name = Window == 1 ? "ballot256" : "ballot256_window";
  template <class Key, class Value>
  using policy = upsweep::radix_sort_policy<256, upsweep::detail::default_radix_tile_shape<Key, Value>().items, 256,
                                            upsweep::default_look_back_delay_ns, upsweep::radix_rank_method::ballot,
                                            Window>;
};

// The default shape with the one-launch path for inputs of one tile or less.
struct single_tile_policies {
  static constexpr const char* name = "single_tile";
  template <class Key, class Value>
  using policy = upsweep::radix_sort_policy<256, upsweep::detail::default_radix_tile_shape<Key, Value>().items, 256,
                                            upsweep::default_look_back_delay_ns, upsweep::radix_rank_method::match_any,
                                            1, true>;
};

template <class Policies, class Key, class Value>
using resolved_policy = upsweep::detail::radix_sort_policy_t<typename Policies::template policy<Key, Value>, Key, Value>;

template <class Key, class Policies>
struct sort_case {
  using key = Key;
  using policies = Policies;
};

// The type's short name for test names (the key types of the suites below).
template <class Key>
std::string type_name() {
  const char* const widths[] = {"8", "16", "32", "64"};
  const int width = sizeof(Key) == 1 ? 0 : sizeof(Key) == 2 ? 1 : sizeof(Key) == 4 ? 2 : 3;
  const char* kind = std::is_floating_point_v<Key> ? "f" : std::is_signed_v<Key> ? "i" : "u";
  return std::string(kind) + widths[width];
}

template <class Key>
struct sorted_output {
  std::vector<Key> keys;
  std::vector<index_t> values;  // empty for keys-only sorts
};

struct sort_options {
  bool descending = false;
  bool pairs = true;
  bool in_place = false;
  int begin_bit = 0;
  int end_bit = -1;  // -1: all the key's bits
  cudaStream_t stream = 0;
};

template <class Key>
int end_bit_of(const sort_options& opt) {
  return opt.end_bit < 0 ? static_cast<int>(sizeof(Key) * 8) : opt.end_bit;
}

// Upsweep's core layer on poisoned outputs with a guard past their end; values = input index.
// Checks the input is unchanged (unless in place) and the guards are intact.
template <class Policies = default_policies, class Key>
sorted_output<Key> run_upsweep(const std::vector<Key>& host_keys, const sort_options& opt) {
  using keys_policy = typename Policies::template policy<Key, upsweep::detail::no_values>;
  using pairs_policy = typename Policies::template policy<Key, index_t>;
  const auto n = static_cast<std::int64_t>(host_keys.size());
  std::vector<index_t> host_values(host_keys.size());
  std::iota(host_values.begin(), host_values.end(), index_t{0});
  device_buffer<Key> keys_in(host_keys);
  device_buffer<index_t> values_in(host_values);
  device_buffer<Key> keys_out(n, guard_items);
  device_buffer<index_t> values_out(n, guard_items);
  check(cudaMemset(keys_out.data(), poison_byte, (n + guard_items) * sizeof(Key)), "poison keys");
  check(cudaMemset(values_out.data(), poison_byte, (n + guard_items) * sizeof(index_t)), "poison values");
  Key* d_keys_out = opt.in_place ? keys_in.data() : keys_out.data();
  index_t* d_values_out = opt.in_place ? values_in.data() : values_out.data();
  const int end_bit = end_bit_of<Key>(opt);

  const auto call = [&](void* d_temp, std::size_t& bytes) {
    if (opt.pairs)
      return opt.descending
                 ? upsweep::sort_pairs_descending<pairs_policy>(d_temp, bytes, keys_in.data(), d_keys_out,
                                                                values_in.data(), d_values_out, n, opt.begin_bit,
                                                                end_bit, opt.stream)
                 : upsweep::sort_pairs<pairs_policy>(d_temp, bytes, keys_in.data(), d_keys_out, values_in.data(),
                                                     d_values_out, n, opt.begin_bit, end_bit, opt.stream);
    return opt.descending ? upsweep::sort_keys_descending<keys_policy>(d_temp, bytes, keys_in.data(), d_keys_out, n,
                                                                       opt.begin_bit, end_bit, opt.stream)
                          : upsweep::sort_keys<keys_policy>(d_temp, bytes, keys_in.data(), d_keys_out, n,
                                                            opt.begin_bit, end_bit, opt.stream);
  };
  std::size_t bytes = 0;
  check(call(nullptr, bytes), "size query");
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  check(cudaMemset(temp.data(), poison_byte, bytes), "poison temp");
  check(call(temp.data(), bytes), "sort");
  check(cudaStreamSynchronize(opt.stream), "sort kernels");

  sorted_output<Key> out;
  if (opt.in_place) {
    out.keys = keys_in.download();
    if (opt.pairs) out.values = values_in.download();
    return out;
  }
  out.keys = keys_out.download();
  if (opt.pairs) out.values = values_out.download();
  const std::vector<Key> key_guard = keys_out.download(guard_items, n);
  for (const Key& k : key_guard) {
    bits_of<Key> bits;
    std::memcpy(&bits, &k, sizeof(Key));
    EXPECT_EQ(bits, static_cast<bits_of<Key>>(0xA5A5A5A5A5A5A5A5ull)) << "keys written past the end";
  }
  if (opt.pairs)
    for (const index_t v : values_out.download(guard_items, n)) EXPECT_EQ(v, 0xA5A5A5A5u) << "values written past the end";
  const std::vector<Key> input_after = keys_in.download();
  EXPECT_EQ(0, std::memcmp(input_after.data(), host_keys.data(), host_keys.size() * sizeof(Key))) << "input changed";
  return out;
}

// cub::DeviceRadixSort on the same input, the bitwise oracle.
template <class Key>
sorted_output<Key> run_cub(const std::vector<Key>& host_keys, const sort_options& opt) {
  const auto n = static_cast<std::int64_t>(host_keys.size());
  std::vector<index_t> host_values(host_keys.size());
  std::iota(host_values.begin(), host_values.end(), index_t{0});
  device_buffer<Key> keys_in(host_keys), keys_out(n);
  device_buffer<index_t> values_in(host_values), values_out(n);
  const int end_bit = end_bit_of<Key>(opt);
  const auto call = [&](void* d_temp, std::size_t& bytes) {
    if (opt.descending)
      return cub::DeviceRadixSort::SortPairsDescending(d_temp, bytes, keys_in.data(), keys_out.data(),
                                                       values_in.data(), values_out.data(), n, opt.begin_bit, end_bit);
    return cub::DeviceRadixSort::SortPairs(d_temp, bytes, keys_in.data(), keys_out.data(), values_in.data(),
                                           values_out.data(), n, opt.begin_bit, end_bit);
  };
  std::size_t bytes = 0;
  check(call(nullptr, bytes), "cub size query");
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  check(call(temp.data(), bytes), "cub sort");
  check(cudaDeviceSynchronize(), "cub kernels");
  return {keys_out.download(), values_out.download()};
}

// Checks an output against the stable host reference: keys bitwise, values = input positions.
template <class Key>
void expect_matches_reference(const std::vector<Key>& in, const sorted_output<Key>& got, const sort_options& opt) {
  const std::vector<index_t> order = reference_order(in, opt.descending, opt.begin_bit, end_bit_of<Key>(opt));
  std::vector<Key> expected_keys(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) expected_keys[i] = in[order[i]];
  expect_same_bits(got.keys, expected_keys);
  if (opt.pairs) expect_same_bits(got.values, order);
}

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
    sort_case<std::uint64_t, large_input_policies>, sort_case<float, large_input_policies>>;

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
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{1000}, tile - 1, tile,
                                 tile + 1, 3 * tile + 7, max_test_items((std::int64_t{1} << 20) + 3)}) {
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
