// Device layer: reduction of a whole array to one value. Core layer (caller storage, size query
// with d_temp_storage == nullptr, no allocation, no sync, graph-capturable) and convenience layer
// (stream-ordered temporaries, throws upsweep::cuda_error).
// Contracts:
//  - `op` must be associative and commutative (threads fold grid-strided items), as for CUB and
//    std::reduce; the result is op(init, in[0..n)) in some order; n == 0 gives init.
//  - The accumulator is the result's type T (d_out's value type).
//  - The result goes to device memory, asynchronously; the *_value forms return it to the host
//    and therefore synchronise `stream`.
//  - min/max compare with <, as CUB does: with NaNs in the input the result is unspecified.
//  - Float results are reproducible run to run on one GPU (fixed grid, no atomics).
#pragma once

#include <upsweep/scan/detail/reduce_dispatch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/stream_allocation.hpp>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

namespace upsweep {

struct minimum {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
struct maximum {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

namespace detail {
// Identities for min and max: infinities where the type has them.
template <class T>
constexpr T lowest_value() {
  using lim = cuda::std::numeric_limits<T>;
  return lim::has_infinity ? -lim::infinity() : lim::lowest();
}
template <class T>
constexpr T highest_value() {
  using lim = cuda::std::numeric_limits<T>;
  return lim::has_infinity ? lim::infinity() : lim::max();
}
template <class Policy, class InputIt>
using reduce_policy_t =
    cuda::std::conditional_t<cuda::std::is_void_v<Policy>,
                             default_reduce_policy<typename cuda::std::iterator_traits<InputIt>::value_type>, Policy>;
}  // namespace detail

// ---- core layer -------------------------------------------------------------------------------

// *d_out = init op in[0] op ... op in[n - 1].
template <class Policy = void, class InputIt, class T, class Op>
cudaError_t reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, T* d_out,
                   std::int64_t num_items, T init, Op op, cudaStream_t stream = 0) {
  return detail::dispatch_reduce<detail::reduce_policy_t<Policy, InputIt>>(d_temp_storage, temp_storage_bytes, d_in,
                                                                           d_out, num_items, op, init, stream);
}

template <class Policy = void, class InputIt, class T>
cudaError_t reduce_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, T* d_out,
                       std::int64_t num_items, cudaStream_t stream = 0) {
  return reduce<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, T{}, cuda::std::plus<T>{}, stream);
}

// n == 0 gives +inf (floats) or the type's maximum.
template <class Policy = void, class InputIt, class T>
cudaError_t reduce_min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, T* d_out,
                       std::int64_t num_items, cudaStream_t stream = 0) {
  return reduce<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, detail::highest_value<T>(),
                        minimum{}, stream);
}

// n == 0 gives -inf (floats) or the type's lowest value.
template <class Policy = void, class InputIt, class T>
cudaError_t reduce_max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, T* d_out,
                       std::int64_t num_items, cudaStream_t stream = 0) {
  return reduce<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, detail::lowest_value<T>(),
                        maximum{}, stream);
}

// ---- convenience layer ------------------------------------------------------------------------

template <class InputIt, class T, class Op>
void reduce(InputIt d_in, T* d_out, std::int64_t num_items, T init, Op op, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::reduce", stream, [&](void* d_temp, std::size_t& bytes) {
    return reduce(d_temp, bytes, d_in, d_out, num_items, init, op, stream);
  });
}

template <class InputIt, class T>
void reduce_sum(InputIt d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0) {
  reduce(d_in, d_out, num_items, T{}, cuda::std::plus<T>{}, stream);
}
template <class InputIt, class T>
void reduce_min(InputIt d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0) {
  reduce(d_in, d_out, num_items, detail::highest_value<T>(), minimum{}, stream);
}
template <class InputIt, class T>
void reduce_max(InputIt d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0) {
  reduce(d_in, d_out, num_items, detail::lowest_value<T>(), maximum{}, stream);
}

// Returns init op in[0..n) to the host; synchronises `stream`.
template <class InputIt, class T, class Op>
T reduce_value(InputIt d_in, std::int64_t num_items, T init, Op op, cudaStream_t stream = 0) {
  T result{};
  detail::stream_allocation d_result(sizeof(T), stream);
  reduce(d_in, static_cast<T*>(d_result.get()), num_items, init, op, stream);
  UPSWEEP_CUDA_THROW(cudaMemcpyAsync(&result, d_result.get(), sizeof(T), cudaMemcpyDeviceToHost, stream));
  d_result.release();
  UPSWEEP_CUDA_THROW(cudaStreamSynchronize(stream));
  return result;
}

}  // namespace upsweep
