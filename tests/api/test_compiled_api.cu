// GPU tests of the compiled API (sort.hpp, host_sort.hpp, compact.hpp, histogram.hpp), calling only what the
// plain C++ headers declare: results against std:: on the host, compared bitwise. The template
// layer has its own tests; these check what the explicit instances add (argsort, the fixed
// predicates, unique and run-length encoding, value words, bound types).
#include <upsweep/compact.hpp>
#include <upsweep/histogram.hpp>
#include <upsweep/host_sort.hpp>
#include <upsweep/sort.hpp>

#include "tests/support/device_buffer.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace {

using upsweep::predicate;
using upsweep::test::device_buffer;

class CompiledApi : public upsweep::test::gpu_test {
 protected:
  std::uint64_t seed = upsweep::test::fresh_seed();
  std::mt19937_64 rng{seed};
  std::int64_t n = upsweep::test::max_test_items(300'007);
};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Floats with many ties, signed zeros, infinities and NaNs of both signs.
std::vector<float> awkward_floats(std::int64_t n, std::mt19937_64& rng) {
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN()};
  std::vector<float> v(n);
  for (auto& x : v) {
    const auto r = rng();
    x = r % 50 == 0 ? specials[(r >> 8) % 6] : static_cast<float>(static_cast<std::int32_t>(r >> 40) % 1000) / 8;
  }
  return v;
}

// CUB's float order: -0.0 == +0.0, NaNs by bit pattern after the flip that orders the rest.
std::uint32_t ordered_bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  if (b == 0x80000000u) b = 0;
  return (b & 0x80000000u) ? ~b : (b ^ 0x80000000u);
}

TEST_F(CompiledApi, ArgsortGivesTheStableSortingPermutationInBothDirections) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const auto keys = awkward_floats(n, rng);
  device_buffer<float> d_keys(keys);
  device_buffer<std::uint32_t> d_idx32(n);
  device_buffer<std::uint64_t> d_idx64(n);
  upsweep::argsort(d_keys.data(), d_idx32.data(), n);
  upsweep::argsort_descending(d_keys.data(), d_idx64.data(), n);

  std::vector<std::uint32_t> want_up(n);
  std::iota(want_up.begin(), want_up.end(), 0u);
  std::stable_sort(want_up.begin(), want_up.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return ordered_bits(keys[a]) < ordered_bits(keys[b]); });
  std::vector<std::uint64_t> want_down(n);
  std::iota(want_down.begin(), want_down.end(), std::uint64_t{0});
  std::stable_sort(want_down.begin(), want_down.end(),
                   [&](std::uint64_t a, std::uint64_t b) { return ordered_bits(keys[a]) > ordered_bits(keys[b]); });
  EXPECT_TRUE(same_bits(d_idx32.download(), want_up));
  EXPECT_TRUE(same_bits(d_idx64.download(), want_down));
  EXPECT_TRUE(same_bits(d_keys.download(), keys)) << "argsort changed its input";
}

TEST_F(CompiledApi, SortPairsMovesEightByteValuesWithTheirKeysDescending) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::vector<std::int16_t> keys(n);
  std::vector<double> values(n);
  for (std::int64_t i = 0; i < n; ++i) {
    keys[i] = static_cast<std::int16_t>(rng());
    values[i] = static_cast<double>(i) + 0.5;  // the input position, so stability shows
  }
  device_buffer<std::int16_t> d_keys(keys), d_keys_out(n);
  device_buffer<double> d_values(values), d_values_out(n);
  std::size_t bytes = 0;
  ASSERT_EQ(upsweep::sort_pairs_descending(nullptr, bytes, d_keys.data(), d_keys_out.data(), d_values.data(),
                                           d_values_out.data(), n),
            cudaSuccess);
  device_buffer<unsigned char> d_temp(static_cast<std::int64_t>(bytes));
  ASSERT_EQ(upsweep::sort_pairs_descending(d_temp.data(), bytes, d_keys.data(), d_keys_out.data(), d_values.data(),
                                           d_values_out.data(), n),
            cudaSuccess);
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<std::int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return keys[a] > keys[b]; });
  std::vector<std::int16_t> want_keys(n);
  std::vector<double> want_values(n);
  for (std::int64_t i = 0; i < n; ++i) {
    want_keys[i] = keys[order[i]];
    want_values[i] = values[order[i]];
  }
  EXPECT_TRUE(same_bits(d_keys_out.download(), want_keys));
  EXPECT_TRUE(same_bits(d_values_out.download(), want_values));
}

// A stream over a host vector: reads from it (input) or writes into it (output).
template <class T>
upsweep::host_stream<T> vector_stream(std::vector<T>& v, bool input) {
  upsweep::host_stream<T> s;
  s.context = v.data();
  s.move = input ? +[](void* c, std::uint64_t at, void* p, std::size_t b) { std::memcpy(p, static_cast<char*>(c) + at, b); return 0; }
                 : +[](void* c, std::uint64_t at, void* p, std::size_t b) { std::memcpy(static_cast<char*>(c) + at, p, b); return 0; };
  return s;
}

