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
//  - larger than the budget (out of core), with a host scratch (host_sort_storage::h_scratch;
//    a pageable scratch beside pinned arrays is left unused unless out == in, see below):
//    each chunk sorted into the scratch as a run, then the key range cut into groups of at most a
//    slot, each gathered from its segment of every run, sorted and copied to its place. Link: 2n
//    in, 2n out, each pass both ways at once. Out == in is allowed.
//  - out of core without a scratch, or with a pageable one beside pinned arrays (two host copies
//    of the data cost more than this path's extra link traffic): a counting read (plus one per refined level when more than a
//    slot's worth of keys share a prefix), each chunk sorted and split into its groups' places in
//    the output, then each group sorted in place. Link: 3n in, 2n out. Out == in is
//    cudaErrorInvalidValue (the second pass writes where input is still unread).
//  - both: keys of one window value beyond a slot need no sort and take no more passes.
//  - streams (host_stream<T>& in place of the arrays): input and output are the caller's, read
//    and written in pieces through the pinned staging (a file to a file, never whole in host
//    memory); contract in host_sort_types.hpp. In core and with a scratch, each input byte is read
//    once and each output byte written once. Out of core they need the scratch (the convenience
//    form allocates a pageable one): else cudaErrorInvalidValue, nothing moved. A failed move:
//    cudaErrorUnknown, its code in the stream's `error`; the convenience form throws
//    std::system_error with it.
//  - num_items is 64-bit; n = 0 does nothing; a budget below the smallest workable one (two slots
//    of 2^16 items, or n / 4096 items) is cudaErrorInvalidValue (also from the query), and so is
//    pinned staging too small for pageable arrays. Values of any trivially copyable type of 1 to
//    16 bytes; keys of every radix key type (device_radix_sort.cuh).
#pragma once

#include <upsweep/sort/detail/host_sort_dispatch.cuh>

#include <cstddef>
#include <cstdint>
#include <string>
#include <system_error>
#include <vector>

