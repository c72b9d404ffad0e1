// Device layer: stream compaction (select_if, select_flagged, remove_if, count_if), one pass with
// decoupled look-back over a block scan of the selection flags. Two layers:
//  - core: caller-provided temporary storage. With d_temp_storage == nullptr it only writes
//    temp_storage_bytes (no CUDA call); otherwise it enqueues the work on `stream` and returns.
//    It never allocates or synchronises, so it can be captured in a CUDA graph.
//  - convenience: same names without the storage arguments; allocates stream-ordered and throws
//    upsweep::cuda_error. Asynchronous on `stream`, except the forms that return the count to the
//    host: those synchronise the stream.
// Contracts shared by every function here:
//  - stable: survivors keep their input order. The count (std::int64_t) goes to d_num_selected in
//    device memory; nothing is written to d_out at or past the count.
//  - items: any trivially copyable, default-constructible type of 1 to 16 bytes.
//  - predicates: functors or extended __device__ lambdas, called once per item on the device,
//    never on the items past the end of the input.
//  - d_out == d_in (in place) is allowed for select_if, select_flagged and remove_if; other
//    overlaps are not. Flags may be any type that converts to bool.
//  - num_items is 64-bit; negative counts are cudaErrorInvalidValue; n = 0 writes a count of 0.
#pragma once

#include <upsweep/compact/detail/host_count.hpp>
#include <upsweep/compact/detail/select_dispatch.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep {

// ---- core layer -------------------------------------------------------------------------------

// Copies the items for which pred(item) is true, in order.
template <class Policy = void, class InputIt, class OutputIt, class Pred>
cudaError_t select_if(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                      std::int64_t* d_num_selected, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return detail::dispatch_select<detail::select_policy_t<Policy, InputIt>, detail::select_output::survivors>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, detail::predicate_flags<Pred>{pred},
      stream);
}

// Copies the items whose flag (d_flags[i], converted to bool) is true, in order.
template <class Policy = void, class InputIt, class FlagIt, class OutputIt>
cudaError_t select_flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, FlagIt d_flags,
                           OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items,
                           cudaStream_t stream = 0) {
  if (d_temp_storage != nullptr && num_items > 0 && detail::is_null(d_flags)) return cudaErrorInvalidValue;
  return detail::dispatch_select<detail::select_policy_t<Policy, InputIt>, detail::select_output::survivors>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items,
      detail::stencil_flags<FlagIt>{d_flags}, stream);
}

// Copies the items for which pred(item) is false, in order; d_num_kept gets their count.
template <class Policy = void, class InputIt, class OutputIt, class Pred>
cudaError_t remove_if(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                      std::int64_t* d_num_kept, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return select_if<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_kept, num_items,
                           detail::negated<Pred>{pred}, stream);
}

// Writes the number of items for which pred(item) is true; reads the input once, writes no items.
template <class Policy = void, class InputIt, class Pred>
cudaError_t count_if(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, std::int64_t* d_count,
                     std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  return detail::dispatch_select<detail::select_policy_t<Policy, InputIt>, detail::select_output::count_only>(
      d_temp_storage, temp_storage_bytes, d_in, static_cast<item_t*>(nullptr), d_count, num_items,
      detail::predicate_flags<Pred>{pred}, stream);
}

// ---- convenience layer: stream-ordered temporaries, throws upsweep::cuda_error ----------------

template <class InputIt, class OutputIt, class Pred>
void select_if(InputIt d_in, OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items, Pred pred,
               cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::select_if", stream, [&](void* d_temp, std::size_t& bytes) {
    return select_if(d_temp, bytes, d_in, d_out, d_num_selected, num_items, pred, stream);
  });
}

template <class InputIt, class FlagIt, class OutputIt>
void select_flagged(InputIt d_in, FlagIt d_flags, OutputIt d_out, std::int64_t* d_num_selected,
                    std::int64_t num_items, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::select_flagged", stream, [&](void* d_temp, std::size_t& bytes) {
    return select_flagged(d_temp, bytes, d_in, d_flags, d_out, d_num_selected, num_items, stream);
  });
}

template <class InputIt, class OutputIt, class Pred>
void remove_if(InputIt d_in, OutputIt d_out, std::int64_t* d_num_kept, std::int64_t num_items, Pred pred,
               cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::remove_if", stream, [&](void* d_temp, std::size_t& bytes) {
    return remove_if(d_temp, bytes, d_in, d_out, d_num_kept, num_items, pred, stream);
  });
}

template <class InputIt, class Pred>
void count_if(InputIt d_in, std::int64_t* d_count, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::count_if", stream, [&](void* d_temp, std::size_t& bytes) {
    return count_if(d_temp, bytes, d_in, d_count, num_items, pred, stream);
  });
}

// ---- convenience layer returning the count: these synchronise `stream` ------------------------

template <class InputIt, class OutputIt, class Pred>
std::int64_t select_if(InputIt d_in, OutputIt d_out, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::select_if", stream, [&](std::int64_t* d_count) {
    select_if(d_in, d_out, d_count, num_items, pred, stream);
  });
}

template <class InputIt, class FlagIt, class OutputIt>
std::int64_t select_flagged(InputIt d_in, FlagIt d_flags, OutputIt d_out, std::int64_t num_items,
                            cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::select_flagged", stream, [&](std::int64_t* d_count) {
    select_flagged(d_in, d_flags, d_out, d_count, num_items, stream);
  });
}

template <class InputIt, class OutputIt, class Pred>
std::int64_t remove_if(InputIt d_in, OutputIt d_out, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::remove_if", stream, [&](std::int64_t* d_count) {
    remove_if(d_in, d_out, d_count, num_items, pred, stream);
  });
}

template <class InputIt, class Pred>
std::int64_t count_if(InputIt d_in, std::int64_t num_items, Pred pred, cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::count_if", stream, [&](std::int64_t* d_count) {
    count_if(d_in, d_count, num_items, pred, stream);
  });
}

}  // namespace upsweep
