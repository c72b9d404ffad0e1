// Device layer: stable radix sort of many independent segments of keys (or key-value pairs) in
// one call. Two layers, as the sort (device_radix_sort.cuh): a core taking caller temporary
// storage (a pure size query first; no allocation, no synchronisation, graph-safe) and a
// convenience layer that allocates stream-ordered and throws upsweep::cuda_error.
// Contracts:
//  - segments: segment i is [begin_offsets[i], end_offsets[i]) of the num_items keys (CUB's
//    convention: one offsets array d_offsets with d_offsets + 1 will do; any iterators of
//    integers). A segment with end <= begin is empty (CUB leaves that undefined). Segments must
//    not overlap; items outside every segment are left as they are in the output. At most
//    2^31 - 1 segments, each under 2^32 items; num_items is 64-bit.
//  - the rows forms sort num_rows rows of row_length items one after another (a [rows, width]
//    tensor sorted along its last dimension).
//  - order, stability, bit windows, key and value types, descending: as sort_keys / sort_pairs
//    (the radix sort's order, equal keys keep their input order, [begin_bit, end_bit) of the
//    ordered bits, values of 1 to 16 bytes). Keys are plain radix keys (no decomposer).
//  - in place: d_keys_out == d_keys_in (and d_values_out == d_values_in) is allowed.
//  - how: segments of up to 128 items are sorted by one warp each (every item's place counted
//    against the others in shared memory); up to 1024 and 4096 items by one block each in shared
//    memory, ranked by the highest 8-bit digit in which the segment's keys differ and then placed
//    by compares within each digit's bucket (digit by digit instead when a bucket holds more than
//    eight times a random tile's mean or 48 keys for each digit below the top one, or when values
//    are not 4, 8 or 16 bytes aligned to 4);
//    larger ones by one block each in 8-bit LSD passes over the segment. A few segments of many
//    millions of items use only as many SMs as there are segments: sort_keys sorts a single one
//    faster.
//  - temporary storage: 12 bytes per segment and an alternate buffer of num_items keys (and
//    values); the size query reads no offsets.
//  - errors, before anything is enqueued: negative sizes, more than 2^31 - 1 segments, a bad bit
//    window, a null keys or values pointer with work to do: cudaErrorInvalidValue.
#pragma once

#include <upsweep/sort/detail/row_offsets.cuh>
#include <upsweep/sort/detail/segmented_sort_dispatch.cuh>
#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/sort/sort_order.hpp>
#include <upsweep/util/stream_allocation.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep {

// ---- core layer -------------------------------------------------------------------------------
template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                Key* d_keys_out, std::int64_t num_items, std::int64_t num_segments,
                                BeginOffsets begin_offsets, EndOffsets end_offsets, int begin_bit = 0,
                                int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  using none = detail::no_values;
  return detail::dispatch_segmented_sort<false>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<const none*>(nullptr),
      static_cast<none*>(nullptr), num_items, num_segments, begin_offsets, end_offsets, begin_bit, end_bit, stream);
}

template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_keys_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                           Key* d_keys_out, std::int64_t num_items, std::int64_t num_segments,
                                           BeginOffsets begin_offsets, EndOffsets end_offsets, int begin_bit = 0,
                                           int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  using none = detail::no_values;
  return detail::dispatch_segmented_sort<true>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<const none*>(nullptr),
      static_cast<none*>(nullptr), num_items, num_segments, begin_offsets, end_offsets, begin_bit, end_bit, stream);
}

template <class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                 Key* d_keys_out, const Value* d_values_in, Value* d_values_out, std::int64_t num_items,
                                 std::int64_t num_segments, BeginOffsets begin_offsets, EndOffsets end_offsets,
                                 int begin_bit = 0, int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_segmented_sort<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                                d_values_out, num_items, num_segments, begin_offsets, end_offsets,
                                                begin_bit, end_bit, stream);
}

template <class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_pairs_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                            Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                                            std::int64_t num_items, std::int64_t num_segments,
                                            BeginOffsets begin_offsets, EndOffsets end_offsets, int begin_bit = 0,
                                            int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_segmented_sort<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                               d_values_out, num_items, num_segments, begin_offsets, end_offsets,
                                               begin_bit, end_bit, stream);
}

