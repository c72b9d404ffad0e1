// The sort across ranks as upsweep-sort calls it: one call shape over the library's core layer
// (dist_radix_sort.cuh), instantiated per key and index type by nvcc in units generated from
// sort_instance.cu.in (sort_with_dist.cuh). Plain C++, so the host code needs no nvcc.
#pragma once

#include "sort_backends.hpp"

#include <upsweep/sort/dist_exchange.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep::apps {

// Events the sort records as each phase ends (the library's dist_sort_phases).
struct dist_phase_events {
  cudaEvent_t sorted = nullptr, planned = nullptr, exchanged = nullptr, merged = nullptr;
};

// The slice and its order as the single-GPU sort takes them, and what a rank adds.
template <class Key, class Value>
struct dist_sort_call {
  sort_call<Key, Value> slice;
  std::int64_t out_capacity;
  std::int64_t* num_out;
  dist_phase_events phases;
  cudaStream_t stream;
};

// Core-layer shape: with d_temp == nullptr only sets temp_bytes; otherwise a collective call on
// call.stream (every rank of `exchange` makes it).
template <class Key, class Value>
cudaError_t dist_sort_with_upsweep(void* d_temp, std::size_t& temp_bytes, upsweep::dist_exchange& exchange,
                                   const dist_sort_call<Key, Value>& call);

// The most items one rank can receive of total_items over `ranks` (upsweep::dist_receive_bound).
std::int64_t dist_receive_capacity(std::int64_t total_items, int ranks);

}  // namespace upsweep::apps
