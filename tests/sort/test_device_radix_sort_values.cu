// Values of every size the API names (1, 2, 4, 8 and 16 bytes) and of the alignments that decide
// how a pass moves them: values of 4, 8 or 16 bytes aligned to 4 or more are copied async into
// their own staging, in chunks their alignment allows (4, 8 or 16 bytes); the others pass through
// registers and the keys' exchange. Each against the stable host order, on fresh random keys and
// values, at sizes around the one-tile path and the pass's tile, ascending and descending, with
// the default policy and its policy for large inputs.
#include "../scan/scan_test_support.cuh"
#include "sort_test_support.cuh"

#include <upsweep/sort.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace upsweep::test;

struct three_words {  // 12 bytes: through registers
  std::uint32_t w[3];
};
struct four_words {  // 16 bytes aligned to 4: four 4-byte copies
  std::uint32_t w[4];
};
struct two_halves {  // 16 bytes aligned to 8: two 8-byte copies
  std::uint64_t lo, hi;
};
struct alignas(16) aligned_quad {  // one 16-byte copy
  std::uint32_t w[4];
};
struct six_bytes {  // aligned to 1: through registers
  unsigned char b[6];
};

template <class T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Random bytes in every value, so a value moved to the wrong slot (or half of it) shows.
template <class T>
std::vector<T> random_values(std::int64_t n, std::uint64_t seed) {
  std::vector<T> values(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < values.size(); ++i) {
    unsigned char bytes[sizeof(T)];
    for (std::size_t b = 0; b < sizeof(T); ++b)
      bytes[b] = static_cast<unsigned char>(mix64(seed ^ mix64(i * sizeof(T) + b)) >> 24);
    std::memcpy(&values[i], bytes, sizeof(T));
  }
  return values;
}

template <class Value>
class RadixSortValues : public gpu_test {};

using value_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, float, std::uint64_t, double,
                                     three_words, four_words, two_halves, aligned_quad, six_bytes>;

struct value_names {
  template <class T>
  static std::string GetName(int) {
    if (std::is_same_v<T, std::uint8_t>) return "u8";
    if (std::is_same_v<T, std::uint16_t>) return "u16";
    if (std::is_same_v<T, std::uint32_t>) return "u32";
    if (std::is_same_v<T, float>) return "f32";
    if (std::is_same_v<T, std::uint64_t>) return "u64";
    if (std::is_same_v<T, double>) return "f64";
    if (std::is_same_v<T, three_words>) return "three_words";
    if (std::is_same_v<T, four_words>) return "four_words";
    if (std::is_same_v<T, two_halves>) return "two_halves";
    if (std::is_same_v<T, aligned_quad>) return "aligned_quad";
    return "six_bytes";
  }
};

TYPED_TEST_SUITE(RadixSortValues, value_types, value_names);

// Sorts random (Key, Value) pairs through the core layer with Policy (void: the default, which
// sorts these sizes with its own tiles) at sizes around its tile, and checks keys and values
// against the stable host order; the outputs are poisoned before each run.
template <class Key, class Value, class Policy = void>
void check_pairs_of(std::uint64_t seed) {
  constexpr int tile = upsweep::detail::radix_sort_policy_t<Policy, Key, Value>::tile_items;
  const std::int64_t sizes[] = {0, 1, 1000, tile - 1, tile, tile + 1, 3 * tile + 17, max_test_items(1'000'003)};
  for (const bool descending : {false, true}) {
    for (const std::int64_t n : sizes) {
      SCOPED_TRACE("key bytes " + std::to_string(sizeof(Key)) + ", tile " + std::to_string(tile) +
                   ", n = " + std::to_string(n) + (descending ? ", descending" : ", ascending"));
      const std::uint64_t case_seed = seed ^ mix64(static_cast<std::uint64_t>(n) * 2 + descending + sizeof(Key));
      const std::vector<Key> keys = random_host<Key>(n, case_seed, Key{0}, std::numeric_limits<Key>::max());
      const std::vector<Value> values = random_values<Value>(n, case_seed + 1);
      device_buffer<Key> keys_in(keys), keys_out(n);
      device_buffer<Value> values_in(values), values_out(n);
      CUDA_OK(poison(keys_out.data(), n, Key{0x5a}));
      CUDA_OK(cudaMemset(values_out.data(), poison_byte, static_cast<std::size_t>(n) * sizeof(Value)));
      const auto sort = [&](void* temp, std::size_t& bytes) {
        return descending ? upsweep::sort_pairs_descending<Policy>(temp, bytes, keys_in.data(), keys_out.data(),
                                                                   values_in.data(), values_out.data(), n)
                          : upsweep::sort_pairs<Policy>(temp, bytes, keys_in.data(), keys_out.data(),
                                                        values_in.data(), values_out.data(), n);
      };
      std::size_t bytes = 0;
      CUDA_OK(sort(nullptr, bytes));
      device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
      CUDA_OK(sort(temp.data(), bytes));
      CUDA_OK(cudaDeviceSynchronize());
      const std::vector<index_t> order = reference_order(keys, descending, 0, static_cast<int>(sizeof(Key) * 8));
      ASSERT_EQ(keys_out.download(), permuted(keys, order));
      const std::vector<Value> got = values_out.download();
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_TRUE(same_bytes(got[i], values[order[i]])) << "value at " << i << " is not input " << order[i] << "'s";
    }
  }
}

// The default policy, and the shapes it takes for larger inputs (from 2^19 items, and from 2^20
// to 2^24 by the pair's bytes) where it has them, run here at the smaller sizes.
template <class Key, class Value>
void check_default_policies_of(std::uint64_t seed) {
  check_pairs_of<Key, Value>(seed);
  using sized = upsweep::detail::radix_sort_policy_of_shape<Value, upsweep::detail::default_radix_tile_shape<Key, Value>>;
  using large = typename upsweep::detail::large_input_radix_sort_policy<Key, Value>::type;
  if constexpr (upsweep::detail::small_input_radix_tile_shape<Key, Value>().threads != 0)
    check_pairs_of<Key, Value, sized>(seed);
  if constexpr (!std::is_void_v<large>) check_pairs_of<Key, Value, large>(seed);
}

TYPED_TEST(RadixSortValues, travel_with_their_keys_at_every_value_size_and_alignment) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  check_default_policies_of<std::uint32_t, TypeParam>(seed);
  check_default_policies_of<std::uint64_t, TypeParam>(seed);
  check_default_policies_of<std::uint16_t, TypeParam>(seed);
}

}  // namespace
