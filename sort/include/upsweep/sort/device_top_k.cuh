// Device layer: the k largest (or smallest) keys of n, with their values, by radix select on the
// radix sort's key order. Two layers, as the sort (device_radix_sort.cuh): a core taking caller
// temporary storage (a pure size query first; no allocation, no synchronisation, graph-safe) and
// a convenience layer that allocates stream-ordered and throws upsweep::cuda_error.
// Contracts:
//  - order: the radix sort's (radix_traits.cuh): -0.0 and +0.0 are equal, +NaN is above +inf and
//    -NaN below -inf, so the largest of data with +NaNs are those NaNs (as torch.topk).
//  - ties: the result is the first k items of a stable sort (descending for largest): among equal
//    keys, the lowest input index wins. Every key is written with its own bits (-0.0 stays -0.0).
//  - output: top_k_output::sorted writes that order (largest first for largest); unsorted writes
//    the same set in an order that may change from run to run.
//  - values: any iterator read at the winners' input positions (a counting iterator gives the
//    indices, as torch.topk's); the values out are Value*. Each value is read once.
//  - sizes: 64-bit; 0 <= k <= num_items, else cudaErrorInvalidValue (k = 0 writes nothing); a
//    null keys pointer (or values out of a pairs call) with k > 0 is cudaErrorInvalidValue. These
//    checks come before anything is enqueued.
//  - temporary storage: two candidate buffers of max(8192, n / 8) keys and indices (at most n),
//    and, sorted, four k-sized arrays plus a radix sort of k items.
//  - batched: segment i is [begin_offsets[i], end_offsets[i]) of the keys (CUB's convention: one
//    offsets array d_offsets and d_offsets + 1 will do); its min(k, length) winners go to
//    keys_out[i * k ...] (a shorter segment leaves the rest of its row as it was; an empty one
//    writes nothing). The rows forms take num_rows rows of row_length keys one after another (a
//    model's [rows, row_length] logits). Each segment under 2^32 items, at most 2^31 - 1 segments;
//    a sorted batched result needs k <= 1024 (else cudaErrorInvalidValue). No temporary storage
//    beyond the size query's minimum.
//  - launches: a sample, a filter, a one-block finish (when few candidates pass), then the select's
//    passes in one cooperative grid (every block resident, a grid barrier between passes); where
//    the GPU refuses that grid (fewer SMs than the occupancy query said: a partition), one launch
//    a pass. Captured into a graph, the grid is a cooperative kernel node. Batched: one launch, a
//    block a segment, or while two blocks a segment still leave SMs idle a cluster of up to 8
//    (thread block clusters, sm_90) that share a long segment's read.
//  - where CUB differs: cub::DeviceTopK (CCCL 3.2+) writes unsorted results only and leaves ties
//    unspecified; here ties are fixed and a sorted result costs a sort of k items.
#pragma once

#include <upsweep/sort/detail/top_k_dispatch.cuh>
#include <upsweep/sort/top_k_options.hpp>
#include <upsweep/util/stream_allocation.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep {

namespace detail {

template <class Key, class BeginOffsets, class EndOffsets, class ValueIn, class Value>
cudaError_t batched_top_k(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                          Key* d_keys_out, ValueIn values_in, Value* d_values_out, std::int64_t num_segments,
                          BeginOffsets begin_offsets, EndOffsets end_offsets, std::int64_t k, top_k_select which,
                          top_k_output output, bool has_values, cudaStream_t stream) {
  const bool sorted = output == top_k_output::sorted;
  return which == top_k_select::largest
             ? dispatch_batched_top_k<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, values_in,
                                            d_values_out, num_segments, begin_offsets, end_offsets, k, sorted,
                                            has_values, stream)
             : dispatch_batched_top_k<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, values_in,
                                             d_values_out, num_segments, begin_offsets, end_offsets, k, sorted,
                                             has_values, stream);
}

// 32-bit positions up to 2^32 items (half the candidate buffers' index bytes), else 64-bit.
template <bool Largest, class Key, class ValueIn, class Value>
cudaError_t top_k_in_direction(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                               Key* d_keys_out, ValueIn values_in, Value* d_values_out, std::int64_t num_items,
                               std::int64_t k, bool sorted, bool has_values, cudaStream_t stream) {
  const auto run = [&](auto index) {
    return dispatch_top_k<Largest, Key, decltype(index)>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         values_in, d_values_out, num_items, k, sorted, has_values,
                                                         stream);
  };
  return num_items <= (std::int64_t{1} << 32) ? run(std::uint32_t{}) : run(std::uint64_t{});
}

template <class Key, class ValueIn, class Value>
cudaError_t top_k(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                  ValueIn values_in, Value* d_values_out, std::int64_t num_items, std::int64_t k, top_k_select which,
                  top_k_output output, bool has_values, cudaStream_t stream) {
  const bool sorted = output == top_k_output::sorted;
  return which == top_k_select::largest
             ? top_k_in_direction<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, values_in,
                                        d_values_out, num_items, k, sorted, has_values, stream)
             : top_k_in_direction<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, values_in,
                                         d_values_out, num_items, k, sorted, has_values, stream);
}

}  // namespace detail

// ---- core layer -------------------------------------------------------------------------------
template <class Key>
cudaError_t top_k_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                       std::int64_t num_items, std::int64_t k, top_k_select which = top_k_select::largest,
                       top_k_output output = top_k_output::sorted, cudaStream_t stream = 0) {
  return detail::top_k(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                       static_cast<const detail::no_values*>(nullptr), static_cast<detail::no_values*>(nullptr),
                       num_items, k, which, output, false, stream);
}

