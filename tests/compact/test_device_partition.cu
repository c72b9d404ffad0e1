// Stable partition against std::stable_partition and CUB: selected first and rejected after,
// both in input order, the split point in device memory; every selection pattern at sizes around
// warp and tile boundaries, element sizes 1 to 16 bytes, both API layers, in place refused.
#include <upsweep/compact/device_partition.cuh>

#include "compact_test_support.cuh"

#include <cub/device/device_partition.cuh>

#include <algorithm>

namespace upsweep::test {
namespace {

template <class T>
auto partition_marked() {
  return [](void* t, std::size_t& b, const T* in, T* out, std::int64_t* c, std::int64_t n, cudaStream_t s) {
    return upsweep::partition(t, b, in, out, c, n, is_marked{}, s);
  };
}

// The host reference and its split point.
template <class T>
std::vector<T> stable_partition_marked(std::vector<T> items, std::int64_t& split) {
  const auto middle = std::stable_partition(items.begin(), items.end(), is_marked{});
  split = middle - items.begin();
  return items;
}

template <class T>
void check_partition(const std::vector<T>& in) {
  std::int64_t split = 0;
  const auto expected = stable_partition_marked(in, split);
  run_compact<T>(in, partition_marked<T>(), expected, false, split);
}

template <class T>
class DevicePartitionTyped : public gpu_test {};
using partition_types = ::testing::Types<std::uint8_t, rgb3, std::int32_t, vec12, vec16>;
TYPED_TEST_SUITE(DevicePartitionTyped, partition_types);

TYPED_TEST(DevicePartitionTyped, KeepsBothSidesInInputOrderAtEverySize) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : compact_sizes(tile_of<T>())) {
    SCOPED_TRACE("n = " + std::to_string(n));
    check_partition(marked_items<T>(n, pattern::half, seed + n));
  }
}

TYPED_TEST(DevicePartitionTyped, EverySelectionPatternMatchesStablePartition) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{33}, tile_of<T>() + 1,
                               max_test_items(999983)}) {
    for (const pattern p : every_pattern()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      check_partition(marked_items<T>(n, p, seed + n));
    }
  }
}

class DevicePartition : public gpu_test {};

TEST_F(DevicePartition, EveryPatternAtEverySizeMatchesStablePartition) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : compact_sizes(tile_of<int>())) {
    for (const pattern p : every_pattern()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      check_partition(marked_items<int>(n, p, seed + n));
    }
  }
}

TEST_F(DevicePartition, InPlaceIsRefused) {
  device_buffer<int> buffer(1000);
  device_buffer<std::int64_t> count(1);
  std::size_t bytes = 0;
  EXPECT_EQ(upsweep::partition(nullptr, bytes, static_cast<const int*>(buffer.data()), buffer.data(), count.data(), 1000,
                               is_marked{}),
            cudaErrorInvalidValue);
  EXPECT_THROW(upsweep::partition(static_cast<const int*>(buffer.data()), buffer.data(), 1000, is_marked{}),
               upsweep::cuda_error);
}

TEST_F(DevicePartition, ConvenienceFormReturnsTheSplitPoint) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 500'003;
  const auto host_in = marked_items<std::uint64_t>(n, pattern::one_per_mille, seed);
  std::int64_t split = 0;
  const auto expected = stable_partition_marked(host_in, split);
  device_buffer<std::uint64_t> in(host_in), out(n);
  EXPECT_EQ(upsweep::partition(static_cast<const std::uint64_t*>(in.data()), out.data(), n, is_marked{}), split);
  expect_same_bytes(out.download().data(), expected.data(), n, "partition");
  EXPECT_EQ(upsweep::partition(static_cast<const std::uint64_t*>(in.data()), out.data(), 0, is_marked{}), 0);
}

// CUB keeps the selected side in order and reverses the rejected side: the same items otherwise.
TEST_F(DevicePartition, AgreesWithCubUpToTheOrderOfItsRejectedSide) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{65537}, max_test_items(std::int64_t{100'000'000})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto r = compare_with_cub(
        n, seed + n,
        [n](const int* in, int* out, std::int64_t* count) { upsweep::partition(in, out, count, n, is_marked{}); },
        [n](void* t, std::size_t& b, const int* in, int* out, std::int64_t* count) {
          return cub::DevicePartition::If(t, b, in, out, count, n, is_marked{});
        });
    ASSERT_EQ(r.ours_count, r.theirs_count);
    std::reverse(r.theirs.begin() + r.theirs_count, r.theirs.end());
    expect_same_bytes(r.ours.data(), r.theirs.data(), n, "against CUB");
  }
}

}  // namespace
}  // namespace upsweep::test
