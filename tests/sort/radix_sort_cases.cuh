// The radix sort tests' shared pieces: key distributions, the policy families the typed suites
// run, Upsweep's core layer on poisoned outputs with guards, CUB's sort as the bitwise oracle and
// the check against the stable host reference.
#pragma once

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

namespace upsweep::test {

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

inline const char* name_of(distribution d) {
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

inline constexpr distribution all_distributions[] = {distribution::uniform,        distribution::sorted,
                                          distribution::reversed,       distribution::all_equal,
                                          distribution::two_values,     distribution::sixteen_values,
                                          distribution::low_bits,       distribution::high_bits,
                                          distribution::zeros_and_ones};

// The shapes a sparse run keeps: random digits, one digit everywhere (passes skipped), two
// values (heavy ties in the ranking) and digits only in the low pass.
inline bool takes_its_own_path(distribution d) {
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

// The default's larger shapes, each run at every test size (the default reaches them only past
// small_radix_input_items and large_radix_input_items): the sized shape alone, without its switch,
// and the large-input shape (void, the default, where the keys have none).
template <class Key, class Value>
using large_input_policy_or_default = typename upsweep::detail::large_input_radix_sort_policy<Key, Value>::type;

struct sized_policies {
  static constexpr const char* name = "sized";
  template <class Key, class Value>
  using policy = upsweep::detail::radix_sort_policy_of_shape<Value, upsweep::detail::default_radix_tile_shape<Key, Value>>;
};

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

}  // namespace upsweep::test
