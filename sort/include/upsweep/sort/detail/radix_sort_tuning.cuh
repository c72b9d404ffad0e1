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
  // Inputs of at least large_input_items sort with large_input_policy instead, unless it is void
  // (the default policies of some pairs set both).
  using large_input_policy = void;
  static constexpr long long large_input_items = 0;
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

// Values of 4, 8 or 16 bytes, aligned to 4 at least, go from global memory straight into their
// sorted slots in shared memory (cp.async): no register holds them, so their tiles can be as
// large as the keys'. Others pass through registers after the keys' scatter.
template <class Value>
inline constexpr bool values_copied_async_v = !cuda::std::is_same_v<Value, no_values> &&
                                              (sizeof(Value) == 4 || sizeof(Value) == 8 || sizeof(Value) == 16) &&
                                              alignof(Value) >= 4;

// Plain keys of 4 or 8 bytes, alone or with values copied async, take two shapes by input size
// (and a third below small_radix_input_items, further down):
// a tile that leaves several blocks per SM below large_radix_input_items (more tiles to spread
// over 132 SMs), and above it the largest tile its 80-register cap allows with (almost) no spill
// (likely, not profiled: each digit's run in a tile is longer, so its scatter leaves fewer partly
// written sectors; the per-tile work spreads over more keys). H100 2026-11-22 (50844ef), tune rows of one
// run (ms at 2^16 / 2^20 / 2^24 / 2^28; CUB's faster configuration beside):
//  - 4-byte keys alone: 384 x 20 at three blocks (56 registers, 12 bytes spilled) 0.0408 / 0.0622 /
//    0.402 / 5.36; 384 x 32 at two (80, 20 bytes) 0.0487 / 0.0610 / 0.407 / 4.90 (CUB 0.053 /
//    0.080 / 0.43 / 5.53);
//  - 8-byte keys alone: 384 x 14 at three (56, none) 0.0744 / 0.133 / 1.15 / 16.9; 384 x 22 at two
//    (80, 24 bytes) 0.0881 / 0.122 / 1.12 / 15.5 (CUB 0.096 / 0.165 / 1.19 / 16.9);
//  - pairs of 4-byte elements: 384 x 23 at two (80, none) 0.0496 / 0.0738 / 0.626 / 9.42; 768 x 28
//    at one (80, 4 bytes) 0.082 / 0.098 / 0.646 / 8.65 (CUB 0.060 / 0.089 / 0.619 / 8.85);
//  - pairs with an 8-byte element: 384 x 14 at two (80, none) 0.0872 / 0.171 / 1.68 / 26.1; 768 x 18
//    at one (80, none) 0.137 / 0.185 / 1.62 / 23.0 (CUB 0.108 / 0.19 / 1.64 / 24.9).
// Pairs with 1- or 2-byte values take 384 x 23 (4-byte keys) and 384 x 20 (8-byte keys, 4 bytes
// spilled) at every size: held in registers, such values spill about 200 bytes at 384 x 32 (not
// measured on the GPU). Other keys keep the earlier rule: 256 threads (384 for pairs of 4-byte
// elements) and as many items as fill a 24 KB exchange, up to 16. Struct keys among them: their
// decomposed bits take more registers than larger tiles leave.
// 4-byte keys with 16-byte values take 384 x 12 at two blocks (A/B in one run, H200, 2026-11-29,
// ms, against the rule's 256 x 6 at three): 2^20 0.106 against 0.118, 2^24 1.06 against 1.32, 2^28
// 15.2 against 20.6 (CUB 3.0 17.9); 512 x 10 at two 15.9 and 256 x 12 at three 16.6 at 2^28.
template <class Key, class Value>
constexpr radix_tile_shape default_radix_tile_shape() {
  constexpr bool keys_alone = cuda::std::is_same_v<Value, no_values>;
  constexpr std::size_t widest = keys_alone ? sizeof(Key) : widest_radix_element<Key, Value>;
  if constexpr (is_radix_key_v<Key> && sizeof(Key) == 4 && sizeof(Value) == 16 && values_copied_async_v<Value>) {
    return {384, 12, 2};
  } else if constexpr (is_radix_key_v<Key> && (widest == 4 || widest == 8)) {
    if constexpr (keys_alone) return {384, widest == 4 ? 20 : 14, 3};
    else if constexpr (values_copied_async_v<Value>) return {384, widest == 4 ? 23 : 14, 2};
    else return {384, widest == 4 ? 23 : 20, 2};
  } else {
    constexpr int threads = !keys_alone && widest == 4 ? 384 : 256;
    constexpr std::size_t fit = radix_exchange_bytes / (threads * widest);
    constexpr int items = fit >= 16 ? 16 : static_cast<int>(fit);
    // Keys alone of up to 16 items fit 64 registers (four blocks of 256); the rest 80.
    constexpr int min_blocks = threads == 384 ? 2 : (keys_alone && items <= 16 ? 4 : 3);
    return {threads, items, min_blocks};
  }
}

