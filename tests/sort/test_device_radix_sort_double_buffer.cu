// Radix sort between two caller buffers (double_buffer) and the in == out rule, on the GPU: the
// result lies in the buffer the selector names, whatever passes the device skipped; pairs keep
// equal keys in input order (values = input index); struct keys through a decomposer; keys in
// place beside values not in place and the reverse. Against a stable host sort, bitwise.
#include "../scan/scan_test_support.cuh"
#include "sort_test_support.cuh"

#include <upsweep/sort.cuh>

#include <cuda/std/tuple>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;

enum class distribution { uniform, low_bits, all_equal };  // every pass busy, one busy pass, none

const char* name_of(distribution d) {
  return d == distribution::uniform ? "uniform" : (d == distribution::low_bits ? "only low bits varying" : "all equal");
}

std::vector<std::uint32_t> make_keys(std::int64_t n, distribution d, std::uint64_t seed) {
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
  const auto fixed = static_cast<std::uint32_t>(mix64(seed));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::uint32_t>(mix64(seed ^ mix64(static_cast<std::uint64_t>(i))));
    keys[static_cast<std::size_t>(i)] =
        d == distribution::uniform ? r : (d == distribution::low_bits ? ((fixed & ~0xffu) | (r & 0xffu)) : fixed);
  }
  return keys;
}

int flips_for(int begin_bit, int end_bit) { return ((end_bit - begin_bit + 7) / 8) % 2; }

// Two buffers each for keys and values, guards after both, the input in buffers[start].
template <class Key>
struct buffer_pair {
  device_buffer<Key> a, b;
  buffer_pair(const std::vector<Key>& host, int start)
      : a(static_cast<std::int64_t>(host.size()), guard_items), b(static_cast<std::int64_t>(host.size()), guard_items) {
    const auto n = static_cast<std::int64_t>(host.size());
    check(cudaMemset(a.data(), poison_byte, (n + guard_items) * sizeof(Key)), "poison a");
    check(cudaMemset(b.data(), poison_byte, (n + guard_items) * sizeof(Key)), "poison b");
    (start == 0 ? a : b).upload(host);
  }
  upsweep::double_buffer<Key> buffers(int start) const {
    upsweep::double_buffer<Key> d(a.data(), b.data());
    d.selector = start;
    return d;
  }
  void expect_guards_intact(std::int64_t n) const {
    for (const device_buffer<Key>* buffer : {&a, &b}) {
      const std::vector<Key> guard = buffer->download(guard_items, n);
      std::vector<unsigned char> bytes(guard.size() * sizeof(Key));
      std::memcpy(bytes.data(), guard.data(), bytes.size());
      for (const unsigned char byte : bytes) ASSERT_EQ(byte, poison_byte) << "written past the end";
    }
  }
};

template <class T>
std::vector<T> download_current(const upsweep::double_buffer<T>& d, std::int64_t n) {
  std::vector<T> host(static_cast<std::size_t>(n));
  check(cudaMemcpy(host.data(), d.current(), host.size() * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return host;
}

class RadixSortDoubleBuffer : public gpu_test {};

// Policy: void (the default) or one sorting small inputs in one tile (radix_sort_single_tile_kernel).
template <class Policy>
void expect_selector_names_the_sorted_buffer() {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t tile = upsweep::default_radix_sort_policy<std::uint32_t, index_t>::tile_items;
  struct window {
    int begin_bit, end_bit;
  };
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1001}, tile - 1, tile, tile + 1,
                               max_test_items((std::int64_t{1} << 20) + 3)})
    for (const distribution d : {distribution::uniform, distribution::low_bits, distribution::all_equal}) {
      const std::vector<std::uint32_t> keys = make_keys(n, d, seed);
      std::vector<index_t> iota(keys.size());
      std::iota(iota.begin(), iota.end(), index_t{0});
      for (const window w : {window{0, 32}, window{0, 24}, window{8, 16}, window{4, 4}})
        for (const bool descending : {false, true}) {
          const std::vector<index_t> order = reference_order(keys, descending, w.begin_bit, w.end_bit);
          for (const bool pairs : {false, true})
            for (const int start : {0, 1}) {
              SCOPED_TRACE(std::string(name_of(d)) + ", n = " + std::to_string(n) + ", bits [" +
                           std::to_string(w.begin_bit) + ", " + std::to_string(w.end_bit) + ")" +
                           (pairs ? ", pairs" : ", keys") + (descending ? ", descending" : "") + ", selector " +
                           std::to_string(start));
              buffer_pair<std::uint32_t> key_buffers(keys, start);
              buffer_pair<index_t> value_buffers(iota, 1 - start);  // values start in the other buffer
              upsweep::double_buffer<std::uint32_t> d_keys = key_buffers.buffers(start);
              upsweep::double_buffer<index_t> d_values = value_buffers.buffers(1 - start);
              const auto call = [&](void* d_temp, std::size_t& bytes) {
                if (pairs)
                  return descending ? upsweep::sort_pairs_descending<Policy>(d_temp, bytes, d_keys, d_values, n,
                                                                             w.begin_bit, w.end_bit)
                                    : upsweep::sort_pairs<Policy>(d_temp, bytes, d_keys, d_values, n, w.begin_bit,
                                                                  w.end_bit);
                return descending
                           ? upsweep::sort_keys_descending<Policy>(d_temp, bytes, d_keys, n, w.begin_bit, w.end_bit)
                           : upsweep::sort_keys<Policy>(d_temp, bytes, d_keys, n, w.begin_bit, w.end_bit);
              };
              std::size_t bytes = 0;
              CUDA_OK(call(nullptr, bytes));
              device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
              CUDA_OK(call(temp.data(), bytes));
              CUDA_OK(cudaDeviceSynchronize());
              const int flips = flips_for(w.begin_bit, w.end_bit);
              EXPECT_EQ(d_keys.selector, start ^ flips);
              expect_same_bits(download_current(d_keys, n), permuted(keys, order));
              if (pairs) {
                EXPECT_EQ(d_values.selector, (1 - start) ^ flips);
                expect_same_bits(download_current(d_values, n), order);
              }
              key_buffers.expect_guards_intact(n);
              value_buffers.expect_guards_intact(n);
              if (::testing::Test::HasFatalFailure()) return;
            }
        }
    }
}

