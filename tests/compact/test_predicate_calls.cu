// The predicate contracts of device_select.cuh and device_partition.cuh on every dispatch path (a
// block per tile, the reduce-ahead schedule, the stable partition's one pass and two passes):
// once per item, except partition (rejected side reversed) reducing ahead, twice, every item
// alike; never on items past the end. The items are their
// own indices, so the predicate counts its calls per item in device memory; the results are
// checked against the host too.
#include <upsweep/compact/device_partition.cuh>
#include <upsweep/compact/device_select.cuh>

#include "compact_test_support.cuh"

#include <numeric>

namespace upsweep::test {
namespace {

// Counts its calls per item (items 0..n-1); selects by a hash of the item, so that tiles keep
// varying shares.
struct counting_predicate {
  unsigned* calls;
  unsigned bit = 13;  // of the hash that decides
  template <class T>
  __device__ bool operator()(T item) const {
    atomicAdd(calls + item, 1u);
    return selected(static_cast<int>(item), bit);
  }
  __host__ __device__ static bool selected(int item, unsigned bit = 13) {
    return (static_cast<unsigned>(item) * 2654435761u >> bit) & 1u;
  }
};

using two_block_reduce_ahead = select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 6, 0,
                                             tile_schedule::reduce_ahead, 2>;
using block_per_tile = select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 6>;

enum class call { select_if, remove_if, count_if, stable_partition, partition };

const char* name_of(call c) {
  switch (c) {
    case call::select_if: return "select_if";
    case call::remove_if: return "remove_if";
    case call::count_if: return "count_if";
    case call::stable_partition: return "stable_partition";
    default: return "partition";
  }
}

// Runs `c` with Policy on 0..n-1 (items of type T) and checks every item's calls, the count, and
// the output.
template <class Policy, class T = int>
void expect_one_call_per_item(call c, std::int64_t n) {
  SCOPED_TRACE(std::string(name_of(c)) + ", n = " + std::to_string(n) + ", " + std::to_string(sizeof(T)) +
               "-byte items");
  std::vector<T> in(static_cast<std::size_t>(n));
  std::iota(in.begin(), in.end(), T{0});
  device_buffer<T> d_in(in), d_out(n + 1);
  device_buffer<unsigned> d_calls(n + 1);
  device_buffer<std::int64_t> d_count(1);
  check(cudaMemset(d_calls.data(), 0, static_cast<std::size_t>(n + 1) * sizeof(unsigned)), "cudaMemset");
  check(cudaMemset(d_out.data(), 0xA5, static_cast<std::size_t>(n + 1) * sizeof(T)), "cudaMemset");
  const counting_predicate pred{d_calls.data()};
  std::size_t bytes = 0;
  const auto run = [&](void* temp) {
    switch (c) {
      case call::select_if:
        return upsweep::select_if<Policy>(temp, bytes, d_in.data(), d_out.data(), d_count.data(), n, pred);
      case call::remove_if:
        return upsweep::remove_if<Policy>(temp, bytes, d_in.data(), d_out.data(), d_count.data(), n, pred);
      case call::count_if:
        return upsweep::count_if<Policy>(temp, bytes, d_in.data(), d_count.data(), n, pred);
      case call::stable_partition:
        return upsweep::stable_partition<Policy>(temp, bytes, d_in.data(), d_out.data(), d_count.data(), n, pred);
      default:
        return upsweep::partition<Policy>(temp, bytes, d_in.data(), d_out.data(), d_count.data(), n, pred);
    }
  };
  check(run(nullptr), "size query");
  device_buffer<char> d_temp(static_cast<std::int64_t>(bytes));
  check(run(d_temp.data()), name_of(c));
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  const std::vector<unsigned> calls = d_calls.download();
  // partition (the rejected side reversed) flags a tile on each of its two visits when it reduces
  // ahead: twice, every item alike; a block per tile once.
  const unsigned expected = c == call::partition ? calls[0] : 1u;
  if (c == call::partition) {
    EXPECT_TRUE(expected == 1u || expected == 2u) << "item 0 was shown to the predicate " << expected << " times";
    if (Policy::schedule == tile_schedule::block_per_tile) EXPECT_EQ(1u, expected) << "a block per tile";
    if (Policy::schedule == tile_schedule::reduce_ahead && Policy::persistent_grid_limit > 0 &&
        n > std::int64_t{Policy::persistent_grid_limit} * Policy::tile_items)
      EXPECT_EQ(2u, expected) << "the reduce-ahead schedule did not run";
  }
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i)
    if (calls[i] != expected && wrong++ == 0)
      ADD_FAILURE() << "item " << i << " was shown to the predicate " << calls[i] << " times, not " << expected;
  EXPECT_EQ(0, wrong) << "items called other than " << expected << " times";
  EXPECT_EQ(0u, calls[n]) << "the predicate saw an item past the end";
  std::vector<T> kept, rejected;
  for (T i : in) (counting_predicate::selected(static_cast<int>(i)) ? kept : rejected).push_back(i);
  const std::int64_t count = d_count.download()[0];
  if (c == call::remove_if) std::swap(kept, rejected);
  ASSERT_EQ(static_cast<std::int64_t>(kept.size()), count);
  if (c == call::count_if) return;
  const bool partitions = c == call::stable_partition || c == call::partition;
  const std::vector<T> out = d_out.download(partitions ? n : count);
  EXPECT_TRUE(std::equal(kept.begin(), kept.end(), out.begin())) << "the kept items";
  if (c == call::stable_partition)
    EXPECT_TRUE(std::equal(rejected.begin(), rejected.end(), out.begin() + count)) << "the rejected items, in order";
  if (c == call::partition)
    EXPECT_TRUE(std::equal(rejected.rbegin(), rejected.rend(), out.begin() + count)) << "the rejected items, reversed";
}

// partition_three_way with Policy on 0..n-1: pred1 once an item, pred2 once an item pred1
// rejects, neither past the end; the three parts as the host makes them.
template <class Policy>
void expect_three_way_calls_once(std::int64_t n) {
  SCOPED_TRACE("partition_three_way, n = " + std::to_string(n));
  std::vector<int> in(static_cast<std::size_t>(n));
  std::iota(in.begin(), in.end(), 0);
  device_buffer<int> d_in(in), first(n + 1), second(n + 1), rest(n + 1);
  device_buffer<unsigned> calls1(n + 1), calls2(n + 1);
  device_buffer<std::int64_t> counts(2);
  for (auto* calls : {&calls1, &calls2})
    check(cudaMemset(calls->data(), 0, static_cast<std::size_t>(n + 1) * sizeof(unsigned)), "cudaMemset");
  const counting_predicate pred1{calls1.data()}, pred2{calls2.data(), 17};
  std::size_t bytes = 0;
  const auto run = [&](void* temp) {
    return upsweep::partition_three_way<Policy>(temp, bytes, d_in.data(), first.data(), second.data(), rest.data(),
                                                counts.data(), n, pred1, pred2);
  };
  check(run(nullptr), "size query");
  device_buffer<char> d_temp(static_cast<std::int64_t>(bytes));
  check(run(d_temp.data()), "partition_three_way");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  const std::vector<unsigned> got1 = calls1.download(), got2 = calls2.download();
  std::vector<int> want[3];
  std::int64_t wrong = 0;
  for (int i : in) {
    const bool one = counting_predicate::selected(i), two = counting_predicate::selected(i, 17);
    want[one ? 0 : (two ? 1 : 2)].push_back(i);
    if ((got1[i] != 1u || got2[i] != (one ? 0u : 1u)) && wrong++ == 0)
      ADD_FAILURE() << "item " << i << ": pred1 called " << got1[i] << " times, pred2 " << got2[i];
  }
  EXPECT_EQ(0, wrong) << "items with calls other than once (pred2: once where pred1 rejects)";
  EXPECT_EQ(0u, got1[n] + got2[n]) << "a predicate saw an item past the end";
  const std::vector<std::int64_t> c = counts.download();
  ASSERT_EQ(static_cast<std::int64_t>(want[0].size()), c[0]);
  ASSERT_EQ(static_cast<std::int64_t>(want[1].size()), c[1]);
  const device_buffer<int>* parts[3] = {&first, &second, &rest};
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(want[k], parts[k]->download(static_cast<std::int64_t>(want[k].size()))) << "part " << k;
}

class PredicateCalls : public gpu_test {};

// Every schedule of the three-way partition: a block per tile, two blocks reducing ahead, the
// default (one block, then reduce-ahead past the resident blocks for 4-byte items).
TEST_F(PredicateCalls, TheThreeWayPartitionCallsEachPredicateOnceAnItem) {
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{3 * 4096 + 5}, max_test_items(1'000'003)}) {
    expect_three_way_calls_once<block_per_tile>(n);
    expect_three_way_calls_once<two_block_reduce_ahead>(n);
  }
  for (std::int64_t n : {std::int64_t{4097}, max_test_items(10'000'019)})
    expect_three_way_calls_once<default_three_way_policy<int>>(n);
}

