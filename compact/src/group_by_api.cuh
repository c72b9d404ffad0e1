// Definitions of the compiled group-by API (see <upsweep/group_by.hpp>), shared by the
// group_by_api_*.cu files that instantiate them one key type class at a time. Types that behave
// alike share a kernel: integer keys compare under == exactly when their bits are equal, and
// wrapping sums of signed and unsigned integers of one width have the same bits, so both go
// through the unsigned type of their width; unique_by_key copies values as words of their size.
#pragma once

#include <upsweep/compact/detail/host_count.hpp>
#include <upsweep/compact/device_reduce_by_key.cuh>
#include <upsweep/compact/device_scan_by_key.cuh>
#include <upsweep/compact/device_unique.cuh>
#include <upsweep/group_by.hpp>
#include <upsweep/scan/device_reduce.cuh>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class T>
using unsigned_if_integral_t =
    typename cuda::std::conditional_t<cuda::std::is_integral_v<T>, cuda::std::make_unsigned<T>,
                                      cuda::std::type_identity<T>>::type;
template <class T>
using word_of_size_t = cuda::std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

// The same bits seen as To (const kept).
template <class To, class From>
const To* as(const From* p) {
  static_assert(sizeof(To) == sizeof(From), "same width");
  return reinterpret_cast<const To*>(p);
}
template <class To, class From>
To* as(From* p) {
  static_assert(sizeof(To) == sizeof(From), "same width");
  return reinterpret_cast<To*>(p);
}

template <class K, class V>
cudaError_t unique_by_key_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                               const V* d_values_in, K* d_keys_out, V* d_values_out, std::int64_t* d_num_runs,
                               std::int64_t num_items, cudaStream_t stream) {
  using key_t = unsigned_if_integral_t<K>;
  using value_t = word_of_size_t<V>;
  return upsweep::unique_by_key<void>(d_temp_storage, temp_storage_bytes, as<key_t>(d_keys_in),
                                      as<value_t>(d_values_in), as<key_t>(d_keys_out), as<value_t>(d_values_out),
                                      d_num_runs, num_items, cuda::std::equal_to<>{}, stream);
}

template <class K, class V, class Op>
cudaError_t reduce_by_key_as(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                             const V* d_values_in, K* d_unique_keys_out, V* d_aggregates_out,
                             std::int64_t* d_num_runs, std::int64_t num_items, Op op, cudaStream_t stream) {
  using key_t = unsigned_if_integral_t<K>;
  return upsweep::reduce_by_key<void>(d_temp_storage, temp_storage_bytes, as<key_t>(d_keys_in), d_values_in,
                                      as<key_t>(d_unique_keys_out), d_aggregates_out, d_num_runs, num_items, op,
                                      cuda::std::equal_to<>{}, stream);
}

template <class K, class V>
cudaError_t reduce_by_key_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                               const V* d_values_in, K* d_unique_keys_out, V* d_aggregates_out,
                               std::int64_t* d_num_runs, std::int64_t num_items, reduction op, cudaStream_t stream) {
  using sum_t = unsigned_if_integral_t<V>;
  switch (op) {
    case reduction::sum:
      return reduce_by_key_as(d_temp_storage, temp_storage_bytes, d_keys_in, as<sum_t>(d_values_in),
                              d_unique_keys_out, as<sum_t>(d_aggregates_out), d_num_runs, num_items,
                              cuda::std::plus<sum_t>{}, stream);
    case reduction::min:
      return reduce_by_key_as(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_unique_keys_out,
                              d_aggregates_out, d_num_runs, num_items, minimum{}, stream);
    case reduction::max:
      return reduce_by_key_as(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_unique_keys_out,
                              d_aggregates_out, d_num_runs, num_items, maximum{}, stream);
  }
  return cudaErrorInvalidValue;
}

template <bool Inclusive, class K, class V>
cudaError_t sum_by_key_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                            const V* d_values_in, V* d_values_out, std::int64_t num_items, cudaStream_t stream) {
  using key_t = unsigned_if_integral_t<K>;
  using sum_t = unsigned_if_integral_t<V>;
  if constexpr (Inclusive)
    return upsweep::inclusive_scan_by_key<void>(d_temp_storage, temp_storage_bytes, as<key_t>(d_keys_in),
                                                as<sum_t>(d_values_in), as<sum_t>(d_values_out), num_items,
                                                cuda::std::plus<sum_t>{}, cuda::std::equal_to<>{}, stream);
  else
    return upsweep::exclusive_scan_by_key<void>(d_temp_storage, temp_storage_bytes, as<key_t>(d_keys_in),
                                                as<sum_t>(d_values_in), as<sum_t>(d_values_out), num_items, sum_t{},
                                                cuda::std::plus<sum_t>{}, cuda::std::equal_to<>{}, stream);
}

template <class K, class V>
cudaError_t inclusive_sum_by_key_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                      const V* d_values_in, V* d_values_out, std::int64_t num_items,
                                      cudaStream_t stream) {
  return sum_by_key_core<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out, num_items,
                               stream);
}
template <class K, class V>
cudaError_t exclusive_sum_by_key_core(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                      const V* d_values_in, V* d_values_out, std::int64_t num_items,
                                      cudaStream_t stream) {
  return sum_by_key_core<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out, num_items,
                                stream);
}

}  // namespace upsweep::detail

