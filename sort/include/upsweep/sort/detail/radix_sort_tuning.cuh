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

// Keys alone, and pairs of 4-byte elements, run 384-thread blocks. Pairs: their tune rows put
// 384 x 16 at two blocks per SM ahead of 256 x 16 at three (H100 2026-11-22, two runs of three).
// Keys, at three blocks per SM (56 registers) since the pass reads digits again from the keys
// (session 11, H100, 2^28 in one run): u32 384 x 20 5.38 ms against 5.71 at two blocks and CUB's
// 5.53; u64 384 x 10 18.5 ms against 19.8 for 256 x 12 at four blocks.
// (Plain keys only: struct keys' decomposed bits take more registers than the cap of three blocks.)
template <class Key, class Value>
inline constexpr bool four_byte_keys_alone =
    cuda::std::is_same_v<Value, no_values> && is_radix_key_v<Key> && sizeof(Key) == 4;
template <class Key, class Value>
inline constexpr bool eight_byte_keys_alone =
    cuda::std::is_same_v<Value, no_values> && is_radix_key_v<Key> && sizeof(Key) == 8;
template <class Key, class Value>
inline constexpr int default_radix_block_threads =
    four_byte_keys_alone<Key, Value> || eight_byte_keys_alone<Key, Value> ||
            (!cuda::std::is_same_v<Value, no_values> && widest_radix_element<Key, Value> == 4)
        ? 384
        : 256;

// The tile goes through shared memory once for keys and once for values, in one buffer of
// radix_exchange_bytes: wider elements get fewer per thread. Keys alone take 30 KB: 4-byte keys
// 20 a thread, 8-byte 10 (with the counters, 45 KB of the 48 KB a static block may hold).
template <class Key, class Value>
constexpr int default_radix_items_per_thread() {
  if constexpr (four_byte_keys_alone<Key, Value>) return 20;
  if constexpr (eight_byte_keys_alone<Key, Value>) return 10;
  constexpr std::size_t fit =
      radix_exchange_bytes / (default_radix_block_threads<Key, Value> * widest_radix_element<Key, Value>);
  return fit >= 16 ? 16 : static_cast<int>(fit);
}

// Pairs walk back one word at a time without pausing, keys read 4 words at once: the faster of
// each in the tune rows (below).
template <class Value>
inline constexpr int default_radix_look_back_window = cuda::std::is_same_v<Value, no_values> ? 4 : 1;
template <class Value>
inline constexpr int default_radix_look_back_delay_ns = cuda::std::is_same_v<Value, no_values> ? default_look_back_delay_ns : 0;

// The pass kernel's occupancy is its speed (it waits on shared memory and on its look-back), so
// its registers are capped where it does not spill, or barely (ptxas, sm_90): 4- and 8-byte keys
// alone fit 56 registers at 384 threads (three blocks per SM; 4-byte keys spill 12 bytes, once a
// tile), other keys alone of up to 16 items 64 (four blocks of 256); pairs fit 80 (two blocks of
// 384, three of 256).
template <class Key, class Value>
inline constexpr int default_radix_pass_min_blocks =
    four_byte_keys_alone<Key, Value> || eight_byte_keys_alone<Key, Value>                          ? 3
    : default_radix_block_threads<Key, Value> == 384                                                ? 2
    : cuda::std::is_same_v<Value, no_values> && default_radix_items_per_thread<Key, Value>() <= 16 ? 4
                                                                                                    : 3;

}  // namespace detail

// H100 2026-11-21 (before the PTX ballots), 2^28 u32 keys at 256 x 16: ballot ranking 12.5 ms
// against 15.2 for match ranking; a look-back window of 4 words 10.2 ms, 8 words 10.6. H200
// 2026-11-21: keys 9.9 ms at window 4 whatever the pause; pairs 13.7 at window 1 without a pause
// against 15.7 at window 4. H100 2026-11-22, with the PTX ballots and the register caps: keys
// 256 x 20 6.7 ms (CUB 5.54), pairs 384 x 16 10.0 to 10.6 (CUB 8.8), match ranking still slower
// (11.4 against 8.6 in one run). Inputs of one tile take the one-launch path.
template <class Key, class Value>
using default_radix_sort_policy =
    radix_sort_policy<detail::default_radix_block_threads<Key, Value>, detail::default_radix_items_per_thread<Key, Value>(),
                      256, detail::default_radix_look_back_delay_ns<Value>, radix_rank_method::ballot,
                      detail::default_radix_look_back_window<Value>, true, 0,
                      detail::default_radix_pass_min_blocks<Key, Value>>;

}  // namespace upsweep
