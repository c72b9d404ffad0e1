// Sort across ranks, the host planning: P simulated ranks sort their slices, sample, split and
// exchange on the host; the concatenated shares must be the stable order of all items (rank, then
// input position, breaking ties), no rank may receive more than the stated bound, and the
// rebalancing moves every item exactly once into equal slices. Fresh random data, seed printed.
#include "../support/seed.hpp"

#include <upsweep/sort/detail/dist_sort_plan.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using upsweep::detail::dist_key;
using upsweep::detail::dist_placement;

enum class shape { uniform, all_equal, two_values, skewed, sorted, reversed };

struct item {
  std::uint64_t value;
  int rank;
  std::int64_t input_position;
};

std::vector<std::vector<std::uint64_t>> make_slices(const std::vector<std::int64_t>& sizes, shape s, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<std::vector<std::uint64_t>> slices;
  std::uint64_t next = 0;
  for (std::int64_t n : sizes) {
    std::vector<std::uint64_t> slice(static_cast<std::size_t>(n));
    for (std::uint64_t& v : slice) {
      switch (s) {
        case shape::uniform: v = random(); break;
        case shape::all_equal: v = 42; break;
        case shape::two_values: v = random() & 1 ? 7 : 9; break;
        case shape::skewed: v = random() % 10 == 0 ? random() : 1000; break;  // 90 % one value
        case shape::sorted: v = next++; break;
        case shape::reversed: v = ~(next++); break;
      }
    }
    slices.push_back(std::move(slice));
  }
  return slices;
}

// Every step of the distributed sort on the host; returns the concatenated shares and checks the
// bound and the rebalancing on the way.
void expect_distributed_order(const std::vector<std::int64_t>& sizes, shape s, std::uint64_t seed) {
  const int p = static_cast<int>(sizes.size());
  SCOPED_TRACE("ranks " + std::to_string(p) + ", shape " + std::to_string(static_cast<int>(s)));
  const auto slices = make_slices(sizes, s, seed);
  // Local stable sorts, remembering input positions.
  std::vector<std::vector<item>> sorted(static_cast<std::size_t>(p));
  std::vector<item> everything;
  for (int q = 0; q < p; ++q) {
    for (std::size_t i = 0; i < slices[q].size(); ++i) sorted[q].push_back({slices[q][i], q, static_cast<std::int64_t>(i)});
    everything.insert(everything.end(), sorted[q].begin(), sorted[q].end());
    std::stable_sort(sorted[q].begin(), sorted[q].end(), [](const item& a, const item& b) { return a.value < b.value; });
  }
  std::stable_sort(everything.begin(), everything.end(), [](const item& a, const item& b) { return a.value < b.value; });
  // Samples, splitters, and each rank's send counts.
  const std::int64_t samples = upsweep::detail::dist_samples_per_rank(p);
  std::vector<std::uint64_t> values(static_cast<std::size_t>(p * samples), 0xDEADBEEFull);  // poison
  for (int q = 0; q < p; ++q)
    for (std::int64_t j = 0; j < samples && sizes[q] > 0; ++j)
      values[q * samples + j] = sorted[q][upsweep::detail::dist_sample_position(sizes[q], samples, j)].value;
  const std::vector<dist_key> splitters = upsweep::detail::choose_splitters(values, sizes, samples);
  ASSERT_EQ(splitters.size(), static_cast<std::size_t>(p - 1));
  std::vector<std::int64_t> sends(static_cast<std::size_t>(p * p));
  for (int q = 0; q < p; ++q) {
    std::vector<std::uint64_t> keys;
    for (const item& it : sorted[q]) keys.push_back(it.value);
    std::int64_t before = 0;
    for (int t = 0; t < p; ++t) {
      std::int64_t below = sizes[q];
      if (t + 1 < p) {
        const dist_key& x = splitters[t];
        const auto lower = std::lower_bound(keys.begin(), keys.end(), x.value) - keys.begin();
        const auto upper = std::upper_bound(keys.begin(), keys.end(), x.value) - keys.begin();
        below = upsweep::detail::dist_items_below(x, q, lower, upper);
      }
      ASSERT_GE(below, before) << "rank " << q << ", splitter " << t;
      sends[q * p + t] = below - before;
      before = below;
    }
  }
  const dist_placement placement(sends, p);
  const std::int64_t total = placement.total();
  ASSERT_EQ(total, static_cast<std::int64_t>(everything.size()));
  // Shares: each destination merges its runs stably in rank order.
  std::vector<item> result;
  std::vector<std::int64_t> taken(static_cast<std::size_t>(p), 0);
  for (int t = 0; t < p; ++t) {
    EXPECT_LE(placement.received(t), upsweep::detail::dist_receive_bound(total, p)) << "rank " << t;
    EXPECT_EQ(placement.global_first(t), static_cast<std::int64_t>(result.size()));
    std::vector<item> share;
    for (int q = 0; q < p; ++q) {
      share.insert(share.end(), sorted[q].begin() + taken[q], sorted[q].begin() + taken[q] + placement.sends(q, t));
      taken[q] += placement.sends(q, t);
    }
    std::stable_sort(share.begin(), share.end(), [](const item& a, const item& b) { return a.value < b.value; });
    result.insert(result.end(), share.begin(), share.end());
  }
  ASSERT_EQ(result.size(), everything.size());
  for (std::size_t i = 0; i < result.size(); ++i) {
    ASSERT_EQ(result[i].value, everything[i].value) << "at " << i;
    ASSERT_EQ(result[i].rank, everything[i].rank) << "at " << i;
    ASSERT_EQ(result[i].input_position, everything[i].input_position) << "at " << i;
  }
  // Rebalancing: every rank's share leaves in full, every slice arrives in full, within one item.
  for (int r = 0; r < p; ++r) {
    std::int64_t out = 0, in = 0;
    for (int t = 0; t < p; ++t) {
      out += placement.rebalance_sends(r, t);
      in += placement.rebalance_sends(t, r);
    }
    EXPECT_EQ(out, placement.received(r));
    const std::int64_t slice = placement.balanced_first(r + 1) - placement.balanced_first(r);
    EXPECT_EQ(in, slice);
    EXPECT_LE(slice, total / p + 1);
    EXPECT_GE(slice, total / p);
  }
}