TEST_F(PredicateCalls, ABlockPerTileCallsThePredicateOnceAnItem) {
  for (call c : {call::select_if, call::remove_if, call::count_if, call::partition})
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, max_test_items(1'000'003)})
      expect_one_call_per_item<block_per_tile>(c, n);
}

// Two persistent blocks take every tile, each tile visited twice (published ahead, written
// behind); the stable partition takes its two passes at these sizes.
TEST_F(PredicateCalls, TheReduceAheadScheduleCallsThePredicateOnceAnItem) {
  for (call c : {call::select_if, call::remove_if, call::count_if, call::stable_partition, call::partition})
    for (std::int64_t n : {std::int64_t{3 * 4096 + 5}, std::int64_t{16 * 4096}, max_test_items(1'000'003)})
      expect_one_call_per_item<two_block_reduce_ahead>(c, n);
}

// The same with a tile's copy started an iteration ahead (three buffers in turn).
TEST_F(PredicateCalls, CopyingAheadCallsThePredicateOnceAnItem) {
  for (call c : {call::select_if, call::remove_if, call::count_if, call::stable_partition, call::partition})
    for (std::int64_t n : {std::int64_t{3 * 4096 + 5}, std::int64_t{16 * 4096}, max_test_items(1'000'003)}) {
      expect_one_call_per_item<two_block_copying_ahead>(c, n);
      expect_one_call_per_item<two_block_copying_ahead_dynamic>(c, n);
    }
}

