// What the radix sort kernels share (radix_sort_kernels.cuh): the value type of keys-only sorts,
// the passes one sort plans, the plan of which buffer each pass reads and writes, and the control
// block the passes find it in.
#pragma once

#include <upsweep/sort/detail/radix_sort_tuning.cuh>

#include <cuda/std/type_traits>

namespace upsweep::detail {

// Keys-only sorts carry this as their value type; no value is ever loaded or stored.
struct no_values {};

template <class Value>
inline constexpr bool has_values_v = !cuda::std::is_same_v<Value, no_values>;

// Passes one sort plans; a wider bit window (struct keys past 64 bits) is sorted by several
// sorts of at most max_radix_window_bits each, least significant window first.
inline constexpr int max_radix_passes = 64 / radix_bits;
inline constexpr int max_radix_window_bits = max_radix_passes * radix_bits;

// Digit positions the histogram counts for keys read through Codec.
template <class Codec>
inline constexpr int histogram_passes_v = (Codec::key_bits + radix_bits - 1) / radix_bits < max_radix_passes
                                              ? (Codec::key_bits + radix_bits - 1) / radix_bits
                                              : max_radix_passes;

// ---- the plan: which buffer each pass reads and writes --------------------------------------
enum sort_buffer : int { buffer_none = -1, buffer_in = 0, buffer_out = 1, buffer_alt = 2 };

struct radix_pass_plan {
  int src;  // buffer_none: every key has the same digit here, the pass does nothing
  int dst;
};

struct radix_sort_plan {
  radix_pass_plan pass[max_radix_passes];
  int copy_src;  // where the result lies when it is not already in out; buffer_none if it is
};

// Everything the passes share, cleared by one memset (with the look-back words) before the
// histogram.
struct radix_sort_control {
  unsigned long long digit_counts[max_radix_passes][radix_digits];  // exclusive-scanned in place
  unsigned long long tile_counters[max_radix_passes];
  radix_sort_plan plan;
};

template <class T>
struct sort_buffers {
  const T* in;
  T* out;
  T* alt;
  __device__ const T* source(int id) const { return id == buffer_in ? in : (id == buffer_out ? out : alt); }
  __device__ T* destination(int id) const { return id == buffer_out ? out : alt; }
};

}  // namespace upsweep::detail
