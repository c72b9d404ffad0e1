// Key layer of radix sort for user structs: a decomposer names a key's arithmetic members, most
// significant first, and the sort orders keys by those members' ordered bits (each member's own
// radix_traits: signed integers, floats with -0.0 == +0.0 and NaNs by bit pattern) side by side.
// Host and device, so the host tests check the bit numbering without a GPU.
//
// A decomposer is a functor `cuda::std::tuple<M0&, M1&, ...> operator()(Key& key) const` (CUB's
// shape; returning the members by value, or taking `const Key&`, works too). Bit numbering of the
// concatenated key, the one [begin_bit, end_bit) refers to: bit 0 is bit 0 of the last (least
// significant) member's ordered bits, the last member's top bit comes next to the first bit of the
// member before it, and so on up to key_bits = the sum of the members' widths. For (u32 group,
// float score): bits [0, 32) are the score's, [32, 64) the group's.
#pragma once

#include <upsweep/sort/radix_traits.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

namespace upsweep {

namespace detail {

template <class T>
using remove_cvref_t = cuda::std::remove_cv_t<cuda::std::remove_reference_t<T>>;

template <class Tuple>
struct member_types {
  static constexpr bool valid = false;
};
template <class... Members>
struct member_types<cuda::std::tuple<Members...>> {
  static constexpr bool valid = sizeof...(Members) > 0 && (is_radix_key_v<remove_cvref_t<Members>> && ...);
  using type = cuda::std::tuple<remove_cvref_t<Members>...>;
};

// What the decomposer returns for a key held in a local variable (kernels decompose copies).
template <class Key, class Decomposer, class = void>
struct decomposition {
  static constexpr bool valid = false;
};
template <class Key, class Decomposer>
struct decomposition<Key, Decomposer,
                     cuda::std::void_t<decltype(cuda::std::declval<const Decomposer&>()(cuda::std::declval<Key&>()))>> {
  using result_t = remove_cvref_t<decltype(cuda::std::declval<const Decomposer&>()(cuda::std::declval<Key&>()))>;
  static constexpr bool valid = member_types<result_t>::valid && cuda::std::is_trivially_copyable_v<Key>;
};

// Widths and places of the members in the concatenated key.
template <class Members>
struct member_layout;
template <class... Members>
struct member_layout<cuda::std::tuple<Members...>> {
  static constexpr int count = static_cast<int>(sizeof...(Members));
  static constexpr int key_bits = (static_cast<int>(sizeof(Members) * 8) + ...);
  using sort_bits_t = cuda::std::tuple<typename radix_traits<Members>::bits_t...>;
  __host__ __device__ static constexpr int bits(int member) {
    constexpr int widths[] = {static_cast<int>(sizeof(Members) * 8)...};
    return member >= 0 && member < count ? widths[member] : 0;
  }
  __host__ __device__ static constexpr int low_bit(int member) {
    int low = 0;
    for (int m = member + 1; m < count; ++m) low += bits(m);
    return low;
  }
};

}  // namespace detail

// True when Decomposer maps a Key to a tuple of one or more radix keys (integers, floats, __half, bf16).
template <class Key, class Decomposer>
inline constexpr bool is_decomposer_v = detail::decomposition<Key, Decomposer>::valid;

template <class Key, class Decomposer>
struct decomposed_traits {
  static_assert(is_decomposer_v<Key, Decomposer>,
                "a decomposer returns cuda::std::tuple<M&...> of radix-key members (integers, floats, __half, bf16) "
                "of a trivially copyable key");
  using members_t = typename detail::member_types<typename detail::decomposition<Key, Decomposer>::result_t>::type;
  using layout = detail::member_layout<members_t>;
  static constexpr int member_count = layout::count;
  static constexpr int key_bits = layout::key_bits;
  template <int Member>
  using member_t = cuda::std::tuple_element_t<Member, members_t>;
  // Each member's ordered bits (radix_traits::bits_t), in the decomposer's order.
  using sort_bits_t = typename layout::sort_bits_t;

  // Width of member `member` (0 = most significant), in bits.
  __host__ __device__ static constexpr int member_bits(int member) { return layout::bits(member); }
  // The concatenated bit that holds bit 0 of member `member`: the widths of the members after it.
  __host__ __device__ static constexpr int member_low_bit(int member) { return layout::low_bit(member); }
  // The member holding concatenated bit `bit`, or -1 outside [0, key_bits).
  __host__ __device__ static constexpr int member_of_bit(int bit) {
    if (bit < 0 || bit >= key_bits) return -1;
    int member = member_count - 1;
    while (bit >= layout::low_bit(member) + layout::bits(member)) --member;
    return member;
  }

  template <bool Descending>
  __host__ __device__ static sort_bits_t to_sort_bits(Key key, const Decomposer& decompose) {
    return sort_bits_of<Descending>(decompose(key), indices{});  // key is a copy: Key& decomposers bind to it
  }

  // Bits [bit, bit + num_bits) of the concatenated ordered bits, num_bits in [1, 32]: a digit may
  // span two members (or more, when members are narrower than a digit).
  __host__ __device__ static unsigned digit(const sort_bits_t& bits, int bit, int num_bits) {
    return digit_of(bits, bit, num_bits, indices{});
  }

 private:
  using indices = cuda::std::make_index_sequence<static_cast<cuda::std::size_t>(member_count)>;

  template <bool Descending, class Members, cuda::std::size_t... I>
  __host__ __device__ static sort_bits_t sort_bits_of(const Members& members, cuda::std::index_sequence<I...>) {
    return sort_bits_t{
        radix_traits<member_t<static_cast<int>(I)>>::template to_sort_bits<Descending>(cuda::std::get<I>(members))...};
  }

  // The part of the digit that member I holds, shifted to its place in the digit.
  template <cuda::std::size_t I>
  __host__ __device__ static cuda::std::uint64_t digit_part(const sort_bits_t& bits, int bit, int num_bits) {
    constexpr int low = layout::low_bit(static_cast<int>(I));
    constexpr int width = layout::bits(static_cast<int>(I));
    const int from = bit > low ? bit : low;
    const int to = bit + num_bits < low + width ? bit + num_bits : low + width;
    if (from >= to) return 0;
    const auto member = static_cast<cuda::std::uint64_t>(cuda::std::get<I>(bits)) >> (from - low);
    return (member & ((cuda::std::uint64_t{1} << (to - from)) - 1)) << (from - bit);  // to - from <= 32
  }

  template <cuda::std::size_t... I>
  __host__ __device__ static unsigned digit_of(const sort_bits_t& bits, int bit, int num_bits,
                                               cuda::std::index_sequence<I...>) {
    return static_cast<unsigned>((digit_part<I>(bits, bit, num_bits) | ...));
  }
};

template <class Key, class Decomposer>
inline constexpr int decomposed_key_bits_v = decomposed_traits<Key, Decomposer>::key_bits;

}  // namespace upsweep