TEST_F(RadixSortDoubleBuffer, the_selector_names_the_sorted_buffer_whatever_passes_were_skipped) {
  expect_selector_names_the_sorted_buffer<void>();
}

// The default shape with the one-launch path for inputs of one tile or less.
using single_tile_policy = upsweep::radix_sort_policy<
    256, upsweep::detail::default_radix_tile_shape<std::uint32_t, index_t>().items, 256,
    upsweep::default_look_back_delay_ns, upsweep::radix_rank_method::match_any, 1, true>;

TEST_F(RadixSortDoubleBuffer, the_one_tile_path_follows_the_same_selector_rule) {
  expect_selector_names_the_sorted_buffer<single_tile_policy>();
}

TEST_F(RadixSortDoubleBuffer, struct_keys_through_a_decomposer_sort_between_the_two_buffers) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items((std::int64_t{1} << 20) + 3);
  std::vector<item> items(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed ^ mix64(static_cast<std::uint64_t>(i)));
    const float score = (r & 7) == 0 ? -0.0f : static_cast<float>(static_cast<int>((r >> 8) % 64) - 32) * 0.5f;
    items[static_cast<std::size_t>(i)] = {static_cast<std::uint32_t>((r >> 20) % 9), score,
                                          static_cast<std::uint32_t>(i)};
  }
  std::vector<index_t> iota(items.size());
  std::iota(iota.begin(), iota.end(), index_t{0});
  for (const bool descending : {false, true})
    for (const int end_bit : {64, 56}) {
      SCOPED_TRACE(std::string(descending ? "descending" : "ascending") + ", bits [0, " + std::to_string(end_bit) + ")");
      buffer_pair<item> key_buffers(items, 0);
      buffer_pair<index_t> value_buffers(iota, 0);
      upsweep::double_buffer<item> d_keys = key_buffers.buffers(0);
      upsweep::double_buffer<index_t> d_values = value_buffers.buffers(0);
      if (descending)
        upsweep::sort_pairs_descending(d_keys, d_values, n, by_group_then_score{}, 0, end_bit);
      else
        upsweep::sort_pairs(d_keys, d_values, n, by_group_then_score{}, 0, end_bit);
      CUDA_OK(cudaDeviceSynchronize());
      EXPECT_EQ(d_keys.selector, flips_for(0, end_bit));
      EXPECT_EQ(d_values.selector, flips_for(0, end_bit));
      // Reference: the members' ordered bits packed into one word, restricted to the window.
      std::vector<std::uint64_t> window(items.size());
      for (std::size_t i = 0; i < items.size(); ++i) {
        const std::uint64_t packed =
            (std::uint64_t{upsweep::radix_traits<std::uint32_t>::to_ordered(items[i].group)} << 32) |
            upsweep::radix_traits<float>::to_ordered(items[i].score);
        const std::uint64_t bits = descending ? ~packed : packed;
        window[i] = end_bit == 64 ? bits : bits & ((std::uint64_t{1} << end_bit) - 1);
      }
      std::vector<index_t> order(items.size());
      std::iota(order.begin(), order.end(), index_t{0});
      std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) { return window[a] < window[b]; });
      expect_same_bits(download_current(d_keys, n), permuted(items, order));
      expect_same_bits(download_current(d_values, n), order);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

