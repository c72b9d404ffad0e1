// Host dispatch of the device reduce: one block and one launch for small inputs (a lean kernel
// up to one tile), otherwise a resident grid writing per-block partials and a one-block pass
// folding them. No allocation, no synchronisation.
#pragma once

#include <upsweep/scan/detail/reduce_kernels.cuh>
#include <upsweep/scan/detail/reduce_tuning.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/maybe.cuh>
#include <upsweep/util/occupancy.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class Policy, class Acc>
constexpr std::size_t reduce_partials_bytes(std::int64_t num_items) {
  return num_items <= Policy::single_block_max_items ? 0 : Policy::max_blocks * sizeof(Acc);
}

// Blocks for the first pass: enough to fill the GPU, never more than partials or tiles.
template <class Policy, auto Kernel>
cudaError_t reduce_grid(std::int64_t num_tiles, int& grid) {
  int resident = 0;
  UPSWEEP_CUDA_RETURN((resident_blocks<Kernel, Policy::block_threads>(resident)));
  std::int64_t blocks = resident;
  if (blocks > Policy::max_blocks) blocks = Policy::max_blocks;
  if (blocks > num_tiles) blocks = num_tiles;
  grid = static_cast<int>(blocks);
  return cudaSuccess;
}

template <class Policy, class InputIt, class Acc, class Op>
cudaError_t dispatch_reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, Acc* d_out,
                            std::int64_t num_items, Op op, Acc init, cudaStream_t stream) {
  if (num_items < 0) return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {reduce_partials_bytes<Policy, Acc>(num_items)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (d_out == nullptr || (num_items > 0 && is_null(d_in))) return cudaErrorInvalidValue;  // n = 0 writes init

  const maybe<Acc> with_init = {init, true};
  if (num_items <= Policy::tile_items) {  // n == 0 too: the result is init
    reduce_single_tile_kernel<Policy><<<1, Policy::block_threads, 0, stream>>>(d_in, static_cast<int>(num_items), d_out,
                                                                               op, init);
    return cudaGetLastError();
  }
  if (num_items <= Policy::single_block_max_items) {
    reduce_kernel<Policy><<<1, Policy::block_threads, 0, stream>>>(d_in, num_items, d_out, op, with_init);
    return cudaGetLastError();
  }
  auto* d_partials = static_cast<Acc*>(allocations[0]);
  constexpr auto first_pass = reduce_kernel<Policy, InputIt, Acc*, Acc, Op>;
  int grid = 0;
  UPSWEEP_CUDA_RETURN((reduce_grid<Policy, first_pass>(ceil_div<std::int64_t>(num_items, Policy::tile_items), grid)));
  first_pass<<<grid, Policy::block_threads, 0, stream>>>(d_in, num_items, d_partials, op, maybe<Acc>{init, false});
  UPSWEEP_CUDA_RETURN(cudaGetLastError());
  // Chained: scheduled while the first pass finishes (its partials are read after joining).
  return launch_chained(reduce_kernel<Policy, const Acc*, Acc*, Acc, Op>, dim3(1), dim3(Policy::block_threads), stream,
                        static_cast<const Acc*>(d_partials), static_cast<long long>(grid), d_out, op, with_init);
}

}  // namespace upsweep::detail
