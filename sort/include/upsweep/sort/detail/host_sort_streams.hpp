// Host-to-host sort: the host arrays of one call and the streams and events that order its copies
// and its device work (copies in, device work on the caller's stream, copies out).
#pragma once

#include <upsweep/sort/detail/host_copy.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <vector>

namespace upsweep::detail {

template <class Key, class Value>
struct host_arrays {
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in;
  Value* values_out;
  bool in_ready, out_ready;  // DMA-ready (pinned): no staging
  Key* scratch_keys;         // out of core through sorted runs, or null
  Value* scratch_values;
  bool scratch_ready;
  host_stream_base* keys_in_stream = nullptr;  // non-null: that side is a caller's stream, not memory
  host_stream_base* keys_out_stream = nullptr;
  host_stream_base* values_in_stream = nullptr;
  host_stream_base* values_out_stream = nullptr;

  host_end input_keys() const { return end_of(keys_in, keys_in_stream, sizeof(Key)); }
  host_end input_values() const { return end_of(values_in, values_in_stream, sizeof(Value)); }
  host_end output_keys() const { return end_of(keys_out, keys_out_stream, sizeof(Key)); }
  host_end output_values() const { return end_of(values_out, values_out_stream, sizeof(Value)); }
  static host_end end_of(const void* memory, host_stream_base* stream, std::size_t unit) {
    return stream != nullptr ? host_end::of_stream(stream, unit) : host_end::in_memory(memory);
  }
};

// The streams and events of one call; the destructor waits for everything it started.
struct host_sort_streams {
  cudaStream_t compute = nullptr, copy_in = nullptr, copy_out = nullptr;
  cudaEvent_t loaded[2] = {}, sorted[2] = {}, slot_free[2] = {}, done_out = nullptr, begun = nullptr;
  std::vector<cudaEvent_t*> events() {
    return {&loaded[0], &loaded[1], &sorted[0], &sorted[1], &slot_free[0], &slot_free[1], &done_out, &begun};
  }
  // The copy streams start after the caller's work on `stream`: the device storage may be a
  // stream-ordered allocation that exists only from there on (compute-sanitizer's initcheck saw
  // the first copy land before the allocation and called the slot uninitialised).
  cudaError_t create(cudaStream_t stream) {
    compute = stream;
    UPSWEEP_CUDA_RETURN(cudaStreamCreateWithFlags(&copy_in, cudaStreamNonBlocking));
    UPSWEEP_CUDA_RETURN(cudaStreamCreateWithFlags(&copy_out, cudaStreamNonBlocking));
    for (cudaEvent_t* event : events()) UPSWEEP_CUDA_RETURN(cudaEventCreateWithFlags(event, cudaEventDisableTiming));
    UPSWEEP_CUDA_RETURN(cudaEventRecord(begun, compute));
    UPSWEEP_CUDA_RETURN(cudaStreamWaitEvent(copy_in, begun, 0));
    return cudaStreamWaitEvent(copy_out, begun, 0);
  }
  // `waiter` runs its later work after what `signaller` has enqueued so far.
  static cudaError_t after(cudaStream_t waiter, cudaStream_t signaller, cudaEvent_t event) {
    UPSWEEP_CUDA_RETURN(cudaEventRecord(event, signaller));
    return cudaStreamWaitEvent(waiter, event, 0);
  }
  cudaError_t finish() {
    UPSWEEP_CUDA_RETURN(cudaStreamSynchronize(copy_in));
    UPSWEEP_CUDA_RETURN(cudaStreamSynchronize(compute));
    return cudaStreamSynchronize(copy_out);
  }
  ~host_sort_streams() {
    for (cudaStream_t s : {copy_in, compute, copy_out})
      if (s != nullptr) static_cast<void>(cudaStreamSynchronize(s));
    for (cudaEvent_t* event : events())
      if (*event != nullptr) static_cast<void>(cudaEventDestroy(*event));
    for (cudaStream_t s : {copy_in, copy_out})
      if (s != nullptr) static_cast<void>(cudaStreamDestroy(s));
  }
};

}  // namespace upsweep::detail
