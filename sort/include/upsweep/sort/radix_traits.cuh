// Key layer of radix sort: maps each key type to unsigned "ordered bits" whose unsigned order is
// the key order (CUB's order, bit for bit), and back; extracts a digit of those bits. Host and
// device, so the host tests check the order without a GPU.
//  - unsigned: the bits as they are; signed: the sign bit flipped.
//  - floating point: -0.0 is first mapped to +0.0 (they compare equal and keep input order); then
//    all bits are flipped if the sign is set, else only the sign bit. NaNs get no special case and
//    so sort by bit pattern: +NaN after +inf, -NaN before -inf.
//  - descending: the ordered bits inverted, so stability still keeps input order among equals.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstring>

namespace upsweep {

namespace detail {

template <int Bytes>
struct unsigned_of_size;
template <>
struct unsigned_of_size<1> {
  using type = cuda::std::uint8_t;
};
template <>
struct unsigned_of_size<2> {
  using type = cuda::std::uint16_t;
};
template <>
struct unsigned_of_size<4> {
  using type = cuda::std::uint32_t;
};
template <>
struct unsigned_of_size<8> {
  using type = cuda::std::uint64_t;
};

enum class key_kind { unsigned_integer, signed_integer, floating_point };

template <class Key>
struct key_kind_of {
  static constexpr key_kind value = cuda::std::is_floating_point_v<Key> ? key_kind::floating_point
                                    : cuda::std::is_signed_v<Key>      ? key_kind::signed_integer
                                                                       : key_kind::unsigned_integer;
};
template <>
struct key_kind_of<__half> {
  static constexpr key_kind value = key_kind::floating_point;
};
template <>
struct key_kind_of<__nv_bfloat16> {
  static constexpr key_kind value = key_kind::floating_point;
};

template <class Key>
inline constexpr bool is_radix_key_v = (cuda::std::is_integral_v<Key> && !cuda::std::is_same_v<Key, bool>) ||
                                       cuda::std::is_same_v<Key, float> || cuda::std::is_same_v<Key, double> ||
                                       cuda::std::is_same_v<Key, __half> ||
                                       cuda::std::is_same_v<Key, __nv_bfloat16>;

}  // namespace detail

template <class Key>
struct radix_traits {
  static_assert(detail::is_radix_key_v<Key>, "radix sort keys: 8- to 64-bit integers, float, double, __half, bf16");
  using bits_t = typename detail::unsigned_of_size<sizeof(Key)>::type;
  static constexpr int key_bits = static_cast<int>(sizeof(Key) * 8);
  static constexpr detail::key_kind kind = detail::key_kind_of<Key>::value;
  static constexpr bits_t sign_bit = static_cast<bits_t>(bits_t{1} << (key_bits - 1));

  __host__ __device__ static bits_t to_bits(Key key) {
    bits_t bits;
    memcpy(&bits, static_cast<const void*>(&key), sizeof(Key));
    return bits;
  }
  __host__ __device__ static Key from_bits(bits_t bits) {
    Key key;
    memcpy(static_cast<void*>(&key), &bits, sizeof(Key));  // void*: __half and bf16 are classes
    return key;
  }

  // Unsigned order of the result = ascending key order. Not injective for floats: -0.0 and +0.0
  // give the same bits.
  __host__ __device__ static bits_t to_ordered(Key key) {
    bits_t bits = to_bits(key);
    if constexpr (kind == detail::key_kind::signed_integer) {
      bits = static_cast<bits_t>(bits ^ sign_bit);
    } else if constexpr (kind == detail::key_kind::floating_point) {
      if (bits == sign_bit) bits = 0;  // -0.0 sorts as +0.0
      bits = static_cast<bits_t>((bits & sign_bit) ? ~bits : (bits ^ sign_bit));
    }
    return bits;
  }

  // Inverse of to_ordered; -0.0 comes back as +0.0.
  __host__ __device__ static Key from_ordered(bits_t ordered) {
    bits_t bits = ordered;
    if constexpr (kind == detail::key_kind::signed_integer) {
      bits = static_cast<bits_t>(bits ^ sign_bit);
    } else if constexpr (kind == detail::key_kind::floating_point) {
      bits = static_cast<bits_t>((bits & sign_bit) ? (bits ^ sign_bit) : ~bits);
    }
    return from_bits(bits);
  }

  // Ordered bits for the requested direction: descending is the exact reverse order.
  template <bool Descending>
  __host__ __device__ static bits_t to_sort_bits(Key key) {
    const bits_t ordered = to_ordered(key);
    return Descending ? static_cast<bits_t>(~ordered) : ordered;
  }

  // Inverse of to_sort_bits (from the low key_bits of `bits`); -0.0 comes back as +0.0.
  template <bool Descending, class Bits>
  __host__ __device__ static Key from_sort_bits(Bits bits) {
    const auto ordered = static_cast<bits_t>(Descending ? ~bits : bits);
    return from_ordered(ordered);
  }
};

// Bits [bit, bit + num_bits) of `bits`, as a digit in [0, 2^num_bits); num_bits in [1, 32].
template <class Bits>
__host__ __device__ inline unsigned radix_digit(Bits bits, int bit, int num_bits) {
  const auto shifted = static_cast<cuda::std::uint64_t>(bits) >> bit;
  return static_cast<unsigned>(shifted & ((cuda::std::uint64_t{1} << num_bits) - 1));
}

// The sort key restricted to the window [begin_bit, end_bit) of the ordered bits: what a radix
// sort over that window orders by (0 <= begin_bit <= end_bit <= key bits).
template <bool Descending, class Key>
__host__ __device__ inline cuda::std::uint64_t radix_window(Key key, int begin_bit, int end_bit) {
  using traits = radix_traits<Key>;
  if (begin_bit >= end_bit) return 0;
  const auto bits = static_cast<cuda::std::uint64_t>(traits::template to_sort_bits<Descending>(key));
  const int width = end_bit - begin_bit;
  const cuda::std::uint64_t mask = width >= 64 ? ~cuda::std::uint64_t{0} : ((cuda::std::uint64_t{1} << width) - 1);
  return (bits >> begin_bit) & mask;
}

}  // namespace upsweep
