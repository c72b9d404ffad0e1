// Device layer: one reduction per segment (detail/segmented_reduce_kernels.cuh). Core layer
// (caller storage, size query with d_temp_storage == nullptr, no allocation, no sync,
// graph-capturable) and convenience layer (stream-ordered temporaries, throws upsweep::cuda_error).
// Contracts:
//  - segment s is in[begin[s], end[s]) (CUB's convention: one offsets array serves as begin =
//    offsets, end = offsets + 1); out[s] = init op in[begin] op ... op in[end - 1], in order, so
//    `op` must be associative but need not commute (CUB's DeviceSegmentedReduce asks both).
//    Empty segments, and segments with end < begin, give init. Segments may overlap.
//  - the accumulator is the output's value type (the input's where the output has none).
//  - one launch: a warp per segment of up to 16384 items; longer ones get the whole block of eight
//    segments, so a few segments of 10^8 items run on a few SMs (the device reduce suits one huge
//    array better). No temporary storage is used (the size query answers 256 bytes).
//  - num_segments is 64-bit (past 2^34 segments the grid is too large: cudaErrorInvalidValue);
//    negative is cudaErrorInvalidValue.
#pragma once

#include <upsweep/scan/detail/scan_dispatch.cuh>
#include <upsweep/scan/detail/segmented_reduce_kernels.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>

namespace upsweep {

template <class InputIt, class OutputIt, class BeginIt, class EndIt, class Op, class T>
cudaError_t segmented_reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                             std::int64_t num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets, Op op, T init,
                             cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<InputIt, OutputIt>;
  return detail::dispatch_segmented_reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                           d_begin_offsets, d_end_offsets, op, static_cast<acc_t>(init), stream);
}

// segmented_reduce with + and init 0.
template <class InputIt, class OutputIt, class BeginIt, class EndIt>
cudaError_t segmented_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                          std::int64_t num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets,
                          cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<InputIt, OutputIt>;
  return segmented_reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                          d_end_offsets, cuda::std::plus<acc_t>{}, acc_t{}, stream);
}

template <class InputIt, class OutputIt, class BeginIt, class EndIt, class Op, class T>
void segmented_reduce(InputIt d_in, OutputIt d_out, std::int64_t num_segments, BeginIt d_begin_offsets,
                      EndIt d_end_offsets, Op op, T init, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::segmented_reduce", stream, [&](void* d_temp, std::size_t& bytes) {
    return segmented_reduce(d_temp, bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets, op, init,
                            stream);
  });
}

template <class InputIt, class OutputIt, class BeginIt, class EndIt>
void segmented_sum(InputIt d_in, OutputIt d_out, std::int64_t num_segments, BeginIt d_begin_offsets,
                   EndIt d_end_offsets, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::segmented_sum", stream, [&](void* d_temp, std::size_t& bytes) {
    return segmented_sum(d_temp, bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets, stream);
  });
}

}  // namespace upsweep
