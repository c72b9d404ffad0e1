// Ranking a tile's keys by one digit, stably (Onesweep's warp multisplit): each warp ranks its keys
// by ballots or match_any into per-warp digit counters, then a block scan of the counts turns every
// rank into the key's slot in the tile sorted by that digit.
#pragma once

#include <upsweep/scan/block_scan.cuh>
#include <upsweep/sort/detail/radix_key_codec.cuh>
#include <upsweep/sort/detail/radix_pass_storage.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>

#include <cuda/std/functional>

namespace upsweep::detail {

// Slots past the tile's `valid` items rank as the largest digit. They follow every real key in
// the (i, lane) order, so they rank after every real key of that digit and change no real rank;
// the digit's tile count drops them again (count_digit_in_tile). Only partial tiles test their
// slots (pass_digits); nothing else in the ranking knows about them.
inline constexpr unsigned padding_digit = radix_digits - 1;

// The pass's digit of a thread's item i, read from its key whenever it is needed: keeping the
// digits in registers beside the keys and the ranks held 20 registers more through the ranking
// (ptxas, 384 x 20, sm_90), which cost the pass kernel a resident block. Partial tiles give their
// slots past `valid` the padding digit; full tiles skip the test.
template <bool Descending, bool Full, int IPT, class Codec>
struct pass_digits {
  const Codec& codec;
  int bit;
  int digit_bits;
  int valid;
  unsigned long long mask = 0;  // XORed into plain keys' bits first: 0, but see reread
  template <class Key>
  __device__ __forceinline__ unsigned operator()(const Key& key, int i) const {
    const unsigned digit = Codec::digit(codec.template sort_bits<Descending>(masked(key)), bit, digit_bits);
    if constexpr (Full) return digit;
    else return striped_slot<IPT>(i) < valid ? digit : padding_digit;
  }
  // The same digits through a zero mask read from shared memory (`shared_zero` holds 0): the
  // compilers cannot tell these digits (and the keys' sort bits) equal the ranking's, so they
  // compute them again instead of keeping the ranking's alive (ptxas sees through a register
  // copy, even an asm one).
  __device__ __forceinline__ pass_digits reread(const unsigned long long& shared_zero) const {
    pass_digits copy = *this;
    copy.mask = *static_cast<const volatile unsigned long long*>(&shared_zero);
    return copy;
  }

 private:
  template <class Key>
  __device__ __forceinline__ Key masked(const Key& key) const {
    if constexpr (is_radix_key_v<Key>) {
      using traits = radix_traits<Key>;
      using bits_t = typename traits::bits_t;
      return traits::from_bits(static_cast<bits_t>(traits::to_bits(key) ^ static_cast<bits_t>(mask)));
    } else {
      return key;  // struct keys: their decomposer's members are not one word
    }
  }
};

// One ranking step per item: with `peers` the lanes whose item has this lane's digit, every lane
// reads the warp's counter of that digit, and the highest of them adds their number to it; each
// lane's rank is the counter plus its peers in lower lanes. Walking the items in order, then lanes
// upwards, walks the warp's part of the input in order, so keys of one digit keep their input
// order. The counters are the warp's own, so a plain read and a store by one lane suffice: the
// warp barriers order the read before the store and the store before the next item's read
// (a leader's atomic needed a branch around it and a shuffle of its result: five instructions a
// key more, sm_90).
__device__ __forceinline__ unsigned rank_among_peers(unsigned peers, unsigned digit, unsigned* counts) {
  const unsigned lane = lane_id();
  const unsigned rank = counts[digit] + __popc(peers & ((1u << lane) - 1));
  __syncwarp();
  if (lane == 31 - __clz(peers)) counts[digit] = rank + 1;
  __syncwarp();
  return rank;
}

// Lanes whose digit agrees with this lane's at `bit`: the ballot of lanes with the bit set,
// inverted where this lane's bit is clear. In PTX the predicate feeds both the ballot and the
// inversion, and ptxas sets a digit's predicates with one R2P: three SASS instructions a bit
// (ballot, predicated not, and), where nvcc 13 made seven of the C++ form (sm_90). Ranking is
// most of a pass's instructions.
__device__ __forceinline__ unsigned lanes_agreeing_at(unsigned digit, unsigned bit_mask) {
  unsigned lanes;
  asm volatile(
      "{\n\t.reg .pred set;\n\t"
      "and.b32 %0, %1, %2;\n\t"
      "setp.ne.u32 set, %0, 0;\n\t"
      "vote.sync.ballot.b32 %0, set, 0xffffffff;\n\t"
      "@!set not.b32 %0, %0;\n\t}"
      : "=r"(lanes)
      : "r"(digit), "r"(bit_mask));
  return lanes;
}

// Peers as the lanes agreeing at every digit bit, one ballot each (Onesweep's warp multisplit).
// Item i's rank goes above its digit, whose bits the later items' ballots do not read.
// Item i's rank goes to ranks[i]; its digit is read again from the key when needed.
template <int IPT, class Key, class Digits>
__device__ __forceinline__ void rank_by_ballots(const Key (&keys)[IPT], const Digits& digit_of, unsigned (&ranks)[IPT],
                                                unsigned* counts) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const unsigned digit = digit_of(keys[i], i);
    unsigned peers = lanes_agreeing_at(digit, 1u);
#pragma unroll
    for (int bit = 1; bit < radix_bits; ++bit) peers &= lanes_agreeing_at(digit, 1u << bit);
    ranks[i] = rank_among_peers(peers, digit, counts);
  }
}

