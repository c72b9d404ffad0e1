// Sort across ranks on one GPU: P = 1..8, 9 and 17 logical ranks through the loopback exchange, each on its
// own host thread and stream, against the single-GPU sort of all slices in rank order, bitwise
// (keys, and pairs whose values are the global input index, so stability is checked item by
// item): every data shape, empty and lopsided ranks, descending, bit windows, equal slices, a too
// small output on one rank, an exchange without page-locked staging, and the core layer's size
// query; the device's splitters against the host reference. Fresh random data, seed printed.
// The loopback's own copies: test_dist_loopback.cu.
#include "../support/device_buffer.hpp"
#include "../support/device_random.cuh"
#include "../support/gpu_test.hpp"
#include "../support/seed.hpp"
#include "dist_ranks.hpp"

#include <upsweep/sort/detail/dist_loopback.cuh>
#include <upsweep/sort/dist_radix_sort.cuh>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace upsweep::test;

enum class shape { uniform, all_equal, sorted, reversed, two_values, skewed, special_floats };

template <class Key>
std::vector<Key> make_slice(std::int64_t n, shape s, std::uint64_t seed, std::int64_t first) {
  std::vector<Key> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t r = mix64(seed ^ mix64(static_cast<std::uint64_t>(first + i)));
    switch (s) {
      case shape::all_equal: r = seed; break;
      case shape::sorted: r = static_cast<std::uint64_t>(first + i); break;  // wraps for narrow keys
      case shape::reversed: r = ~static_cast<std::uint64_t>(first + i); break;
      case shape::two_values: r = (r & 1) ? seed : ~seed; break;
      case shape::skewed: r = r % 10 == 0 ? r : seed; break;  // 90 % one key
      case shape::special_floats: {
        const std::uint64_t pick = r % 6;  // -0.0, +0.0, -NaN, +NaN among random patterns
        if (pick == 0) r = std::uint64_t{1} << 63;
        else if (pick == 1) r = 0;
        else if (pick == 2) r = ~std::uint64_t{0};
        else if (pick == 3) r = ~std::uint64_t{0} >> 1;
        break;
      }
      default: break;
    }
    using bits_t = typename upsweep::radix_traits<Key>::bits_t;
    const bool counting = s == shape::sorted || s == shape::reversed;
    const auto bits = static_cast<bits_t>(counting ? r : r >> (64 - 8 * sizeof(Key)));
    keys[static_cast<std::size_t>(i)] = upsweep::radix_traits<Key>::from_bits(bits);
  }
  return keys;
}

struct dist_case {
  std::vector<std::int64_t> sizes;  // per rank
  shape data = shape::uniform;
  bool descending = false;
  bool pairs = false;
  bool rebalance = false;
  int begin_bit = 0, end_bit = -1;
  int rounds = 0;  // the exchange's rounds: 0 the sort's choice (1 below 2^24 items a rank), 1, 2 or 4
  bool pageable_plan = false;  // through an exchange without page-locked staging
};

// An exchange without page-locked staging, so the sort reads its plan into pageable memory; counts
// the sort's requests for staging (one a sort, from its one read back).
class without_staging final : public upsweep::dist_exchange_watcher {
 public:
  using dist_exchange_watcher::dist_exchange_watcher;
  int asked = 0;
  void* host_staging(std::size_t) override {
    ++asked;
    return nullptr;
  }

 private:
  void saw_all_to_all(const void*, const std::size_t*, const std::size_t*, void*, const std::size_t*,
                      const std::size_t*) override {}
};

dist_case in_rounds(dist_case c, int rounds) {
  c.rounds = rounds;
  return c;
}

