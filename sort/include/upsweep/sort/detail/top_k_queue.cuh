// Top-k's candidate queue: the items a block keeps, staged in shared memory so that the block
// claims room in a global candidate buffer with one atomic per flush. An atomic per warp on the
// one global counter held the filter of 2^28 f32 keys to half the copy bandwidth, and the split
// of 800k tied bf16 candidates to 35 us (H200, 2026-11-27).
#pragma once

#include <upsweep/sort/detail/top_k_warp.cuh>

namespace upsweep::detail {

// A global candidate buffer: `capacity` slots, `taken` counts the slots claimed (items past the
// capacity are counted, not written).
template <class Key, class Index>
struct candidate_sink {
  Key* keys;
  Index* indices;
  unsigned long long* taken;
  long long capacity;

  __device__ __forceinline__ void write(unsigned long long slot, const Key& key, Index index) const {
    if (slot >= static_cast<unsigned long long>(capacity)) return;
    keys[slot] = key;
    indices[slot] = index;
  }
};

template <class Key, class Index, unsigned Capacity>
struct candidate_queue {
  static constexpr unsigned capacity = Capacity;
  Key keys[Capacity];
  Index indices[Capacity];
  unsigned count;  // may pass capacity: the items beyond it went out directly
  unsigned long long base;
};

// Queues one item; called by the lanes that keep an item, not necessarily the whole warp. A full
// queue sends it straight out, with an atomic for the lanes calling together.
template <class Key, class Index, unsigned Capacity>
__device__ __forceinline__ void push_candidate(candidate_queue<Key, Index, Capacity>& queue,
                                               const candidate_sink<Key, Index>& sink, const Key& key, Index index) {
  const unsigned slot = claim_slot_among_active(&queue.count);
  if (slot < Capacity) {
    queue.keys[slot] = key;
    queue.indices[slot] = index;
  } else {
    sink.write(claim_slot_among_active(sink.taken), key, index);
  }
}

// Moves the queue to the sink once it holds at least `at_least` items. Every thread calls it.
template <class Key, class Index, unsigned Capacity>
__device__ void flush_candidates(candidate_queue<Key, Index, Capacity>& queue, unsigned at_least,
                                 const candidate_sink<Key, Index>& sink) {
  __syncthreads();
  const unsigned held = queue.count < Capacity ? queue.count : Capacity;
  __syncthreads();              // every thread has read the count before the next round adds to it
  if (held < at_least) return;  // the same for every thread
  if (threadIdx.x == 0) queue.base = atomicAdd(sink.taken, static_cast<unsigned long long>(held));
  __syncthreads();
  for (unsigned i = threadIdx.x; i < held; i += blockDim.x) sink.write(queue.base + i, queue.keys[i], queue.indices[i]);
  __syncthreads();
  if (threadIdx.x == 0) queue.count = 0;
  __syncthreads();
}

}  // namespace upsweep::detail