// Peers from one match per item.
template <int IPT, class Key, class Digits>
__device__ __forceinline__ void rank_by_match_any(const Key (&keys)[IPT], const Digits& digit_of,
                                                  unsigned (&ranks)[IPT], unsigned* counts) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const unsigned digit = digit_of(keys[i], i);
    ranks[i] = rank_among_peers(__match_any_sync(full_warp_mask, digit), digit, counts);
  }
}

// ranks[i]: the keys of item i's digit before item i in its warp;
// warp_digit_counts[warp][d] = the warp's keys of digit d.
template <class Policy, int IPT, class Key, class Digits, class Storage>
__device__ __forceinline__ void rank_within_warp(const Key (&keys)[IPT], const Digits& digit_of, unsigned (&ranks)[IPT],
                                                 Storage& s) {
  unsigned* counts = s.warp_digit_counts[warp_id()];
  for (int d = lane_id(); d < radix_digits; d += warp_threads) counts[d] = 0;
  __syncwarp();
  if constexpr (Policy::rank_method == radix_rank_method::ballot)
    rank_by_ballots(keys, digit_of, ranks, counts);
  else
    rank_by_match_any(keys, digit_of, ranks, counts);
}

// Thread d: the tile's keys of digit d once every warp has ranked, without the padding.
template <class Policy, class Storage>
__device__ __forceinline__ unsigned count_digit_in_tile(int valid, const Storage& s) {
  if (threadIdx.x >= radix_digits) return 0;
  unsigned count = 0;
#pragma unroll
  for (int w = 0; w < Storage::warps; ++w) count += s.warp_digit_counts[w][threadIdx.x];
  if (threadIdx.x == padding_digit) count -= Policy::tile_items - valid;
  return count;
}

// Returns the tile's keys of smaller digits than thread d's (a block scan of the counts) and
// turns column d of the warp counts into each warp's first sorted slot of digit d. (The column is
// read twice rather than kept: registers across the scan cost the pass kernel occupancy.)
template <class Policy, class Storage>
__device__ __forceinline__ unsigned place_digit_in_tile(unsigned tile_count, Storage& s) {
  unsigned start[1] = {tile_count};
  block_scan<unsigned, Policy::block_threads>(s.scan).exclusive_scan(start, 0u, cuda::std::plus<unsigned>{});
  if (threadIdx.x < radix_digits) {
    unsigned slot = start[0];
#pragma unroll
    for (int w = 0; w < Storage::warps; ++w) {
      const unsigned count = s.warp_digit_counts[w][threadIdx.x];
      s.warp_digit_counts[w][threadIdx.x] = slot;
      slot += count;
    }
  }
  return start[0];
}

// ranks[i]: from item i's rank in its warp to its slot in the sorted tile.
template <int IPT, class Key, class Digits, class Storage>
__device__ __forceinline__ void rank_within_tile(const Key (&keys)[IPT], const Digits& digit_of, unsigned (&ranks)[IPT],
                                                 const Storage& s) {
  const unsigned* first_slot = s.warp_digit_counts[warp_id()];
  const Digits digit_again = digit_of.reread(s.zero);
#pragma unroll
  for (int i = 0; i < IPT; ++i) ranks[i] += first_slot[digit_again(keys[i], i)];
}

}  // namespace upsweep::detail
