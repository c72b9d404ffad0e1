// Radix sort of struct keys through a decomposer, on the GPU: a (u32 group, float score) key with
// -0.0, NaNs and ties against std::stable_sort on the host and against CUB's decomposer sort,
// bitwise; keys, pairs (values = input index) and argsort, ascending and descending; bit windows
// over the concatenated members; a 160-bit key sorted window by window; in place and convenience.
#include "../scan/scan_test_support.cuh"
#include "sort_test_support.cuh"

#include <upsweep/sort.cuh>

#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>

#include <cuda/std/tuple>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;

// group, score and its bits, input index: for failure messages.
std::string describe(const item& k) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &k.score, sizeof(bits));
  char text[96];
  std::snprintf(text, sizeof(text), "{group %u, score %g (0x%08x), id %u}", k.group, static_cast<double>(k.score), bits,
                k.id);
  return text;
}

struct triple {
  std::uint64_t hi;
  std::int64_t mid;
  std::uint32_t lo;
  std::uint32_t pad;  // explicit, so the key's bytes are all defined
};
struct by_hi_mid_lo {
  __host__ __device__ cuda::std::tuple<std::uint64_t&, std::int64_t&, std::uint32_t&> operator()(triple& t) const {
    return {t.hi, t.mid, t.lo};
  }
};

// Groups from a handful (ties), scores from specials, a few repeated values and random bits.
std::vector<item> make_items(std::int64_t n, std::uint64_t seed, std::uint32_t groups) {
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::signaling_NaN(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(),
                            std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::lowest()};
  constexpr std::uint64_t kinds = sizeof(specials) / sizeof(specials[0]);
  std::vector<item> items(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed ^ mix64(static_cast<std::uint64_t>(i)));
    float score;
    switch (r & 3) {
      case 0: score = specials[(r >> 2) % kinds]; break;
      case 1: score = static_cast<float>(static_cast<int>((r >> 2) % 16) - 8) * 0.25f; break;
      default: {
        const auto bits = static_cast<std::uint32_t>(r >> 32);
        std::memcpy(&score, &bits, sizeof(score));
      }
    }
    const auto group = groups == 0 ? static_cast<std::uint32_t>(r >> 8) : static_cast<std::uint32_t>((r >> 8) % groups);
    items[static_cast<std::size_t>(i)] = {group, score, static_cast<std::uint32_t>(i)};
  }
  return items;
}

std::vector<triple> make_triples(std::int64_t n, std::uint64_t seed) {
  std::vector<triple> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed ^ mix64(static_cast<std::uint64_t>(i)));
    const std::uint64_t s = mix64(r);
    // Few distinct his and mids: every member decides some comparisons.
    keys[static_cast<std::size_t>(i)] = {(r & 3) << 60 | (r & 1), static_cast<std::int64_t>(s % 7) - 3,
                                         static_cast<std::uint32_t>(s >> 32), static_cast<std::uint32_t>(i)};
  }
  return keys;
}

// The plain host order of the issue: group, then score in radix order (-0.0 == +0.0, NaNs by
// bits), equal keys in input order; descending is the exact reverse with ties still in order.
std::vector<index_t> host_order_by_group_then_score(const std::vector<item>& items, bool descending) {
  std::vector<index_t> order(items.size());
  std::iota(order.begin(), order.end(), index_t{0});
  const auto key = [&](index_t i) {
    return std::make_pair(items[i].group, upsweep::radix_traits<float>::to_ordered(items[i].score));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](index_t a, index_t b) { return descending ? key(b) < key(a) : key(a) < key(b); });
  return order;
}

// The window's bits compared from the top, through the library's digit extraction: the reference
// for any decomposed key and window.
template <class Key, class Decomposer>
std::vector<index_t> host_order_by_window(const std::vector<Key>& keys, Decomposer decomposer, bool descending,
                                          int begin_bit, int end_bit) {
  using traits = upsweep::decomposed_traits<Key, Decomposer>;
  std::vector<typename traits::sort_bits_t> bits(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    bits[i] = descending ? traits::template to_sort_bits<true>(keys[i], decomposer)
                         : traits::template to_sort_bits<false>(keys[i], decomposer);
  std::vector<index_t> order(keys.size());
  std::iota(order.begin(), order.end(), index_t{0});
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
    for (int top = end_bit; top > begin_bit;) {
      const int width = top - begin_bit < 32 ? top - begin_bit : 32;
      top -= width;
      const unsigned x = traits::digit(bits[a], top, width), y = traits::digit(bits[b], top, width);
      if (x != y) return x < y;
    }
    return false;
  });
  return order;
}

