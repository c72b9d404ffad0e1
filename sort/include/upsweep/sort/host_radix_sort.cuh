// Host-to-host radix sort: keys (and values) that live in host memory, possibly larger than the
// device memory, sorted through the GPU within a device-memory budget. The order is the device
// sort's (device_radix_sort.cuh), bit for bit, stable, ascending or descending, over a bit window.
// Two layers:
//  - core: host_sort_storage (device budget + pinned staging, a host scratch optional) from the caller. A query (null
//    d_storage) writes the bytes the call will use; the call never allocates memory. It is
//    BLOCKING: it returns when the output is in host memory (it creates two copy streams and
//    waits on them and on `stream`), so it cannot be captured in a CUDA graph.
//  - convenience: same names without the storage; the device budget is an option (default: what
//    cudaMemGetInfo reports free, less 5 %); allocates stream-ordered device memory and, when an
//    array is pageable or the data does not fit, pinned staging; throws upsweep::cuda_error.
// Contracts:
//  - host arrays: pinned (cudaMallocHost, cudaHostRegister) or pageable. Pinned is faster: the
//    copy engines read and write it directly at the link's speed; pageable memory is first copied
//    by host threads into pinned staging slots (a memory-bound copy on the host, in the pipeline).
//  - fits the budget (in core): copy in, one partition pass on the top digit, then groups of
//    digits sorted one after another while earlier groups are copied out. Link: n in, n out.
//    In place (out == in) is allowed.
//  - larger than the budget (out of core), with a host scratch (host_sort_storage::h_scratch):
//    each chunk sorted into the scratch as a run, then the key range cut into groups of at most a
//    slot, each gathered from its segment of every run, sorted and copied to its place. Link: 2n
//    in, 2n out, each pass both ways at once. Out == in is allowed.
//  - out of core without a scratch: a counting read (plus one per refined level when more than a
//    slot's worth of keys share a prefix), each chunk sorted and split into its groups' places in
//    the output, then each group sorted in place. Link: 3n in, 2n out. Out == in is
//    cudaErrorInvalidValue (the second pass writes where input is still unread).
//  - both: keys of one window value beyond a slot need no sort and take no more passes.
//  - num_items is 64-bit; n = 0 does nothing; a budget below the smallest workable one (two slots
//    of 2^16 items, or n / 4096 items) is cudaErrorInvalidValue (also from the query), and so is
//    pinned staging too small for pageable arrays. Values of any trivially copyable type of 1 to
//    16 bytes; keys of every radix key type (device_radix_sort.cuh).
#pragma once

#include <upsweep/sort/detail/host_sort_dispatch.cuh>

#include <cstddef>
#include <cstdint>