TEST(DistSortPlan, EveryShapeAndRankCountGivesTheStableGlobalOrderWithinTheBound) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  for (int p = 1; p <= 8; ++p) {
    for (shape s : {shape::uniform, shape::all_equal, shape::two_values, shape::skewed, shape::sorted, shape::reversed}) {
      std::mt19937_64 random(seed + static_cast<std::uint64_t>(p));
      std::vector<std::int64_t> sizes;
      for (int q = 0; q < p; ++q) sizes.push_back(static_cast<std::int64_t>(random() % 20000));
      expect_distributed_order(sizes, s, seed + p);
      if (testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(DistSortPlan, EmptyTinyAndLopsidedRanks) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::vector<std::vector<std::int64_t>> cases = {
      {0}, {1}, {0, 0, 0}, {1, 0, 1}, {0, 0, 0, 50001},  // one rank holding everything
      {3, 1, 4, 1, 5, 9, 2, 6}, {100000, 0, 1, 0}, {4097, 4095, 4096, 33}};
  for (const auto& sizes : cases)
    for (shape s : {shape::uniform, shape::all_equal, shape::skewed}) {
      expect_distributed_order(sizes, s, seed);
      if (testing::Test::HasFatalFailure()) return;
    }
}

TEST(DistSortPlan, EqualKeysSplitIntoFairSharesByRankAndPosition) {
  // Every key equal: the shares are cut by (rank, position) alone and none exceeds the bound.
  const int p = 4;
  std::vector<std::int64_t> sizes(p, 1 << 16);
  std::vector<std::uint64_t> values(static_cast<std::size_t>(p * upsweep::detail::dist_samples_per_rank(p)), 5);
  const auto splitters = upsweep::detail::choose_splitters(values, sizes, upsweep::detail::dist_samples_per_rank(p));
  ASSERT_EQ(splitters.size(), 3u);
  for (int t = 0; t < 3; ++t) {
    EXPECT_EQ(splitters[t].value, 5u);
    // Share t + 1 starts near item (t + 1) N / P: rank t + 1's first item when slices are equal.
    const std::int64_t global = splitters[t].rank * (1 << 16) + splitters[t].position;
    EXPECT_NEAR(static_cast<double>(global), (t + 1) * double(1 << 16), double(1 << 16) / 32);
  }
}

}  // namespace