// The default policy: one block, the grid barrier's one pass, a block per tile, within one wave of
// them the larger tiles (700001 int32, 500001 int64), and past a wave reduce-ahead select and the
// stable partition's two passes; 8-byte items have a shape of their own.
TEST_F(PredicateCalls, TheDefaultPathsCallThePredicateOnceAnItem) {
  for (call c : {call::select_if, call::count_if, call::stable_partition, call::partition})
    for (std::int64_t n : {std::int64_t{11264}, std::int64_t{3 * 4096 + 1}, std::int64_t{10 * 4096 + 1},
                           max_test_items(700'001), max_test_items(10'000'019)})
      expect_one_call_per_item<default_select_policy<int>>(c, n);
  // 8-byte items: around their 2048-item tile and the one-block partition's 5632, past one cluster
  // of tiles, and within one wave of the larger tiles (past an SM a tile).
  for (call c : {call::select_if, call::count_if, call::stable_partition, call::partition})
    for (std::int64_t n : {std::int64_t{2048}, std::int64_t{2049}, std::int64_t{5632}, std::int64_t{5633},
                           std::int64_t{10 * 2048 + 1}, max_test_items(500'001), max_test_items(10'000'019)})
      expect_one_call_per_item<default_select_policy<long long>, long long>(c, n);
}

}  // namespace
}  // namespace upsweep::test