namespace upsweep {

namespace detail {

template <bool Descending, class Key, class Value>
cudaError_t dispatch_host_sort(host_sort_storage& storage, const Key* h_keys_in, Key* h_keys_out,
                               const Value* h_values_in, Value* h_values_out, std::int64_t num_items, int begin_bit,
                               int end_bit, cudaStream_t stream) {
  if (!valid_sort_arguments<Key, radix_key_codec<Key>>(num_items, begin_bit, end_bit)) return cudaErrorInvalidValue;
  host_sort_layout<Descending, Key, Value> layout;
  if (!layout.plan(num_items, storage.device_bytes)) return cudaErrorInvalidValue;
  const std::size_t keys_scratch = round_up_bytes(static_cast<std::size_t>(num_items) * sizeof(Key));
  const std::size_t scratch_need =
      layout.in_core ? 0 : keys_scratch + static_cast<std::size_t>(num_items) * value_bytes_v<Value>;
  if (storage.d_storage == nullptr) {
    storage.device_bytes = layout.device_bytes;
    storage.staging_bytes = layout.staging_small_bytes + host_staging_slots * host_staging_slot_bytes;
    storage.scratch_bytes = scratch_need;
    return cudaSuccess;
  }
  if (num_items == 0) return cudaSuccess;
  constexpr bool has_values = has_values_v<Value>;
  if (h_keys_in == nullptr || h_keys_out == nullptr || ranges_overlap_partly(h_keys_in, h_keys_out, num_items))
    return cudaErrorInvalidValue;
  if (has_values && (h_values_in == nullptr || h_values_out == nullptr ||
                     ranges_overlap_partly(h_values_in, h_values_out, num_items)))
    return cudaErrorInvalidValue;
  const bool runs = !layout.in_core && storage.h_scratch != nullptr;
  if (runs && storage.scratch_bytes < scratch_need) return cudaErrorInvalidValue;
  if (!layout.in_core && !runs &&
      (h_keys_in == h_keys_out || (has_values && ranges_overlap(h_values_in, h_values_out, num_items))))
    return cudaErrorInvalidValue;
  char* scratch = static_cast<char*>(runs ? storage.h_scratch : nullptr);
  const host_arrays<Key, Value> arrays{h_keys_in, h_keys_out, h_values_in, h_values_out,
                                       is_dma_ready(h_keys_in) && (!has_values || is_dma_ready(h_values_in)),
                                       is_dma_ready(h_keys_out) && (!has_values || is_dma_ready(h_values_out)),
                                       reinterpret_cast<Key*>(scratch),
                                       scratch && has_values ? reinterpret_cast<Value*>(scratch + keys_scratch) : nullptr,
                                       scratch && is_dma_ready(scratch)};
  const std::size_t min_staging =
      layout.staging_small_bytes + (arrays.in_ready && arrays.out_ready ? 0 : host_staging_slots * (std::size_t{1} << 20));
  if (storage.staging_bytes < min_staging || (min_staging > 0 && storage.h_staging == nullptr))
    return cudaErrorInvalidValue;
  host_sort_run<Descending, Key, Value> run(layout, storage, arrays, num_items, begin_bit, end_bit);
  return run.run(stream);
}

// Pinned host memory for the convenience layer, freed on scope exit.
class pinned_allocation {
 public:
  explicit pinned_allocation(std::size_t bytes) {
    if (bytes > 0) UPSWEEP_CUDA_THROW(cudaMallocHost(&ptr_, bytes));
  }
  ~pinned_allocation() {
    if (ptr_ != nullptr) static_cast<void>(cudaFreeHost(ptr_));
  }
  pinned_allocation(const pinned_allocation&) = delete;
  pinned_allocation& operator=(const pinned_allocation&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

inline std::size_t default_device_budget() {
  std::size_t free_bytes = 0, total_bytes = 0;
  UPSWEEP_CUDA_THROW(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes / 20 * 19;
}

// Query, allocate what the call needs (staging only when some array is pageable or the data does
// not fit), call; throws naming `what`.
template <bool Descending, class Key, class Value>
void host_sort_convenience(const char* what, const Key* h_keys_in, Key* h_keys_out, const Value* h_values_in,
                           Value* h_values_out, std::int64_t num_items, int begin_bit, int end_bit,
                           host_sort_options options, cudaStream_t stream) {
  host_sort_storage storage;
  storage.device_bytes = options.device_budget_bytes != 0 ? options.device_budget_bytes : default_device_budget();
  storage.h_scratch = options.host_scratch;
  storage.scratch_bytes = options.host_scratch_bytes;
  throw_if_failed(dispatch_host_sort<Descending>(storage, h_keys_in, h_keys_out, h_values_in, h_values_out, num_items,
                                                 begin_bit, end_bit, stream),
                  what, __FILE__, __LINE__);
  if (num_items == 0) return;
  host_sort_layout<Descending, Key, Value> layout;
  layout.plan(num_items, storage.device_bytes);
  constexpr bool has_values = has_values_v<Value>;
  const bool pinned = is_dma_ready(h_keys_in) && is_dma_ready(h_keys_out) &&
                      (!has_values || (is_dma_ready(h_values_in) && is_dma_ready(h_values_out)));
  if (pinned) storage.staging_bytes = layout.staging_small_bytes;
  pinned_allocation staging(storage.staging_bytes);
  stream_allocation device(storage.device_bytes, stream);
  storage.d_storage = device.get();
  storage.h_staging = staging.get();
  storage.h_scratch = options.host_scratch;  // the query wrote the size it wants over the caller's
  storage.scratch_bytes = options.host_scratch_bytes;
  throw_if_failed(dispatch_host_sort<Descending>(storage, h_keys_in, h_keys_out, h_values_in, h_values_out, num_items,
                                                 begin_bit, end_bit, stream),
                  what, __FILE__, __LINE__);
  device.release();
}

}  // namespace detail

// ---- core layer ------------------------------------------------------------------------------
template <class Key>
cudaError_t host_sort_keys(host_sort_storage& storage, const Key* h_keys_in, Key* h_keys_out, std::int64_t num_items,
                           int begin_bit = 0, int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_host_sort<false, Key, detail::no_values>(storage, h_keys_in, h_keys_out, nullptr, nullptr,
                                                                   num_items, begin_bit, end_bit, stream);
}

template <class Key>
cudaError_t host_sort_keys_descending(host_sort_storage& storage, const Key* h_keys_in, Key* h_keys_out,
                                      std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                                      cudaStream_t stream = 0) {
  return detail::dispatch_host_sort<true, Key, detail::no_values>(storage, h_keys_in, h_keys_out, nullptr, nullptr,
                                                                  num_items, begin_bit, end_bit, stream);
}

template <class Key, class Value>
cudaError_t host_sort_pairs(host_sort_storage& storage, const Key* h_keys_in, Key* h_keys_out, const Value* h_values_in,
                            Value* h_values_out, std::int64_t num_items, int begin_bit = 0,
                            int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_host_sort<false>(storage, h_keys_in, h_keys_out, h_values_in, h_values_out, num_items,
                                           begin_bit, end_bit, stream);
}

template <class Key, class Value>
cudaError_t host_sort_pairs_descending(host_sort_storage& storage, const Key* h_keys_in, Key* h_keys_out,
                                       const Value* h_values_in, Value* h_values_out, std::int64_t num_items,
                                       int begin_bit = 0, int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_host_sort<true>(storage, h_keys_in, h_keys_out, h_values_in, h_values_out, num_items,
                                          begin_bit, end_bit, stream);
}

// ---- convenience layer -----------------------------------------------------------------------
template <class Key>
void host_sort_keys(const Key* h_keys_in, Key* h_keys_out, std::int64_t num_items, int begin_bit = 0,
                    int end_bit = key_bits_v<Key>, host_sort_options options = {}, cudaStream_t stream = 0) {
  detail::host_sort_convenience<false, Key, detail::no_values>("upsweep::host_sort_keys", h_keys_in, h_keys_out,
                                                               nullptr, nullptr, num_items, begin_bit, end_bit,
                                                               options, stream);
}

template <class Key>
void host_sort_keys_descending(const Key* h_keys_in, Key* h_keys_out, std::int64_t num_items, int begin_bit = 0,
                               int end_bit = key_bits_v<Key>, host_sort_options options = {},
                               cudaStream_t stream = 0) {
  detail::host_sort_convenience<true, Key, detail::no_values>("upsweep::host_sort_keys_descending", h_keys_in,
                                                              h_keys_out, nullptr, nullptr, num_items, begin_bit,
                                                              end_bit, options, stream);
}

template <class Key, class Value>
void host_sort_pairs(const Key* h_keys_in, Key* h_keys_out, const Value* h_values_in, Value* h_values_out,
                     std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                     host_sort_options options = {}, cudaStream_t stream = 0) {
  detail::host_sort_convenience<false>("upsweep::host_sort_pairs", h_keys_in, h_keys_out, h_values_in, h_values_out,
                                       num_items, begin_bit, end_bit, options, stream);
}

template <class Key, class Value>
void host_sort_pairs_descending(const Key* h_keys_in, Key* h_keys_out, const Value* h_values_in, Value* h_values_out,
                                std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                                host_sort_options options = {}, cudaStream_t stream = 0) {
  detail::host_sort_convenience<true>("upsweep::host_sort_pairs_descending", h_keys_in, h_keys_out, h_values_in,
                                      h_values_out, num_items, begin_bit, end_bit, options, stream);
}

}  // namespace upsweep