template <class Key>
void expect_dist_sort(const dist_case& c, std::uint64_t seed) {
  const int p = static_cast<int>(c.sizes.size());
  SCOPED_TRACE("ranks " + std::to_string(p) + ", shape " + std::to_string(static_cast<int>(c.data)) +
               (c.descending ? ", descending" : "") + (c.pairs ? ", pairs" : "") + (c.rebalance ? ", rebalanced" : "") +
               ", bits [" + std::to_string(c.begin_bit) + ", " + std::to_string(c.end_bit) + "), rounds " +
               std::to_string(c.rounds));
  // The reference: the single-GPU sort of every slice, concatenated in rank order.
  std::vector<Key> all;
  std::vector<std::vector<Key>> slices;
  std::int64_t total = 0;
  for (std::int64_t n : c.sizes) {
    slices.push_back(make_slice<Key>(n, c.data, seed, total));
    all.insert(all.end(), slices.back().begin(), slices.back().end());
    total += n;
  }
  const int end_bit = c.end_bit < 0 ? static_cast<int>(8 * sizeof(Key)) : c.end_bit;
  std::vector<std::uint64_t> index(static_cast<std::size_t>(total));
  for (std::int64_t i = 0; i < total; ++i) index[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(i);
  device_buffer<Key> d_all(all), d_ref(total);
  device_buffer<std::uint64_t> d_index(index), d_ref_index(total);
  if (c.descending) upsweep::sort_pairs_descending(d_all.data(), d_ref.data(), d_index.data(), d_ref_index.data(), total, c.begin_bit, end_bit);
  else upsweep::sort_pairs(d_all.data(), d_ref.data(), d_index.data(), d_ref_index.data(), total, c.begin_bit, end_bit);
  const std::vector<Key> expected = d_ref.download();
  const std::vector<std::uint64_t> expected_index = d_ref_index.download();
  // Every rank sorts its slice with the others; outputs poisoned first.
  const std::int64_t capacity = upsweep::dist_receive_bound(total, p);
  std::vector<std::vector<Key>> got(static_cast<std::size_t>(p));
  std::vector<std::vector<std::uint64_t>> got_index(static_cast<std::size_t>(p));
  on_ranks(p, [&](int r, upsweep::dist_exchange& loopback, cudaStream_t stream) {
    without_staging pageable(loopback);
    upsweep::dist_exchange& exchange = c.pageable_plan ? pageable : loopback;
    std::int64_t first = 0;
    for (int q = 0; q < r; ++q) first += c.sizes[q];
    device_buffer<Key> d_in(slices[r]), d_out(capacity);
    device_buffer<std::uint64_t> d_values(std::vector<std::uint64_t>(index.begin() + first, index.begin() + first + c.sizes[r]));
    device_buffer<std::uint64_t> d_values_out(capacity);
    // Poisoned on the rank's stream: a memset on the legacy stream would not be ordered before it.
    check(cudaMemsetAsync(d_out.data(), 0xA5, static_cast<std::size_t>(capacity) * sizeof(Key), stream), "cudaMemset");
    check(cudaMemsetAsync(d_values_out.data(), 0xA5, static_cast<std::size_t>(capacity) * 8, stream), "cudaMemset");
    upsweep::dist_sort_options options{c.begin_bit, c.end_bit, c.rebalance, nullptr, c.rounds};
    std::int64_t n_out = 0;
    if (c.pairs)
      n_out = c.descending ? upsweep::dist_sort_pairs_descending(exchange, d_in.data(), d_out.data(), d_values.data(),
                                                                 d_values_out.data(), c.sizes[r], capacity, options, stream)
                           : upsweep::dist_sort_pairs(exchange, d_in.data(), d_out.data(), d_values.data(),
                                                      d_values_out.data(), c.sizes[r], capacity, options, stream);
    else
      n_out = c.descending ? upsweep::dist_sort_keys_descending(exchange, d_in.data(), d_out.data(), c.sizes[r],
                                                                capacity, options, stream)
                           : upsweep::dist_sort_keys(exchange, d_in.data(), d_out.data(), c.sizes[r], capacity,
                                                     options, stream);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    if (c.pageable_plan) EXPECT_EQ(p == 1 ? 0 : 1, pageable.asked) << "rank " << r << ": read backs of the plan";
    got[r] = d_out.download(n_out);
    if (c.pairs) got_index[r] = d_values_out.download(n_out);
  });
  std::vector<Key> joined;
  std::vector<std::uint64_t> joined_index;
  for (int r = 0; r < p; ++r) {
    EXPECT_LE(static_cast<std::int64_t>(got[r].size()), capacity) << "rank " << r;
    if (c.rebalance) {
      const std::int64_t slice = total / p + (r < total % p ? 1 : 0);
      EXPECT_EQ(slice, static_cast<std::int64_t>(got[r].size())) << "rank " << r;
    }
    joined.insert(joined.end(), got[r].begin(), got[r].end());
    joined_index.insert(joined_index.end(), got_index[r].begin(), got_index[r].end());
  }
  ASSERT_EQ(joined.size(), expected.size());
  ASSERT_EQ(0, total == 0 ? 0 : std::memcmp(joined.data(), expected.data(), expected.size() * sizeof(Key)))
      << "the keys differ from the single-GPU sort";
  if (c.pairs) EXPECT_EQ(joined_index, expected_index) << "the values (input indices) differ: not stable";
}

class DistRadixSort : public gpu_test {};

TEST_F(DistRadixSort, EveryRankCountAndShapeMatchesTheSingleGpuSort) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t each = max_test_items(50001);
  for (int p = 1; p <= 8; ++p)
    for (shape s : {shape::uniform, shape::all_equal, shape::sorted, shape::reversed, shape::two_values, shape::skewed}) {
      std::vector<std::int64_t> sizes;
      for (int q = 0; q < p; ++q) sizes.push_back(static_cast<std::int64_t>(mix64(seed + p * 31 + q) % (each + 1)));
      const int rounds[] = {1, 2, 4};
      expect_dist_sort<std::uint32_t>(in_rounds({sizes, s, false, p % 2 == 0}, rounds[(p + static_cast<int>(s)) % 3]),
                                      seed + p);
      if (HasFatalFailure()) return;
    }
}

