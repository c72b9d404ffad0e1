// Definitions of the compiled compaction API (see <upsweep/compact.hpp>), shared by the
// compact_api_*.cu files that instantiate them a few element types at a time. select_if,
// select_flagged, count_if, the partitions, unique and non_trivial_runs are the template layer's
// (unique: the select kernel with run-head flags), run_length_encode its own one-pass kernel
// (run_length_kernels.cuh).
#pragma once

#include <upsweep/compact.hpp>
#include <upsweep/compact/detail/host_count.hpp>
#include <upsweep/compact/detail/run_length_dispatch.cuh>
#include <upsweep/compact/device_partition.cuh>
#include <upsweep/compact/device_run_length_encode.cuh>
#include <upsweep/compact/device_select.cuh>
#include <upsweep/compact/device_unique.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <array>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class T>
cudaError_t unique_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,
                        std::int64_t* d_num_selected, std::int64_t num_items, cudaStream_t stream) {
  return upsweep::unique<void>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items,
                               cuda::std::equal_to<>{}, stream);
}

template <class T>
cudaError_t run_length_encode_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                                   T* d_unique_out, std::int64_t* d_run_lengths, std::int64_t* d_num_runs,
                                   std::int64_t num_items, cudaStream_t stream) {
  return dispatch_run_length_encode<default_run_length_policy<T>>(d_temp_storage, temp_storage_bytes, d_in,
                                                                  d_unique_out, d_run_lengths, d_num_runs, num_items,
                                                                  cuda::std::equal_to<>{}, stream);
}

}  // namespace upsweep::detail

#define UPSWEEP_COMPACT_CONVENIENCE(name, what, ...)                                                     \
  ::upsweep::detail::with_temp_storage("upsweep::" what, stream, [&](void* d_temp, std::size_t& bytes) { \
    return name(d_temp, bytes, __VA_ARGS__);                                                             \
  })

#define UPSWEEP_COMPACT_TO_HOST(what, call)                                                   \
  return ::upsweep::detail::count_to_host("upsweep::" what, stream, [&](std::int64_t* d_count) { \
    call;                                                                                        \
  })

