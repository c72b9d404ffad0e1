// partition (selected first in order, rejected after in reverse order, CUB's contract) and
// partition_three_way against host references and CUB's DevicePartition::If in both forms:
// every selection pattern at sizes around warp and tile edges, element sizes 1 to 16 bytes, both
// schedules, the convenience forms, in place refused, and past 2^31 items.
#include <upsweep/compact/device_partition.cuh>

#include "compact_test_support.cuh"

#include <cub/device/device_partition.cuh>

#include <algorithm>
#include <array>

namespace upsweep::test {
namespace {

// The host reference of partition: the stable partition with its rejected tail reversed.
template <class T>
std::vector<T> partition_marked(std::vector<T> items, std::int64_t& split) {
  const auto middle = std::stable_partition(items.begin(), items.end(), is_marked{});
  std::reverse(middle, items.end());
  split = middle - items.begin();
  return items;
}

template <class Policy, class T>
void check_partition(const std::vector<T>& in) {
  std::int64_t split = 0;
  const auto expected = partition_marked(in, split);
  run_compact<T>(
      in,
      [](void* t, std::size_t& b, const T* i, T* o, std::int64_t* c, std::int64_t n, cudaStream_t s) {
        return upsweep::partition<Policy>(t, b, i, o, c, n, is_marked{}, s);
      },
      expected, false, split);
}

template <class T>
class PartitionTyped : public gpu_test {};
using partition_types = ::testing::Types<std::uint8_t, rgb3, std::int32_t, std::uint64_t, vec12, vec16>;
TYPED_TEST_SUITE(PartitionTyped, partition_types);

TYPED_TEST(PartitionTyped, ReversesTheRejectedSideAtEverySizeAndPattern) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : compact_sizes(tile_of<T>())) {
    for (const pattern p : every_pattern()) {
      if (sparse_tests() && p != pattern::half) continue;
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      check_partition<void>(marked_items<T>(n, p, seed + n));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

class Partition : public gpu_test {};

// Reduce-ahead on two blocks from three tiles on, and a block per tile; 8-byte items on the
// 8-byte default's shapes.
TEST_F(Partition, BothSchedulesMatchTheHost) {
  using two_block_reduce_ahead = select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 6, 0,
                                               tile_schedule::reduce_ahead, 2>;
  using block_per_tile = select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 6>;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{33}, std::int64_t{3 * 4096 + 7}, max_test_items(std::int64_t{999'983})}) {
    for (const pattern p : every_pattern()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      const auto in = marked_items<int>(n, p, seed + n);
      check_partition<two_block_reduce_ahead>(in);
      check_partition<block_per_tile>(in);
      check_partition<two_block_wide_reduce_ahead>(marked_items<std::uint64_t>(n, p, seed + n));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST_F(Partition, MatchesCubBitForBit) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{65537}, max_test_items(std::int64_t{100'000'000})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto r = compare_with_cub(
        n, seed + n,
        [n](const int* in, int* out, std::int64_t* count) { upsweep::partition(in, out, count, n, is_marked{}); },
        [n](void* t, std::size_t& b, const int* in, int* out, std::int64_t* count) {
          return cub::DevicePartition::If(t, b, in, out, count, n, is_marked{});
        });
    ASSERT_EQ(r.ours_count, r.theirs_count);
    expect_same_bytes(r.ours.data(), r.theirs.data(), n, "against CUB");
  }
}

TEST_F(Partition, InPlaceIsRefusedAndTheConvenienceFormReturnsTheSplit) {
  const auto host_in = marked_items<std::uint64_t>(500'003, pattern::half, fresh_seed());
  std::int64_t split = 0;
  const auto expected = partition_marked(host_in, split);
  device_buffer<std::uint64_t> in(host_in), out(500'003);
  EXPECT_EQ(upsweep::partition(static_cast<const std::uint64_t*>(in.data()), out.data(), 500'003, is_marked{}), split);
  expect_same_bytes(out.download().data(), expected.data(), 500'003, "partition");
  EXPECT_THROW(upsweep::partition(static_cast<const std::uint64_t*>(in.data()), in.data(), 500'003, is_marked{}),
               upsweep::cuda_error);
}

// ---- three-way --------------------------------------------------------------------------------

// Second part: items whose second byte is odd (among those not marked).
struct second_byte_odd {
  template <class T>
  __host__ __device__ bool operator()(const T& item) const {
    unsigned char bytes[sizeof(T)];
    memcpy(bytes, &item, sizeof(T));
    return sizeof(T) > 1 ? (bytes[1] & 1u) != 0 : (bytes[0] & 2u) != 0;
  }
};

template <class T>
struct three_parts {
  std::vector<T> first, second, unselected;
};

template <class T>
three_parts<T> three_way_on_host(const std::vector<T>& in) {
  three_parts<T> p;
  for (const T& item : in) {
    if (is_marked{}(item)) p.first.push_back(item);
    else if (second_byte_odd{}(item)) p.second.push_back(item);
    else p.unselected.push_back(item);
  }
  return p;
}

// Runs the core form with Policy on poisoned outputs; checks the counts, all three outputs, and
// the poison after each.
template <class Policy, class T>
void expect_three_way_like_the_host(const std::vector<T>& in) {
  const auto n = static_cast<std::int64_t>(in.size());
  const auto want = three_way_on_host(in);
  device_buffer<T> d_in(in), first(n, guard_items), second(n, guard_items), unselected(n, guard_items);
  device_buffer<std::int64_t> counts(2);
  for (auto* b : {&first, &second, &unselected})
    check(cudaMemset(b->data(), poison_byte, static_cast<std::size_t>(n + guard_items) * sizeof(T)), "cudaMemset");
  check(cudaMemset(counts.data(), poison_byte, 2 * sizeof(std::int64_t)), "cudaMemset");
  std::size_t bytes = 0;
  const auto call = [&](void* temp) {
    return upsweep::partition_three_way<Policy>(temp, bytes, static_cast<const T*>(d_in.data()), first.data(),
                                                second.data(), unselected.data(), counts.data(), n, is_marked{},
                                                second_byte_odd{});
  };
  CUDA_OK(call(nullptr));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(call(temp.data()));
  CUDA_OK(cudaDeviceSynchronize());
  const auto got_counts = counts.download();
  ASSERT_EQ(got_counts[0], static_cast<std::int64_t>(want.first.size()));
  ASSERT_EQ(got_counts[1], static_cast<std::int64_t>(want.second.size()));
  const std::array<std::pair<device_buffer<T>*, const std::vector<T>*>, 3> outputs = {
      {{&first, &want.first}, {&second, &want.second}, {&unselected, &want.unselected}}};
  for (const auto& [buffer, expected] : outputs) {
    const auto got = buffer->download(n + guard_items);
    const auto count = static_cast<std::int64_t>(expected->size());
    expect_same_bytes(got.data(), expected->data(), count, "part");
    std::vector<T> poisoned(got.size());
    std::memset(poisoned.data(), poison_byte, poisoned.size() * sizeof(T));
    expect_same_bytes(got.data() + count, poisoned.data() + count, n + guard_items - count, "written past a part");
  }
}

template <class T>
class PartitionThreeWayTyped : public gpu_test {};
TYPED_TEST_SUITE(PartitionThreeWayTyped, partition_types);

TYPED_TEST(PartitionThreeWayTyped, KeepsEachPartInInputOrderAtEverySizeAndPattern) {
  using T = TypeParam;
  using small_tiles = select_policy<32, 2, tile_io::transpose, 0, 1>;
  // Reduce-ahead (where the items allow it) on two resident blocks, so even small inputs take it.
  using small_tiles_ahead = select_policy<32, 4, tile_io::transpose, 0, 1, 0, tile_schedule::reduce_ahead, 2>;
  using two_blocks_ahead = select_policy<256, detail::default_select_items_per_thread<T>(), tile_io::transpose,
                                         default_look_back_delay_ns, 1, 1200, tile_schedule::reduce_ahead, 2>;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : compact_sizes(tile_of<T>())) {
    for (const pattern p : every_pattern()) {
      if (sparse_tests() && p != pattern::half) continue;
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      const auto in = marked_items<T>(n, p, seed + n);
      expect_three_way_like_the_host<void>(in);
      expect_three_way_like_the_host<two_blocks_ahead>(in);
      if (n <= max_test_items(200'000)) {
        expect_three_way_like_the_host<small_tiles>(in);
        expect_three_way_like_the_host<small_tiles_ahead>(in);
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST_F(Partition, ThreeWayMatchesCubBitForBit) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1000}, max_test_items(std::int64_t{10'000'019})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    device_buffer<int> in(n);
    check(fill_random(in.data(), n, seed + n, -1'000'000, 1'000'000), "fill_random");
    // Three parts each: ours, then CUB's.
    device_buffer<int> outs[6]{device_buffer<int>(n), device_buffer<int>(n), device_buffer<int>(n),
                               device_buffer<int>(n), device_buffer<int>(n), device_buffer<int>(n)};
    device_buffer<std::int64_t> counts(4);
    upsweep::partition_three_way(static_cast<const int*>(in.data()), outs[0].data(), outs[1].data(),
                                 outs[2].data(), counts.data(), n, is_marked{}, second_byte_odd{});
    std::size_t bytes = 0;
    const auto cub_call = [&](void* temp) {
      return cub::DevicePartition::If(temp, bytes, in.data(), outs[3].data(), outs[4].data(), outs[5].data(),
                                      counts.data() + 2, n, is_marked{}, second_byte_odd{});
    };
    CUDA_OK(cub_call(nullptr));
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    CUDA_OK(cub_call(temp.data()));
    CUDA_OK(cudaDeviceSynchronize());
    const auto c = counts.download();
    ASSERT_EQ(c[0], c[2]);
    ASSERT_EQ(c[1], c[3]);
    const std::int64_t sizes[3] = {c[0], c[1], n - c[0] - c[1]};
    for (int k = 0; k < 3; ++k)
      expect_same_bytes(outs[k].download(sizes[k]).data(), outs[k + 3].download(sizes[k]).data(), sizes[k], "part");
  }
}

TEST_F(Partition, ThreeWayConvenienceFormReturnsBothSizesAndRefusesOverlap) {
  const auto host_in = marked_items<int>(100'003, pattern::half, fresh_seed());
  const auto want = three_way_on_host(host_in);
  device_buffer<int> in(host_in), a(100'003), b(100'003), c(100'003);
  const auto sizes = upsweep::partition_three_way(static_cast<const int*>(in.data()), a.data(), b.data(), c.data(),
                                                  100'003, is_marked{}, second_byte_odd{});
  EXPECT_EQ(sizes[0], static_cast<std::int64_t>(want.first.size()));
  EXPECT_EQ(sizes[1], static_cast<std::int64_t>(want.second.size()));
  EXPECT_THROW(upsweep::partition_three_way(static_cast<const int*>(in.data()), a.data(), in.data(), c.data(),
                                            100'003, is_marked{}, second_byte_odd{}),
               upsweep::cuda_error);
}

struct at_least_two {
  __host__ __device__ bool operator()(std::uint8_t x) const { return x >= 2; }
};
struct at_least_one {
  __host__ __device__ bool operator()(std::uint8_t x) const { return x >= 1; }
};

// Past 2^31 items, more than 2^31 in the first part: counts and places are 64-bit. partition(in,
// first, second, unselected, n) returns the two parts' sizes.
template <class Partition>
void expect_three_way_past_2_to_31_items(Partition partition) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 31) + (std::int64_t{1} << 26);
  device_buffer<std::uint8_t> in(n), first(n), second(n), unselected(n);
  CUDA_OK(fill_random<std::uint8_t>(in.data(), n, seed, 0, 255));
  const std::array<std::int64_t, 2> sizes =
      partition(static_cast<const std::uint8_t*>(in.data()), first.data(), second.data(), unselected.data(), n);
  if (::testing::Test::HasFatalFailure()) return;
  const auto host_in = in.download();
  std::int64_t ones = 0, zeros = 0;
  for (const std::uint8_t x : host_in) {
    ones += x == 1;
    zeros += x == 0;
  }
  ASSERT_EQ(sizes[0], n - ones - zeros);
  ASSERT_EQ(sizes[1], ones);
  EXPECT_GT(sizes[0], std::int64_t{1} << 31);
  const auto got_second = second.download(ones), got_unselected = unselected.download(zeros);
  EXPECT_TRUE(std::all_of(got_second.begin(), got_second.end(), [](std::uint8_t x) { return x == 1; }));
  EXPECT_TRUE(std::all_of(got_unselected.begin(), got_unselected.end(), [](std::uint8_t x) { return x == 0; }));
  // The first part in input order: compared a slice at a time against the input's survivors.
  const auto got_first = first.download(sizes[0]);
  std::int64_t at = 0, mismatch = -1;
  for (std::int64_t i = 0; i < n && mismatch < 0; ++i)
    if (host_in[i] >= 2 && got_first[at++] != host_in[i]) mismatch = at - 1;
  ASSERT_EQ(mismatch, -1) << "first mismatch in the first part";
}

// The convenience form: a block per tile for bytes.
TEST_F(Partition, LargeThreeWayPast2To31Items) {
  expect_three_way_past_2_to_31_items([](const std::uint8_t* in, std::uint8_t* a, std::uint8_t* b, std::uint8_t* c,
                                         std::int64_t n) {
    return upsweep::partition_three_way(in, a, b, c, n, at_least_two{}, at_least_one{});
  });
}

// Reduce-ahead on every resident block, through the wide tile state.
TEST_F(Partition, LargeThreeWayReducingAheadPast2To31Items) {
  expect_three_way_past_2_to_31_items([](const std::uint8_t* in, std::uint8_t* a, std::uint8_t* b, std::uint8_t* c,
                                         std::int64_t n) {
    using reduce_ahead =
        select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 3, 1200, tile_schedule::reduce_ahead>;
    device_buffer<std::int64_t> counts(2);
    std::size_t bytes = 0;
    check(upsweep::partition_three_way<reduce_ahead>(nullptr, bytes, in, a, b, c, counts.data(), n, at_least_two{},
                                                     at_least_one{}),
          "size query");
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    check(upsweep::partition_three_way<reduce_ahead>(temp.data(), bytes, in, a, b, c, counts.data(), n,
                                                     at_least_two{}, at_least_one{}),
          "partition_three_way");
    const auto c2 = counts.download();
    return std::array<std::int64_t, 2>{c2[0], c2[1]};
  });
}

}  // namespace
}  // namespace upsweep::test
