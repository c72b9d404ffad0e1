// The frame every reduce rung runs in (rungs: reduce0_*.cuh .. reduce6_*.cuh, tree_add_reduce.cuh,
// unrolled_last_warp_reduce.cuh). A rung is a struct: block_threads, loads_per_thread (1, or 2:
// the first add happens during the load), grid_stride (each thread folds items a grid apart) and
// reduce_block(value, shared) leaving the block's sum in thread 0. One pass turns n items into a
// sum per block; passes repeat on the sums until one is left, written to d_out.
#pragma once

#include "ladder_common.cuh"

#include <cuda/std/type_traits>

namespace upsweep::ladder {

// Each thread's contribution. EvenPairs: n is a multiple of 2 * block_threads, so every pair's
// second item exists (the samples' nIsPow2 knob, which the guard can then skip).
template <class Rung, bool EvenPairs, class T>
__device__ T thread_partial(const T* d_in, std::int64_t num_items) {
  constexpr int block_threads = Rung::block_threads;
  constexpr std::int64_t block_items = static_cast<std::int64_t>(block_threads) * Rung::loads_per_thread;
  const std::int64_t first = blockIdx.x * block_items + threadIdx.x;
  if constexpr (Rung::grid_stride) {
    static_assert(Rung::loads_per_thread == 2, "the grid-stride rung loads pairs");
    T sum{};
    for (std::int64_t i = first; i < num_items; i += gridDim.x * block_items) {
      sum += d_in[i];
      if (EvenPairs || i + block_threads < num_items) sum += d_in[i + block_threads];
    }
    return sum;
  } else if constexpr (Rung::loads_per_thread == 2) {
    T sum = first < num_items ? d_in[first] : T{};
    if (first + block_threads < num_items) sum += d_in[first + block_threads];
    return sum;
  } else {
    return first < num_items ? d_in[first] : T{};
  }
}

template <class Rung, bool EvenPairs, class T>
__global__ void __launch_bounds__(Rung::block_threads)
    reduce_pass_kernel(const T* d_in, std::int64_t num_items, T* d_block_sums) {
  __shared__ T shared[Rung::block_threads];
  const T block_sum = Rung::reduce_block(thread_partial<Rung, EvenPairs>(d_in, num_items), shared);
  if (threadIdx.x == 0) d_block_sums[blockIdx.x] = block_sum;
}

template <class Rung>
constexpr std::int64_t reduce_pass_blocks(std::int64_t num_items) {
  const std::int64_t blocks = ceil_div<std::int64_t>(num_items, std::int64_t{Rung::block_threads} * Rung::loads_per_thread);
  if constexpr (Rung::grid_stride) return blocks < Rung::max_blocks ? blocks : Rung::max_blocks;
  return blocks;
}

template <class Rung, class T>
cudaError_t reduce_pass(const T* d_in, std::int64_t num_items, T* d_block_sums, cudaStream_t stream) {
  const unsigned grid = one_block_per_tile_grid(reduce_pass_blocks<Rung>(num_items));
  if (grid == 0) return cudaErrorInvalidValue;  // more blocks than a grid may have
  const bool even_pairs = num_items % (2 * std::int64_t{Rung::block_threads}) == 0;
  if (Rung::grid_stride && even_pairs)
    reduce_pass_kernel<Rung, true><<<grid, Rung::block_threads, 0, stream>>>(d_in, num_items, d_block_sums);
  else
    reduce_pass_kernel<Rung, false><<<grid, Rung::block_threads, 0, stream>>>(d_in, num_items, d_block_sums);
  return cudaGetLastError();
}

// *d_out = in[0] + ... + in[n - 1]; 0 for n == 0.
template <class Rung, class T>
cudaError_t reduce_ladder(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,
                          std::int64_t num_items, cudaStream_t stream) {
  static_assert(cuda::std::is_arithmetic_v<T>, "the ladder sums plain numbers");
  if (num_items < 0) return cudaErrorInvalidValue;
  // Passes alternate between two buffers; each pass's sums fit where the one two passes back went.
  const std::int64_t first_sums = num_items > 0 ? reduce_pass_blocks<Rung>(num_items) : 0;
  const std::int64_t second_sums = first_sums > 1 ? reduce_pass_blocks<Rung>(first_sums) : 0;
  void* allocations[2] = {};
  const std::size_t sizes[2] = {first_sums > 1 ? static_cast<std::size_t>(first_sums) * sizeof(T) : 0,
                                second_sums > 1 ? static_cast<std::size_t>(second_sums) * sizeof(T) : 0};
  UPSWEEP_CUDA_RETURN(detail::alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (num_items == 0) return cudaMemsetAsync(d_out, 0, sizeof(T), stream);  // all-zero bits are 0

  T* const buffers[2] = {static_cast<T*>(allocations[0]), static_cast<T*>(allocations[1])};
  const T* d_src = d_in;
  std::int64_t count = num_items;
  for (int pass = 0; count > 1 || pass == 0; ++pass) {
    const std::int64_t blocks = reduce_pass_blocks<Rung>(count);
    T* const d_dst = blocks == 1 ? d_out : buffers[pass % 2];
    UPSWEEP_CUDA_RETURN(reduce_pass<Rung>(d_src, count, d_dst, stream));
    d_src = d_dst;
    count = blocks;
  }
  return cudaSuccess;
}

}  // namespace upsweep::ladder
