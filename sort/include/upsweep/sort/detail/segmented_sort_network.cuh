// Segmented sort, integer keys alone over their whole width: a warp sorts a small segment with a
// bitonic network over its registers (shuffles and min/max), where the stable sort of
// segmented_sort_warp.cuh counts, for each item, every item that goes before it. Equal integer
// keys are the same bits, so a network's unstable order writes the same output. Floats are left
// out: -0.0 and +0.0 share their ordered bits but keep their input order.
#pragma once

#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>

namespace upsweep::detail {

template <class Key, class Value>
inline constexpr bool network_sortable_v =
    !has_values_v<Value> && radix_traits<Key>::kind != key_kind::floating_point;

template <int N>
inline constexpr int log2_of = N <= 1 ? 0 : 1 + log2_of<N / 2>;

// One column of a network over the warp's 32 x IPT words, position lane * IPT + r in register r:
// each position p meets p ^ Mask, and the lower of the two keeps the smaller word. Mask is a
// single bit (a half-cleaner) or all bits below one (a merge's first, flipped column).
template <int IPT, int Mask, class Word>
__device__ __forceinline__ void compare_column(Word (&w)[IPT], int lane) {
  constexpr int high_bit = 1 << log2_of<Mask>;
  constexpr int register_mask = Mask & (IPT - 1);
  if constexpr (high_bit < IPT) {  // partners in one lane
#pragma unroll
    for (int r = 0; r < IPT; ++r) {
      if (r & high_bit) continue;
      const Word low = w[r], high = w[r ^ register_mask];
      w[r] = low < high ? low : high;
      w[r ^ register_mask] = low < high ? high : low;
    }
  } else {
    constexpr int lane_mask = Mask >> log2_of<IPT>;
    const bool upper = (lane & (high_bit >> log2_of<IPT>)) != 0;
    Word other[IPT];
#pragma unroll
    for (int r = 0; r < IPT; ++r) other[r] = __shfl_xor_sync(full_warp_mask, w[r ^ register_mask], lane_mask);
#pragma unroll
    for (int r = 0; r < IPT; ++r) {  // a max, then a predicated min (sm_90)
      const Word low = w[r] < other[r] ? w[r] : other[r], high = w[r] < other[r] ? other[r] : w[r];
      w[r] = upper ? high : low;
    }
  }
}

// Merges of width K = 2 .. `width`: a flipped column, then half-cleaners J = K / 4 .. 1.
template <int IPT, int J, class Word>
__device__ __forceinline__ void half_cleaners(Word (&w)[IPT], int lane) {
  if constexpr (J >= 1) {
    compare_column<IPT, J>(w, lane);
    half_cleaners<IPT, J / 2>(w, lane);
  }
}
template <int IPT, int K, class Word>
__device__ __forceinline__ void bitonic_merges(Word (&w)[IPT], int lane, int width) {
  if constexpr (K <= warp_threads * IPT) {
    if (K > width) return;
    compare_column<IPT, K - 1>(w, lane);
    half_cleaners<IPT, K / 4>(w, lane);
    bitonic_merges<IPT, 2 * K>(w, lane, width);
  }
}

// Sorts the warp's words ascending by position. With IPT = 1, only the first `width` positions
// (a power of two) are sorted, in blocks of that width.
template <int IPT, class Word>
__device__ __forceinline__ void bitonic_sort_warp(Word (&w)[IPT], int width) {
  bitonic_merges<IPT, 2>(w, static_cast<int>(lane_id()), width);
}

// One warp sorts a segment of 2 .. 32 x IPT keys by network, in words of Word (at least the
// key's width). Item i of the segment is read into register i / 32 of lane i % 32 (the first two
// from the head, already read); positions past the segment hold all-ones words, which sort last,
// and are not written.
template <int IPT, bool Descending, class Word, class Key, class Head>
__device__ __forceinline__ void sort_segment_by_network(Key* d_keys_out, const Key* d_keys_in, const Head& head) {
  using traits = radix_traits<Key>;
  const int lane = static_cast<int>(lane_id());
  Word w[IPT];
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int item = i * warp_threads + lane;
    w[i] = ~Word{0};
    if (item >= head.size) continue;
    w[i] = traits::template to_sort_bits<Descending>(i < 2 ? head.keys[i & 1] : d_keys_in[head.first + item]);
  }
  int width = warp_threads * IPT;
  if constexpr (IPT == 1) width = 1 << (32 - __clz(head.size - 1));
  bitonic_sort_warp<IPT>(w, width);
  Key* const out = d_keys_out + head.first + lane * IPT;
#pragma unroll
  for (int r = 0; r < IPT; ++r)
    if (lane * IPT + r < head.size) out[r] = radix_traits<Key>::template from_sort_bits<Descending>(w[r]);
}

}  // namespace upsweep::detail