TEST_F(DistRadixSort, EmptyTinyOddAndLopsidedRanks) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t big = max_test_items(1 << 20);
  const std::vector<std::vector<std::int64_t>> cases = {{0}, {1}, {0, 0, 0}, {1, 0, 1, 0}, {0, 0, big, 0},
                                                        {3, 1, 4, 1, 5, 9, 2, 6}, {4095, 4097, 2047, 2049}, {big, 1}};
  for (const auto& sizes : cases)
    for (shape s : {shape::uniform, shape::all_equal}) {
      expect_dist_sort<std::uint32_t>(in_rounds({sizes, s, false, true}, s == shape::uniform ? 4 : 0), seed);
      if (HasFatalFailure()) return;
    }
}

// The plan read into pageable memory where the exchange has no page-locked staging.
TEST_F(DistRadixSort, AnExchangeWithoutStagingReadsThePlanIntoPageableMemory) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(40009);
  dist_case keys{{n, 0, n / 7, n + 3}, shape::uniform};
  keys.pageable_plan = true;
  expect_dist_sort<std::uint32_t>(keys, seed);
  dist_case pairs{{n / 3, n, 1}, shape::two_values, true, true, true};
  pairs.pageable_plan = true;
  expect_dist_sort<std::uint64_t>(pairs, seed);
  dist_case alone{{n}, shape::uniform};
  alone.pageable_plan = true;
  expect_dist_sort<std::uint32_t>(alone, seed);
}

// Past eight ranks the received runs join in more than one merge pass (eight runs a pass).
TEST_F(DistRadixSort, MoreRanksThanOneMergeTakesJoinInSeveralPasses) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t each = max_test_items(20011);
  for (int p : {9, 17})
    for (shape s : {shape::uniform, shape::two_values}) {
      std::vector<std::int64_t> sizes;
      for (int q = 0; q < p; ++q) sizes.push_back(static_cast<std::int64_t>(mix64(seed + q) % (each + 1)));
      expect_dist_sort<std::uint32_t>({sizes, s, s == shape::two_values, true}, seed + p);
      if (HasFatalFailure()) return;
    }
}