// Rows: num_rows x row_length items, each row sorted on its own. The host knows every row's
// tier, so one kernel sorts them (no lists).
template <class Key>
cudaError_t sort_rows_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                           std::int64_t num_rows, std::int64_t row_length, sort_order order = sort_order::ascending,
                           cudaStream_t stream = 0) {
  if (num_rows < 0 || row_length < 0) return cudaErrorInvalidValue;
  const detail::row_offsets begins{row_length, 0}, ends{row_length, row_length};
  const std::int64_t n = num_rows * row_length;
  return order == sort_order::descending
             ? segmented_sort_keys_descending(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, n, num_rows,
                                              begins, ends, 0, key_bits_v<Key>, stream)
             : segmented_sort_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, n, num_rows, begins, ends,
                                   0, key_bits_v<Key>, stream);
}

template <class Key, class Value>
cudaError_t sort_rows_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                            Key* d_keys_out, const Value* d_values_in, Value* d_values_out, std::int64_t num_rows,
                            std::int64_t row_length, sort_order order = sort_order::ascending,
                            cudaStream_t stream = 0) {
  if (num_rows < 0 || row_length < 0) return cudaErrorInvalidValue;
  const detail::row_offsets begins{row_length, 0}, ends{row_length, row_length};
  const std::int64_t n = num_rows * row_length;
  return order == sort_order::descending
             ? segmented_sort_pairs_descending(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                               d_values_out, n, num_rows, begins, ends, 0, key_bits_v<Key>, stream)
             : segmented_sort_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                    d_values_out, n, num_rows, begins, ends, 0, key_bits_v<Key>, stream);
}

// ---- convenience layer ------------------------------------------------------------------------
template <class Key, class BeginOffsets, class EndOffsets>
void segmented_sort_keys(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items, std::int64_t num_segments,
                         BeginOffsets begin_offsets, EndOffsets end_offsets, int begin_bit = 0,
                         int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::segmented_sort_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return segmented_sort_keys(d_temp, bytes, d_keys_in, d_keys_out, num_items, num_segments, begin_offsets,
                               end_offsets, begin_bit, end_bit, stream);
  });
}

template <class Key, class BeginOffsets, class EndOffsets>
void segmented_sort_keys_descending(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items,
                                    std::int64_t num_segments, BeginOffsets begin_offsets, EndOffsets end_offsets,
                                    int begin_bit = 0, int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::segmented_sort_keys_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return segmented_sort_keys_descending(d_temp, bytes, d_keys_in, d_keys_out, num_items, num_segments, begin_offsets,
                                          end_offsets, begin_bit, end_bit, stream);
  });
}

template <class Key, class Value, class BeginOffsets, class EndOffsets>
void segmented_sort_pairs(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                          std::int64_t num_items, std::int64_t num_segments, BeginOffsets begin_offsets,
                          EndOffsets end_offsets, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                          cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::segmented_sort_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return segmented_sort_pairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items,
                                num_segments, begin_offsets, end_offsets, begin_bit, end_bit, stream);
  });
}

template <class Key, class Value, class BeginOffsets, class EndOffsets>
void segmented_sort_pairs_descending(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                                     Value* d_values_out, std::int64_t num_items, std::int64_t num_segments,
                                     BeginOffsets begin_offsets, EndOffsets end_offsets, int begin_bit = 0,
                                     int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::segmented_sort_pairs_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return segmented_sort_pairs_descending(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items,
                                           num_segments, begin_offsets, end_offsets, begin_bit, end_bit, stream);
  });
}

template <class Key>
void sort_rows_keys(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_rows, std::int64_t row_length,
                    sort_order order = sort_order::ascending, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_rows_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_rows_keys(d_temp, bytes, d_keys_in, d_keys_out, num_rows, row_length, order, stream);
  });
}

template <class Key, class Value>
void sort_rows_pairs(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                     std::int64_t num_rows, std::int64_t row_length, sort_order order = sort_order::ascending,
                     cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_rows_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_rows_pairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_rows, row_length, order,
                           stream);
  });
}

}  // namespace upsweep
