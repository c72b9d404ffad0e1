// Compiled API of stream compaction for the standard element types: callable from plain C++ (g++,
// no nvcc); only <cuda_runtime_api.h> types appear. Link Upsweep::compact. Predicates come from a
// fixed set (upsweep::predicate<T>: compare with a constant, range, even/odd, finite, nonzero,
// and their negations); the templates in <upsweep/compact.cuh> take any functor or device lambda.
//  - core form (d_temp_storage, temp_storage_bytes, ...) returns cudaError_t; with
//    d_temp_storage == nullptr it only writes the size. Never allocates or synchronises, so it
//    can be captured in a CUDA graph.
//  - convenience form (no storage arguments) allocates stream-ordered (cudaMallocAsync on
//    `stream`) and throws upsweep::cuda_error; asynchronous, except the forms that return a count
//    to the host: those synchronise `stream`.
//  - stable: kept items keep their input order. Counts are std::int64_t written to device memory
//    (d_num_selected, d_count, d_num_runs); nothing is written to an output at or past its count.
//  - num_items is 64-bit; negative counts are cudaErrorInvalidValue; n = 0 writes a count of 0.
// For each T in uint8/16/32/64_t, int8/16/32/64_t, float, double.
#pragma once

#include <upsweep/export.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define UPSWEEP_PREDICATE_HD __host__ __device__
#else
#define UPSWEEP_PREDICATE_HD
#endif

namespace upsweep {

enum class predicate_kind : std::int32_t {
  less, less_equal, greater, greater_equal, equal, not_equal,  // item op value
  in_range,                                                    // lower <= item < upper
  even, odd,       // integers by their low bit; floats only when they hold an integer (from 2^53 on, all even)
  finite,          // not inf or NaN (every integer is finite)
  nonzero,         // item != 0 (-0.0 is zero, NaN is nonzero)
};

// A predicate of the compiled API: a tag and constants of the element type, so comparisons are
// exact for every type (no rounding through double). Floats compare as C++ does: NaN fails every
// comparison but not_equal, and -0.0 == +0.0. `!p` negates (remove_if is select_if with !p).
// Trivially copyable; nvcc also runs it on the device, so the template layer takes it too.
template <class T>
struct predicate {
  predicate_kind kind = predicate_kind::nonzero;
  T value{};  // comparisons: the constant; in_range: the inclusive lower bound
  T upper{};  // in_range: the exclusive upper bound
  bool negated = false;

  static constexpr predicate less(T v) { return {predicate_kind::less, v}; }
  static constexpr predicate less_equal(T v) { return {predicate_kind::less_equal, v}; }
  static constexpr predicate greater(T v) { return {predicate_kind::greater, v}; }
  static constexpr predicate greater_equal(T v) { return {predicate_kind::greater_equal, v}; }
  static constexpr predicate equal(T v) { return {predicate_kind::equal, v}; }
  static constexpr predicate not_equal(T v) { return {predicate_kind::not_equal, v}; }
  static constexpr predicate in_range(T lower, T upper_bound) { return {predicate_kind::in_range, lower, upper_bound}; }
  static constexpr predicate even() { return {predicate_kind::even}; }
  static constexpr predicate odd() { return {predicate_kind::odd}; }
  static constexpr predicate finite() { return {predicate_kind::finite}; }
  static constexpr predicate nonzero() { return {predicate_kind::nonzero}; }

  constexpr predicate operator!() const { return {kind, value, upper, !negated}; }

  UPSWEEP_PREDICATE_HD constexpr bool operator()(T item) const { return test(item) != negated; }