struct triple {
  std::uint64_t hi;
  std::int64_t mid;
  std::uint32_t lo;
  std::uint32_t id;
};
struct by_hi_mid_lo {
  __host__ __device__ cuda::std::tuple<std::uint64_t&, std::int64_t&, std::uint32_t&> operator()(triple& t) const {
    return {t.hi, t.mid, t.lo};
  }
};

// 160 bits: several windows of passes, each moving between the buffers, the selector following all.
TEST_F(RadixSortDoubleBuffer, keys_wider_than_64_bits_follow_the_selector_across_windows) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  using traits = upsweep::decomposed_traits<triple, by_hi_mid_lo>;
  const std::int64_t n = 3 * upsweep::default_radix_sort_policy<triple, upsweep::detail::no_values>::tile_items + 1;
  std::vector<triple> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed ^ mix64(static_cast<std::uint64_t>(i))), q = mix64(r);
    keys[static_cast<std::size_t>(i)] = {r & 3, static_cast<std::int64_t>(q % 5) - 2, static_cast<std::uint32_t>(q >> 40),
                                         static_cast<std::uint32_t>(i)};
  }
  struct window {
    int begin_bit, end_bit;
  };
  for (const window w : {window{0, 160}, window{4, 140}, window{0, 72}})
    for (const int start : {0, 1}) {
      SCOPED_TRACE("bits [" + std::to_string(w.begin_bit) + ", " + std::to_string(w.end_bit) + "), selector " +
                   std::to_string(start));
      buffer_pair<triple> buffers(keys, start);
      upsweep::double_buffer<triple> d_keys = buffers.buffers(start);
      upsweep::sort_keys(d_keys, n, by_hi_mid_lo{}, w.begin_bit, w.end_bit);
      CUDA_OK(cudaDeviceSynchronize());
      EXPECT_EQ(d_keys.selector, start ^ flips_for(w.begin_bit, w.end_bit));
      std::vector<index_t> order(keys.size());
      std::iota(order.begin(), order.end(), index_t{0});
      std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
        const auto x = traits::to_sort_bits<false>(keys[a], {}), y = traits::to_sort_bits<false>(keys[b], {});
        for (int top = w.end_bit; top > w.begin_bit;) {
          const int width = top - w.begin_bit < 32 ? top - w.begin_bit : 32;
          top -= width;
          const unsigned p = traits::digit(x, top, width), q = traits::digit(y, top, width);
          if (p != q) return p < q;
        }
        return false;
      });
      expect_same_bits(download_current(d_keys, n), permuted(keys, order));
      buffers.expect_guards_intact(n);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// The in == out rule: keys and values each may be in place or not, independently; what is in
// place is overwritten with the result, what is not is left unchanged.
TEST_F(RadixSortDoubleBuffer, keys_and_values_are_each_in_place_or_not_and_inputs_not_in_place_stay_unchanged) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 5 * upsweep::default_radix_sort_policy<std::uint32_t, index_t>::tile_items + 11;
  for (const distribution d : {distribution::uniform, distribution::low_bits, distribution::all_equal})
    for (const bool keys_in_place : {false, true})
      for (const bool values_in_place : {false, true})
        for (const int end_bit : {32, 24}) {
          SCOPED_TRACE(std::string(name_of(d)) + (keys_in_place ? ", keys in place" : ", keys to out") +
                       (values_in_place ? ", values in place" : ", values to out") + ", end bit " +
                       std::to_string(end_bit));
          const std::vector<std::uint32_t> keys = make_keys(n, d, seed);
          std::vector<index_t> iota(keys.size());
          std::iota(iota.begin(), iota.end(), index_t{0});
          device_buffer<std::uint32_t> keys_in(keys), keys_out(n);
          device_buffer<index_t> values_in(iota), values_out(n);
          std::uint32_t* d_keys_out = keys_in_place ? keys_in.data() : keys_out.data();
          index_t* d_values_out = values_in_place ? values_in.data() : values_out.data();
          upsweep::sort_pairs(keys_in.data(), d_keys_out, values_in.data(), d_values_out, n, 0, end_bit);
          CUDA_OK(cudaDeviceSynchronize());
          const std::vector<index_t> order = reference_order(keys, false, 0, end_bit);
          expect_same_bits((keys_in_place ? keys_in : keys_out).download(), permuted(keys, order));
          expect_same_bits((values_in_place ? values_in : values_out).download(), order);
          if (!keys_in_place) expect_same_bits(keys_in.download(), keys);
          if (!values_in_place) expect_same_bits(values_in.download(), iota);
          if (::testing::Test::HasFatalFailure()) return;
        }
}

}  // namespace
