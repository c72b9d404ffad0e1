// Radix select's vocabulary (top-k): the order it selects in and the plan of its digits. Items are
// ranked by a composite key, the key's select bits (ordered bits, inverted for the largest) and
// under them the input index, so every item is distinct and ties go to the lowest index. The k
// smallest composites are the answer; one digit of the composite is fixed per pass, from the top.
#pragma once

#include <upsweep/sort/radix_traits.cuh>

#include <cuda/std/cstdint>

namespace upsweep::detail {

// Digits of 11 bits: 2048 counters, three passes over a 32-bit key.
inline constexpr int top_k_digit_bits = 11;
inline constexpr int top_k_digits = 1 << top_k_digit_bits;

// Which part of the composite a digit belongs to. `none` is the first pass: no digit is chosen
// yet, every item counts towards the first key digit.
enum class top_k_field : int { none = 0, key = 1, index = 2 };

struct top_k_digit {
  top_k_field field = top_k_field::none;
  int bit = 0;    // lowest bit of the digit within its field
  int width = 0;  // 0 for none
};

// The digit after `d`, from the top of the key to the bottom of the index, digits of at most
// DigitBits; {none} after the last.
template <int DigitBits = top_k_digit_bits>
__host__ __device__ constexpr top_k_digit next_top_k_digit(top_k_digit d, int key_bits, int index_bits) {
  const auto below = [](top_k_field field, int top) {
    const int width = top < DigitBits ? top : DigitBits;
    return top_k_digit{field, top - width, width};
  };
  if (d.field == top_k_field::none) return below(top_k_field::key, key_bits);
  if (d.field == top_k_field::key && d.bit > 0) return below(top_k_field::key, d.bit);
  if (d.field == top_k_field::key) return below(top_k_field::index, index_bits);
  if (d.bit > 0) return below(top_k_field::index, d.bit);
  return top_k_digit{};
}

// Digits a select may need: every key digit, then every index digit.
__host__ __device__ constexpr int top_k_max_digits(int key_bits, int index_bits, int digit_bits = top_k_digit_bits) {
  return (key_bits + digit_bits - 1) / digit_bits + (index_bits + digit_bits - 1) / digit_bits;
}

// Bits that index 0..num_items-1 (at least one).
__host__ __device__ constexpr int top_k_index_bits(long long num_items) {
  int bits = 1;
  while (bits < 63 && (1ll << bits) < num_items) ++bits;
  return bits;
}

// Whether a and b agree above bit `shift` (shift >= 64: nothing to compare).
__host__ __device__ constexpr bool same_above(cuda::std::uint64_t a, cuda::std::uint64_t b, int shift) {
  return shift >= 64 || (a >> shift) == (b >> shift);
}

// Where the current candidates live: the input (filtered by the prefix) or a candidate buffer.
inline constexpr int top_k_from_input = -1;

// One pass of the select, written by the choose kernel and read by the split kernel. The split
// reads the candidates of the digits fixed so far, emits those whose `digit` is below `chosen`
// (and equal to it when take_all), keeps the rest equal to it as the next candidates, and counts
// their `next` digit.
struct top_k_pass {
  top_k_digit digit;
  top_k_digit next;
  unsigned chosen = 0;
  int take_all = 0;
  int source = top_k_from_input;       // buffer index, or top_k_from_input
  int destination = top_k_from_input;  // buffer the kept candidates go to, or none (from_input)
  long long source_count = 0;          // items in the source buffer
  // The digits fixed before `digit`: the key's select bits above key_shift, the index above
  // index_shift (64: none fixed).
  cuda::std::uint64_t key_prefix = 0;
  cuda::std::uint64_t index_prefix = 0;
  int key_shift = 64;
  int index_shift = 64;
};

// The select's device state, in temporary storage.
struct top_k_state {
  // Split `step` reads passes[step % 2] and its last block plans passes[(step + 1) % 2]: a block of
  // the same grid that starts after the plan (an idle one) still reads its own grid's pass.
  top_k_pass passes[2];
  long long need = 0;      // items still to take from the candidates
  int finished = 0;        // the last split emitted everything
  unsigned long long emitted = 0;   // output slots taken (atomic)
  unsigned long long kept = 0;      // destination buffer slots taken (atomic)
  cuda::std::uint64_t threshold = 0;  // select bits the sample's shortcut keeps (at or below)
  int use_threshold = 0;
  unsigned long long filtered = 0;  // items at or below the threshold (atomic)
  unsigned blocks_done = 0;         // blocks of the running kernel that have finished (atomic)
  unsigned long long counts[top_k_digits];  // the next digit's counts over the kept candidates
};

// The key's select bits: ascending select-bit order is the wanted order (largest first for Largest).
template <bool Largest, class Key>
__host__ __device__ inline cuda::std::uint64_t top_k_select_bits(const Key& key) {
  return static_cast<cuda::std::uint64_t>(radix_traits<Key>::template to_sort_bits<Largest>(key));
}

// The composite's digit `d` for an item (field none: digit 0 for all).
__host__ __device__ inline unsigned top_k_digit_of(top_k_digit d, cuda::std::uint64_t select_bits,
                                                   cuda::std::uint64_t index) {
  if (d.field == top_k_field::none) return 0;
  const cuda::std::uint64_t field = d.field == top_k_field::key ? select_bits : index;
  return static_cast<unsigned>((field >> d.bit) & ((1ull << d.width) - 1));
}

}  // namespace upsweep::detail
