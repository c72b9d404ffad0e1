// Definitions of the compiled compaction API (see <upsweep/compact.hpp>), shared by the
// compact_api_*.cu files that instantiate them a few element types at a time. select_if,
// select_flagged, count_if and partition are the template layer's; unique and run_length_encode
// are the select kernel with run-head flags (select_kernels.cuh, run_head_flags: no kernel of
// their own but the final gather of run_length_encode).
#pragma once

#include <upsweep/compact.hpp>
#include <upsweep/compact/detail/host_count.hpp>
#include <upsweep/compact/device_partition.cuh>
#include <upsweep/compact/device_select.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

// 0, 1, 2, ...: the positions the select keeps when run_length_encode asks where runs start.
struct position_iterator {
  using value_type = std::int64_t;
  using difference_type = long long;
  using pointer = void;
  using reference = std::int64_t;
  using iterator_category = cuda::std::random_access_iterator_tag;

  long long first;

  __host__ __device__ position_iterator operator+(long long offset) const { return {first + offset}; }
  __device__ std::int64_t operator[](long long i) const { return first + i; }
};

// Positions are made up, not read: select's output cannot alias them (relaxed tile state).
template <>
struct generates_items<position_iterator> : cuda::std::true_type {};

// Run k starts at d_starts[k] and ends where run k + 1 starts (the last one at num_items).
template <class T>
__global__ void gather_runs_kernel(const T* d_in, const std::int64_t* d_starts, const std::int64_t* d_num_runs,
                                   long long num_items, T* d_unique_out, std::int64_t* d_run_lengths) {
  const long long num_runs = *d_num_runs;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; k < num_runs; k += stride) {
    const long long start = d_starts[k];
    const long long end = k + 1 < num_runs ? d_starts[k + 1] : num_items;
    d_unique_out[k] = d_in[start];
    d_run_lengths[k] = end - start;
  }
}

inline constexpr int gather_block_threads = 256;
inline constexpr long long gather_max_blocks = 4096;

template <class T>
cudaError_t unique_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,
                        std::int64_t* d_num_selected, std::int64_t num_items, cudaStream_t stream) {
  // The run-head flags read d_in[i - 1], which an in-place output may already have replaced.
  if (d_temp_storage != nullptr && ranges_overlap(d_in, d_out, num_items)) return cudaErrorInvalidValue;
  return dispatch_select<select_policy_t<void, const T*>, select_output::survivors>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, run_head_flags<T, true>{d_in},
      stream);
}

// Temporary storage: the select's, then num_items run starts.
template <class T>
cudaError_t run_length_encode_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                                   T* d_unique_out, std::int64_t* d_run_lengths, std::int64_t* d_num_runs,
                                   std::int64_t num_items, cudaStream_t stream) {
  if (num_items < 0) return cudaErrorInvalidValue;
  std::size_t select_bytes = 0;
  const auto select_starts = [&](void* d_temp, std::int64_t* d_starts) {
    return dispatch_select<select_policy_t<void, position_iterator>, select_output::survivors>(
        d_temp, select_bytes, position_iterator{0}, d_starts, d_num_runs, num_items, run_head_flags<T, false>{d_in},
        stream);
  };
  UPSWEEP_CUDA_RETURN(select_starts(nullptr, nullptr));
  void* allocations[2] = {};
  const std::size_t sizes[2] = {select_bytes, static_cast<std::size_t>(num_items) * sizeof(std::int64_t)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (num_items > 0 && (d_in == nullptr || d_unique_out == nullptr || d_run_lengths == nullptr))
    return cudaErrorInvalidValue;
  if (ranges_overlap(d_in, d_unique_out, num_items) || ranges_overlap(d_in, d_run_lengths, num_items))
    return cudaErrorInvalidValue;  // the gather reads d_in after the select wrote its outputs
  auto* d_starts = static_cast<std::int64_t*>(allocations[1]);
  UPSWEEP_CUDA_RETURN(select_starts(allocations[0], d_starts));  // also writes *d_num_runs = 0 for n = 0
  if (num_items == 0) return cudaSuccess;
  const long long wanted = ceil_div<long long>(num_items, gather_block_threads);
  const unsigned grid = static_cast<unsigned>(wanted < gather_max_blocks ? wanted : gather_max_blocks);
  gather_runs_kernel<<<grid, gather_block_threads, 0, stream>>>(d_in, d_starts, d_num_runs, num_items, d_unique_out,
                                                                 d_run_lengths);
  return cudaGetLastError();
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
  cudaError_t partition(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,             \
                        std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,                    \
                        cudaStream_t stream) {                                                                      \
    return partition<void>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, pred,         \
                           stream);                                                                                 \
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
  void partition(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items, predicate<T> pred,  \
                 cudaStream_t stream) {                                                                             \
    UPSWEEP_COMPACT_CONVENIENCE(partition<void>, "partition", d_in, d_out, d_num_selected, num_items, pred, stream); \
  }                                                                                                                  \
  void unique(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t num_items, cudaStream_t stream) { \
    UPSWEEP_COMPACT_CONVENIENCE(detail::unique_core, "unique", d_in, d_out, d_num_selected, num_items, stream);       \
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
  std::int64_t partition(const T* d_in, T* d_out, std::int64_t num_items, predicate<T> pred, cudaStream_t stream) { \
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