enum class form { keys, pairs, argsort };
const char* name_of(form f) { return f == form::keys ? "keys" : (f == form::pairs ? "pairs" : "argsort"); }

template <class Key>
struct sorted_output {
  std::vector<Key> keys;        // empty for argsort
  std::vector<index_t> values;  // pairs: the values (input index); argsort: the indices
};

// The guard items past a buffer's end, as bytes (struct keys have no bits_t).
template <class Key>
std::vector<unsigned char> device_buffer_bytes(const device_buffer<Key>& buffer, std::int64_t n) {
  const std::vector<Key> guard = buffer.download(guard_items, n);
  std::vector<unsigned char> bytes(guard.size() * sizeof(Key));
  std::memcpy(bytes.data(), guard.data(), bytes.size());
  return bytes;
}

// The core layer on poisoned outputs with guards past their end; checks the input is unchanged.
template <class Key, class Decomposer>
sorted_output<Key> run_upsweep(const std::vector<Key>& host_keys, Decomposer decomposer, form f, bool descending,
                               int begin_bit, int end_bit, cudaStream_t stream = 0) {
  const auto n = static_cast<std::int64_t>(host_keys.size());
  std::vector<index_t> iota(host_keys.size());
  std::iota(iota.begin(), iota.end(), index_t{0});
  device_buffer<Key> keys_in(host_keys), keys_out(n, guard_items);
  device_buffer<index_t> values_in(iota), values_out(n, guard_items);
  check(cudaMemset(keys_out.data(), poison_byte, (n + guard_items) * sizeof(Key)), "poison keys");
  check(cudaMemset(values_out.data(), poison_byte, (n + guard_items) * sizeof(index_t)), "poison values");
  const auto call = [&](void* d_temp, std::size_t& bytes) {
    switch (f) {
      case form::keys:
        return descending ? upsweep::sort_keys_descending(d_temp, bytes, keys_in.data(), keys_out.data(), n,
                                                          decomposer, begin_bit, end_bit, stream)
                          : upsweep::sort_keys(d_temp, bytes, keys_in.data(), keys_out.data(), n, decomposer,
                                               begin_bit, end_bit, stream);
      case form::pairs:
        return descending ? upsweep::sort_pairs_descending(d_temp, bytes, keys_in.data(), keys_out.data(),
                                                           values_in.data(), values_out.data(), n, decomposer,
                                                           begin_bit, end_bit, stream)
                          : upsweep::sort_pairs(d_temp, bytes, keys_in.data(), keys_out.data(), values_in.data(),
                                                values_out.data(), n, decomposer, begin_bit, end_bit, stream);
      default:
        return descending ? upsweep::argsort_descending(d_temp, bytes, keys_in.data(), values_out.data(), n,
                                                        decomposer, begin_bit, end_bit, stream)
                          : upsweep::argsort(d_temp, bytes, keys_in.data(), values_out.data(), n, decomposer,
                                             begin_bit, end_bit, stream);
    }
  };
  std::size_t bytes = 0;
  check(call(nullptr, bytes), "size query");
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  check(cudaMemset(temp.data(), poison_byte, bytes), "poison temp");
  check(call(temp.data(), bytes), "sort");
  check(cudaStreamSynchronize(stream), "sort kernels");

  sorted_output<Key> out;
  if (f != form::argsort) out.keys = keys_out.download();
  if (f != form::keys) out.values = values_out.download();
  for (const unsigned char byte : device_buffer_bytes(keys_out, n))
    EXPECT_EQ(byte, poison_byte) << "keys written past the end";
  for (const index_t v : values_out.download(guard_items, n)) EXPECT_EQ(v, 0xA5A5A5A5u) << "values written past the end";
  const std::vector<Key> input_after = keys_in.download();
  EXPECT_EQ(0, std::memcmp(input_after.data(), host_keys.data(), host_keys.size() * sizeof(Key))) << "input changed";
  return out;
}

// What each form must give for the reference order.
template <class Key>
void expect_sorted_as(const std::vector<Key>& in, const sorted_output<Key>& got, form f,
                      const std::vector<index_t>& order) {
  if (f != form::argsort) expect_same_bits(got.keys, permuted(in, order));
  if (f != form::keys) expect_same_bits(got.values, order);
}

