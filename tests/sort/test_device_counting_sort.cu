// The counting sort that keys-only sorts of 8- and 16-bit keys over all their bits take from
// counting_sort_min_items on (counting_sort_dispatch.cuh), on the GPU: called directly at every
// size (so the sanitizers' small sizes still reach it), and through the public API on both sides
// of the threshold. Against a stable host sort and cub::DeviceRadixSort, bitwise: out of place,
// in place, double buffers, misaligned pointers, ascending and descending, shapes that hand
// counters off (one value, two values sharing a counter word), that leave most bins empty, and
// floats whose -0.0 and +0.0 must keep their input order.
#include "radix_sort_cases.cuh"

#include <upsweep/sort/detail/counting_sort_dispatch.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;
using upsweep::detail::counting_sort_min_items;
using upsweep::detail::no_values;

// Shapes the counting sort treats differently from the radix sort's distributions.
enum class shape { uniform, one_value, neighbours, sparse, sorted, signed_zeros, negative_zeros };

const char* name_of(shape s) {
  switch (s) {
    case shape::uniform: return "uniform";
    case shape::one_value: return "one value (counters hand off)";
    case shape::neighbours: return "two values sharing a counter word";
    case shape::sparse: return "eight values far apart (most bins empty)";
    case shape::sorted: return "sorted";
    case shape::signed_zeros: return "a third -0.0, a third +0.0";
    case shape::negative_zeros: return "-0.0 and no +0.0";
  }
  return "?";
}

template <class Key>
std::vector<Key> make_shape(std::int64_t n, shape s, std::uint64_t seed) {
  using traits = upsweep::radix_traits<Key>;
  constexpr int width = static_cast<int>(sizeof(Key) * 8);
  std::vector<Key> keys(static_cast<std::size_t>(n));
  const auto fixed = mix64(seed);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed ^ mix64(static_cast<std::uint64_t>(i)));
    std::uint64_t bits = r;
    switch (s) {
      case shape::one_value: bits = fixed; break;
      case shape::neighbours: bits = (fixed & ~std::uint64_t{1}) | (r & 1); break;
      case shape::sparse: bits = (r & 7) << (width - 3); break;
      case shape::sorted:
        bits = static_cast<std::uint64_t>(i) * (std::uint64_t{1} << width) / static_cast<std::uint64_t>(n);
        break;
      case shape::signed_zeros: bits = r % 3 == 0 ? 0 : r % 3 == 1 ? traits::sign_bit : r >> 20; break;
      case shape::negative_zeros: bits = r % 2 == 0 ? traits::sign_bit : r >> 20; break;
      default: break;
    }
    keys[static_cast<std::size_t>(i)] = key_of_bits<Key>(bits);
  }
  return keys;
}

