// Compiled API of the host-to-host sort for the standard key and value types: plain C++ (g++, no
// nvcc); link Upsweep::sort. The contracts are those of <upsweep/sort/host_radix_sort.cuh>:
//  - keys and values in host memory (pinned or pageable), possibly larger than the device, sorted
//    within a device budget: stable, the device sort's order bit for bit, over [begin_bit, end_bit).
//  - core form (host_sort_storage&, ...) returns cudaError_t: a query with storage.d_storage null
//    (storage.device_bytes = the budget, 0 for none) writes the device and pinned staging bytes;
//    the call allocates nothing and BLOCKS until the output is in host memory (not graph-capturable).
//  - convenience form allocates (device memory stream-ordered, pinned staging when needed) and
//    throws upsweep::cuda_error; options.device_budget_bytes defaults to 95 % of free memory.
//  - in place (out == in) only when the data fits the budget or a host scratch is given; else
//    cudaErrorInvalidValue. A pageable scratch beside pinned arrays is used only in place.
//  - stream forms (host_stream<K>&, ...): the input read from and the output written to the
//    caller's streams (a file, say) through pinned staging, never whole in host memory; a failed
//    move returns cudaErrorUnknown with its code in the stream's `error` (convenience:
//    std::system_error). Out of core they need the host scratch (the convenience form allocates one).
// Keys K: uint8/16/32/64_t, int8/16/32/64_t, float, double. Values V: uint32_t, int32_t, float,
// uint64_t, int64_t, double.
#pragma once

#include <upsweep/export.hpp>
#include <upsweep/sort/host_sort_types.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

#define UPSWEEP_DECLARE_HOST_SORT_KEYS_API(K)                                                                         \
  /* Stable ascending sort of host keys through the device, within storage.device_bytes; blocking. */                \
  UPSWEEP_API cudaError_t host_sort_keys(host_sort_storage& storage, const K* h_keys_in, K* h_keys_out,             \
                                         std::int64_t num_items, int begin_bit = 0, int end_bit = 8 * sizeof(K),    \
                                         cudaStream_t stream = 0);                                                   \
  /* Stable descending sort of host keys; blocking. */                                                               \
  UPSWEEP_API cudaError_t host_sort_keys_descending(host_sort_storage& storage, const K* h_keys_in, K* h_keys_out,  \
                                                    std::int64_t num_items, int begin_bit = 0,                       \
                                                    int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);           \
  /* Convenience host_sort_keys: allocates what it needs, throws upsweep::cuda_error; blocking. */                   \
  UPSWEEP_API void host_sort_keys(const K* h_keys_in, K* h_keys_out, std::int64_t num_items, int begin_bit = 0,     \
                                  int end_bit = 8 * sizeof(K), host_sort_options options = {},                       \
                                  cudaStream_t stream = 0);                                                          \
  /* Convenience host_sort_keys_descending. */                                                                       \
  UPSWEEP_API void host_sort_keys_descending(const K* h_keys_in, K* h_keys_out, std::int64_t num_items,             \
                                             int begin_bit = 0, int end_bit = 8 * sizeof(K),                         \
                                             host_sort_options options = {}, cudaStream_t stream = 0);               \
  /* The same four from the caller's host streams to others (host_stream_base). */                                   \
  UPSWEEP_API cudaError_t host_sort_keys(host_sort_storage& storage, host_stream<K>& keys_in,                        \
                                         host_stream<K>& keys_out, std::int64_t num_items, int begin_bit = 0,       \
                                         int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);                      \
  UPSWEEP_API cudaError_t host_sort_keys_descending(host_sort_storage& storage, host_stream<K>& keys_in,             \
                                                    host_stream<K>& keys_out, std::int64_t num_items,               \
                                                    int begin_bit = 0, int end_bit = 8 * sizeof(K),                  \
                                                    cudaStream_t stream = 0);                                        \
  UPSWEEP_API void host_sort_keys(host_stream<K>& keys_in, host_stream<K>& keys_out, std::int64_t num_items,        \
                                  int begin_bit = 0, int end_bit = 8 * sizeof(K), host_sort_options options = {},    \
                                  cudaStream_t stream = 0);                                                          \
  UPSWEEP_API void host_sort_keys_descending(host_stream<K>& keys_in, host_stream<K>& keys_out,                     \
                                             std::int64_t num_items, int begin_bit = 0, int end_bit = 8 * sizeof(K), \
                                             host_sort_options options = {}, cudaStream_t stream = 0);

