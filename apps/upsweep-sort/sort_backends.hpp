// The three sorts upsweep-sort can run, behind one call shape, each instantiated for every key
// type and index type in its own translation units (sort_instance.cu.in): the library under test,
// CUB (the reference) and Thrust (the usual rival).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace upsweep::apps {

struct no_index {};  // the Value of a keys-only sort

template <class Key, class Value>
struct sort_call {
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in;  // null for keys only
  Value* values_out;
  std::int64_t num_items;
  int begin_bit, end_bit;
  bool descending;
};

// Core-layer shape: with d_temp == nullptr only sets temp_bytes; otherwise sorts on the default
// stream, asynchronously.
template <class Key, class Value>
cudaError_t sort_with_upsweep(void* d_temp, std::size_t& temp_bytes, const sort_call<Key, Value>& call);
template <class Key, class Value>
cudaError_t sort_with_cub(void* d_temp, std::size_t& temp_bytes, const sort_call<Key, Value>& call);

// Device blocks handed to Thrust for its temporaries and kept for the next --repeat, so repeats
// time the sort, not cudaMalloc; counted in the tool's peak memory.
class device_block_cache {
 public:
  device_block_cache() = default;
  ~device_block_cache();
  device_block_cache(const device_block_cache&) = delete;
  device_block_cache& operator=(const device_block_cache&) = delete;
  void* get(std::size_t bytes);  // throws gpu_error
  void put(void* ptr);

 private:
  struct block {
    void* ptr;
    std::size_t bytes;
    bool in_use;
  };
  std::vector<block> blocks_;
};

// Thrust sorts in place: call.keys_out (and values_out) hold the input and get the result.
// The bit window must be the whole key. Synchronous; throws what Thrust throws.
template <class Key, class Value>
void sort_with_thrust(const sort_call<Key, Value>& call, device_block_cache& cache);

// d_indices[i] = first + i, on `stream` (a rank of the sort across ranks starts at its slice's first index).
template <class Index>
cudaError_t fill_indices(Index* d_indices, std::int64_t n, std::int64_t first = 0, cudaStream_t stream = 0);

}  // namespace upsweep::apps