template <class Key, class ValueIn, class Value>
cudaError_t top_k_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                        ValueIn values_in, Value* d_values_out, std::int64_t num_items, std::int64_t k,
                        top_k_select which = top_k_select::largest, top_k_output output = top_k_output::sorted,
                        cudaStream_t stream = 0) {
  return detail::top_k(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, values_in, d_values_out, num_items,
                       k, which, output, true, stream);
}

template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t batched_top_k_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                               Key* d_keys_out, std::int64_t num_segments, BeginOffsets begin_offsets,
                               EndOffsets end_offsets, std::int64_t k, top_k_select which = top_k_select::largest,
                               top_k_output output = top_k_output::sorted, cudaStream_t stream = 0) {
  return detail::batched_top_k(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                               static_cast<const detail::no_values*>(nullptr), static_cast<detail::no_values*>(nullptr),
                               num_segments, begin_offsets, end_offsets, k, which, output, false, stream);
}

template <class Key, class ValueIn, class Value, class BeginOffsets, class EndOffsets>
cudaError_t batched_top_k_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                Key* d_keys_out, ValueIn values_in, Value* d_values_out, std::int64_t num_segments,
                                BeginOffsets begin_offsets, EndOffsets end_offsets, std::int64_t k,
                                top_k_select which = top_k_select::largest,
                                top_k_output output = top_k_output::sorted, cudaStream_t stream = 0) {
  return detail::batched_top_k(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, values_in, d_values_out,
                               num_segments, begin_offsets, end_offsets, k, which, output, true, stream);
}

template <class Key>
cudaError_t top_k_rows_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                            Key* d_keys_out, std::int64_t num_rows, std::int64_t row_length, std::int64_t k,
                            top_k_select which = top_k_select::largest, top_k_output output = top_k_output::sorted,
                            cudaStream_t stream = 0) {
  if (row_length < 0) return cudaErrorInvalidValue;
  return batched_top_k_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_rows,
                            detail::row_offsets{row_length, 0}, detail::row_offsets{row_length, row_length}, k, which,
                            output, stream);
}

template <class Key, class ValueIn, class Value>
cudaError_t top_k_rows_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                             Key* d_keys_out, ValueIn values_in, Value* d_values_out, std::int64_t num_rows,
                             std::int64_t row_length, std::int64_t k, top_k_select which = top_k_select::largest,
                             top_k_output output = top_k_output::sorted, cudaStream_t stream = 0) {
  if (row_length < 0) return cudaErrorInvalidValue;
  return batched_top_k_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, values_in, d_values_out,
                             num_rows, detail::row_offsets{row_length, 0}, detail::row_offsets{row_length, row_length},
                             k, which, output, stream);
}

// ---- convenience layer ------------------------------------------------------------------------
template <class Key>
void top_k_keys(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items, std::int64_t k,
                top_k_select which = top_k_select::largest, top_k_output output = top_k_output::sorted,
                cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::top_k_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return top_k_keys(d_temp, bytes, d_keys_in, d_keys_out, num_items, k, which, output, stream);
  });
}

template <class Key, class ValueIn, class Value>
void top_k_pairs(const Key* d_keys_in, Key* d_keys_out, ValueIn values_in, Value* d_values_out, std::int64_t num_items,
                 std::int64_t k, top_k_select which = top_k_select::largest,
                 top_k_output output = top_k_output::sorted, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::top_k_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return top_k_pairs(d_temp, bytes, d_keys_in, d_keys_out, values_in, d_values_out, num_items, k, which, output,
                       stream);
  });
}

template <class Key, class BeginOffsets, class EndOffsets>
void batched_top_k_keys(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_segments, BeginOffsets begin_offsets,
                        EndOffsets end_offsets, std::int64_t k, top_k_select which = top_k_select::largest,
                        top_k_output output = top_k_output::sorted, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::batched_top_k_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return batched_top_k_keys(d_temp, bytes, d_keys_in, d_keys_out, num_segments, begin_offsets, end_offsets, k,
                              which, output, stream);
  });
}

template <class Key, class ValueIn, class Value, class BeginOffsets, class EndOffsets>
void batched_top_k_pairs(const Key* d_keys_in, Key* d_keys_out, ValueIn values_in, Value* d_values_out,
                         std::int64_t num_segments, BeginOffsets begin_offsets, EndOffsets end_offsets, std::int64_t k,
                         top_k_select which = top_k_select::largest, top_k_output output = top_k_output::sorted,
                         cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::batched_top_k_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return batched_top_k_pairs(d_temp, bytes, d_keys_in, d_keys_out, values_in, d_values_out, num_segments,
                               begin_offsets, end_offsets, k, which, output, stream);
  });
}

template <class Key>
void top_k_rows_keys(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_rows, std::int64_t row_length,
                     std::int64_t k, top_k_select which = top_k_select::largest,
                     top_k_output output = top_k_output::sorted, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::top_k_rows_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return top_k_rows_keys(d_temp, bytes, d_keys_in, d_keys_out, num_rows, row_length, k, which, output, stream);
  });
}

template <class Key, class ValueIn, class Value>
void top_k_rows_pairs(const Key* d_keys_in, Key* d_keys_out, ValueIn values_in, Value* d_values_out,
                      std::int64_t num_rows, std::int64_t row_length, std::int64_t k,
                      top_k_select which = top_k_select::largest, top_k_output output = top_k_output::sorted,
                      cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::top_k_rows_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return top_k_rows_pairs(d_temp, bytes, d_keys_in, d_keys_out, values_in, d_values_out, num_rows, row_length, k,
                            which, output, stream);
  });
}

}  // namespace upsweep