namespace upsweep {

namespace detail {

// The sort over its four host sides: memory (pointers) or the caller's streams (pointers null).
template <bool Descending, class Key, class Value>
cudaError_t dispatch_host_sides(host_sort_storage& storage, host_arrays<Key, Value> sides, std::int64_t num_items,
                                int begin_bit, int end_bit, cudaStream_t stream) {
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
  const bool keys_streamed = sides.keys_in_stream != nullptr || sides.keys_out_stream != nullptr;
  const bool out_streamed = sides.keys_out_stream != nullptr || sides.values_out_stream != nullptr;
  if (!keys_streamed && (sides.keys_in == nullptr || sides.keys_out == nullptr ||
                         ranges_overlap_partly(sides.keys_in, sides.keys_out, num_items)))
    return cudaErrorInvalidValue;
  if (has_values && !keys_streamed && (sides.values_in == nullptr || sides.values_out == nullptr ||
                                       ranges_overlap_partly(sides.values_in, sides.values_out, num_items)))
    return cudaErrorInvalidValue;
  const host_stream_base* const streams[] = {sides.keys_in_stream, sides.keys_out_stream, sides.values_in_stream,
                                             sides.values_out_stream};
  for (const host_stream_base* s : streams)
    if (s != nullptr && s->move == nullptr) return cudaErrorInvalidValue;
  sides.in_ready = !keys_streamed && is_dma_ready(sides.keys_in) && (!has_values || is_dma_ready(sides.values_in));
  sides.out_ready = !keys_streamed && is_dma_ready(sides.keys_out) && (!has_values || is_dma_ready(sides.values_out));
  const bool in_place = !keys_streamed && (sides.keys_in == sides.keys_out ||
                                           (has_values && ranges_overlap(sides.values_in, sides.values_out, num_items)));
  // A pageable scratch beside pinned arrays costs two host copies of the data, more than the
  // scratch-free design's extra link traffic (2^32 u32 pairs on an H200: 2.71x the link against
  // 1.49x): it is used only where the sort needs it, in place.
  const bool scratch_pays = storage.h_scratch != nullptr &&
                            (in_place || !(sides.in_ready && sides.out_ready) || is_dma_ready(storage.h_scratch));
  const bool runs = !layout.in_core && scratch_pays;
  if (runs && storage.scratch_bytes < scratch_need) return cudaErrorInvalidValue;
  if (!layout.in_core && !runs && (out_streamed || in_place)) return cudaErrorInvalidValue;
  char* scratch = static_cast<char*>(runs ? storage.h_scratch : nullptr);
  sides.scratch_keys = reinterpret_cast<Key*>(scratch);
  sides.scratch_values = scratch && has_values ? reinterpret_cast<Value*>(scratch + keys_scratch) : nullptr;
  sides.scratch_ready = scratch && is_dma_ready(scratch);
  const std::size_t min_staging =
      layout.staging_small_bytes + (sides.in_ready && sides.out_ready ? 0 : host_staging_slots * (std::size_t{1} << 20));
  if (storage.staging_bytes < min_staging || (min_staging > 0 && storage.h_staging == nullptr))
    return cudaErrorInvalidValue;
  host_sort_run<Descending, Key, Value> run(layout, storage, sides, num_items, begin_bit, end_bit);
  return run.run(stream);
}

template <bool Descending, class Key, class Value>
cudaError_t dispatch_host_sort(host_sort_storage& storage, const Key* h_keys_in, Key* h_keys_out,
                               const Value* h_values_in, Value* h_values_out, std::int64_t num_items, int begin_bit,
                               int end_bit, cudaStream_t stream) {
  const host_arrays<Key, Value> sides{h_keys_in, h_keys_out, h_values_in, h_values_out, false, false, nullptr, nullptr, false};
  return dispatch_host_sides<Descending>(storage, sides, num_items, begin_bit, end_bit, stream);
}

// Keys (and values) from the caller's streams to the caller's streams; `values_in` null: keys alone.
template <bool Descending, class Key, class Value>
cudaError_t dispatch_host_streams(host_sort_storage& storage, host_stream_base& keys_in, host_stream_base& keys_out,
                                  host_stream_base* values_in, host_stream_base* values_out, std::int64_t num_items,
                                  int begin_bit, int end_bit, cudaStream_t stream) {
  host_arrays<Key, Value> sides{nullptr, nullptr, nullptr, nullptr, false, false, nullptr, nullptr, false};
  sides.keys_in_stream = &keys_in;
  sides.keys_out_stream = &keys_out;
  sides.values_in_stream = values_in;
  sides.values_out_stream = values_out;
  return dispatch_host_sides<Descending>(storage, sides, num_items, begin_bit, end_bit, stream);
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

// The stream form of the convenience layer: staging always, a pageable scratch out of core unless
// the options give one. A failed move throws std::system_error with its code.
template <bool Descending, class Key, class Value>
void host_stream_convenience(const char* what, host_stream_base& keys_in, host_stream_base& keys_out,
                             host_stream_base* values_in, host_stream_base* values_out, std::int64_t num_items,
                             int begin_bit, int end_bit, host_sort_options options, cudaStream_t stream) {
  host_sort_storage storage;
  storage.device_bytes = options.device_budget_bytes != 0 ? options.device_budget_bytes : default_device_budget();
  auto call = [&] {
    return dispatch_host_streams<Descending, Key, Value>(storage, keys_in, keys_out, values_in, values_out, num_items,
                                                         begin_bit, end_bit, stream);
  };
  throw_if_failed(call(), what, __FILE__, __LINE__);
  if (num_items == 0) return;
  std::vector<char> own_scratch;
  if (storage.scratch_bytes > 0 && options.host_scratch == nullptr) {
    own_scratch.resize(storage.scratch_bytes);
    options.host_scratch = own_scratch.data();
    options.host_scratch_bytes = own_scratch.size();
  }
  pinned_allocation staging(storage.staging_bytes);
  stream_allocation device(storage.device_bytes, stream);
  storage.d_storage = device.get();
  storage.h_staging = staging.get();
  storage.h_scratch = options.host_scratch;
  storage.scratch_bytes = options.host_scratch_bytes;
  const cudaError_t status = call();
  const host_stream_base* const streams[] = {&keys_in, &keys_out, values_in, values_out};
  for (const host_stream_base* s : streams)
    if (status == cudaErrorUnknown && s != nullptr && s->error != 0)
      throw std::system_error(s->error, std::generic_category(), std::string(what) + ": a stream's move");
  throw_if_failed(status, what, __FILE__, __LINE__);
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

// Streams: keys (and values) read from the caller's host streams and written to others (a file to
// a file, say), never held whole in host memory; see host_stream_base for the contract.
template <class Key>
cudaError_t host_sort_keys(host_sort_storage& storage, host_stream<Key>& keys_in, host_stream<Key>& keys_out,
                           std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                           cudaStream_t stream = 0) {
  return detail::dispatch_host_streams<false, Key, detail::no_values>(storage, keys_in, keys_out, nullptr, nullptr,
                                                                      num_items, begin_bit, end_bit, stream);
}

template <class Key>
cudaError_t host_sort_keys_descending(host_sort_storage& storage, host_stream<Key>& keys_in, host_stream<Key>& keys_out,
                                      std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                                      cudaStream_t stream = 0) {
  return detail::dispatch_host_streams<true, Key, detail::no_values>(storage, keys_in, keys_out, nullptr, nullptr,
                                                                     num_items, begin_bit, end_bit, stream);
}

template <class Key, class Value>
cudaError_t host_sort_pairs(host_sort_storage& storage, host_stream<Key>& keys_in, host_stream<Key>& keys_out,
                            host_stream<Value>& values_in, host_stream<Value>& values_out, std::int64_t num_items,
                            int begin_bit = 0, int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_host_streams<false, Key, Value>(storage, keys_in, keys_out, &values_in, &values_out, num_items,
                                                          begin_bit, end_bit, stream);
}

template <class Key, class Value>
cudaError_t host_sort_pairs_descending(host_sort_storage& storage, host_stream<Key>& keys_in, host_stream<Key>& keys_out,
                                       host_stream<Value>& values_in, host_stream<Value>& values_out,
                                       std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                                       cudaStream_t stream = 0) {
  return detail::dispatch_host_streams<true, Key, Value>(storage, keys_in, keys_out, &values_in, &values_out, num_items,
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

template <class Key>
void host_sort_keys(host_stream<Key>& keys_in, host_stream<Key>& keys_out, std::int64_t num_items, int begin_bit = 0,
                    int end_bit = key_bits_v<Key>, host_sort_options options = {}, cudaStream_t stream = 0) {
  detail::host_stream_convenience<false, Key, detail::no_values>("upsweep::host_sort_keys", keys_in, keys_out, nullptr,
                                                                 nullptr, num_items, begin_bit, end_bit, options, stream);
}

template <class Key>
void host_sort_keys_descending(host_stream<Key>& keys_in, host_stream<Key>& keys_out, std::int64_t num_items,
                               int begin_bit = 0, int end_bit = key_bits_v<Key>, host_sort_options options = {},
                               cudaStream_t stream = 0) {
  detail::host_stream_convenience<true, Key, detail::no_values>("upsweep::host_sort_keys_descending", keys_in, keys_out,
                                                                nullptr, nullptr, num_items, begin_bit, end_bit, options,
                                                                stream);
}

template <class Key, class Value>
void host_sort_pairs(host_stream<Key>& keys_in, host_stream<Key>& keys_out, host_stream<Value>& values_in,
                     host_stream<Value>& values_out, std::int64_t num_items, int begin_bit = 0,
                     int end_bit = key_bits_v<Key>, host_sort_options options = {}, cudaStream_t stream = 0) {
  detail::host_stream_convenience<false, Key, Value>("upsweep::host_sort_pairs", keys_in, keys_out, &values_in,
                                                     &values_out, num_items, begin_bit, end_bit, options, stream);
}

template <class Key, class Value>
void host_sort_pairs_descending(host_stream<Key>& keys_in, host_stream<Key>& keys_out, host_stream<Value>& values_in,
                                host_stream<Value>& values_out, std::int64_t num_items, int begin_bit = 0,
                                int end_bit = key_bits_v<Key>, host_sort_options options = {}, cudaStream_t stream = 0) {
  detail::host_stream_convenience<true, Key, Value>("upsweep::host_sort_pairs_descending", keys_in, keys_out, &values_in,
                                                    &values_out, num_items, begin_bit, end_bit, options, stream);
}

}  // namespace upsweep