#if CUB_VERSION >= 200200
constexpr bool cub_has_decomposers = true;
// cub::DeviceRadixSort::SortPairs with the same decomposer: the bitwise oracle.
template <class Key, class Decomposer>
sorted_output<Key> run_cub(const std::vector<Key>& host_keys, Decomposer decomposer, bool descending, int begin_bit,
                           int end_bit) {
  const auto n = static_cast<std::int64_t>(host_keys.size());
  std::vector<index_t> iota(host_keys.size());
  std::iota(iota.begin(), iota.end(), index_t{0});
  device_buffer<Key> keys_in(host_keys), keys_out(n);
  device_buffer<index_t> values_in(iota), values_out(n);
  const auto call = [&](void* d_temp, std::size_t& bytes) {
    if (descending)
      return cub::DeviceRadixSort::SortPairsDescending(d_temp, bytes, keys_in.data(), keys_out.data(),
                                                       values_in.data(), values_out.data(), n, decomposer, begin_bit,
                                                       end_bit);
    return cub::DeviceRadixSort::SortPairs(d_temp, bytes, keys_in.data(), keys_out.data(), values_in.data(),
                                           values_out.data(), n, decomposer, begin_bit, end_bit);
  };
  std::size_t bytes = 0;
  check(call(nullptr, bytes), "cub size query");
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  check(call(temp.data(), bytes), "cub sort");
  check(cudaDeviceSynchronize(), "cub kernels");
  return {keys_out.download(), values_out.download()};
}
#else
constexpr bool cub_has_decomposers = false;
template <class Key, class Decomposer>
sorted_output<Key> run_cub(const std::vector<Key>&, Decomposer, bool, int, int) {
  return {};
}
#endif

class RadixSortDecomposer : public gpu_test {};

constexpr std::int64_t item_tile_items(form f) {
  return f == form::keys ? upsweep::default_radix_sort_policy<item, upsweep::detail::no_values>::tile_items
                         : upsweep::default_radix_sort_policy<item, index_t>::tile_items;
}

TEST_F(RadixSortDecomposer, keys_pairs_and_argsort_order_by_group_then_score_like_a_stable_host_sort_at_every_size) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  constexpr int key_bits = upsweep::decomposed_key_bits_v<item, by_group_then_score>;
  for (const form f : {form::keys, form::pairs, form::argsort}) {
    const std::int64_t tile = item_tile_items(f);
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{1001}, tile - 1,
                                 tile, tile + 1, 3 * tile + 7, max_test_items((std::int64_t{1} << 20) + 3)}) {
      for (const std::uint32_t groups : {5u, 0u}) {  // ties in the group, or random groups
        const std::vector<item> items = make_items(n, seed + static_cast<std::uint64_t>(n), groups);
        for (const bool descending : {false, true}) {
          SCOPED_TRACE(std::string(name_of(f)) + ", n = " + std::to_string(n) +
                       (groups ? ", 5 groups" : ", random groups") + (descending ? ", descending" : ", ascending"));
          const std::vector<index_t> order = host_order_by_group_then_score(items, descending);
          expect_sorted_as(items, run_upsweep(items, by_group_then_score{}, f, descending, 0, key_bits), f, order);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

// CUB's order for (group, score) keys, modelled on the host. Ascending it is ours. Descending,
// CUB inverts the ordered bits first and only then folds the float -0.0 onto +0.0: +0.0's
// inverted bits (0x7fffffff) become -0.0's (0x80000000). Both zeros then share the bits just
// below the smallest negative numbers instead of just above the smallest positive ones. Over the
// whole score that changes nothing; a window that drops the score's low bits puts the zeros in
// the bucket of the tiny negatives, which is not the reverse of CUB's own ascending order.
// Upsweep keeps descending the exact reverse; this model says where CUB then differs.
std::vector<index_t> cub_order_by_window(const std::vector<item>& items, bool descending, int begin_bit, int end_bit) {
  if (!descending) return host_order_by_window(items, by_group_then_score{}, false, begin_bit, end_bit);
  std::vector<std::uint64_t> bits(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::uint32_t score = ~upsweep::radix_traits<float>::to_ordered(items[i].score);
    if (score == 0x7fffffffu) score = 0x80000000u;
    bits[i] = (std::uint64_t{~items[i].group} << 32) | score;
  }
  const std::uint64_t mask = end_bit - begin_bit >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << (end_bit - begin_bit)) - 1);
  std::vector<index_t> order(items.size());
  std::iota(order.begin(), order.end(), index_t{0});
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
    return ((bits[a] >> begin_bit) & mask) < ((bits[b] >> begin_bit) & mask);
  });
  return order;
}

