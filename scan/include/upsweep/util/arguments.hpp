// Argument checks shared by the dispatch layers, run on a real call (never on a size query, which
// reads no pointer): a null pointer where items are read or written, and input and output ranges
// that overlap. Iterators other than raw pointers cannot be checked and pass. Host-only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

namespace upsweep::detail {

// For overloads that take an optional functor where others take the stream (unique(..., eq,
// stream) beside unique(..., stream)): keeps a stream from being deduced as the functor.
template <class F>
using if_not_stream = std::enable_if_t<!std::is_convertible_v<F, cudaStream_t>, int>;

template <class It>
constexpr bool is_null(const It& it) {
  if constexpr (std::is_pointer_v<It>) return it == nullptr;
  else return false;
}

// True when [a, a + n) and [b, b + n), as bytes of their element types, share a byte. Compared as
// integers (pointers into different allocations have no order in C++), in 128 bits so that no
// count can wrap.
template <class A, class B>
bool ranges_overlap(const A& a, const B& b, std::int64_t num_items) {
  if constexpr (std::is_pointer_v<A> && std::is_pointer_v<B>) {
    if (num_items <= 0) return false;
    using wide = unsigned __int128;
    const wide a_first = reinterpret_cast<std::uintptr_t>(a), b_first = reinterpret_cast<std::uintptr_t>(b);
    const wide a_last = a_first + static_cast<wide>(num_items) * sizeof(*a);
    const wide b_last = b_first + static_cast<wide>(num_items) * sizeof(*b);
    return a_first < b_last && b_first < a_last;
  } else {
    return false;
  }
}

// Overlap other than in place (the same start and element size): what "in place allowed, other
// overlaps not" rejects. In place from u8 to u32 would overwrite input not yet read.
template <class A, class B>
bool ranges_overlap_partly(const A& a, const B& b, std::int64_t num_items) {
  if constexpr (std::is_pointer_v<A> && std::is_pointer_v<B>) {
    if (sizeof(*a) == sizeof(*b) && static_cast<const volatile void*>(a) == static_cast<const volatile void*>(b))
      return false;
  }
  return ranges_overlap(a, b, num_items);
}

// Whether an input may take the 16-byte vector and cp.async paths: a pointer, const or not,
// 16-byte aligned (iterators never are). One template: beside an overload for `const T*`, a
// plain `int*` bound better to the iterators' overload and lost the fast paths.
template <class It>
bool is_aligned_16(const It& it) {
  if constexpr (std::is_pointer_v<It>) return reinterpret_cast<std::uintptr_t>(it) % 16 == 0;
  else return false;
}

}  // namespace upsweep::detail
