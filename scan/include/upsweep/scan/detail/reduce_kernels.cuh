// Device reduce kernel: each block folds a grid-strided set of tiles into one value per thread
// (16-byte loads when aligned), then reduces across the block. The same kernel does both passes:
// many blocks write partials, then one block folds the partials with init into the result.
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/maybe.cuh>

#include <cuda/std/iterator>

namespace upsweep::detail {

template <class Acc, class Op>
__device__ __forceinline__ void fold(maybe<Acc>& acc, const Acc& value, Op& op) {
  acc = {acc.valid ? op(acc.value, value) : value, true};
}

// Folds one whole tile; threads read striped 16-byte vectors so each instruction is contiguous.
template <class Policy, class In, class Acc, class Op>
__device__ __forceinline__ void fold_full_tile_vectorized(const In* tile, maybe<Acc>& acc, Op& op) {
  constexpr int per_vector = items_per_vector<In>;
  constexpr int vectors = Policy::items_per_thread / per_vector;
  const auto* src = reinterpret_cast<const vector16*>(tile);
  vector16 v[vectors];
#pragma unroll
  for (int k = 0; k < vectors; ++k) v[k] = src[k * Policy::block_threads + threadIdx.x];
#pragma unroll
  for (int k = 0; k < vectors; ++k) {
    In items[per_vector];
    memcpy(items, &v[k], sizeof(items));
#pragma unroll
    for (int j = 0; j < per_vector; ++j) fold(acc, static_cast<Acc>(items[j]), op);
  }
}

template <class Policy, class InputIt, class Acc, class Op>
__device__ __forceinline__ void fold_tile_striped(InputIt tile, long long valid, maybe<Acc>& acc, Op& op) {
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    const long long idx = static_cast<long long>(k) * Policy::block_threads + threadIdx.x;
    if (idx < valid) fold(acc, static_cast<Acc>(tile[idx]), op);
  }
}

// Each block reduces tiles blockIdx.x, blockIdx.x + gridDim.x, ...; block b's result goes to
// d_out[b], with `init` in front when given (the final pass).
template <class Policy, class InputIt, class OutputIt, class Acc, class Op>
__global__ void __launch_bounds__(Policy::block_threads)
    reduce_kernel(InputIt d_in, long long num_items, OutputIt d_out, Op op, maybe<Acc> init) {
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  __shared__ typename block_reduce<Acc, Policy::block_threads>::storage storage;
  const long long num_tiles = ceil_div<long long>(num_items, Policy::tile_items);
  const long long full_tiles = num_items / Policy::tile_items;
  maybe<Acc> acc = {Acc{}, false};
  long long tile = blockIdx.x;
  if constexpr (is_plain_pointer_v<InputIt> && vectorizable_v<in_t, Policy::items_per_thread>) {
    if (is_vector_aligned(d_in)) {
      for (; tile < full_tiles; tile += gridDim.x) fold_full_tile_vectorized<Policy>(d_in + tile * Policy::tile_items, acc, op);
    }
  }
  for (; tile < num_tiles; tile += gridDim.x) {
    const long long first = tile * Policy::tile_items;
    fold_tile_striped<Policy>(d_in + first, num_items - first, acc, op);
  }
  const maybe<Acc> total = block_reduce<Acc, Policy::block_threads>(storage).reduce(acc, op);
  if (threadIdx.x == 0) {
    const maybe<Acc> result = combine(init, total, op);
    if (result.valid) d_out[blockIdx.x] = result.value;
  }
}

}  // namespace upsweep::detail
