// Tuning of radix sort: one policy per key and value size. Policies are data; the benchmark can
// pass its own as a template argument.
#pragma once

#include <upsweep/scan/tile_state.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>

#include <cuda/std/type_traits>

#include <cstddef>

namespace upsweep {

namespace detail {

inline constexpr int radix_bits = 8;
inline constexpr int radix_digits = 1 << radix_bits;

}  // namespace detail

// How a warp finds the lanes holding its key's digit while ranking: one __match_any_sync per
// key, or one __ballot_sync per digit bit (Onesweep's warp-level multisplit). Same ranks.
enum class radix_rank_method { match_any, ballot };

template <int BlockThreads, int ItemsPerThread, int HistogramBlockThreads = 256,
          int LookBackDelayNs = default_look_back_delay_ns, radix_rank_method RankMethod = radix_rank_method::match_any,
          int LookBackWindow = 1, bool SingleTileSort = false, int LookBackSettleNs = 0, int PassMinBlocks = 1>
struct radix_sort_policy {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr int histogram_block_threads = HistogramBlockThreads;
  static constexpr int look_back_delay_ns = LookBackDelayNs;
  static constexpr radix_rank_method rank_method = RankMethod;
  // Predecessor words each digit's look-back reads at once (look_back_digit); 1 walks tile by
  // tile.
  static constexpr int look_back_window = LookBackWindow;
  // Inputs of at most one tile sorted by one block in one launch (radix_sort_single_tile_kernel).
  static constexpr bool single_tile_sort = SingleTileSort;
  // Pause after publishing a tile's digit counts, before looking back
  // (detail::settle_before_look_back).
  static constexpr int look_back_settle_ns = LookBackSettleNs;
  // Blocks of the pass kernel that must fit on one SM (__launch_bounds__): caps its registers.
  static constexpr int pass_min_blocks = PassMinBlocks;
  static_assert(BlockThreads % detail::warp_threads == 0, "whole warps only");
  static_assert(BlockThreads <= 1024, "at most 1024 threads per block");
  // Thread d owns digit d while counting, scanning and looking back.
  static_assert(BlockThreads >= detail::radix_digits, "one thread per digit");
  static_assert(HistogramBlockThreads % detail::warp_threads == 0 && HistogramBlockThreads <= 1024,
                "whole warps, at most 1024 threads");
  static_assert(ItemsPerThread >= 1, "at least one item per thread");
  static_assert(LookBackWindow >= 1 && LookBackWindow <= 32, "1 to 32 words per look-back step");
  static_assert(PassMinBlocks >= 1, "at least one block per SM");
};

namespace detail {

struct no_values;  // radix_sort_kernels.cuh: keys only

inline constexpr std::size_t radix_exchange_bytes = 24 * 1024;

template <class Key, class Value>
inline constexpr std::size_t widest_radix_element = sizeof(Key) > sizeof(Value) ? sizeof(Key) : sizeof(Value);

// A pass kernel's tile and the blocks per SM its registers are capped for.
struct radix_tile_shape {
  int threads;
  int items;
  int min_blocks;
};

// Plain keys (alone or with values) of 4 or 8 bytes take the largest tile whose keys or values
// fit the 43 KB the warp counters and the exchange share, at the occupancy whose register cap
// does not spill (or barely). H100, 2^28, session 11, against CUB in the same run:
//  - 4-byte keys alone, 384 x 20 at three blocks (56 registers, 12 bytes spilled once a tile): u32
//    5.36 ms against 5.53; 5.70 at two blocks;
//  - 8-byte keys alone, 384 x 14 at three (56, no spill): u64 16.9 ms in a tune row against 17.5
//    for 384 x 12 and 18.5 for 384 x 10 (CUB 16.8);
//  - pairs of 4-byte elements, 384 x 23 at two (80): u32/u32 8.92 ms against 9.17 for 384 x 20,
//    9.41 for 384 x 16 and 10.4 for 384 x 16 at three (CUB 8.88);
//  - pairs with an 8-byte element, 384 x 14 at two (80): u64/u32 25.8 ms against 26.5 for
//    384 x 12 and 29.6 for 384 x 8 (CUB 24.9).
// Other keys keep the earlier rule: 256 threads (384 for pairs of 4-byte elements) and as many
// items as fill a 24 KB exchange, up to 16. Struct keys among them: their decomposed bits take
// more registers than the larger tiles leave.
template <class Key, class Value>
constexpr radix_tile_shape default_radix_tile_shape() {
  constexpr bool keys_alone = cuda::std::is_same_v<Value, no_values>;
  constexpr std::size_t widest = keys_alone ? sizeof(Key) : widest_radix_element<Key, Value>;
  if constexpr (is_radix_key_v<Key> && (widest == 4 || widest == 8)) {
    if constexpr (keys_alone) return {384, widest == 4 ? 20 : 14, 3};
    else return {384, widest == 4 ? 23 : 14, 2};
  } else {
    constexpr int threads = !keys_alone && widest == 4 ? 384 : 256;
    constexpr std::size_t fit = radix_exchange_bytes / (threads * widest);
    constexpr int items = fit >= 16 ? 16 : static_cast<int>(fit);
    // Keys alone of up to 16 items fit 64 registers (four blocks of 256); the rest 80.
    constexpr int min_blocks = threads == 384 ? 2 : (keys_alone && items <= 16 ? 4 : 3);
    return {threads, items, min_blocks};
  }
}

// Pairs walk back one word at a time without pausing, keys read 4 words at once: the faster of
// each in the tune rows (below).
template <class Value>
inline constexpr int default_radix_look_back_window = cuda::std::is_same_v<Value, no_values> ? 4 : 1;
template <class Value>
inline constexpr int default_radix_look_back_delay_ns = cuda::std::is_same_v<Value, no_values> ? default_look_back_delay_ns : 0;

}  // namespace detail

// H100 2026-11-21 (before the PTX ballots), 2^28 u32 keys at 256 x 16: ballot ranking 12.5 ms
// against 15.2 for match ranking; a look-back window of 4 words 10.2 ms, 8 words 10.6. H200
// 2026-11-21: keys 9.9 ms at window 4 whatever the pause; pairs 13.7 at window 1 without a pause
// against 15.7 at window 4. H100 2026-11-22, with the PTX ballots and the register caps: keys
// 256 x 20 6.7 ms (CUB 5.54), pairs 384 x 16 10.0 to 10.6 (CUB 8.8), match ranking still slower
// (11.4 against 8.6 in one run). Inputs of one tile take the one-launch path.
template <class Key, class Value>
using default_radix_sort_policy =
    radix_sort_policy<detail::default_radix_tile_shape<Key, Value>().threads,
                      detail::default_radix_tile_shape<Key, Value>().items, 256,
                      detail::default_radix_look_back_delay_ns<Value>, radix_rank_method::ballot,
                      detail::default_radix_look_back_window<Value>, true, 0,
                      detail::default_radix_tile_shape<Key, Value>().min_blocks>;

}  // namespace upsweep