TEST_F(RadixSortDecomposer, pairs_match_cubs_decomposer_sort_bitwise_for_whole_keys_and_windows) {
  if (!cub_has_decomposers) GTEST_SKIP() << "this CUB has no decomposer sort (CUB_VERSION " << CUB_VERSION << ")";
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::vector<item> items = make_items(max_test_items((std::int64_t{1} << 20) + 3), seed, 5);
  struct window {
    int begin_bit, end_bit;
  };
  for (const window w : {window{0, 64}, window{0, 32}, window{32, 64}, window{28, 40}, window{3, 61}})
    for (const bool descending : {false, true}) {
      SCOPED_TRACE("bits [" + std::to_string(w.begin_bit) + ", " + std::to_string(w.end_bit) + ")" +
                   (descending ? ", descending" : ", ascending"));
      const sorted_output<item> ours =
          run_upsweep(items, by_group_then_score{}, form::pairs, descending, w.begin_bit, w.end_bit);
      // The host's stable order of the window's bits first, so a difference from CUB says who
      // departs from it.
      expect_sorted_as(items, ours, form::pairs,
                       host_order_by_window(items, by_group_then_score{}, descending, w.begin_bit, w.end_bit));
      if (::testing::Test::HasFatalFailure()) return;
      const sorted_output<item> theirs = run_cub(items, by_group_then_score{}, descending, w.begin_bit, w.end_bit);
      const std::vector<index_t> cub_model = cub_order_by_window(items, descending, w.begin_bit, w.end_bit);
      for (std::size_t i = 0; i < theirs.values.size(); ++i)
        ASSERT_EQ(theirs.values[i], cub_model[i])
            << "CUB departs from its modelled order at " << i << ": CUB's " << describe(items[theirs.values[i]])
            << ", the model's " << describe(items[cub_model[i]]);
      // Where the models agree (every window but descending ones cutting the score's low bits
      // with zeros in the data), the two sorts agree bit for bit.
      if (cub_model == host_order_by_window(items, by_group_then_score{}, descending, w.begin_bit, w.end_bit)) {
        expect_same_bits(ours.values, theirs.values);
        expect_same_bits(ours.keys, theirs.keys);
      } else {
        EXPECT_TRUE(descending && w.begin_bit > 0 && w.begin_bit < 32) << "only the zero folding may differ";
      }
    }
}

