// The host-to-host sort's groups over sorted runs, without a GPU: runs sorted on the host, cut by
// the planner, each group gathered in run order and sorted stably; the result must be the stable
// order of the whole input, every sorted group at most a slot, every unsorted group one window value.
#include <upsweep/sort/detail/host_sort_runs.hpp>

#include "../support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

using upsweep::detail::run_group;
using upsweep::detail::run_planner;

template <bool Descending, class Key>
struct by_window {
  int begin_bit, end_bit;
  bool operator()(const Key& a, const Key& b) const {
    return upsweep::radix_window<Descending>(a, begin_bit, end_bit) < upsweep::radix_window<Descending>(b, begin_bit, end_bit);
  }
};

// Sorts the runs of `keys` in place, cuts them, and checks the groups against the stable order.
template <bool Descending, class Key>
void expect_groups_sort(std::vector<Key> keys, std::int64_t run_items, std::int64_t capacity, int begin_bit, int end_bit) {
  const by_window<Descending, Key> less{begin_bit, end_bit};
  const auto n = static_cast<std::int64_t>(keys.size());
  std::vector<Key> expected = keys;
  std::stable_sort(expected.begin(), expected.end(), less);
  for (std::int64_t first = 0; first < n; first += run_items)
    std::stable_sort(keys.begin() + first, keys.begin() + std::min(n, first + run_items), less);

  run_planner<Descending, Key> planner(keys.data(), n, run_items, begin_bit, end_bit);
  const std::vector<run_group> groups = planner.cut(capacity);
  std::vector<Key> sorted;
  std::vector<std::int64_t> at((n + run_items - 1) / run_items, 0);
  for (const run_group& group : groups) {
    ASSERT_EQ(group.first, static_cast<std::int64_t>(sorted.size()));
    ASSERT_EQ(group.begin, at) << "a group does not start where the last one ended";
    std::vector<Key> items;
    for (std::size_t r = 0; r < group.begin.size(); ++r)
      items.insert(items.end(), keys.begin() + static_cast<std::int64_t>(r) * run_items + group.begin[r],
                   keys.begin() + static_cast<std::int64_t>(r) * run_items + group.end[r]);
    ASSERT_EQ(static_cast<std::int64_t>(items.size()), group.count);
    ASSERT_GT(group.count, 0);
    if (group.equal_keys)
      EXPECT_TRUE(std::all_of(items.begin(), items.end(), [&](const Key& k) { return !less(k, items[0]) && !less(items[0], k); }))
          << "an unsorted group holds more than one window value";
    else
      EXPECT_LE(group.count, capacity);
    std::stable_sort(items.begin(), items.end(), less);
    sorted.insert(sorted.end(), items.begin(), items.end());
    at = group.end;
  }
  ASSERT_EQ(sorted.size(), expected.size());
  EXPECT_TRUE(std::equal(sorted.begin(), sorted.end(), expected.begin(), [](const Key& a, const Key& b) {
    return std::memcmp(&a, &b, sizeof(Key)) == 0;
  })) << "the groups do not give the stable order";
}

TEST(HostSortRuns, GroupsGiveTheStableOrderForEveryShape) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::mt19937_64 random(seed);
  const std::int64_t n = 100003, run = 8192, capacity = 4096;
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
  for (std::uint32_t& k : keys) k = static_cast<std::uint32_t>(random());
  expect_groups_sort<false>(keys, run, capacity, 0, 32);
  expect_groups_sort<true>(keys, run, capacity, 0, 32);
  expect_groups_sort<false>(keys, run, capacity, 7, 19);  // a bit window
  for (std::uint32_t& k : keys) k = static_cast<std::uint32_t>(random() % 50);  // 2000 of each value
  expect_groups_sort<false>(keys, run, capacity, 0, 32);
  for (std::uint32_t& k : keys) k = random() % 3 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(random());  // one heavy value at the top
  expect_groups_sort<false>(keys, run, capacity, 0, 32);
  expect_groups_sort<true>(keys, run, capacity, 0, 32);
  std::fill(keys.begin(), keys.end(), 12345u);  // all equal
  expect_groups_sort<false>(keys, run, capacity, 0, 32);
  expect_groups_sort<false>(keys, run, capacity, 9, 9);  // an empty window: one value
}

TEST(HostSortRuns, FloatsAndWideKeysKeepTheRadixOrder) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::mt19937_64 random(seed);
  std::vector<float> floats(50000);
  for (float& f : floats) {
    const std::uint64_t pick = random() % 6;
    f = pick == 0 ? -0.0f : pick == 1 ? 0.0f : pick == 2 ? std::numeric_limits<float>::quiet_NaN()
                                                          : static_cast<float>(static_cast<std::int64_t>(random() % 2001) - 1000);
  }
  expect_groups_sort<false>(floats, 5000, 3000, 0, 32);
  expect_groups_sort<true>(floats, 5000, 3000, 0, 32);
  std::vector<std::uint64_t> wide(60000);
  for (std::uint64_t& w : wide) w = random();
  expect_groups_sort<false>(wide, 7000, 2500, 0, 64);
  expect_groups_sort<true>(wide, 7000, 2500, 0, 64);
  for (std::uint64_t& w : wide) w = random() % 2 ? ~std::uint64_t{0} : random();  // the top value past a slot
  expect_groups_sort<false>(wide, 7000, 2500, 0, 64);
}

}  // namespace