// The sort's buffers: an input, an output (or the input, in place), both `offset` keys into
// their allocations, poisoned guards past both.
template <class Key>
struct counting_buffers {
  std::int64_t n, offset;
  device_buffer<Key> in, out;
  counting_buffers(const std::vector<Key>& host, std::int64_t offset_keys)
      : n(static_cast<std::int64_t>(host.size())),
        offset(offset_keys),
        in(n, offset_keys + guard_items),
        out(n, offset_keys + guard_items) {
    check(cudaMemset(in.data(), poison_byte, (n + offset + guard_items) * sizeof(Key)), "poison in");
    check(cudaMemset(out.data(), poison_byte, (n + offset + guard_items) * sizeof(Key)), "poison out");
    if (n > 0)
      check(cudaMemcpy(in.data() + offset, host.data(), n * sizeof(Key), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<Key> download(const device_buffer<Key>& b) const {
    std::vector<Key> host(static_cast<std::size_t>(n));
    if (n > 0) check(cudaMemcpy(host.data(), b.data() + offset, n * sizeof(Key), cudaMemcpyDeviceToHost), "download");
    return host;
  }
  void expect_guard_intact(const device_buffer<Key>& b) const {
    std::vector<unsigned char> guard(guard_items * sizeof(Key));
    check(cudaMemcpy(guard.data(), b.data() + offset + n, guard.size(), cudaMemcpyDeviceToHost), "guard");
    for (const unsigned char byte : guard) ASSERT_EQ(byte, poison_byte) << "written past the end";
  }
};

enum class mode { out_of_place, in_place, double_buffer };

const char* name_of(mode m) {
  return m == mode::out_of_place ? "out of place" : m == mode::in_place ? "in place" : "double buffer";
}

// The counting sort itself (not the dispatch that chooses it), at any size.
template <bool Descending, class Key>
std::vector<Key> counting_sort(const std::vector<Key>& host, mode m, std::int64_t offset) {
  counting_buffers<Key> b(host, offset);
  Key* d_in = b.in.data() + offset;
  Key* d_out = m == mode::in_place ? d_in : b.out.data() + offset;
  // Double buffer, as the dispatch does: 8-bit keys to the other buffer, 16-bit keys in place
  // with the other buffer as scratch.
  Key* d_other = nullptr;
  if (m == mode::double_buffer) {
    d_other = b.out.data() + offset;
    d_out = sizeof(Key) == 1 ? d_other : d_in;
  }
  const std::size_t bytes = upsweep::detail::counting_sort_storage_bytes<Key>(b.n, d_other == nullptr);
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  check(cudaMemset(temp.data(), poison_byte, bytes), "poison temp");
  check(upsweep::detail::dispatch_counting_sort<Descending, Key>(temp.data(), bytes, d_in, d_out, d_other, b.n, 0),
        "counting sort");
  check(cudaDeviceSynchronize(), "counting sort kernels");
  const bool result_in_out = d_out != d_in;
  b.expect_guard_intact(result_in_out ? b.out : b.in);
  if (m == mode::out_of_place && b.n > 0)
    EXPECT_EQ(0, std::memcmp(b.download(b.in).data(), host.data(), host.size() * sizeof(Key))) << "input changed";
  return b.download(result_in_out ? b.out : b.in);
}

template <class Key>
std::vector<Key> expected_sort(const std::vector<Key>& in, bool descending) {
  return permuted(in, reference_order(in, descending, 0, static_cast<int>(sizeof(Key) * 8)));
}

template <class Key>
std::vector<Key> cub_sort(const std::vector<Key>& host, bool descending) {
  sort_options opt;
  opt.descending = descending;
  opt.pairs = false;
  return run_cub(host, opt).keys;
}

template <class Key>
class CountingSort : public gpu_test {};

using counting_keys = ::testing::Types<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, __half, __nv_bfloat16>;

struct counting_key_names {
  template <class Key>
  static std::string GetName(int) {
    if (std::is_same_v<Key, __half>) return "f16";
    if (std::is_same_v<Key, __nv_bfloat16>) return "bf16";
    return type_name<Key>();
  }
};
TYPED_TEST_SUITE(CountingSort, counting_keys, counting_key_names);

template <class Key>
bool applies(shape s) {
  const bool zeros = s == shape::signed_zeros || s == shape::negative_zeros;
  return !zeros || upsweep::detail::counting_sort_traits<Key>::has_two_zeros;
}

template <bool Descending, class Key>
void expect_counting_sort_matches(const std::vector<Key>& keys, mode m, std::int64_t offset) {
  const std::vector<Key> ours = counting_sort<Descending>(keys, m, offset);
  if (::testing::Test::HasFatalFailure()) return;
  expect_same_bits(ours, expected_sort(keys, Descending));
}

TYPED_TEST(CountingSort, matches_a_stable_host_sort_at_every_size_shape_and_mode) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  constexpr std::int64_t tile = upsweep::detail::counting_expand_tile_items<Key>;
  constexpr std::int64_t chunk = upsweep::detail::counting_keys_per_chunk;
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{15}, std::int64_t{17}, std::int64_t{1000},
                               tile - 1, tile, tile + 1, max_test_items(2 * chunk + 9)}) {
    for (const shape s : {shape::uniform, shape::one_value, shape::neighbours, shape::sparse, shape::sorted,
                          shape::signed_zeros, shape::negative_zeros}) {
      if (!applies<Key>(s)) continue;
      for (const mode m : {mode::out_of_place, mode::in_place, mode::double_buffer}) {
        if (sparse_tests() && m != mode::out_of_place && s != shape::signed_zeros) continue;
        SCOPED_TRACE(std::string(name_of(s)) + ", n = " + std::to_string(n) + ", " + name_of(m));
        const std::vector<Key> keys = make_shape<Key>(n, s, seed + static_cast<std::uint64_t>(s));
        expect_counting_sort_matches<false>(keys, m, 0);
        expect_counting_sort_matches<true>(keys, m, 0);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TYPED_TEST(CountingSort, misaligned_pointers_take_the_head_apart_and_match) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(3 * upsweep::detail::counting_keys_per_chunk + 5);
  for (const std::int64_t offset : {1, 3, 7}) {
    for (const shape s : {shape::uniform, shape::signed_zeros}) {
      if (!applies<Key>(s)) continue;
      SCOPED_TRACE(std::string(name_of(s)) + ", " + std::to_string(offset) + " keys past 16-byte alignment");
      const std::vector<Key> keys = make_shape<Key>(n, s, seed);
      expect_counting_sort_matches<false>(keys, mode::out_of_place, offset);
      expect_counting_sort_matches<true>(keys, mode::in_place, offset);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// Through the public API: below the threshold the radix passes, from it the counting sort; both
// equal CUB bit for bit, and a size asked for the larger n serves the smaller.
TYPED_TEST(CountingSort, the_public_sort_around_the_threshold_matches_cub) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t threshold = counting_sort_min_items<Key>;
  std::size_t largest = 0;
  check(upsweep::sort_keys<void>(nullptr, largest, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                                 threshold + 5),
        "size query");
  for (const std::int64_t n : {threshold - 1, threshold, threshold + 5}) {
    std::size_t bytes = 0;
    check(upsweep::sort_keys<void>(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr), n),
          "size query");
    EXPECT_LE(bytes, largest) << "n = " << n;
    for (const shape s : {shape::uniform, shape::signed_zeros}) {
      if (!applies<Key>(s)) continue;
      const std::vector<Key> keys = make_shape<Key>(max_test_items(n), s, seed);
      for (const bool descending : {false, true}) {
        SCOPED_TRACE(std::string(name_of(s)) + ", n = " + std::to_string(keys.size()) +
                     (descending ? ", descending" : ", ascending"));
        sort_options opt;
        opt.descending = descending;
        opt.pairs = false;
        expect_same_bits(run_upsweep(keys, opt).keys, cub_sort(keys, descending));
        opt.in_place = true;
        expect_same_bits(run_upsweep(keys, opt).keys, cub_sort(keys, descending));
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// The double-buffer form keeps the window rule: 8-bit keys end in the other buffer (one pass),
// 16-bit keys where they started (two).
TYPED_TEST(CountingSort, the_double_buffer_selector_follows_the_window_rule) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(counting_sort_min_items<Key> + 3);
  const shape s = applies<Key>(shape::signed_zeros) ? shape::signed_zeros : shape::uniform;
  const std::vector<Key> keys = make_shape<Key>(n, s, seed);
  for (const int start : {0, 1}) {
    SCOPED_TRACE("input in buffer " + std::to_string(start));
    device_buffer<Key> a(n), b(n);
    (start == 0 ? a : b).upload(keys);
    upsweep::double_buffer<Key> buffers(a.data(), b.data());
    buffers.selector = start;
    std::size_t bytes = 0;
    check(upsweep::sort_keys<void>(nullptr, bytes, buffers, n), "size query");
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    check(upsweep::sort_keys<void>(temp.data(), bytes, buffers, n), "sort");
    check(cudaDeviceSynchronize(), "sort kernels");
    EXPECT_EQ(buffers.selector, sizeof(Key) == 1 ? 1 - start : start) << "the buffer holding the result";
    std::vector<Key> got(static_cast<std::size_t>(n));
    check(cudaMemcpy(got.data(), buffers.current(), n * sizeof(Key), cudaMemcpyDeviceToHost), "download");
    expect_same_bits(got, cub_sort(keys, false));
  }
}

}  // namespace