TEST_F(RadixSortDecomposer, bit_windows_over_the_concatenated_members_sort_by_those_bits_only) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::vector<item> items = make_items(3 * item_tile_items(form::pairs) + 5, seed, 0);
  // [0, 32): the score alone; [32, 64): the group alone; [28, 40): digits spanning both members.
  const int cuts[] = {0, 5, 28, 32, 40, 64};
  for (const int begin_bit : cuts)
    for (const int end_bit : cuts) {
      if (end_bit < begin_bit) continue;
      for (const bool descending : {false, true}) {
        SCOPED_TRACE("bits [" + std::to_string(begin_bit) + ", " + std::to_string(end_bit) + ")" +
                     (descending ? ", descending" : ""));
        const std::vector<index_t> order =
            host_order_by_window(items, by_group_then_score{}, descending, begin_bit, end_bit);
        expect_sorted_as(items, run_upsweep(items, by_group_then_score{}, form::pairs, descending, begin_bit, end_bit),
                         form::pairs, order);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  // The whole-key window agrees with the plain host comparator the first test uses.
  EXPECT_EQ(host_order_by_window(items, by_group_then_score{}, false, 0, 64),
            host_order_by_group_then_score(items, false));
  EXPECT_EQ(host_order_by_window(items, by_group_then_score{}, true, 0, 64),
            host_order_by_group_then_score(items, true));
}

TEST_F(RadixSortDecomposer, keys_wider_than_64_bits_sort_window_by_window_like_one_sort) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  constexpr int key_bits = upsweep::decomposed_key_bits_v<triple, by_hi_mid_lo>;
  static_assert(key_bits == 160);
  const std::int64_t tile = upsweep::default_radix_sort_policy<triple, index_t>::tile_items;
  for (const std::int64_t n : {std::int64_t{1}, tile + 1, max_test_items(std::int64_t{1} << 18) + 1}) {
    const std::vector<triple> keys = make_triples(n, seed);
    struct window {
      int begin_bit, end_bit;
    };
    for (const window w : {window{0, key_bits}, window{4, 140}, window{60, 70}, window{64, 128}})
      for (const bool descending : {false, true}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", bits [" + std::to_string(w.begin_bit) + ", " +
                     std::to_string(w.end_bit) + ")" + (descending ? ", descending" : ""));
        const std::vector<index_t> order =
            host_order_by_window(keys, by_hi_mid_lo{}, descending, w.begin_bit, w.end_bit);
        for (const form f : {form::keys, form::pairs}) {
          const sorted_output<triple> ours = run_upsweep(keys, by_hi_mid_lo{}, f, descending, w.begin_bit, w.end_bit);
          expect_sorted_as(keys, ours, f, order);
          if (f == form::pairs && cub_has_decomposers) {
            const sorted_output<triple> theirs = run_cub(keys, by_hi_mid_lo{}, descending, w.begin_bit, w.end_bit);
            expect_same_bits(ours.keys, theirs.keys);
            expect_same_bits(ours.values, theirs.values);
          }
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
  }
}

TEST_F(RadixSortDecomposer, a_by_value_decomposer_on_a_const_key_sorts_the_same) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::vector<item> items = make_items(100003, seed, 7);
  for (const bool descending : {false, true}) {
    const sorted_output<item> by_ref = run_upsweep(items, by_group_then_score{}, form::pairs, descending, 0, 64);
    const sorted_output<item> by_value = run_upsweep(items, by_group_then_score_values{}, form::pairs, descending, 0, 64);
    expect_same_bits(by_value.keys, by_ref.keys);
    expect_same_bits(by_value.values, by_ref.values);
  }
}

TEST_F(RadixSortDecomposer, convenience_forms_sort_in_place_on_a_non_blocking_stream) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const std::int64_t n = 5 * item_tile_items(form::pairs) + 11;
  const std::vector<item> items = make_items(n, seed, 5);
  std::vector<index_t> iota(items.size());
  std::iota(iota.begin(), iota.end(), index_t{0});
  device_buffer<item> keys(items);
  device_buffer<index_t> values(iota), indices(n);
  upsweep::sort_pairs_descending(keys.data(), keys.data(), values.data(), values.data(), n, by_group_then_score{}, 0,
                                 64, stream);  // in place
  CUDA_OK(cudaStreamSynchronize(stream));
  const std::vector<index_t> descending = host_order_by_group_then_score(items, true);
  expect_same_bits(keys.download(), permuted(items, descending));
  expect_same_bits(values.download(), descending);

  keys.upload(items);
  upsweep::sort_keys(keys.data(), keys.data(), n, by_group_then_score{}, 0, 64, stream);
  upsweep::argsort(keys.data(), indices.data(), n, by_group_then_score{}, 0, 64, stream);  // sorted: identity
  CUDA_OK(cudaStreamSynchronize(stream));
  const std::vector<index_t> ascending = host_order_by_group_then_score(items, false);
  expect_same_bits(keys.download(), permuted(items, ascending));
  expect_same_bits(indices.download(), iota);

  keys.upload(items);
  upsweep::argsort_descending(keys.data(), indices.data(), n, by_group_then_score{}, 0, 64, stream);
  CUDA_OK(cudaStreamSynchronize(stream));
  expect_same_bits(indices.download(), descending);
  CUDA_OK(cudaStreamDestroy(stream));
}

TEST_F(RadixSortDecomposer, bit_ranges_outside_the_members_are_invalid_values) {
  std::size_t bytes = 0;
  const item* in = nullptr;
  item* out = nullptr;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(nullptr, bytes, in, out, 10, by_group_then_score{}, 0, 65));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(nullptr, bytes, in, out, 10, by_group_then_score{}, -1, 64));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::sort_keys(nullptr, bytes, in, out, 10, by_group_then_score{}, 9, 8));
  EXPECT_EQ(cudaSuccess, upsweep::sort_keys(nullptr, bytes, in, out, 0, by_group_then_score{}));
  EXPECT_GT(bytes, 0u);
}

}  // namespace