TEST_F(DistRadixSort, KeyTypesDescendingBitWindowsAndEqualSlices) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(30011);
  const std::vector<std::int64_t> four = {n, n / 3, 0, n + 7};
  expect_dist_sort<float>({four, shape::special_floats, false, true}, seed);
  expect_dist_sort<double>(in_rounds({four, shape::special_floats, true, true}, 4), seed);
  expect_dist_sort<std::int64_t>(in_rounds({four, shape::uniform, true, false, true}, 2), seed);
  expect_dist_sort<std::uint64_t>({four, shape::skewed, false, true, true}, seed);
  expect_dist_sort<std::int16_t>({four, shape::uniform, false, true}, seed);
  expect_dist_sort<std::uint8_t>(in_rounds({four, shape::uniform, true, true, true}, 4), seed);
  expect_dist_sort<std::uint32_t>({four, shape::uniform, false, true, false, 5, 27}, seed);
  expect_dist_sort<std::uint32_t>({four, shape::uniform, true, true, true, 9, 9}, seed);  // an empty window
  expect_dist_sort<std::uint32_t>(in_rounds({{n, n, n}, shape::all_equal, false, true, true}, 4), seed);
}

TEST_F(DistRadixSort, LargeSlicesOfTwoToThe24PerRank) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(std::int64_t{1} << 24);
  expect_dist_sort<std::uint32_t>({{n, n, n, n}, shape::uniform, false, true}, seed);
  if (HasFatalFailure()) return;
  // Eight runs of 2^23: the merge's tile bounds one thread a sample (kway_lanes_per_sample).
  const std::int64_t m = max_test_items((std::int64_t{1} << 23) + 5);
  expect_dist_sort<std::uint32_t>({std::vector<std::int64_t>(8, m), shape::uniform, false, true}, seed + 1);
}

// The kernel that picks the splitters on the device against the host's choose_splitters, the
// reference: sorted samples with duplicates within and across ranks, empty ranks, counts past
// 2^32 (the weights' 128-bit products), every rank empty; the sort's sample count and
// 1 to 3 samples a rank, where shares past the last sample stay empty.
TEST_F(DistRadixSort, DeviceSplittersMatchTheHostReference) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (int p = 1; p <= 17; ++p)
    for (int variant = 0; variant < 16; ++variant) {
      SCOPED_TRACE("ranks " + std::to_string(p) + ", variant " + std::to_string(variant));
      const std::int64_t s = variant < 4 ? upsweep::detail::dist_samples_per_rank(p) : 1 + variant % 3;
      const std::int64_t words = s + upsweep::detail::dist_header_words;
      std::vector<std::int64_t> counts(static_cast<std::size_t>(p));
      std::vector<std::uint64_t> values(static_cast<std::size_t>(p * s)), blocks;
      for (int q = 0; q < p; ++q) {
        const std::uint64_t r = mix64(seed + static_cast<std::uint64_t>(p * 101 + q * 7 + variant));
        const int kind = variant % 4;
        if (kind == 3 || r % 4 == 0) counts[q] = 0;
        else if (kind == 2) counts[q] = static_cast<std::int64_t>(r >> 8);  // past 2^32, the total below 2^62
        else counts[q] = r % 7 == 0 ? 1 : static_cast<std::int64_t>(r % 100000);
        const std::uint64_t range = kind == 1 ? 5 : ~std::uint64_t{0};  // kind 1: few distinct values
        auto first = values.begin() + q * s;
        for (std::int64_t j = 0; j < s; ++j) first[j] = counts[q] == 0 ? 0 : mix64(r + j) % range;
        std::sort(first, first + s);
        blocks.push_back(static_cast<std::uint64_t>(counts[q]));
        blocks.insert(blocks.end(), first, first + s);
      }
      const std::vector<upsweep::detail::dist_key> expected = upsweep::detail::choose_splitters(values, counts, s);
      device_buffer<std::uint64_t> d_blocks(blocks);
      // The sort's buckets: its rounds split each rank's share, and every C-th splitter is the rank's.
      const int c = upsweep::detail::dist_round_splits, buckets = p * c;
      device_buffer<upsweep::detail::dist_key> d_splitters(buckets - 1);
      check(cudaMemset(d_splitters.data(), 0xA5, static_cast<std::size_t>(buckets - 1) * sizeof(upsweep::detail::dist_key)),
            "cudaMemset");
      upsweep::detail::choose_splitters_kernel<<<static_cast<unsigned>((p * s + 255) / 256), 256>>>(
          d_blocks.data(), p, buckets, s, d_splitters.data());
      check(cudaGetLastError(), "choose_splitters_kernel");
      const std::vector<upsweep::detail::dist_key> got = d_splitters.download();
      ASSERT_EQ(static_cast<std::int64_t>(blocks.size()), p * words);
      for (int b = 0; b + 1 < buckets; ++b)  // written, and in order
        if (b > 0) EXPECT_FALSE(got[b] < got[b - 1]) << "splitter " << b;
      for (int t = 0; t + 1 < p; ++t) {
        const upsweep::detail::dist_key& key = got[(t + 1) * c - 1];
        EXPECT_EQ(expected[t].value, key.value) << "splitter " << t;
        EXPECT_EQ(expected[t].rank, key.rank) << "splitter " << t;
        EXPECT_EQ(expected[t].position, key.position) << "splitter " << t;
      }
      if (HasFailure()) return;
    }
}

