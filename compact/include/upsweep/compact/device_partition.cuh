// Device layer: stable partition. Selected items first, rejected after them, both in input order
// (CUB reverses the rejected tail). A rejected item's place depends on the selected count of the
// whole input. Inputs whose tiles fit in one wave of resident blocks (about 3 million 4-byte
// items on an H100) take one pass: n reads and n writes, every tile's count shared at a grid
// barrier. Larger ones take two kernels: the select kernel writes the rejected items to the back in
// reverse order in its single pass over the input, then a second kernel reverses that tail in
// place, 2 * (number rejected) more, no temporary copy of the items. Not in place: d_out must not
// overlap d_in (equal pointers are cudaErrorInvalidValue). The split point (the selected count)
// goes to d_num_selected.
// The predicate is called on the device, never past the end, once per item, except that the
// two-kernel form for 4-byte items from a 16-byte aligned pointer may call it twice per item:
// its first pass on the reduce-ahead schedule flags a tile on each of its two visits (keeping the
// flags between them, as select does, made that pass 1.35x slower). Core and convenience layers
// as in device_select.cuh; the forms returning the split point to the host synchronise the
// stream.
#pragma once

#include <upsweep/compact/detail/host_count.hpp>
#include <upsweep/compact/detail/partition_dispatch.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep {

template <class Policy = void, class InputIt, class OutputIt, class Pred>
cudaError_t partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                      std::int64_t* d_num_selected, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return detail::dispatch_partition<detail::select_policy_t<Policy, InputIt>>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, pred, stream);
}

template <class InputIt, class OutputIt, class Pred>
void partition(InputIt d_in, OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items, Pred pred,
               cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::partition", stream, [&](void* d_temp, std::size_t& bytes) {
    return partition(d_temp, bytes, d_in, d_out, d_num_selected, num_items, pred, stream);
  });
}

// Returns the split point; synchronises `stream`.
template <class InputIt, class OutputIt, class Pred>
std::int64_t partition(InputIt d_in, OutputIt d_out, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::partition", stream, [&](std::int64_t* d_count) {
    partition(d_in, d_out, d_count, num_items, pred, stream);
  });
}

}  // namespace upsweep
