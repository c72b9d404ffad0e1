// The host-to-host sort's plan, without a GPU: buckets from digit counts, refinement of buckets
// too large for a slot, and groups cut from them, against counts made on the host from random
// keys (seed printed on failure).
#include <upsweep/sort/detail/host_sort_plan.hpp>

#include "../support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using namespace upsweep::detail;

// The counts a level of the device kernel would make, from window values on the host.
std::vector<std::int64_t> host_counts(const std::vector<std::uint64_t>& windows, int window_bits, int level,
                                      const std::vector<prefix_bucket>& parents) {
  const count_level digits = level_digits(window_bits, level);
  std::vector<std::int64_t> counts(std::max<std::size_t>(parents.size(), 1) * host_sort_digits, 0);
  for (std::uint64_t w : windows) {
    std::size_t slot = 0;
    if (!parents.empty()) {
      const std::uint64_t prefix = digits.high >= 64 ? 0 : w >> digits.high;
      auto it = std::find_if(parents.begin(), parents.end(), [&](const prefix_bucket& p) { return p.prefix == prefix; });
      if (it == parents.end()) continue;
      slot = static_cast<std::size_t>(it - parents.begin());
    }
    ++counts[slot * host_sort_digits + ((w >> digits.low) & ((1u << digits.bits()) - 1))];
  }
  return counts;
}

// Plans as the out-of-core sort does, then checks every group against the sorted windows: the
// groups tile the output, each starts at its lower bound, and holds at most `capacity` items
// unless all its keys are equal (then it needs no sort).
void expect_plan_holds(std::vector<std::uint64_t> windows, int window_bits, std::int64_t capacity) {
  std::vector<prefix_bucket> buckets = {{0, 0, static_cast<std::int64_t>(windows.size())}};
  std::vector<prefix_bucket> parents;
  for (int level = 0; level == 0 || !parents.empty(); ++level) {
    const auto counts = host_counts(windows, window_bits, level, parents);
    const auto children = split_buckets(level == 0 ? buckets : parents, level_digits(window_bits, level), counts);
    buckets = level == 0 ? children : refine_buckets(buckets, parents, children);
    parents = oversized_buckets(level == 0 ? buckets : children, capacity, window_bits);
    ASSERT_LE(level, (window_bits + 7) / 8);
  }
  std::sort(windows.begin(), windows.end());
  std::int64_t next = 0;
  for (const host_sort_group& g : cut_groups(buckets, capacity, window_bits)) {
    ASSERT_EQ(next, g.first);
    ASSERT_GT(g.count, 0);
    const auto first = windows.begin() + g.first, last = first + g.count;
    EXPECT_EQ(first, std::lower_bound(windows.begin(), windows.end(), g.lower_bound)) << "group starts elsewhere";
    if (g.count > capacity) {
      EXPECT_FALSE(g.needs_sort);
      EXPECT_EQ(*first, *(last - 1)) << "an oversized group of distinct keys";
    }
    next += g.count;
  }
  EXPECT_EQ(next, static_cast<std::int64_t>(windows.size()));
}

std::vector<std::uint64_t> random_windows(std::size_t n, int bits, std::uint64_t seed, std::uint64_t fixed_top,
                                          int fixed_bits) {
  std::mt19937_64 random(seed);
  std::vector<std::uint64_t> windows(n);
  const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t& w : windows) {
    w = random() & mask;
    if (fixed_bits > 0) w = (fixed_top << (bits - fixed_bits)) | (w & (mask >> fixed_bits));
  }
  return windows;
}

TEST(HostSortPlan, GroupsTileTheOutputForUniformAndSkewedKeys) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  for (int bits : {8, 13, 32, 64}) {
    SCOPED_TRACE("window bits " + std::to_string(bits));
    expect_plan_holds(random_windows(100000, bits, seed, 0, 0), bits, 5000);
    expect_plan_holds(random_windows(100000, bits, seed, 0xA5, std::min(bits, 8)), bits, 5000);   // one top digit
    expect_plan_holds(random_windows(100000, bits, seed, 0x1234, std::min(bits, 16)), bits, 3000);  // 16-bit prefix
    expect_plan_holds(std::vector<std::uint64_t>(50000, bits == 64 ? ~std::uint64_t{0} : 3), bits, 1000);  // equal
  }
}

TEST(HostSortPlan, ABucketAboveCapacityWithDistinctKeysIsRefinedToTheLastBit) {
  std::vector<std::uint64_t> windows(20000, 0xABCDEF00u);
  for (std::size_t i = 0; i < windows.size(); i += 2) windows[i] = 0xABCDEF01u;  // two keys, one prefix of 31 bits
  expect_plan_holds(windows, 32, 1000);
}

TEST(HostSortPlan, LevelsCoverTheWindowFromItsTopDigit) {
  EXPECT_EQ(24, level_digits(32, 0).low);
  EXPECT_EQ(32, level_digits(32, 0).high);
  EXPECT_EQ(0, level_digits(13, 1).low);
  EXPECT_EQ(5, level_digits(13, 1).high);
  EXPECT_EQ(0, level_digits(5, 0).low);
}

}  // namespace