 private:
  UPSWEEP_PREDICATE_HD constexpr bool test(T item) const {
    switch (kind) {
      case predicate_kind::less: return item < value;
      case predicate_kind::less_equal: return item <= value;
      case predicate_kind::greater: return item > value;
      case predicate_kind::greater_equal: return item >= value;
      case predicate_kind::equal: return item == value;
      case predicate_kind::not_equal: return item != value;
      case predicate_kind::in_range: return value <= item && item < upper;
      case predicate_kind::even: return parity(item) == 0;
      case predicate_kind::odd: return parity(item) == 1;
      case predicate_kind::finite:
        if constexpr (std::is_floating_point_v<T>) return item - item == T{0};  // inf - inf and NaN are NaN
        else return true;
      case predicate_kind::nonzero: return item != T{0};
    }
    return false;
  }
  // 0 even, 1 odd, -1 neither (a float that is not an integer, inf or NaN).
  UPSWEEP_PREDICATE_HD static constexpr int parity(T item) {
    if constexpr (std::is_floating_point_v<T>) {
      const double d = static_cast<double>(item);
      if (!(d - d == 0.0)) return -1;
      if (d >= 9007199254740992.0 || d <= -9007199254740992.0) return 0;  // 2^53 on: every double is even
      const auto i = static_cast<std::int64_t>(d);
      if (static_cast<double>(i) != d) return -1;
      return static_cast<int>(i & 1);
    } else {
      return static_cast<int>(item & 1);
    }
  }
};

#define UPSWEEP_DECLARE_COMPACT_API(T)                                                                                \
  /* Copies the items where pred is true, in order; d_out == d_in (in place) allowed; async. */                      \
  UPSWEEP_API cudaError_t select_if(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,  \
                                    std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,         \
                                    cudaStream_t stream = 0);                                                        \
  /* Copies the items whose flag byte is nonzero, in order; in place allowed (flags must not alias d_out); async. */ \
  UPSWEEP_API cudaError_t select_flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,      \
                                         const std::uint8_t* d_flags, T* d_out, std::int64_t* d_num_selected,       \
                                         std::int64_t num_items, cudaStream_t stream = 0);                           \
  /* Writes the number of items where pred is true to *d_count; writes no items; async. */                           \
  UPSWEEP_API cudaError_t count_if(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,            \
                                   std::int64_t* d_count, std::int64_t num_items, predicate<T> pred,                 \
                                   cudaStream_t stream = 0);                                                         \
  /* Items where pred is true first, then the others, both in input order (stable); *d_num_selected = the split;    \
     d_out must not overlap d_in; async. */                                                                          \
  UPSWEEP_API cudaError_t stable_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,    \
                                           T* d_out, std::int64_t* d_num_selected, std::int64_t num_items,          \
                                           predicate<T> pred, cudaStream_t stream = 0);                              \
  /* Items where pred is true first in input order, then the others in reverse input order (CUB's                    \
     DevicePartition::If); *d_num_selected = the split; d_out must not overlap d_in; async. */                       \
  UPSWEEP_API cudaError_t partition(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,  \
                                    std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,         \
                                    cudaStream_t stream = 0);                                                        \
  /* Keeps the first item of each run of equal consecutive items (==: NaNs never equal, -0.0 == +0.0, the first     \
     kept); d_out must not overlap d_in; async. */                                                                   \
  UPSWEEP_API cudaError_t unique(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,     \
                                 std::int64_t* d_num_selected, std::int64_t num_items, cudaStream_t stream = 0);     \
  /* Runs of equal consecutive items (as unique): their first items to d_unique_out, their lengths to               \
     d_run_lengths, the number of runs to *d_num_runs; outputs must not overlap d_in; async. */                      \
  UPSWEEP_API cudaError_t run_length_encode(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,   \
                                            T* d_unique_out, std::int64_t* d_run_lengths, std::int64_t* d_num_runs,  \
                                            std::int64_t num_items, cudaStream_t stream = 0);                        \
  /* Items where pred1 is true to d_first_out, those where pred1 is false and pred2 true to d_second_out, the others \
     to d_unselected_out, each in input order; the two parts' sizes to d_num_selected[0] and [1]; async. */          \
  UPSWEEP_API cudaError_t partition_three_way(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,  \
                                              T* d_first_out, T* d_second_out, T* d_unselected_out,                 \
                                              std::int64_t* d_num_selected, std::int64_t num_items,                 \
                                              predicate<T> pred1, predicate<T> pred2, cudaStream_t stream = 0);     \
  /* Runs longer than one item (as unique): each one's first index to d_offsets, its length to d_lengths, their      \
     number to *d_num_runs (CUB's NonTrivialRuns); outputs must not overlap d_in; async. */                          \
  UPSWEEP_API cudaError_t non_trivial_runs(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,    \
                                           std::int64_t* d_offsets, std::int64_t* d_lengths,                        \
                                           std::int64_t* d_num_runs, std::int64_t num_items,                        \
                                           cudaStream_t stream = 0);                                                 \
  /* Convenience select_if: stream-ordered temporaries, throws upsweep::cuda_error; async. */                         \
  UPSWEEP_API void select_if(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items,         \
                             predicate<T> pred, cudaStream_t stream = 0);                                            \
  /* Convenience select_flagged: stream-ordered temporaries, throws upsweep::cuda_error; async. */                    \
  UPSWEEP_API void select_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::int64_t* d_num_selected, \
                                  std::int64_t num_items, cudaStream_t stream = 0);                                  \
  /* Convenience count_if: the count stays on the device; throws upsweep::cuda_error; async. */                       \
  UPSWEEP_API void count_if(const T* d_in, std::int64_t* d_count, std::int64_t num_items, predicate<T> pred,         \
                            cudaStream_t stream = 0);                                                                \
  /* Convenience stable_partition: stream-ordered temporaries, throws upsweep::cuda_error; async. */                  \
  UPSWEEP_API void stable_partition(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items,  \
                                    predicate<T> pred, cudaStream_t stream = 0);                                     \
  /* Convenience partition: stream-ordered temporaries, throws upsweep::cuda_error; async. */                         \
  UPSWEEP_API void partition(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items,         \
                             predicate<T> pred, cudaStream_t stream = 0);                                            \
  /* Convenience unique: stream-ordered temporaries, throws upsweep::cuda_error; async. */                            \
  UPSWEEP_API void unique(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items,            \
                          cudaStream_t stream = 0);                                                                  \
  /* Convenience run_length_encode: stream-ordered temporaries, throws upsweep::cuda_error; async. */                 \
  UPSWEEP_API void run_length_encode(const T* d_in, T* d_unique_out, std::int64_t* d_run_lengths,                   \
                                     std::int64_t* d_num_runs, std::int64_t num_items, cudaStream_t stream = 0);     \
  /* Convenience partition_three_way and non_trivial_runs: stream-ordered temporaries, throw cuda_error; async. */    \
  UPSWEEP_API void partition_three_way(const T* d_in, T* d_first_out, T* d_second_out, T* d_unselected_out,         \
                                       std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred1,    \
                                       predicate<T> pred2, cudaStream_t stream = 0);                                 \
  UPSWEEP_API void non_trivial_runs(const T* d_in, std::int64_t* d_offsets, std::int64_t* d_lengths,                \
                                    std::int64_t* d_num_runs, std::int64_t num_items, cudaStream_t stream = 0);      \
  /* select_if returning the count to the host: synchronises `stream`; throws upsweep::cuda_error. */                \
  UPSWEEP_API std::int64_t select_if(const T* d_in, T* d_out, std::int64_t num_items, predicate<T> pred,            \
                                     cudaStream_t stream = 0);                                                       \
  /* select_flagged returning the count to the host: synchronises `stream`; throws upsweep::cuda_error. */           \
  UPSWEEP_API std::int64_t select_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out,                     \
                                          std::int64_t num_items, cudaStream_t stream = 0);                          \
  /* count_if returning the count to the host: synchronises `stream`; throws upsweep::cuda_error. */                 \
  UPSWEEP_API std::int64_t count_if(const T* d_in, std::int64_t num_items, predicate<T> pred,                       \
                                    cudaStream_t stream = 0);                                                        \
  /* stable_partition returning the split point to the host: synchronises `stream`; throws cuda_error. */         \
  UPSWEEP_API std::int64_t stable_partition(const T* d_in, T* d_out, std::int64_t num_items, predicate<T> pred,     \
                                            cudaStream_t stream = 0);                                                \
  /* partition returning the split point to the host: synchronises `stream`; throws upsweep::cuda_error. */          \
  UPSWEEP_API std::int64_t partition(const T* d_in, T* d_out, std::int64_t num_items, predicate<T> pred,            \
                                     cudaStream_t stream = 0);                                                       \
  /* unique returning the count to the host: synchronises `stream`; throws upsweep::cuda_error. */                   \
  UPSWEEP_API std::int64_t unique(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);         \
  /* run_length_encode returning the number of runs to the host: synchronises `stream`; throws cuda_error. */        \
  UPSWEEP_API std::int64_t run_length_encode(const T* d_in, T* d_unique_out, std::int64_t* d_run_lengths,           \
                                             std::int64_t num_items, cudaStream_t stream = 0);                        \
  /* partition_three_way returning the two parts' sizes to the host: synchronises `stream`; throws cuda_error. */    \
  UPSWEEP_API std::array<std::int64_t, 2> partition_three_way(const T* d_in, T* d_first_out, T* d_second_out,       \
                                                              T* d_unselected_out, std::int64_t num_items,          \
                                                              predicate<T> pred1, predicate<T> pred2,               \
                                                              cudaStream_t stream = 0);                             \
  /* non_trivial_runs returning their number to the host: synchronises `stream`; throws upsweep::cuda_error. */      \
  UPSWEEP_API std::int64_t non_trivial_runs(const T* d_in, std::int64_t* d_offsets, std::int64_t* d_lengths,        \
                                            std::int64_t num_items, cudaStream_t stream = 0);

UPSWEEP_DECLARE_COMPACT_API(std::uint8_t)
UPSWEEP_DECLARE_COMPACT_API(std::uint16_t)
UPSWEEP_DECLARE_COMPACT_API(std::uint32_t)
UPSWEEP_DECLARE_COMPACT_API(std::uint64_t)
UPSWEEP_DECLARE_COMPACT_API(std::int8_t)
UPSWEEP_DECLARE_COMPACT_API(std::int16_t)
UPSWEEP_DECLARE_COMPACT_API(std::int32_t)
UPSWEEP_DECLARE_COMPACT_API(std::int64_t)
UPSWEEP_DECLARE_COMPACT_API(float)
UPSWEEP_DECLARE_COMPACT_API(double)

#undef UPSWEEP_DECLARE_COMPACT_API

}  // namespace upsweep