#define UPSWEEP_GROUP_BY_CONVENIENCE(name, ...)                                                            \
  ::upsweep::detail::with_temp_storage("upsweep::" #name, stream, [&](void* d_temp, std::size_t& bytes) { \
    return ::upsweep::detail::name##_core(d_temp, bytes, __VA_ARGS__);                                     \
  })

#define UPSWEEP_DEFINE_GROUP_BY_API(K, V)                                                                             \
  namespace upsweep {                                                                                                 \
  cudaError_t unique_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,               \
                            const V* d_values_in, K* d_keys_out, V* d_values_out, std::int64_t* d_num_runs,          \
                            std::int64_t num_items, cudaStream_t stream) {                                           \
    return detail::unique_by_key_core(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_keys_out,         \
                                      d_values_out, d_num_runs, num_items, stream);                                  \
  }                                                                                                                   \
  cudaError_t reduce_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,               \
                            const V* d_values_in, K* d_unique_keys_out, V* d_aggregates_out,                         \
                            std::int64_t* d_num_runs, std::int64_t num_items, reduction op, cudaStream_t stream) {   \
    return detail::reduce_by_key_core(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_unique_keys_out,  \
                                      d_aggregates_out, d_num_runs, num_items, op, stream);                          \
  }                                                                                                                   \
  cudaError_t inclusive_sum_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,        \
                                   const V* d_values_in, V* d_values_out, std::int64_t num_items,                    \
                                   cudaStream_t stream) {                                                            \
    return detail::inclusive_sum_by_key_core(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,             \
                                             d_values_out, num_items, stream);                                       \
  }                                                                                                                   \
  cudaError_t exclusive_sum_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,        \
                                   const V* d_values_in, V* d_values_out, std::int64_t num_items,                    \
                                   cudaStream_t stream) {                                                            \
    return detail::exclusive_sum_by_key_core(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,             \
                                             d_values_out, num_items, stream);                                       \
  }                                                                                                                   \
  void unique_by_key(const K* d_keys_in, const V* d_values_in, K* d_keys_out, V* d_values_out,                       \
                     std::int64_t* d_num_runs, std::int64_t num_items, cudaStream_t stream) {                        \
    UPSWEEP_GROUP_BY_CONVENIENCE(unique_by_key, d_keys_in, d_values_in, d_keys_out, d_values_out, d_num_runs,         \
                                 num_items, stream);                                                                 \
  }                                                                                                                   \
  void reduce_by_key(const K* d_keys_in, const V* d_values_in, K* d_unique_keys_out, V* d_aggregates_out,            \
                     std::int64_t* d_num_runs, std::int64_t num_items, reduction op, cudaStream_t stream) {          \
    UPSWEEP_GROUP_BY_CONVENIENCE(reduce_by_key, d_keys_in, d_values_in, d_unique_keys_out, d_aggregates_out,          \
                                 d_num_runs, num_items, op, stream);                                                 \
  }                                                                                                                   \
  void inclusive_sum_by_key(const K* d_keys_in, const V* d_values_in, V* d_values_out, std::int64_t num_items,        \
                            cudaStream_t stream) {                                                                   \
    UPSWEEP_GROUP_BY_CONVENIENCE(inclusive_sum_by_key, d_keys_in, d_values_in, d_values_out, num_items, stream);      \
  }                                                                                                                   \
  void exclusive_sum_by_key(const K* d_keys_in, const V* d_values_in, V* d_values_out, std::int64_t num_items,        \
                            cudaStream_t stream) {                                                                   \
    UPSWEEP_GROUP_BY_CONVENIENCE(exclusive_sum_by_key, d_keys_in, d_values_in, d_values_out, num_items, stream);      \
  }                                                                                                                   \
  std::int64_t unique_by_key(const K* d_keys_in, const V* d_values_in, K* d_keys_out, V* d_values_out,               \
                             std::int64_t num_items, cudaStream_t stream) {                                          \
    return detail::count_to_host("upsweep::unique_by_key", stream, [&](std::int64_t* d_count) {                      \
      unique_by_key(d_keys_in, d_values_in, d_keys_out, d_values_out, d_count, num_items, stream);                    \
    });                                                                                                               \
  }                                                                                                                   \
  std::int64_t reduce_by_key(const K* d_keys_in, const V* d_values_in, K* d_unique_keys_out, V* d_aggregates_out,    \
                             std::int64_t num_items, reduction op, cudaStream_t stream) {                            \
    return detail::count_to_host("upsweep::reduce_by_key", stream, [&](std::int64_t* d_count) {                      \
      reduce_by_key(d_keys_in, d_values_in, d_unique_keys_out, d_aggregates_out, d_count, num_items, op, stream);     \
    });                                                                                                               \
  }                                                                                                                   \
  }

// Every value type for keys of type K.
#define UPSWEEP_DEFINE_GROUP_BY_KEYS(K) UPSWEEP_FOR_EACH_GROUP_BY_VALUE(UPSWEEP_DEFINE_GROUP_BY_API, K)
