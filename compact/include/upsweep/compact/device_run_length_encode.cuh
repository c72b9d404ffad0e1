// Device layer: run-length encoding in one pass (run_length_kernels.cuh), template form. The
// compiled API (<upsweep/compact.hpp>) has it for the arithmetic types with 64-bit lengths; this
// form takes any item type of 1 to 16 bytes, any equality, a policy, and any integer type for
// the lengths: 32-bit lengths (as cub::DeviceRunLengthEncode writes) save a third of the bytes
// written when runs are short.
//  - core: caller-provided temporary storage; a null d_temp_storage only writes
//    temp_storage_bytes. Never allocates or synchronises (CUDA-graph capturable).
//  - a run starts where an item is not equal to the one before it under eq (== by default: NaNs
//    never equal, each its own run). eq(a, b), a before b, is called on the device for each pair
//    of neighbours: once on the block-per-tile schedule, twice on reduce-ahead (4-byte items
//    from a 16-byte aligned pointer in more tiles than resident blocks). The first item of each
//    run is written; CUB's run-length encode writes the first too, its ReduceByKey the last.
//    Run values go to d_unique_out, lengths to d_run_lengths, the number of runs (std::int64_t)
//    to *d_num_runs in device memory; nothing is written at or past that count.
//  - outputs must not overlap the input; num_items is 64-bit, and at most the largest LengthT
//    (a longer run could not be written), else cudaErrorInvalidValue.
#pragma once

#include <upsweep/compact/detail/non_trivial_runs.cuh>
#include <upsweep/compact/detail/run_length_dispatch.cuh>
#include <upsweep/util/arguments.hpp>

#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>

namespace upsweep {

// Runs of items equal under eq.
template <class Policy = void, class T, class LengthT, class Eq, detail::if_not_stream<Eq> = 0>
cudaError_t run_length_encode(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_unique_out,
                              LengthT* d_run_lengths, std::int64_t* d_num_runs, std::int64_t num_items, Eq eq,
                              cudaStream_t stream = 0) {
  using policy_t = cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_run_length_policy<T>, Policy>;
  return detail::dispatch_run_length_encode<policy_t>(d_temp_storage, temp_storage_bytes, d_in, d_unique_out,
                                                      d_run_lengths, d_num_runs, num_items, eq, stream);
}

// Runs of items equal under ==.
template <class Policy = void, class T, class LengthT>
cudaError_t run_length_encode(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_unique_out,
                              LengthT* d_run_lengths, std::int64_t* d_num_runs, std::int64_t num_items,
                              cudaStream_t stream = 0) {
  return run_length_encode<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_unique_out, d_run_lengths, d_num_runs,
                                   num_items, cuda::std::equal_to<>{}, stream);
}

// ---- non_trivial_runs: the runs longer than one item ----------------------------------------------
// The offset of each run's first item to d_offsets_out and its length to d_lengths_out, in order,
// their number to *d_num_runs (CUB's NonTrivialRuns). One pass (non_trivial_runs.cuh) on
// run-length encoding's schedules. eq as above: for each pair of neighbours once on the
// block-per-tile schedule, twice on reduce-ahead, and the pair after each warp's last item once
// more on each. Offsets and lengths of any integer types that hold num_items (else
// cudaErrorInvalidValue).

// Run-length encoding's tile, schedule and pause. H200 2026-11-28 (A/B harness, 10^8 int32, runs of
// 16, ms): reduce-ahead 256 x 16 at 5 blocks 0.359, at 4 0.385; 256 x 12 at 6 0.414; 256 x 8 at 8
// 0.454; pauses of 0, 600 and 1200 ns alike. The block per tile of 256 x 12 with a 128-bit tile
// word it replaced: 0.600 (CUB 0.426).
template <class T>
using default_non_trivial_runs_policy = default_run_length_policy<T>;

template <class Policy = void, class T, class OffsetT, class LengthT, class Eq, detail::if_not_stream<Eq> = 0>
cudaError_t non_trivial_runs(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                             OffsetT* d_offsets_out, LengthT* d_lengths_out, std::int64_t* d_num_runs,
                             std::int64_t num_items, Eq eq, cudaStream_t stream = 0) {
  using policy_t =
      cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_non_trivial_runs_policy<T>, Policy>;
  return detail::dispatch_non_trivial_runs<policy_t>(d_temp_storage, temp_storage_bytes, d_in, d_offsets_out,
                                                     d_lengths_out, d_num_runs, num_items, eq, stream);
}

template <class Policy = void, class T, class OffsetT, class LengthT>
cudaError_t non_trivial_runs(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                             OffsetT* d_offsets_out, LengthT* d_lengths_out, std::int64_t* d_num_runs,
                             std::int64_t num_items, cudaStream_t stream = 0) {
  return non_trivial_runs<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_offsets_out, d_lengths_out, d_num_runs,
                                  num_items, cuda::std::equal_to<>{}, stream);
}

}  // namespace upsweep
