// Stable partition in one pass, for inputs whose tiles fit in one wave of resident blocks. A
// rejected item's place is split + (rejected before it), so no tile can write one before every
// tile has counted its survivors. With a block per tile all resident (a cooperative launch), a
// grid barrier gives every tile those counts: each block publishes its tile's count, waits at
// the barrier, and sums the counts before its tile and of all tiles. n reads and n writes, and
// no tile state to clear: the launch is the call's only stream operation. A single tile (the
// policy's block, or one of up to 1024 threads) needs no barrier and runs as an ordinary launch.
#pragma once

#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/block_scan.cuh>

#include <cooperative_groups.h>
#include <cuda/std/functional>
#include <cuda/std/iterator>

namespace upsweep::detail {

template <class Policy, class T>
struct partition_one_wave_storage {
  tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> items;
  typename block_scan<int, Policy::block_threads>::storage scan;
  typename block_reduce<tile_bases, Policy::block_threads>::storage reduce;
};

struct add_bases {
  __device__ tile_bases operator()(const tile_bases& a, const tile_bases& b) const {
    return {a.kept_first + b.kept_first, a.split + b.split};
  }
};

// Survivors before tile `tile` and in all `num_tiles` tiles, from every tile's published count,
// to every thread. The counts were written before the grid barrier by other blocks: read from L2.
template <int BlockThreads>
__device__ __forceinline__ tile_bases bases_from_tile_counts(const int* d_tile_counts, int tile, int num_tiles,
                                                             typename block_reduce<tile_bases, BlockThreads>::storage& s) {
  tile_bases mine = {0, 0};
  for (int t = static_cast<int>(threadIdx.x); t < num_tiles; t += BlockThreads) {
    const int count = __ldcg(d_tile_counts + t);
    if (t < tile) mine.kept_first += count;
    mine.split += count;
  }
  return block_reduce<tile_bases, BlockThreads>(s).reduce(mine, add_bases{});
}

// Grid: one block per tile, every block resident (launched cooperatively) unless the grid is one
// block. d_tile_counts: gridDim.x ints, written here before they are read.
template <class Policy, class InputIt, class OutputIt, class Pred>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    partition_one_wave_kernel(InputIt d_in, OutputIt d_out, count_t* d_num_selected, long long num_items,
                              int* d_tile_counts, Pred pred) {
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  constexpr int ipt = Policy::items_per_thread;
  __shared__ partition_one_wave_storage<Policy, in_t> s;
  const int tile = static_cast<int>(blockIdx.x);
  const int num_tiles = static_cast<int>(gridDim.x);
  const long long tile_first = static_cast<long long>(tile) * Policy::tile_items;
  const long long valid = num_items - tile_first;
  in_t items[ipt];
  bool keep[ipt];
  predicate_flags<Pred> source{pred};
  load_tile<Policy::io, Policy::block_threads, ipt>(d_in + tile_first, valid, items, s.items);
  flag_items<Policy>(source, tile_first, valid, items, keep, s);
  int counts[1] = {count_kept(keep)};
  const int kept = block_scan<int, Policy::block_threads>(s.scan).exclusive_scan(counts, 0, cuda::std::plus<int>{});
  tile_bases bases = {0, kept};  // one tile: itself
  if (num_tiles > 1) {
    if (threadIdx.x == 0) d_tile_counts[tile] = kept;
    cooperative_groups::this_grid().sync();  // also a block barrier, and it orders the counts
    bases = bases_from_tile_counts<Policy::block_threads>(d_tile_counts, tile, num_tiles, s.reduce);
  }
  write_tile_output<Policy, select_output::partitioned_in_order>(tile, num_tiles, num_items, items, keep, kept,
                                                                 counts[0], bases, d_out, d_num_selected,
                                                                 s.items.items);
}

}  // namespace upsweep::detail