TEST_F(CompiledApi, HostSortPairsFromStreamsMovesEightByteValuesStablyDescending) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::vector<std::int16_t> keys(n), keys_out(n, 7);
  std::vector<double> values(n), values_out(n, -1.0);
  for (std::int64_t i = 0; i < n; ++i) {
    keys[i] = static_cast<std::int16_t>(rng());
    values[i] = static_cast<double>(i) + 0.5;
  }
  auto kin = vector_stream(keys, true), kout = vector_stream(keys_out, false);
  auto vin = vector_stream(values, true), vout = vector_stream(values_out, false);
  upsweep::host_sort_pairs_descending(kin, kout, vin, vout, n);
  std::vector<std::int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return keys[a] > keys[b]; });
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(keys[order[i]], keys_out[i]) << "at " << i;
    ASSERT_EQ(values[order[i]], values_out[i]) << "at " << i;
  }
}

TEST_F(CompiledApi, SortKeysInPlaceOverABitWindowKeepsInputOrderAmongEqualWindows) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  device_buffer<std::uint32_t> d_keys(keys);
  upsweep::sort_keys(d_keys.data(), d_keys.data(), n, 4, 12);
  auto want = keys;
  std::stable_sort(want.begin(), want.end(),
                   [](std::uint32_t a, std::uint32_t b) { return ((a >> 4) & 0xff) < ((b >> 4) & 0xff); });
  EXPECT_TRUE(same_bits(d_keys.download(), want));
}

TEST_F(CompiledApi, SelectCountAndPartitionAgreeWithStdForEveryPredicateKind) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::vector<std::int32_t> items(n);
  for (auto& x : items) x = static_cast<std::int32_t>(rng() % 2001) - 1000;
  const predicate<std::int32_t> predicates[] = {
      predicate<std::int32_t>::less(-500),   predicate<std::int32_t>::less_equal(0),
      predicate<std::int32_t>::greater(999), predicate<std::int32_t>::greater_equal(1000),
      predicate<std::int32_t>::equal(7),     predicate<std::int32_t>::not_equal(7),
      predicate<std::int32_t>::in_range(-10, 10), predicate<std::int32_t>::even(),
      predicate<std::int32_t>::odd(),        predicate<std::int32_t>::finite(),
      predicate<std::int32_t>::nonzero(),    !predicate<std::int32_t>::nonzero()};
  device_buffer<std::int32_t> d_items(items), d_out(n);
  device_buffer<std::int64_t> d_count(1);
  for (const auto& p : predicates) {
    SCOPED_TRACE("predicate kind " + std::to_string(static_cast<int>(p.kind)) + (p.negated ? " negated" : ""));
    std::vector<std::int32_t> kept, rejected;
    for (auto x : items) (p(x) ? kept : rejected).push_back(x);
    const std::int64_t num_kept = upsweep::select_if(d_items.data(), d_out.data(), n, p);
    ASSERT_EQ(num_kept, static_cast<std::int64_t>(kept.size()));
    EXPECT_TRUE(same_bits(d_out.download(num_kept), kept));
    upsweep::count_if(d_items.data(), d_count.data(), n, p);
    EXPECT_EQ(d_count.download()[0], num_kept);
    EXPECT_EQ(upsweep::stable_partition(d_items.data(), d_out.data(), n, p), num_kept);
    auto both = kept;
    both.insert(both.end(), rejected.begin(), rejected.end());
    EXPECT_TRUE(same_bits(d_out.download(), both));
    // partition: the rejected side reversed, as CUB writes it.
    EXPECT_EQ(upsweep::partition(d_items.data(), d_out.data(), n, p), num_kept);
    std::reverse(both.begin() + num_kept, both.end());
    EXPECT_TRUE(same_bits(d_out.download(), both));
  }
}

TEST_F(CompiledApi, SelectFlaggedKeepsItemsWithNonzeroFlagBytesInPlace) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::vector<double> items(n);
  std::vector<std::uint8_t> flags(n);
  for (std::int64_t i = 0; i < n; ++i) {
    items[i] = static_cast<double>(rng() >> 11) * 0x1p-53;
    flags[i] = static_cast<std::uint8_t>(rng() % 3 == 0 ? rng() % 255 + 1 : 0);  // any nonzero byte selects
  }
  device_buffer<double> d_items(items);
  device_buffer<std::uint8_t> d_flags(flags);
  const std::int64_t num = upsweep::select_flagged(d_items.data(), d_flags.data(), d_items.data(), n);
  std::vector<double> want;
  for (std::int64_t i = 0; i < n; ++i)
    if (flags[i] != 0) want.push_back(items[i]);
  ASSERT_EQ(num, static_cast<std::int64_t>(want.size()));
  EXPECT_TRUE(same_bits(d_items.download(num), want));
}