// The exchange's pieces leave from and land on 128-byte boundaries (NCCL moves misaligned pieces
// far slower), whatever the slice sizes: every all-to-all offset of the keys and of the values.
class offset_recorder final : public upsweep::dist_exchange_watcher {
 public:
  using dist_exchange_watcher::dist_exchange_watcher;
  std::vector<std::uintptr_t> addresses;
  std::vector<std::vector<std::size_t>> sends;  // every all-to-all's bytes to each rank

 private:
  void saw_all_to_all(const void* d_send, const std::size_t* send_bytes, const std::size_t* send_offsets, void* d_recv,
                      const std::size_t* recv_bytes, const std::size_t* recv_offsets) override {
    sends.emplace_back(send_bytes, send_bytes + size());
    for (int t = 0; t < size(); ++t) {
      if (send_bytes[t] > 0) addresses.push_back(reinterpret_cast<std::uintptr_t>(d_send) + send_offsets[t]);
      if (recv_bytes[t] > 0) addresses.push_back(reinterpret_cast<std::uintptr_t>(d_recv) + recv_offsets[t]);
    }
  }
};

TEST_F(DistRadixSort, TheExchangeMovesPiecesOn128ByteBoundaries) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const int p = 5;
  std::vector<std::int64_t> sizes = {1001, 333, 0, 4097, 77};
  std::int64_t total = 0;
  for (std::int64_t n : sizes) total += n;
  const std::int64_t capacity = upsweep::dist_receive_bound(total, p);
  std::vector<std::vector<std::uintptr_t>> addresses(p);
  std::vector<std::int64_t> kept(p);
  on_ranks(p, [&](int r, upsweep::dist_exchange& loopback, cudaStream_t stream) {
    offset_recorder exchange(loopback);
    std::int64_t first = 0;
    for (int q = 0; q < r; ++q) first += sizes[q];
    device_buffer<std::uint16_t> d_keys(make_slice<std::uint16_t>(sizes[r], shape::uniform, seed, first));
    device_buffer<double> d_values(std::vector<double>(static_cast<std::size_t>(sizes[r]), 1.5));
    device_buffer<std::uint16_t> d_keys_out(capacity);
    device_buffer<double> d_values_out(capacity);
    kept[r] = upsweep::dist_sort_pairs(exchange, d_keys.data(), d_keys_out.data(), d_values.data(),
                                       d_values_out.data(), sizes[r], capacity, {}, stream);
    addresses[r] = exchange.addresses;
  });
  std::int64_t out = 0;
  for (int r = 0; r < p; ++r) {
    out += kept[r];
    EXPECT_FALSE(addresses[r].empty()) << "rank " << r;
    for (std::uintptr_t a : addresses[r]) EXPECT_EQ(0u, a % 128) << "rank " << r;
  }
  EXPECT_EQ(total, out);
}

