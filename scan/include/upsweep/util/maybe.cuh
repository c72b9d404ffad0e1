// A value that may be absent. Scans take any associative operator, which need not have an
// identity, so "nothing yet" (lane 0's exclusive prefix, tile 0's look-back) is a flag, not a value.
#pragma once

namespace upsweep {

template <class T>
struct maybe {
  T value;
  bool valid;
};

namespace detail {

// a then b, skipping whichever is absent.
template <class T, class Op>
__device__ __forceinline__ maybe<T> combine(const maybe<T>& a, const maybe<T>& b, Op& op) {
  if (!a.valid) return b;
  if (!b.valid) return a;
  return {op(a.value, b.value), true};
}

// prefix then value.
template <class T, class Op>
__device__ __forceinline__ T apply_prefix(const maybe<T>& prefix, const T& value, Op& op) {
  return prefix.valid ? op(prefix.value, value) : value;
}

}  // namespace detail
}  // namespace upsweep