#define UPSWEEP_DECLARE_HOST_SORT_PAIRS_API(K, V)                                                                     \
  /* Stable ascending sort of host pairs (values moved with their keys); blocking. */                                \
  UPSWEEP_API cudaError_t host_sort_pairs(host_sort_storage& storage, const K* h_keys_in, K* h_keys_out,            \
                                          const V* h_values_in, V* h_values_out, std::int64_t num_items,            \
                                          int begin_bit = 0, int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);  \
  /* Stable descending sort of host pairs; blocking. */                                                              \
  UPSWEEP_API cudaError_t host_sort_pairs_descending(host_sort_storage& storage, const K* h_keys_in, K* h_keys_out, \
                                                     const V* h_values_in, V* h_values_out, std::int64_t num_items, \
                                                     int begin_bit = 0, int end_bit = 8 * sizeof(K),                 \
                                                     cudaStream_t stream = 0);                                       \
  /* Convenience host_sort_pairs: allocates what it needs, throws upsweep::cuda_error; blocking. */                  \
  UPSWEEP_API void host_sort_pairs(const K* h_keys_in, K* h_keys_out, const V* h_values_in, V* h_values_out,        \
                                   std::int64_t num_items, int begin_bit = 0, int end_bit = 8 * sizeof(K),           \
                                   host_sort_options options = {}, cudaStream_t stream = 0);                         \
  /* Convenience host_sort_pairs_descending. */                                                                      \
  UPSWEEP_API void host_sort_pairs_descending(const K* h_keys_in, K* h_keys_out, const V* h_values_in,              \
                                              V* h_values_out, std::int64_t num_items, int begin_bit = 0,           \
                                              int end_bit = 8 * sizeof(K), host_sort_options options = {},           \
                                              cudaStream_t stream = 0);                                              \
  /* The same four from the caller's host streams to others (host_stream_base). */                                   \
  UPSWEEP_API cudaError_t host_sort_pairs(host_sort_storage& storage, host_stream<K>& keys_in,                       \
                                          host_stream<K>& keys_out, host_stream<V>& values_in,                      \
                                          host_stream<V>& values_out, std::int64_t num_items, int begin_bit = 0,    \
                                          int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);                     \
  UPSWEEP_API cudaError_t host_sort_pairs_descending(host_sort_storage& storage, host_stream<K>& keys_in,            \
                                                     host_stream<K>& keys_out, host_stream<V>& values_in,           \
                                                     host_stream<V>& values_out, std::int64_t num_items,            \
                                                     int begin_bit = 0, int end_bit = 8 * sizeof(K),                 \
                                                     cudaStream_t stream = 0);                                       \
  UPSWEEP_API void host_sort_pairs(host_stream<K>& keys_in, host_stream<K>& keys_out, host_stream<V>& values_in,    \
                                   host_stream<V>& values_out, std::int64_t num_items, int begin_bit = 0,           \
                                   int end_bit = 8 * sizeof(K), host_sort_options options = {},                      \
                                   cudaStream_t stream = 0);                                                         \
  UPSWEEP_API void host_sort_pairs_descending(host_stream<K>& keys_in, host_stream<K>& keys_out,                    \
                                              host_stream<V>& values_in, host_stream<V>& values_out,                \
                                              std::int64_t num_items, int begin_bit = 0, int end_bit = 8 * sizeof(K), \
                                              host_sort_options options = {}, cudaStream_t stream = 0);

#define UPSWEEP_DECLARE_HOST_SORT_API(K)                  \
  UPSWEEP_DECLARE_HOST_SORT_KEYS_API(K)                   \
  UPSWEEP_DECLARE_HOST_SORT_PAIRS_API(K, std::uint32_t)   \
  UPSWEEP_DECLARE_HOST_SORT_PAIRS_API(K, std::int32_t)    \
  UPSWEEP_DECLARE_HOST_SORT_PAIRS_API(K, float)           \
  UPSWEEP_DECLARE_HOST_SORT_PAIRS_API(K, std::uint64_t)   \
  UPSWEEP_DECLARE_HOST_SORT_PAIRS_API(K, std::int64_t)    \
  UPSWEEP_DECLARE_HOST_SORT_PAIRS_API(K, double)

UPSWEEP_DECLARE_HOST_SORT_API(std::uint8_t)
UPSWEEP_DECLARE_HOST_SORT_API(std::uint16_t)
UPSWEEP_DECLARE_HOST_SORT_API(std::uint32_t)
UPSWEEP_DECLARE_HOST_SORT_API(std::uint64_t)
UPSWEEP_DECLARE_HOST_SORT_API(std::int8_t)
UPSWEEP_DECLARE_HOST_SORT_API(std::int16_t)
UPSWEEP_DECLARE_HOST_SORT_API(std::int32_t)
UPSWEEP_DECLARE_HOST_SORT_API(std::int64_t)
UPSWEEP_DECLARE_HOST_SORT_API(float)
UPSWEEP_DECLARE_HOST_SORT_API(double)

#undef UPSWEEP_DECLARE_HOST_SORT_API
#undef UPSWEEP_DECLARE_HOST_SORT_PAIRS_API
#undef UPSWEEP_DECLARE_HOST_SORT_KEYS_API

}  // namespace upsweep
