// Select and partition with the packed 32-bit count state (select_policy's PackedCounts, chosen
// below 2^32 items): the host references of the default policy's tests, in place too, so the
// ordering fences of ordered_tile_state are exercised where they matter. The policy is the
// default one with packed counts.
#include <upsweep/compact/device_partition.cuh>
#include <upsweep/compact/device_select.cuh>

#include "compact_test_support.cuh"

#include <algorithm>

namespace upsweep::test {
namespace {

template <class T>
using packed_policy = select_policy<default_select_policy<T>::block_threads, default_select_policy<T>::items_per_thread,
                                    default_select_policy<T>::io, default_look_back_delay_ns, true>;

template <class T>
class PackedCounts : public gpu_test {};
using packed_types = ::testing::Types<std::uint8_t, rgb3, std::int32_t, std::uint64_t, vec16>;
TYPED_TEST_SUITE(PackedCounts, packed_types);

// Out of place at every size, then in place on a few, against std::copy_if's order.
TYPED_TEST(PackedCounts, SelectIfKeepsTheMarkedItemsInOrder) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto select = [](void* t, std::size_t& b, const T* in, T* out, std::int64_t* c, std::int64_t n,
                         cudaStream_t s) {
    return upsweep::select_if<packed_policy<T>>(t, b, in, out, c, n, is_marked{}, s);
  };
  const pattern patterns[] = {pattern::half, pattern::none, pattern::all, pattern::only_last, pattern::alternating};
  for (const bool in_place : {false, true}) {
    SCOPED_TRACE(in_place ? "in place" : "out of place");
    const std::vector<std::int64_t> sizes =
        in_place ? std::vector<std::int64_t>{100, 3 * tile_of<T>() + 5, max_test_items(999983)}
                 : compact_sizes(tile_of<T>());
    for_each_marked_input<T>(sizes, patterns, seed, [&](const std::vector<T>& in) {
      run_compact<T>(in, select, copy_marked(in), in_place);
    });
  }
}

TYPED_TEST(PackedCounts, PartitionKeepsBothSidesInInputOrder) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto partition = [](void* t, std::size_t& b, const T* in, T* out, std::int64_t* c, std::int64_t n,
                            cudaStream_t s) {
    return upsweep::partition<packed_policy<T>>(t, b, in, out, c, n, is_marked{}, s);
  };
  const pattern patterns[] = {pattern::half, pattern::none, pattern::all, pattern::alternating};
  for_each_marked_input<T>(compact_sizes(tile_of<T>()), patterns, seed, [&](const std::vector<T>& in) {
    std::vector<T> expected = in;
    const auto split = std::stable_partition(expected.begin(), expected.end(), is_marked{}) - expected.begin();
    run_compact<T>(in, partition, expected, false, split);
  });
}

}  // namespace
}  // namespace upsweep::test
