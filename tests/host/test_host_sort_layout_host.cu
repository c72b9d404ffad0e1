// The host-to-host sort's carving of a device budget, without a GPU (sizes only): in core when
// everything fits, else two slots that fit the budget, for any input size the rounds allow.
#include <upsweep/sort/host_radix_sort.cuh>

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using upsweep::detail::host_sort_layout;
using upsweep::detail::no_values;

template <class Key, class Value>
void expect_out_of_core_fits(std::int64_t n, std::size_t budget) {
  host_sort_layout<false, Key, Value> layout;
  ASSERT_TRUE(layout.plan(n, budget)) << "n " << n << ", budget " << budget;
  EXPECT_FALSE(layout.in_core);
  EXPECT_LE(2 * layout.slot_bytes(layout.capacity) + layout.shared_bytes(), budget);
  EXPECT_GE(layout.capacity, upsweep::detail::host_sort_min_capacity);
  EXPECT_LE((n + layout.capacity - 1) / layout.capacity, upsweep::detail::host_sort_max_rounds);
  EXPECT_GT(4 * layout.slot_bytes(layout.capacity), budget) << "a slot far below half the budget";
}

TEST(HostSortLayout, AQuarterBudgetSplitsAnyInputIntoTwoSlots) {
  for (std::int64_t n : {std::int64_t{1} << 22, std::int64_t{1} << 28, std::int64_t{1} << 30, std::int64_t{5} << 30}) {
    expect_out_of_core_fits<std::uint32_t, no_values>(n, static_cast<std::size_t>(n) * 4 / 4);
    expect_out_of_core_fits<std::uint64_t, std::uint32_t>(n, static_cast<std::size_t>(n) * 12 / 4);
  }
}

TEST(HostSortLayout, InCoreExactlyWhenTheQueryNeedFits) {
  host_sort_layout<false, float, no_values> unlimited;
  ASSERT_TRUE(unlimited.plan(std::int64_t{1} << 24, 0));
  EXPECT_TRUE(unlimited.in_core);
  host_sort_layout<false, float, no_values> exact, below;
  ASSERT_TRUE(exact.plan(std::int64_t{1} << 24, unlimited.device_bytes));
  EXPECT_TRUE(exact.in_core);
  ASSERT_TRUE(below.plan(std::int64_t{1} << 24, unlimited.device_bytes - 1));
  EXPECT_FALSE(below.in_core);
}

TEST(HostSortLayout, ABudgetBelowTwoSmallestSlotsIsRefused) {
  host_sort_layout<false, std::uint32_t, no_values> layout;
  EXPECT_FALSE(layout.plan(std::int64_t{1} << 30, 64 << 10));
  EXPECT_FALSE(layout.plan(std::int64_t{1} << 24, 1 << 20));
}

}  // namespace
