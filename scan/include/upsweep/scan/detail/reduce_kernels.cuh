// Device reduce kernel: each block folds a grid-strided set of tiles into one value per thread
// (16-byte loads when aligned), then reduces across the block. The same kernel does both passes:
// many blocks write partials, then one block folds the partials with init into the result.
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/cluster.cuh>
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

// A partial tile: a thread stops at its first item past the end, so a block over 100 items runs
// one fold per thread instead of items_per_thread guarded ones (ncu, 10^2 int32 on an H200: 2913
// instructions and 3.49 us with the guarded loop, against CUB's 623 and 2.82 us).
template <class Policy, class InputIt, class Acc, class Op>
__device__ __forceinline__ void fold_tile_striped(InputIt tile, long long valid, maybe<Acc>& acc, Op& op) {
  const int in_tile = valid < Policy::tile_items ? static_cast<int>(valid) : Policy::tile_items;
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    const int idx = k * Policy::block_threads + static_cast<int>(threadIdx.x);
    if (idx >= in_tile) break;
    fold(acc, static_cast<Acc>(tile[idx]), op);
  }
}

// Fold of tiles first, first + stride, ... into this thread's value.
template <class Policy, class InputIt, class Acc, class Op>
__device__ __forceinline__ maybe<Acc> fold_tiles(InputIt d_in, long long num_items, long long first, long long stride,
                                                 Op& op) {
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  const long long num_tiles = ceil_div<long long>(num_items, Policy::tile_items);
  const long long full_tiles = num_items / Policy::tile_items;
  maybe<Acc> acc = {Acc{}, false};
  long long tile = first;
  if constexpr (is_plain_pointer_v<InputIt> && vectorizable_v<in_t, Policy::items_per_thread>) {
    if (is_vector_aligned(d_in)) {
      for (; tile < full_tiles; tile += stride) fold_full_tile_vectorized<Policy>(d_in + tile * Policy::tile_items, acc, op);
    }
  }
  for (; tile < num_tiles; tile += stride) {
    const long long tile_first = tile * Policy::tile_items;
    fold_tile_striped<Policy>(d_in + tile_first, num_items - tile_first, acc, op);
  }
  return acc;
}

// Each block reduces tiles blockIdx.x, blockIdx.x + gridDim.x, ...; block b's result goes to
// d_out[b], with `init` in front when given (the final pass).
// Threads [0, present) have a value: thread t reads item t of the block's first tile (tile
// blockIdx.x; the grid has no more blocks than tiles), so they are the first `present` threads.
template <class Policy, class InputIt, class OutputIt, class Acc, class Op>
__global__ void __launch_bounds__(Policy::block_threads)
    reduce_kernel(InputIt d_in, long long num_items, OutputIt d_out, Op op, maybe<Acc> init) {
  __shared__ typename block_reduce<Acc, Policy::block_threads>::storage storage;
  const maybe<Acc> acc = fold_tiles<Policy, InputIt, Acc>(d_in, num_items, blockIdx.x, gridDim.x, op);
  const long long in_first_tile = num_items - static_cast<long long>(blockIdx.x) * Policy::tile_items;
  const int present = in_first_tile < Policy::block_threads ? static_cast<int>(in_first_tile) : Policy::block_threads;
  maybe<Acc> total = {acc.value, false};
  if (present > 0) total = {block_reduce<Acc, Policy::block_threads>(storage).reduce_prefix(acc.value, present, op), true};
  if (threadIdx.x == 0) {
    const maybe<Acc> result = combine(init, total, op);
    if (result.valid) d_out[blockIdx.x] = result.value;
  }
}

// One cluster reduces the whole input in one launch, without temporary storage: block r folds
// tiles r, r + cluster_blocks, ..., then block 0 reads the others' totals from their shared memory.
template <class Policy, class InputIt, class Acc, class Op>
__global__ void __launch_bounds__(Policy::block_threads)
    cluster_reduce_kernel(InputIt d_in, long long num_items, Acc* d_out, Op op, Acc init) {
  __shared__ typename block_reduce<Acc, Policy::block_threads>::storage storage;
  __shared__ maybe<Acc> block_total;
  const unsigned rank = cluster_rank();
  const maybe<Acc> acc = fold_tiles<Policy, InputIt, Acc>(d_in, num_items, rank, cluster_blocks, op);
  const maybe<Acc> total = block_reduce<Acc, Policy::block_threads>(storage).reduce(acc, op);
  if (threadIdx.x == 0) block_total = total;
  cluster_barrier();
  if (rank == 0 && threadIdx.x == 0) {
    maybe<Acc> result = {init, true};
    for (unsigned r = 0; r < cluster_blocks; ++r) result = combine(result, read_block_shared(&block_total, r), op);
    *d_out = result.value;
  }
  cluster_barrier();  // the totals stay in shared memory until block 0 has read them
}

}  // namespace upsweep::detail
