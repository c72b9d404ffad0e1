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
// their number to *d_num_runs (CUB's NonTrivialRuns). eq as above, called once for each pair of
// neighbours and once more for the pair before each tile's first item. One pass; offsets and
// lengths of any integer types that hold num_items, and at most 2^62 - 1 items (else
// cudaErrorInvalidValue).

// A block per tile of 256 x 12 (4-byte items) loaded straight into registers, three resident
// blocks asked of ptxas, a 600 ns pause before looking back. upsweep-bench tune/non_trivial_runs_
// i32_run16 (H200, 2026-11-27, 10^9 items, one 128-bit tile word, ms): 256 x 12 at 3 blocks 6.03,
// direct loads 5.87; 256 x 16 at 2 6.89; 256 x 16 at 3 with pauses of 0 / 1200 ns 6.54 / 6.46
// (CUB 3.99).
template <class T>
using default_non_trivial_runs_policy =
    select_policy<256, sizeof(T) <= 4 ? 12 : detail::default_select_items_per_thread<T>(), tile_io::direct,
                  default_look_back_delay_ns, 3, 600>;

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
