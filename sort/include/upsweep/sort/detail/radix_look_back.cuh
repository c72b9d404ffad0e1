// The radix sort's per-digit decoupled look-back (Onesweep, Adinets and Merrill 2022): one word per
// (tile, digit) holding a status, the pass that wrote it and a count; a tile publishes its counts
// early and walks back over its predecessors' words to find each digit's place across the grid.
#pragma once

#include <upsweep/scan/tile_state.cuh>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/sort/detail/radix_sort_tuning.cuh>
#include <upsweep/sort/radix_traits.cuh>

#include <cuda/atomic>
#include <cuda/std/cstdint>

namespace upsweep::detail {

// ---- look-back words: one per (tile, digit) ---------------------------------------------------
// Status in the top two bits, the pass that wrote the word in the next three, the count in the
// low 59, published by one relaxed 64-bit store, so the count is never read without its status.
// The pass stamp lets every pass of a sort share one buffer cleared once: a word left by an
// earlier pass reads as not ready. Range proof: a count is at most num_items, and the dispatch
// rejects num_items >= 2^59 (max_radix_sort_items).
inline constexpr int look_back_count_bits = 59;
inline constexpr unsigned long long look_back_partial = 1ull << 62;
inline constexpr unsigned long long look_back_inclusive = 2ull << 62;
inline constexpr unsigned long long look_back_status_mask = 3ull << 62;
inline constexpr unsigned long long look_back_pass_mask = 7ull << look_back_count_bits;
inline constexpr unsigned long long look_back_count_mask = (1ull << look_back_count_bits) - 1;
inline constexpr long long max_radix_sort_items = static_cast<long long>(look_back_count_mask);
static_assert(max_radix_passes <= 8, "the pass stamp has three bits");

__host__ __device__ constexpr unsigned long long look_back_stamp(int pass) {
  return static_cast<unsigned long long>(pass) << look_back_count_bits;
}

// Published by this pass (a status, and this pass's stamp). Tested on the word's high half: the
// same bits in 32-bit operations, which kept the pass kernel at 77 registers where the 64-bit
// masks took 95 (ptxas, ballot 256 x 16, u32 keys), one resident block fewer per SM.
__host__ __device__ constexpr bool look_back_ready(unsigned long long word, int pass) {
  const unsigned high = static_cast<unsigned>(word >> 32);
  return (high >> 30) != 0 && ((high >> (look_back_count_bits - 32)) & 7u) == static_cast<unsigned>(pass);
}

// The look-back word of (tile, digit).
__device__ __forceinline__ cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> look_back_word(
    unsigned long long* d_look_back, long long tile, unsigned digit) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(d_look_back[tile * radix_digits + digit]);
}

// Publishes this tile's count of a digit as soon as the tile is counted: the tiles after it wait
// on this word, so it goes up before the tile's own staging and look-back (Onesweep's early
// counts). Tile 0 has no predecessor, so its count is already inclusive.
__device__ __forceinline__ void publish_digit_count(unsigned long long* d_look_back, long long tile_idx,
                                                    unsigned digit, unsigned long long tile_count, int pass) {
  const unsigned long long status = tile_idx == 0 ? look_back_inclusive : look_back_partial;
  look_back_word(d_look_back, tile_idx, digit)
      .store(status | look_back_stamp(pass) | tile_count, cuda::std::memory_order_relaxed);
}

// Keys of this digit in all tiles before `tile_idx`, whose count publish_digit_count put up:
// walks back until an inclusive word (the tiles before it were claimed by running blocks, so each
// publishes eventually), then publishes this tile's inclusive count. The walk reads Window
// predecessors' words at once and then takes them nearest first: with Window 1 every step waits
// out a load's round trip; wider windows overlap them, at the cost of a few words read past the
// inclusive one.
template <int DelayNs, int Window, int SettleNs>
__device__ unsigned long long look_back_digit(unsigned long long* d_look_back, long long tile_idx, unsigned digit,
                                              unsigned long long tile_count, int pass) {
  if (tile_idx == 0) return 0;
  const auto word_of = [&](long long tile) { return look_back_word(d_look_back, tile, digit); };
  const unsigned long long stamp = look_back_stamp(pass);
  settle_before_look_back<SettleNs>();
  unsigned long long before = 0;
  for (long long nearest = tile_idx - 1;; nearest -= Window) {
    unsigned long long words[Window];
#pragma unroll
    for (int w = 0; w < Window; ++w)  // tile 0 is always inclusive: the walk never passes it
      words[w] = nearest - w >= 0 ? word_of(nearest - w).load(cuda::std::memory_order_relaxed)
                                  : look_back_inclusive | stamp;
#pragma unroll
    for (int w = 0; w < Window; ++w) {
      while (!look_back_ready(words[w], pass)) {
        if constexpr (DelayNs > 0) __nanosleep(DelayNs);
        words[w] = word_of(nearest - w).load(cuda::std::memory_order_relaxed);
      }
      before += words[w] & look_back_count_mask;
      if (words[w] & look_back_inclusive) {
        word_of(tile_idx).store(look_back_inclusive | stamp | (before + tile_count), cuda::std::memory_order_relaxed);
        return before;
      }
    }
  }
}

}  // namespace upsweep::detail
