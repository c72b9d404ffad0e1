// How the radix sort kernels read a key: its sort bits (ordered bits, inverted when descending),
// computed once per key, then any digit of them. Plain keys go straight through radix_traits (the
// fast path, one register of bits); struct keys through their decomposer (decomposed_traits).
#pragma once

#include <upsweep/sort/radix_decomposer.cuh>
#include <upsweep/sort/radix_traits.cuh>

namespace upsweep::detail {

template <class Key>
struct radix_key_codec {
  static_assert(is_radix_key_v<Key>,
                "radix sort keys: 8- to 64-bit integers, float, double, __half, bf16; structs through a decomposer");
  static constexpr int key_bits = radix_traits<Key>::key_bits;
  template <bool Descending>
  __host__ __device__ typename radix_traits<Key>::bits_t sort_bits(const Key& key) const {
    return radix_traits<Key>::template to_sort_bits<Descending>(key);
  }
  // A sort's digits start below key_bits and are at most radix_bits wide, so keys of up to 32 bits
  // take 32-bit shifts (radix_digit shifts 64 bits, two instructions a key more).
  __host__ __device__ static unsigned digit(typename radix_traits<Key>::bits_t bits, int bit, int num_bits) {
    if constexpr (key_bits <= 32)
      return (static_cast<unsigned>(bits) >> bit) & ((1u << num_bits) - 1);
    else
      return radix_digit(bits, bit, num_bits);
  }
};

template <class Key, class Decomposer>
struct decomposed_key_codec {
  using traits = decomposed_traits<Key, Decomposer>;
  static constexpr int key_bits = traits::key_bits;
  Decomposer decompose;
  template <bool Descending>
  __host__ __device__ typename traits::sort_bits_t sort_bits(const Key& key) const {
    return traits::template to_sort_bits<Descending>(key, decompose);
  }
  __host__ __device__ static unsigned digit(const typename traits::sort_bits_t& bits, int bit, int num_bits) {
    return traits::digit(bits, bit, num_bits);
  }
};

}  // namespace upsweep::detail