TEST_F(CompiledApi, UniqueAndRunLengthEncodeMatchStdWithNansNeverEqual) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::vector<float> items(n);
  float current = 0.0f;
  for (auto& x : items) {
    const auto r = rng();
    if (r % 97 == 0) current = (r >> 8) % 2 ? -0.0f : 0.0f;  // -0.0 == +0.0: one run
    else if (r % 89 == 0) current = std::numeric_limits<float>::quiet_NaN();
    else if (r % 7 == 0) current = static_cast<float>((r >> 16) % 100);
    x = current;  // runs of random length, many crossing tiles
  }
  std::vector<float> want_unique;
  std::vector<std::int64_t> want_lengths;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i == 0 || !(items[i] == items[i - 1])) {
      want_unique.push_back(items[i]);
      want_lengths.push_back(0);
    }
    ++want_lengths.back();
  }
  device_buffer<float> d_items(items), d_out(n);
  device_buffer<std::int64_t> d_lengths(n);
  const std::int64_t num_unique = upsweep::unique(d_items.data(), d_out.data(), n);
  ASSERT_EQ(num_unique, static_cast<std::int64_t>(want_unique.size()));
  EXPECT_TRUE(same_bits(d_out.download(num_unique), want_unique));
  const std::int64_t num_runs = upsweep::run_length_encode(d_items.data(), d_out.data(), d_lengths.data(), n);
  ASSERT_EQ(num_runs, num_unique);
  EXPECT_TRUE(same_bits(d_out.download(num_runs), want_unique));
  EXPECT_TRUE(same_bits(d_lengths.download(num_runs), want_lengths));
  EXPECT_EQ(upsweep::run_length_encode(d_items.data(), d_out.data(), d_lengths.data(), 0), 0);
}

TEST_F(CompiledApi, ThreeWayPartitionAndNonTrivialRunsMatchHostLoops) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::vector<std::int64_t> items(n);
  std::int64_t current = 0;
  for (auto& x : items) {
    const auto r = rng();
    if (r % 3 == 0) current = static_cast<std::int64_t>(r >> 20) % 1000 - 500;  // runs of one to a few
    x = current;
  }
  const auto pred1 = predicate<std::int64_t>::less(-100), pred2 = predicate<std::int64_t>::even();
  std::vector<std::int64_t> want_first, want_second, want_rest, want_offsets, want_lengths;
  for (std::int64_t i = 0; i < n; ++i) {
    (pred1(items[i]) ? want_first : pred2(items[i]) ? want_second : want_rest).push_back(items[i]);
    if (i > 0 && items[i] == items[i - 1]) {
      if (want_offsets.empty() || want_offsets.back() + want_lengths.back() != i) {
        want_offsets.push_back(i - 1);
        want_lengths.push_back(1);
      }
      ++want_lengths.back();
    }
  }
  device_buffer<std::int64_t> d_items(items), d_first(n), d_second(n), d_rest(n), d_offsets(n), d_lengths(n);
  const auto sizes = upsweep::partition_three_way(d_items.data(), d_first.data(), d_second.data(), d_rest.data(), n,
                                                  pred1, pred2);
  ASSERT_EQ(sizes[0], static_cast<std::int64_t>(want_first.size()));
  ASSERT_EQ(sizes[1], static_cast<std::int64_t>(want_second.size()));
  EXPECT_EQ(d_first.download(sizes[0]), want_first);
  EXPECT_EQ(d_second.download(sizes[1]), want_second);
  EXPECT_EQ(d_rest.download(n - sizes[0] - sizes[1]), want_rest);
  const std::int64_t runs = upsweep::non_trivial_runs(d_items.data(), d_offsets.data(), d_lengths.data(), n);
  ASSERT_EQ(runs, static_cast<std::int64_t>(want_offsets.size()));
  EXPECT_EQ(d_offsets.download(runs), want_offsets);
  EXPECT_EQ(d_lengths.download(runs), want_lengths);
  std::size_t bytes = 0;
  EXPECT_EQ(upsweep::non_trivial_runs(nullptr, bytes, d_items.data(), d_offsets.data(), d_lengths.data(),
                                      d_first.data(), -1),
            cudaErrorInvalidValue);
}

TEST_F(CompiledApi, HistogramsCountLikeACpuLoop) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::vector<std::int8_t> samples(n);
  for (auto& s : samples) s = static_cast<std::int8_t>(rng());
  device_buffer<std::int8_t> d_samples(samples);
  device_buffer<std::uint32_t> d_counts(256);
  upsweep::histogram_even(d_samples.data(), n, d_counts.data(), 256, -128, 128);  // every int8
  std::vector<std::uint32_t> want(256, 0);
  for (auto s : samples) ++want[s + 128];
  EXPECT_EQ(d_counts.download(), want);

  std::vector<double> values(n);
  for (auto& v : values) v = static_cast<double>(rng() >> 11) * 0x1p-53 * 12 - 1;  // [-1, 11)
  const std::vector<double> edges = {0, 1, 2.5, 7, 10};
  device_buffer<double> d_values(values), d_edges(edges);
  device_buffer<std::uint64_t> d_wide(4);
  upsweep::histogram_range(d_values.data(), n, d_wide.data(), d_edges.data(), 4);
  std::vector<std::uint64_t> want_wide(4, 0);
  for (double v : values)
    for (int b = 0; b < 4; ++b)
      if (edges[b] <= v && v < edges[b + 1]) ++want_wide[b];
  EXPECT_EQ(d_wide.download(), want_wide);
}

}  // namespace