TEST_F(DistRadixSort, PiecesOfARoundHaveEqualLengthsOnUniformKeys) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const int p = 4;
  const std::int64_t n = 300001;
  const std::int64_t capacity = upsweep::dist_receive_bound(n * p, p);
  std::vector<std::vector<std::vector<std::size_t>>> sends(p);
  std::vector<std::vector<std::uint32_t>> got(p);
  on_ranks(p, [&](int r, upsweep::dist_exchange& loopback, cudaStream_t stream) {
    offset_recorder exchange(loopback);
    device_buffer<std::uint32_t> d_keys(make_slice<std::uint32_t>(n, shape::uniform, seed, r * n)), d_out(capacity);
    upsweep::dist_sort_options options;
    options.rounds = 4;
    const std::int64_t kept = upsweep::dist_sort_keys(exchange, d_keys.data(), d_out.data(), n, capacity, options, stream);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    got[r] = d_out.download(kept);
    sends[r] = exchange.sends;
  });
  std::vector<std::uint32_t> joined;
  for (int r = 0; r < p; ++r) {
    ASSERT_EQ(4u, sends[r].size()) << "rank " << r;
    for (std::size_t c = 0; c < sends[r].size(); ++c)
      for (int t = 0; t < p; ++t) {  // a rank's own piece stays where its sort left it
        if (t == r) {
          EXPECT_EQ(0u, sends[r][c][t]) << "rank " << r << ", round " << c;
          continue;
        }
        EXPECT_LT(0u, sends[r][c][t]) << "rank " << r << ", round " << c << ", to " << t;
        EXPECT_EQ(sends[0][c][1], sends[r][c][t]) << "rank " << r << ", round " << c << ", to " << t;
      }
    joined.insert(joined.end(), got[r].begin(), got[r].end());
  }
  ASSERT_EQ(static_cast<std::size_t>(n * p), joined.size());
  EXPECT_TRUE(std::is_sorted(joined.begin(), joined.end()));
}

TEST_F(DistRadixSort, RoundsOtherThanZeroOneTwoOrFourAreInvalid) {
  on_ranks(2, [&](int, upsweep::dist_exchange& exchange, cudaStream_t) {
    for (int rounds : {-1, 3, 5, 8}) {
      upsweep::dist_sort_options options;
      options.rounds = rounds;
      std::size_t bytes = 0;
      std::int64_t n_out = 0;
      EXPECT_EQ(cudaErrorInvalidValue, upsweep::dist_sort_keys<std::uint32_t>(nullptr, bytes, exchange, nullptr, nullptr,
                                                                              0, 0, &n_out, options))
          << "rounds " << rounds;
    }
  });
}

TEST_F(DistRadixSort, AnOutputTooSmallOnOneRankFailsOnEveryRankAndWritesNothing) {
  const int p = 3;
  const std::int64_t n = 10000;
  std::vector<cudaError_t> status(p);
  std::vector<std::vector<std::uint32_t>> outputs(p);
  on_ranks(p, [&](int r, upsweep::dist_exchange& exchange, cudaStream_t stream) {
    device_buffer<std::uint32_t> d_in(make_slice<std::uint32_t>(n, shape::uniform, 7 + r, r * n));
    const std::int64_t capacity = r == 1 ? n / 2 : 2 * n;  // rank 1 cannot hold its share
    device_buffer<std::uint32_t> d_out(capacity);
    check(cudaMemsetAsync(d_out.data(), 0xA5, static_cast<std::size_t>(capacity) * 4, stream), "cudaMemset");
    std::size_t bytes = 0;
    std::int64_t n_out = -1;
    status[r] = upsweep::dist_sort_keys(nullptr, bytes, exchange, d_in.data(), d_out.data(), n, capacity, &n_out);
    if (status[r] != cudaSuccess) return;
    void* d_temp = nullptr;
    check(cudaMalloc(&d_temp, bytes), "cudaMalloc");
    status[r] = upsweep::dist_sort_keys(d_temp, bytes, exchange, d_in.data(), d_out.data(), n, capacity, &n_out, {},
                                        stream);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    check(cudaFree(d_temp), "cudaFree");
    outputs[r] = d_out.download();
  });
  for (int r = 0; r < p; ++r) {
    EXPECT_EQ(cudaErrorInvalidValue, status[r]) << "rank " << r;
    for (std::uint32_t v : outputs[r]) ASSERT_EQ(0xA5A5A5A5u, v) << "rank " << r << " wrote its output";
  }
}

}  // namespace
