// A block's share of keys[lo, hi) read 16 bytes a load (between the range's first and last 16-byte
// boundaries; the ends one key a thread): a top-k pass does little per key, and narrow loads would
// leave too few bytes in flight to stream, most of all one block streaming a segment alone.
#pragma once

#include <cuda/std/cstdint>

#include <cstring>

namespace upsweep::detail {

struct no_round_end {
  __device__ void operator()() const {}
};

// The keys of [lo, hi) that fall to `part` of `parts` blocks (index: the key's position in keys),
// every thread of the block equally often, so the visitors may use warp votes: whole 16-byte
// vectors to visit_vector(vector, index of its first key, valid), the unaligned ends (part 0, one
// key a thread) to visit_key(key, index, valid); round_end() after each round of 16-byte loads, by
// every thread (it may hold a block barrier).
template <int Threads, class Key, class VisitVector, class VisitKey, class RoundEnd = no_round_end>
__device__ void for_each_vector(const Key* keys, long long lo, long long hi, long long part, long long parts,
                                VisitVector&& visit_vector, VisitKey&& visit_key, RoundEnd&& round_end = {}) {
  constexpr int per_vector = 16 / sizeof(Key), unroll = 4;
  static_assert(16 % sizeof(Key) == 0, "keys of 1, 2, 4, 8 or 16 bytes");
  const auto misalignment = static_cast<long long>(reinterpret_cast<cuda::std::uintptr_t>(keys + lo) % 16);
  long long aligned = lo + (16 - misalignment) % 16 / static_cast<long long>(sizeof(Key));
  if (aligned > hi) aligned = hi;
  const long long vectors = (hi - aligned) / per_vector, body_end = aligned + vectors * per_vector;
  if (part == 0) {
    for (long long at = lo + threadIdx.x; at - threadIdx.x < aligned; at += Threads)  // fewer than 16 keys
      visit_key(at < aligned ? keys[at] : Key{}, at, at < aligned);
    for (long long at = body_end + threadIdx.x; at - threadIdx.x < hi; at += Threads)
      visit_key(at < hi ? keys[at] : Key{}, at, at < hi);
  }
  const auto* body = reinterpret_cast<const uint4*>(keys + aligned);
  for (long long first = part * Threads * unroll; first < vectors; first += parts * Threads * unroll) {
    uint4 loaded[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const long long v = first + u * Threads + threadIdx.x;
      if (v < vectors) loaded[u] = body[v];
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const long long v = first + u * Threads + threadIdx.x;
      visit_vector(loaded[u], aligned + v * per_vector, v < vectors);
    }
    round_end();
  }
}

// Key j of a 16-byte vector.
template <class Key>
__device__ __forceinline__ Key key_of_vector(const uint4& vector, int j) {
  Key key;
  memcpy(static_cast<void*>(&key), reinterpret_cast<const char*>(&vector) + j * sizeof(Key), sizeof(Key));
  return key;
}

// Calls visit(key, index, valid) for every key for_each_vector reaches.
template <int Threads, class Key, class Visit, class RoundEnd = no_round_end>
__device__ void for_each_item(const Key* keys, long long lo, long long hi, long long part, long long parts,
                              Visit&& visit, RoundEnd&& round_end = {}) {
  constexpr int per_vector = 16 / sizeof(Key);
  for_each_vector<Threads>(
      keys, lo, hi, part, parts,
      [&](const uint4& vector, long long first, bool valid) {
#pragma unroll
        for (int j = 0; j < per_vector; ++j) visit(key_of_vector<Key>(vector, j), first + j, valid);
      },
      visit, round_end);
}

}  // namespace upsweep::detail
