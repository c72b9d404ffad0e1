// Device layer: the partition family, named as the standard library names it. Both put the items
// for which pred is true first, in input order, and write the split point (their count) to
// d_num_selected; they differ in the rejected items after it:
//  - stable_partition: in input order (std::stable_partition). A rejected item's place depends on
//    the selected count of the whole input. Inputs whose tiles fit in one wave of resident blocks
//    (about 3 million 4-byte items on an H100) take one pass: n reads and n writes, every tile's
//    count shared at a grid barrier. Larger ones take two passes around a scan of the tile
//    counts: the first flags the items and keeps the flags in the temporary storage (as bits, in
//    the smallest word that holds a thread's items), the second reads the items again and writes
//    both sides: 2n reads and n writes.
//  - partition: in reverse input order, as cub::DevicePartition::If writes them (std::partition
//    promises no order). One pass at every size: the select kernel in partition mode.
//  - partition_three_way: items for which pred1 is true to d_first_out, those for which pred1 is
//    false and pred2 true to d_second_out, the others to d_unselected_out, each in input order, as
//    cub::DevicePartition::If with two predicates writes them; the two parts' sizes go to
//    d_num_selected[0] and [1]. pred1 is called once per item, pred2 once per item pred1 rejects,
//    neither past the end, on every schedule (reducing ahead, 4- and 8-byte items from a 16-byte
//    aligned pointer, a tile keeps its parts from its first visit). One pass at every size; at
//    most 2^62 - 1 items (cudaErrorInvalidValue past that: the wide tile word keeps its status in
//    a count's top two bits).
// Not in place: d_out must not overlap d_in (cudaErrorInvalidValue for raw pointers). The
// predicate is called on the device, never past the end. stable_partition calls it once per item
// on every path. partition calls it once per item, except on the reduce-ahead schedule (4- and
// 8-byte items from a 16-byte aligned pointer, more tiles than resident blocks), where the select
// kernel flags a tile on each of its two visits: twice per item there (keeping the flags between
// them, as select does, made that pass 1.35x slower). stable_partition's temporary storage grows
// with n (8 bytes a tile and a flag word a thread: a bit an item for 4- and 8-byte items, about
// 125 MB at 10^9 int32; two bits an item for the 4 items a thread of 9- to 16-byte items);
// partition's is the tile state alone.
// Core and convenience layers as in device_select.cuh; the forms returning the split point to
// the host synchronise the stream.
#pragma once

#include <upsweep/compact/detail/host_count.hpp>
#include <upsweep/compact/detail/partition_dispatch.cuh>
#include <upsweep/compact/detail/partition_three_way.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace upsweep {

// ---- core layer -------------------------------------------------------------------------------

template <class Policy = void, class InputIt, class OutputIt, class Pred>
cudaError_t stable_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                             std::int64_t* d_num_selected, std::int64_t num_items, Pred pred,
                             cudaStream_t stream = 0) {
  return detail::dispatch_partition<detail::select_policy_t<Policy, InputIt>>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, pred, stream);
}

template <class Policy = void, class InputIt, class OutputIt, class Pred>
cudaError_t partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                      std::int64_t* d_num_selected, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return detail::dispatch_partition_reversed<detail::select_policy_t<Policy, InputIt>>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, pred, stream);
}

template <class Policy = void, class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1,
          class Pred2>
cudaError_t partition_three_way(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                FirstIt d_first_out, SecondIt d_second_out, UnselectedIt d_unselected_out,
                                std::int64_t* d_num_selected, std::int64_t num_items, Pred1 pred1, Pred2 pred2,
                                cudaStream_t stream = 0) {
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  using policy_t = cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_three_way_policy<item_t>, Policy>;
  return detail::dispatch_three_way_partition<policy_t>(d_temp_storage, temp_storage_bytes, d_in, d_first_out,
                                                        d_second_out, d_unselected_out, d_num_selected, num_items,
                                                        pred1, pred2, stream);
}

// ---- convenience layer: stream-ordered temporaries, throws upsweep::cuda_error ----------------

template <class InputIt, class OutputIt, class Pred>
void stable_partition(InputIt d_in, OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items, Pred pred,
                      cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::stable_partition", stream, [&](void* d_temp, std::size_t& bytes) {
    return stable_partition(d_temp, bytes, d_in, d_out, d_num_selected, num_items, pred, stream);
  });
}

template <class InputIt, class OutputIt, class Pred>
void partition(InputIt d_in, OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items, Pred pred,
               cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::partition", stream, [&](void* d_temp, std::size_t& bytes) {
    return partition(d_temp, bytes, d_in, d_out, d_num_selected, num_items, pred, stream);
  });
}

template <class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2>
void partition_three_way(InputIt d_in, FirstIt d_first_out, SecondIt d_second_out, UnselectedIt d_unselected_out,
                         std::int64_t* d_num_selected, std::int64_t num_items, Pred1 pred1, Pred2 pred2,
                         cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::partition_three_way", stream, [&](void* d_temp, std::size_t& bytes) {
    return partition_three_way(d_temp, bytes, d_in, d_first_out, d_second_out, d_unselected_out, d_num_selected,
                               num_items, pred1, pred2, stream);
  });
}

// ---- convenience layer returning the split point: these synchronise `stream` ------------------

template <class InputIt, class OutputIt, class Pred>
std::int64_t stable_partition(InputIt d_in, OutputIt d_out, std::int64_t num_items, Pred pred,
                              cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::stable_partition", stream, [&](std::int64_t* d_count) {
    stable_partition(d_in, d_out, d_count, num_items, pred, stream);
  });
}

template <class InputIt, class OutputIt, class Pred>
std::int64_t partition(InputIt d_in, OutputIt d_out, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::partition", stream, [&](std::int64_t* d_count) {
    partition(d_in, d_out, d_count, num_items, pred, stream);
  });
}

// The sizes of the first and second parts.
template <class InputIt, class FirstIt, class SecondIt, class UnselectedIt, class Pred1, class Pred2>
std::array<std::int64_t, 2> partition_three_way(InputIt d_in, FirstIt d_first_out, SecondIt d_second_out,
                                                UnselectedIt d_unselected_out, std::int64_t num_items, Pred1 pred1,
                                                Pred2 pred2, cudaStream_t stream = 0) {
  return detail::counts_to_host<2>("upsweep::partition_three_way", stream, [&](std::int64_t* d_counts) {
    partition_three_way(d_in, d_first_out, d_second_out, d_unselected_out, d_counts, num_items, pred1, pred2,
                        stream);
  });
}

}  // namespace upsweep