#define UPSWEEP_DEFINE_COMPACT_API(T)                                                                                \
  namespace upsweep {                                                                                                \
  cudaError_t select_if(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,             \
                        std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,                    \
                        cudaStream_t stream) {                                                                      \
    return select_if<void>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, pred,         \
                           stream);                                                                                 \
  }                                                                                                                  \
  cudaError_t select_flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,                  \
                             const std::uint8_t* d_flags, T* d_out, std::int64_t* d_num_selected,                   \
                             std::int64_t num_items, cudaStream_t stream) {                                         \
    return select_flagged<void>(d_temp_storage, temp_storage_bytes, d_in, d_flags, d_out, d_num_selected, num_items, \
                                stream);                                                                            \
  }                                                                                                                  \
  cudaError_t count_if(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, std::int64_t* d_count, \
                       std::int64_t num_items, predicate<T> pred, cudaStream_t stream) {                            \
    return count_if<void>(d_temp_storage, temp_storage_bytes, d_in, d_count, num_items, pred, stream);               \
  }                                                                                                                  \
  cudaError_t stable_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,       \
                               std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,              \
                               cudaStream_t stream) {                                                                \
    return stable_partition<void>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, pred,  \
                                  stream);                                                                           \
  }                                                                                                                  \
  cudaError_t partition(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,              \
                        std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,                     \
                        cudaStream_t stream) {                                                                       \
    return partition<void>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, pred,         \
                           stream);                                                                                  \
  }                                                                                                                  \
  cudaError_t unique(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,                \
                     std::int64_t* d_num_selected, std::int64_t num_items, cudaStream_t stream) {                   \
    return detail::unique_core(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, stream);  \
  }                                                                                                                  \
  cudaError_t run_length_encode(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,               \
                                T* d_unique_out, std::int64_t* d_run_lengths, std::int64_t* d_num_runs,             \
                                std::int64_t num_items, cudaStream_t stream) {                                      \
    return detail::run_length_encode_core(d_temp_storage, temp_storage_bytes, d_in, d_unique_out, d_run_lengths,     \
                                          d_num_runs, num_items, stream);                                           \
  }                                                                                                                  \
  cudaError_t partition_three_way(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,             \
                                  T* d_first_out, T* d_second_out, T* d_unselected_out, std::int64_t* d_num_selected, \
                                  std::int64_t num_items, predicate<T> pred1, predicate<T> pred2,                    \
                                  cudaStream_t stream) {                                                             \
    return partition_three_way<void>(d_temp_storage, temp_storage_bytes, d_in, d_first_out, d_second_out,            \
                                     d_unselected_out, d_num_selected, num_items, pred1, pred2, stream);             \
  }                                                                                                                  \
  cudaError_t non_trivial_runs(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,                 \
                               std::int64_t* d_offsets, std::int64_t* d_lengths, std::int64_t* d_num_runs,          \
                               std::int64_t num_items, cudaStream_t stream) {                                       \
    return non_trivial_runs<void>(d_temp_storage, temp_storage_bytes, d_in, d_offsets, d_lengths, d_num_runs,        \
                                  num_items, stream);                                                               \
  }                                                                                                                  \
  void partition_three_way(const T* d_in, T* d_first_out, T* d_second_out, T* d_unselected_out,                     \
                           std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred1,                \
                           predicate<T> pred2, cudaStream_t stream) {                                               \
    UPSWEEP_COMPACT_CONVENIENCE(partition_three_way<void>, "partition_three_way", d_in, d_first_out, d_second_out,   \
                                d_unselected_out, d_num_selected, num_items, pred1, pred2, stream);                  \
  }                                                                                                                  \
  void non_trivial_runs(const T* d_in, std::int64_t* d_offsets, std::int64_t* d_lengths, std::int64_t* d_num_runs,  \
                        std::int64_t num_items, cudaStream_t stream) {                                              \
    UPSWEEP_COMPACT_CONVENIENCE(non_trivial_runs<void>, "non_trivial_runs", d_in, d_offsets, d_lengths, d_num_runs,  \
                                num_items, stream);                                                                 \
  }                                                                                                                  \
  std::array<std::int64_t, 2> partition_three_way(const T* d_in, T* d_first_out, T* d_second_out,                   \
                                                  T* d_unselected_out, std::int64_t num_items, predicate<T> pred1,  \
                                                  predicate<T> pred2, cudaStream_t stream) {                        \
    return detail::counts_to_host<2>("upsweep::partition_three_way", stream, [&](std::int64_t* d_counts) {           \
      partition_three_way(d_in, d_first_out, d_second_out, d_unselected_out, d_counts, num_items, pred1, pred2,      \
                          stream);                                                                                  \
    });                                                                                                              \
  }                                                                                                                  \
  std::int64_t non_trivial_runs(const T* d_in, std::int64_t* d_offsets, std::int64_t* d_lengths,                     \
                                std::int64_t num_items, cudaStream_t stream) {                                      \
    UPSWEEP_COMPACT_TO_HOST("non_trivial_runs", non_trivial_runs(d_in, d_offsets, d_lengths, d_count, num_items,     \
                                                                 stream));                                          \
  }                                                                                                                  \
  void select_if(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,  \
                 cudaStream_t stream) {                                                                             \
    UPSWEEP_COMPACT_CONVENIENCE(select_if<void>, "select_if", d_in, d_out, d_num_selected, num_items, pred, stream); \
  }                                                                                                                  \
  void select_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::int64_t* d_num_selected,           \
                      std::int64_t num_items, cudaStream_t stream) {                                                \
    UPSWEEP_COMPACT_CONVENIENCE(select_flagged<void>, "select_flagged", d_in, d_flags, d_out, d_num_selected,        \
                                num_items, stream);                                                                 \
  }                                                                                                                  \
  void count_if(const T* d_in, std::int64_t* d_count, std::int64_t num_items, predicate<T> pred,                    \
                cudaStream_t stream) {                                                                              \
    UPSWEEP_COMPACT_CONVENIENCE(count_if<void>, "count_if", d_in, d_count, num_items, pred, stream);                 \
  }                                                                                                                  \
  void stable_partition(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items,               \
                        predicate<T> pred, cudaStream_t stream) {                                                    \
    UPSWEEP_COMPACT_CONVENIENCE(stable_partition<void>, "stable_partition", d_in, d_out, d_num_selected, num_items,  \
                                pred, stream);                                                                       \
  }                                                                                                                  \
  void partition(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,   \
                 cudaStream_t stream) {                                                                              \
    UPSWEEP_COMPACT_CONVENIENCE(partition<void>, "partition", d_in, d_out, d_num_selected, num_items, pred, stream); \
  }                                                                                                                  \
  void unique(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items, cudaStream_t stream) { \
    UPSWEEP_COMPACT_CONVENIENCE(detail::unique_core, "unique", d_in, d_out, d_num_selected, num_items, stream);      \
  }                                                                                                                  \
  void run_length_encode(const T* d_in, T* d_unique_out, std::int64_t* d_run_lengths, std::int64_t* d_num_runs,     \
                         std::int64_t num_items, cudaStream_t stream) {                                             \
    UPSWEEP_COMPACT_CONVENIENCE(detail::run_length_encode_core, "run_length_encode", d_in, d_unique_out,             \
                                d_run_lengths, d_num_runs, num_items, stream);                                      \
  }                                                                                                                  \
  std::int64_t select_if(const T* d_in, T* d_out, std::int64_t num_items, predicate<T> pred, cudaStream_t stream) { \
    UPSWEEP_COMPACT_TO_HOST("select_if", select_if(d_in, d_out, d_count, num_items, pred, stream));                  \
  }                                                                                                                  \
  std::int64_t select_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::int64_t num_items,         \
                              cudaStream_t stream) {                                                                \
    UPSWEEP_COMPACT_TO_HOST("select_flagged", select_flagged(d_in, d_flags, d_out, d_count, num_items, stream));     \
  }                                                                                                                  \
  std::int64_t count_if(const T* d_in, std::int64_t num_items, predicate<T> pred, cudaStream_t stream) {            \
    UPSWEEP_COMPACT_TO_HOST("count_if", count_if(d_in, d_count, num_items, pred, stream));                           \
  }                                                                                                                  \
  std::int64_t stable_partition(const T* d_in, T* d_out, std::int64_t num_items, predicate<T> pred,                  \
                                cudaStream_t stream) {                                                               \
    UPSWEEP_COMPACT_TO_HOST("stable_partition", stable_partition(d_in, d_out, d_count, num_items, pred, stream));    \
  }                                                                                                                  \
  std::int64_t partition(const T* d_in, T* d_out, std::int64_t num_items, predicate<T> pred, cudaStream_t stream) {  \
    UPSWEEP_COMPACT_TO_HOST("partition", partition(d_in, d_out, d_count, num_items, pred, stream));                  \
  }                                                                                                                  \
  std::int64_t unique(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream) {                       \
    UPSWEEP_COMPACT_TO_HOST("unique", unique(d_in, d_out, d_count, num_items, stream));                              \
  }                                                                                                                  \
  std::int64_t run_length_encode(const T* d_in, T* d_unique_out, std::int64_t* d_run_lengths,                       \
                                 std::int64_t num_items, cudaStream_t stream) {                                     \
    UPSWEEP_COMPACT_TO_HOST("run_length_encode",                                                                     \
                            run_length_encode(d_in, d_unique_out, d_run_lengths, d_count, num_items, stream));       \
  }                                                                                                                  \
  }