// The large-input shape of those keys (above); {0, 0, 0}: none. Pairs take 512 threads at two
// blocks, by the bytes of a pair (A/B in one run, H200, 2026-11-29, ms, against the earlier
// 384 x 23 or 384 x 14 at two and 768 x 28 or 768 x 18 at one):
//  - 8 bytes, 512 x 20: 2^22 0.181 against 0.186, 2^24 0.533 against 0.554, 2^26 1.91 against
//    2.09, 2^28 7.39 against 8.02 (CUB 3.0 7.40); 2^20 0.0730 against 0.0710, so from 2^22;
//  - 12 bytes, 512 x 16: 2^20 0.150 against 0.160 (u64/u32), 0.0762 against 0.0818 (u32/u64),
//    2^24 1.37 against 1.48 and 0.661 against 0.721, 2^28 20.1 against 20.7 and 9.46 against 9.94;
//  - 16 bytes, 512 x 12: 2^24 1.63 against 1.73, 2^26 6.12 against 6.30, 2^28 24.2 against 24.3;
//    slower than 384 x 14 at 2^20 and 2^21, so from 2^24.
template <class Key, class Value>
constexpr radix_tile_shape large_input_radix_tile_shape() {
  constexpr bool keys_alone = cuda::std::is_same_v<Value, no_values>;
  constexpr std::size_t widest = keys_alone ? sizeof(Key) : widest_radix_element<Key, Value>;
  if constexpr (!is_radix_key_v<Key> || (widest != 4 && widest != 8)) return {0, 0, 0};
  else if constexpr (keys_alone) return {384, widest == 4 ? 32 : 22, 2};
  else if constexpr (values_copied_async_v<Value>) {
    constexpr std::size_t pair_bytes = sizeof(Key) + sizeof(Value);
    return {512, pair_bytes == 8 ? 20 : pair_bytes == 12 ? 16 : 12, 2};
  } else {
    return {0, 0, 0};
  }
}

// Where the large-input shape starts to win: keys alone from 2^20 (tied there, H100 rows above);
// pairs of 8, 12 and 16 bytes from 2^22, 2^20 and 2^24 (above).
template <class Key, class Value>
constexpr long long large_radix_input_items() {
  if constexpr (cuda::std::is_same_v<Value, no_values>) {
    return 1ll << 20;
  } else {
    constexpr std::size_t pair_bytes = sizeof(Key) + sizeof(Value);
    return pair_bytes == 8 ? 1ll << 22 : pair_bytes == 12 ? 1ll << 20 : 1ll << 24;
  }
}

// Below small_radix_input_items, the keys and pairs that take the two shapes above take 256 x 8 at
// four blocks: a few tiles leave most SMs idle, and a pass lasts about as long as one tile takes,
// so smaller tiles finish sooner. A/B in one run (H200, 2026-11-29, ms, default -> 256 x 8): 2^16
// keys f32 0.0418 -> 0.0313, u64 0.0719 -> 0.0599, pairs u32/u32 0.0485 -> 0.0363, u64/u32
// 0.0855 -> 0.0716; 2^18 0.0459 -> 0.0381, 0.0817 -> 0.0739, 0.0545 -> 0.0477, 0.0981 -> 0.0940;
// 2^19 u64 keys 0.0904 -> 0.0969 and u64/u32 0.112 -> 0.129, so not from there. 256 x 4, 256 x 6
// and 256 x 8 at six blocks were no faster at 2^16 and slower at 2^18.
inline constexpr long long small_radix_input_items = 1ll << 19;

template <class Key, class Value>
constexpr radix_tile_shape small_input_radix_tile_shape() {
  if constexpr (large_input_radix_tile_shape<Key, Value>().threads == 0) return {0, 0, 0};
  else return {256, 8, 4};
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
// against 15.7 at window 4 (H100 2026-11-22, 50844ef: 9.01 against 9.25 at 384 x 32). Inputs of
// one tile take the one-launch path.
namespace detail {

// The default ranking and look-back with the tile shape Shape() names.
template <class Value, radix_tile_shape (*Shape)()>
using radix_sort_policy_of_shape =
    radix_sort_policy<Shape().threads, Shape().items, 256, default_radix_look_back_delay_ns<Value>,
                      radix_rank_method::ballot, default_radix_look_back_window<Value>, true, 0, Shape().min_blocks>;

template <class Key, class Value, bool = large_input_radix_tile_shape<Key, Value>().threads != 0>
struct large_input_radix_sort_policy {
  using type = void;
};
template <class Key, class Value>
struct large_input_radix_sort_policy<Key, Value, true> {
  using type = radix_sort_policy_of_shape<Value, large_input_radix_tile_shape<Key, Value>>;
};

// The shape most inputs take, switching to the large-input one from large_radix_input_items.
template <class Key, class Value>
struct sized_radix_sort_policy : radix_sort_policy_of_shape<Value, default_radix_tile_shape<Key, Value>> {
  using large_input_policy = typename large_input_radix_sort_policy<Key, Value>::type;
  static constexpr long long large_input_items = large_radix_input_items<Key, Value>();
};

// The small-input shape where the keys have one, switching to the sized policy from
// small_radix_input_items (dispatch follows large_input_policy as a chain).
template <class Key, class Value, bool = small_input_radix_tile_shape<Key, Value>().threads != 0>
struct small_first_radix_sort_policy : sized_radix_sort_policy<Key, Value> {};
template <class Key, class Value>
struct small_first_radix_sort_policy<Key, Value, true>
    : radix_sort_policy_of_shape<Value, small_input_radix_tile_shape<Key, Value>> {
  using large_input_policy = sized_radix_sort_policy<Key, Value>;
  static constexpr long long large_input_items = small_radix_input_items;
  // Inputs of one sized tile keep its one-launch path (radix_sort_dispatch's defers_one_tile).
  static constexpr bool one_tile_by_large_input_policy = true;
};

}  // namespace detail

template <class Key, class Value>
struct default_radix_sort_policy : detail::small_first_radix_sort_policy<Key, Value> {};

}  // namespace upsweep
