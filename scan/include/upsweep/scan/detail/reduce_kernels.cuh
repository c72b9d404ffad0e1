// Device reduce kernel: each block folds a grid-strided set of tiles into one value per thread
// (16-byte loads when aligned), then reduces across the block. The same kernel does both passes:
// many blocks write partials, then one block folds the partials with init into the result.
#pragma once

#include <upsweep/util/chained_launch.cuh>
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

// A partial tile: every guarded load is issued before the first fold (a fold waits for its
// load, and in-order issue would hold the next load behind it), then a thread stops folding at
// its first item past the end, so a block over 100 items runs one fold per thread instead of
// items_per_thread guarded ones (ncu, 10^2 int32 on an H200, with reduce_prefix: 2913 -> 1004
// instructions, 3.49 -> 2.88 us; CUB 623 and 2.85 us).
template <class Policy, class InputIt, class Acc, class Op>
__device__ __forceinline__ void fold_tile_striped(InputIt tile, long long valid, maybe<Acc>& acc, Op& op) {
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  const int in_tile = valid < Policy::tile_items ? static_cast<int>(valid) : Policy::tile_items;
  in_t items[Policy::items_per_thread];
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    const int idx = k * Policy::block_threads + static_cast<int>(threadIdx.x);
    if (idx < in_tile) items[k] = tile[idx];
  }
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    if (k * Policy::block_threads + static_cast<int>(threadIdx.x) >= in_tile) break;
    fold(acc, static_cast<Acc>(items[k]), op);
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
  join_chain();
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

// Inputs of one tile or less (num_items <= tile_items, so an int): the block's guarded loads and
// its reduce, with none of reduce_kernel's tile loop, 64-bit tile arithmetic or vector path. At
// 10^2 items a call is its launch, and every instruction before the first load shows in its time.
template <class Policy, class InputIt, class OutputIt, class Acc, class Op>
__global__ void __launch_bounds__(Policy::block_threads)
    reduce_single_tile_kernel(InputIt d_in, int num_items, OutputIt d_out, Op op, Acc init) {
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  __shared__ typename block_reduce<Acc, Policy::block_threads>::storage storage;
  // Loads up to this thread's first slot past the end, then folds them: at 10^2 items one load
  // and no fold, where the guarded form of fold_tile_striped tests every slot.
  in_t items[Policy::items_per_thread];
  int loaded = 0;
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k, ++loaded) {
    const int idx = k * Policy::block_threads + static_cast<int>(threadIdx.x);
    if (idx >= num_items) break;
    items[k] = d_in[idx];
  }
  maybe<Acc> acc = {Acc{}, false};
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    if (k >= loaded) break;
    fold(acc, static_cast<Acc>(items[k]), op);
  }
  if (num_items == 0) {
    if (threadIdx.x == 0) *d_out = init;
    return;
  }
  const int present = num_items < Policy::block_threads ? num_items : Policy::block_threads;
  const Acc total = block_reduce<Acc, Policy::block_threads>(storage).reduce_prefix(acc.value, present, op);
  if (threadIdx.x == 0) *d_out = op(init, total);
}

}  // namespace upsweep::detail
