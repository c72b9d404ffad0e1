// Stable partition past one wave, in two passes and no look-back. A rejected item's place needs
// the selected count of the whole input, so no tile can write before every tile has counted:
//  1. partition_count_kernel: a tile flags its items (the predicate's only call), keeps the
//     flags as bits (thread_flag_words) and writes its count;
//  2. the core scan of the tile counts gives every tile its bases and the split point;
//  3. partition_place_kernel: a tile loads its items again, takes its flags, and writes both
//     sides in input order through the select kernel's staging.
// Tiles never wait on one another, so each block takes its tiles from blockIdx. Traffic: two
// reads and one write of the input (the 3n-word floor) and the flags each way (an eighth of a
// byte an item for 16 4-byte or 8 8-byte items a thread).
#pragma once

#include <upsweep/util/chained_launch.cuh>
#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/block_scan.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

namespace upsweep::detail {

// A thread's flags, bit i for its item i, in the fewest bytes that hold them: one word for up to
// 32 items a thread, more 32-bit words past that. A tile's words are word-major (word w of thread
// t at w * block_threads + t), so each warp store and load is contiguous.
template <int IPT>
struct thread_flag_words {
  using word = cuda::std::conditional_t<
      (IPT <= 8), cuda::std::uint8_t, cuda::std::conditional_t<(IPT <= 16), cuda::std::uint16_t, cuda::std::uint32_t>>;
  static constexpr int bits = 8 * static_cast<int>(sizeof(word));
  static constexpr int count = (IPT + bits - 1) / bits;
};

template <class Policy>
using flag_word_t = typename thread_flag_words<Policy::items_per_thread>::word;

// Flag words of one tile.
template <class Policy>
inline constexpr long long tile_flag_words =
    static_cast<long long>(thread_flag_words<Policy::items_per_thread>::count) * Policy::block_threads;

template <class Policy, int IPT>
__device__ __forceinline__ void store_flags(flag_word_t<Policy>* d_flags, long long tile, const bool (&keep)[IPT]) {
  using words = thread_flag_words<IPT>;
  flag_word_t<Policy>* tile_words = d_flags + tile * tile_flag_words<Policy>;
#pragma unroll
  for (int w = 0; w < words::count; ++w) {
    unsigned bits = 0;
#pragma unroll
    for (int b = 0; b < words::bits; ++b) {
      const int i = w * words::bits + b;
      if (i < IPT) bits |= keep[i] ? 1u << b : 0u;
    }
    tile_words[w * Policy::block_threads + threadIdx.x] = static_cast<flag_word_t<Policy>>(bits);
  }
}

template <class Policy, int IPT>
__device__ __forceinline__ void load_flags(const flag_word_t<Policy>* d_flags, long long tile, bool (&keep)[IPT]) {
  using words = thread_flag_words<IPT>;
  const flag_word_t<Policy>* tile_words = d_flags + tile * tile_flag_words<Policy>;
#pragma unroll
  for (int w = 0; w < words::count; ++w) {
    const unsigned bits = tile_words[w * Policy::block_threads + threadIdx.x];
#pragma unroll
    for (int b = 0; b < words::bits; ++b) {
      const int i = w * words::bits + b;
      if (i < IPT) keep[i] = (bits >> b & 1u) != 0;
    }
  }
}

// A block's tiles, from blockIdx (no tile waits on another), with a barrier between two: the
// shared storage is the next tile's.
template <class Body>
__device__ __forceinline__ void for_each_block_tile(long long num_tiles, Body&& body) {
  for (long long tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    body(tile);
    if (tile + gridDim.x < num_tiles) __syncthreads();
  }
}

// A pass's shared memory: the tile's exchange (and, placing, its staging) beside the storage of
// its block reduce or scan.
template <class Policy, class T, class Collective>
struct partition_pass_storage {
  tile_exchange_storage<T, Policy::block_threads, Policy::items_per_thread> items;
  typename Collective::storage collective;
};

// First pass: each tile's flags to d_flags (items past the end flagged 0) and its selected count
// to d_tile_counts[tile].
template <class Policy, class InputIt, class Pred>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    partition_count_kernel(InputIt d_in, long long num_items, long long num_tiles, Pred pred,
                           flag_word_t<Policy>* d_flags, count_t* d_tile_counts) {
  join_chain();
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  constexpr int ipt = Policy::items_per_thread;
  using reduce_t = block_reduce<int, Policy::block_threads>;
  __shared__ partition_pass_storage<Policy, in_t, reduce_t> s;
  predicate_flags<Pred> source{pred};
  for_each_block_tile(num_tiles, [&](long long tile) {
    const long long tile_first = tile * Policy::tile_items;
    const long long valid = num_items - tile_first;
    in_t items[ipt];
    bool keep[ipt];
    load_tile<Policy::io, Policy::block_threads, ipt>(d_in + tile_first, valid, items, s.items);
    flag_items<Policy>(source, tile_first, valid, items, keep, s);
    store_flags<Policy>(d_flags, tile, keep);
    const int kept = reduce_t(s.collective).reduce(count_kept(keep), cuda::std::plus<int>{});
    if (threadIdx.x == 0) d_tile_counts[tile] = kept;
  });
}

// Second pass: d_kept_through[t] holds the selected items of tiles 0..t (the scanned counts), so
// tile t's selected side starts at d_kept_through[t - 1] and the rejected side at the split,
// d_kept_through[num_tiles - 1]. The last tile writes the split to d_num_selected.
template <class Policy, class InputIt, class OutputIt>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    partition_place_kernel(InputIt d_in, OutputIt d_out, count_t* d_num_selected, long long num_items,
                           long long num_tiles, const flag_word_t<Policy>* d_flags, const count_t* d_kept_through) {
  join_chain();
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  constexpr int ipt = Policy::items_per_thread;
  using scan_t = block_scan<int, Policy::block_threads>;
  __shared__ partition_pass_storage<Policy, in_t, scan_t> s;
  for_each_block_tile(num_tiles, [&](long long tile) {
    const long long tile_first = tile * Policy::tile_items;
    const tile_bases bases = {tile == 0 ? 0 : d_kept_through[tile - 1], d_kept_through[num_tiles - 1]};
    in_t items[ipt];
    bool keep[ipt];
    load_tile<Policy::io, Policy::block_threads, ipt>(d_in + tile_first, num_items - tile_first, items, s.items);
    load_flags<Policy>(d_flags, tile, keep);
    int counts[1] = {count_kept(keep)};
    const int kept = scan_t(s.collective).exclusive_scan(counts, 0, cuda::std::plus<int>{});
    write_tile_output<Policy, select_output::partitioned_in_order>(tile, num_tiles, num_items, items, keep, kept,
                                                                   counts[0], bases, d_out, d_num_selected,
                                                                   s.items.items);
  });
}

}  // namespace upsweep::detail
