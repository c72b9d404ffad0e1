// Stable partition against std::stable_partition and CUB: selected first and rejected after,
// both in input order, the split point in device memory; every selection pattern at sizes around
// warp and tile boundaries, element sizes 1 to 16 bytes, both API layers, in place refused; the
// one-pass and two-pass forms each at small sizes, a CUDA graph, and past 2^31 items.
#include <upsweep/compact/device_partition.cuh>

#include "compact_test_support.cuh"

#include <cub/device/device_partition.cuh>

#include <algorithm>

namespace upsweep::test {
namespace {

template <class T>
auto partition_marked() {
  return [](void* t, std::size_t& b, const T* in, T* out, std::int64_t* c, std::int64_t n, cudaStream_t s) {
    return upsweep::stable_partition(t, b, in, out, c, n, is_marked{}, s);
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
class StablePartitionTyped : public gpu_test {};
using partition_types = ::testing::Types<std::uint8_t, rgb3, std::int32_t, vec12, vec16>;
TYPED_TEST_SUITE(StablePartitionTyped, partition_types);

TYPED_TEST(StablePartitionTyped, KeepsBothSidesInInputOrderAtEverySize) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : compact_sizes(tile_of<T>())) {
    SCOPED_TRACE("n = " + std::to_string(n));
    check_partition(marked_items<T>(n, pattern::half, seed + n));
  }
}

TYPED_TEST(StablePartitionTyped, EverySelectionPatternMatchesStablePartition) {
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

// Sizes past the one-block form (a block of up to 1024 threads over 44 KB of items): its tile
// and one more item, a whole number of tiles past it and one more, and a larger odd size (under
// the sanitizers' cap, at least the one-block tile and a few tiles more).
template <class Policy, class T>
std::vector<std::int64_t> two_pass_sizes() {
  const std::int64_t one_block = detail::one_block_partition_policy<Policy, T>::tile_items;
  const std::int64_t past = (one_block / Policy::tile_items + 3) * Policy::tile_items + 1;
  return {one_block + 1, past, std::max(max_test_items(100'003), past + Policy::tile_items + 5)};
}

// Past the wave of one block: the two passes for every element size.
TYPED_TEST(StablePartitionTyped, TwoPassFormKeepsBothSidesInInputOrder) {
  using T = TypeParam;
  using base = default_select_policy<T>;
  using one_block_wave = select_policy<256, base::items_per_thread, tile_io::transpose, default_look_back_delay_ns, 1,
                                       0, tile_schedule::block_per_tile, 1>;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto partition = [](void* t, std::size_t& b, const T* in, T* out, std::int64_t* c, std::int64_t n,
                            cudaStream_t s) {
    return upsweep::stable_partition<one_block_wave>(t, b, in, out, c, n, is_marked{}, s);
  };
  for (const std::int64_t n : two_pass_sizes<one_block_wave, T>()) {
    for (const pattern p : {pattern::half, pattern::one_per_mille, pattern::all}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      std::int64_t split = 0;
      const auto in = marked_items<T>(n, p, seed + n);
      const auto expected = stable_partition_marked(in, split);
      run_compact<T>(in, partition, expected, false, split);
    }
  }
}

class StablePartition : public gpu_test {};

TEST_F(StablePartition, EveryPatternAtEverySizeMatchesStablePartition) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : compact_sizes(tile_of<int>())) {
    for (const pattern p : every_pattern()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      check_partition(marked_items<int>(n, p, seed + n));
    }
  }
}

TEST_F(StablePartition, InPlaceIsRefused) {
  device_buffer<int> buffer(1000);
  device_buffer<std::int64_t> count(1);
  std::size_t bytes = 0;
  EXPECT_EQ(upsweep::stable_partition(nullptr, bytes, static_cast<const int*>(buffer.data()), buffer.data(),
                                      count.data(), 1000, is_marked{}),
            cudaErrorInvalidValue);
  EXPECT_THROW(upsweep::stable_partition(static_cast<const int*>(buffer.data()), buffer.data(), 1000, is_marked{}),
               upsweep::cuda_error);
}

TEST_F(StablePartition, ConvenienceFormReturnsTheSplitPoint) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 500'003;
  const auto host_in = marked_items<std::uint64_t>(n, pattern::one_per_mille, seed);
  std::int64_t split = 0;
  const auto expected = stable_partition_marked(host_in, split);
  device_buffer<std::uint64_t> in(host_in), out(n);
  EXPECT_EQ(upsweep::stable_partition(static_cast<const std::uint64_t*>(in.data()), out.data(), n, is_marked{}), split);
  expect_same_bytes(out.download().data(), expected.data(), n, "partition");
  EXPECT_EQ(upsweep::stable_partition(static_cast<const std::uint64_t*>(in.data()), out.data(), 0, is_marked{}), 0);
}

// Partitions with a policy `Policy`: its persistent grid limit caps the one-pass form's wave.
template <class Policy>
void expect_partitions_match_stable_partition(const std::vector<std::int64_t>& sizes) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto partition = [](void* t, std::size_t& b, const int* in, int* out, std::int64_t* c, std::int64_t n,
                            cudaStream_t s) {
    return upsweep::stable_partition<Policy>(t, b, in, out, c, n, is_marked{}, s);
  };
  for_each_marked_input<int>(sizes, every_pattern(), seed, [&](const std::vector<int>& in) {
    std::int64_t split = 0;
    const auto expected = stable_partition_marked(in, split);
    run_compact<int>(in, partition, expected, false, split);
  });
}

// A wave of two blocks: one pass up to one block of 704 x 16 items (11264), then the two passes,
// at sizes where the default policy would take one pass.
TEST_F(StablePartition, TwoPassFormMatchesStablePartitionAtSmallSizes) {
  using two_block_wave = select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 6, 0,
                                       tile_schedule::reduce_ahead, 2>;
  expect_partitions_match_stable_partition<two_block_wave>(
      {33, 11265, 3 * 4096 + 7, 65537, max_test_items(999983), max_test_items(10'000'001)});
}

// The two passes keep a thread's flags in one byte (8 items), one 32-bit word (24 items) or
// several (40 items: bits 32 to 39 in a second word); direct loads as well as transposed ones.
// (16 items a thread, two bytes, are the default's.)
template <int Threads, int ItemsPerThread, tile_io Io>
using one_tile_wave = select_policy<Threads, ItemsPerThread, Io, 0, 1, 0, tile_schedule::block_per_tile, 1>;

TEST_F(StablePartition, TwoPassFormKeepsFlagsOfEveryWordSize) {
  using byte_flags = one_tile_wave<128, 8, tile_io::direct>;
  using word_flags = one_tile_wave<64, 24, tile_io::transpose>;
  using two_words = one_tile_wave<64, 40, tile_io::transpose>;
  expect_partitions_match_stable_partition<byte_flags>(two_pass_sizes<byte_flags, int>());
  expect_partitions_match_stable_partition<word_flags>(two_pass_sizes<word_flags, int>());
  expect_partitions_match_stable_partition<two_words>(two_pass_sizes<two_words, int>());
}

// The default policy's one-pass forms on either side of their boundary: up to 11264 items in one
// block of 704 threads, past it a block per 4096-item tile at the grid barrier.
TEST_F(StablePartition, OneBlockAndGridBarrierFormsMatchStablePartitionAtTheirBoundary) {
  expect_partitions_match_stable_partition<default_select_policy<int>>({4097, 11263, 11264, 11265, 3 * 4096 + 1});
}

// Tiles of 64 items: thousands of resident tiles in one pass, meeting at one grid barrier, each
// summing thousands of tile counts.
TEST_F(StablePartition, OnePassOverThousandsOfSmallTilesMatchesStablePartition) {
  using small_tiles = select_policy<32, 2, tile_io::transpose, 0, 1>;
  expect_partitions_match_stable_partition<small_tiles>(
      {63, 64, 65, 64 * 33 + 1, max_test_items(100'003), max_test_items(200'001)});
}

// Capture proves the core call neither allocates nor synchronises: one pass (the cooperative
// launch recorded in the graph) and, past a wave, the two passes and the scan between them.
TEST_F(StablePartition, CoreCallIsCapturedInACudaGraphAndReplays) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {max_test_items(300'007), max_test_items(6'000'011)}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto host_in = marked_items<int>(n, pattern::half, seed + n);
    std::int64_t split = 0;
    const auto expected = stable_partition_marked(host_in, split);
    device_buffer<int> in(host_in), out(n);
    device_buffer<std::int64_t> count(1);
    std::size_t bytes = 0;
    CUDA_OK(upsweep::stable_partition(nullptr, bytes, static_cast<const int*>(in.data()), out.data(), count.data(),
                                      n, is_marked{}));
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    expect_graph_replays(
        [&](cudaStream_t stream) {
          return upsweep::stable_partition(temp.data(), bytes, static_cast<const int*>(in.data()), out.data(),
                                           count.data(), n, is_marked{}, stream);
        },
        [&](cudaStream_t stream) {
          CUDA_OK(poison(out.data(), n, -1, stream));
          CUDA_OK(poison<std::int64_t>(count.data(), 1, -1, stream));
        },
        [&] {
          ASSERT_EQ(count.download()[0], split);
          expect_same_bytes(out.download().data(), expected.data(), n, "replay");
        });
  }
}

struct at_least_two {
  __host__ __device__ bool operator()(std::uint8_t x) const { return x >= 2; }
};

// Past 2^31 items with more than 2^31 selected: the split point, the tile counts' scan and the
// rejected items' places after it are all 64-bit. Rejected items are 0 and 1, so their order
// shows; both sides are checked against a host pass.
TEST_F(StablePartition, LargePartitionPast2To31ItemsKeepsBothSidesInOrder) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  // About 1 in 128 rejected: 2^31 + 2^26 items keep about 2^31 + 2^26 - 2^24 - 2^19.
  const std::int64_t n = (std::int64_t{1} << 31) + (std::int64_t{1} << 26);
  device_buffer<std::uint8_t> in(n), out(n, guard_items);
  CUDA_OK(fill_random<std::uint8_t>(in.data(), n, seed, 0, 255));
  CUDA_OK(poison<std::uint8_t>(out.data(), n + guard_items, poison_byte));
  const std::int64_t split =
      upsweep::stable_partition(static_cast<const std::uint8_t*>(in.data()), out.data(), n, at_least_two{});
  EXPECT_GT(split, std::int64_t{1} << 31);
  const auto host_in = in.download();
  const auto host_out = out.download(n + guard_items);
  std::int64_t kept = 0, rejected = 0, mismatch = -1;
  for (std::int64_t i = 0; i < n && mismatch < 0; ++i) {
    const std::int64_t place = at_least_two{}(host_in[i]) ? kept++ : split + rejected++;
    if (place >= n || host_out[place] != host_in[i]) mismatch = place;
  }
  ASSERT_EQ(mismatch, -1) << "first mismatch at output index " << mismatch;
  ASSERT_EQ(kept, split);
  for (std::int64_t j = n; j < n + guard_items; ++j) ASSERT_EQ(host_out[j], poison_byte) << "written past the end at " << j;
}

// CUB keeps the selected side in order and reverses the rejected side: the same items otherwise.
TEST_F(StablePartition, AgreesWithCubUpToTheOrderOfItsRejectedSide) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{65537}, max_test_items(std::int64_t{100'000'000})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto r = compare_with_cub(
        n, seed + n,
        [n](const int* in, int* out, std::int64_t* count) {
          upsweep::stable_partition(in, out, count, n, is_marked{});
        },
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
