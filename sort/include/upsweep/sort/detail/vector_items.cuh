// A block's share of keys[lo, hi) read 16 bytes a load (between the range's first and last 16-byte
// boundaries; the ends one key a thread): a top-k pass does little per key, and narrow loads would
// leave too few bytes in flight to stream, most of all one block streaming a segment alone.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstring>

namespace upsweep::detail {

struct no_round_end {
  __device__ void operator()() const {}
};

// A thread's 16-byte loads of one round: vector u holds keys first_key(u) onward.
template <class Key, int Threads, int Vectors = 4>
struct vector_round {
  static constexpr int vectors = Vectors, keys_per_vector = 16 / static_cast<int>(sizeof(Key));
  uint4 loaded[vectors];
  long long first;  // index of vector 0's first key
  unsigned valid;   // bit u: vector u exists

  __device__ __forceinline__ long long first_key(int u) const {
    return first + static_cast<long long>(u) * Threads * keys_per_vector;
  }
  __device__ __forceinline__ bool is_valid(int u) const { return valid >> u & 1u; }
};

// The keys of [lo, hi) that fall to `part` of `parts` blocks (index: the key's position in keys),
// every thread of the block equally often, so the visitors may use warp votes: whole 16-byte
// vectors a round of Vectors to visit_round(vector_round), the unaligned ends (part 0, one key a
// thread) to visit_key(key, index, valid); round_end() after each round, by every thread (it may
// hold a block barrier).
template <int Threads, int Vectors = 4, class Key, class VisitRound, class VisitKey, class RoundEnd = no_round_end>
__device__ void for_each_round(const Key* keys, long long lo, long long hi, long long part, long long parts,
                               VisitRound&& visit_round, VisitKey&& visit_key, RoundEnd&& round_end = {}) {
  using round_t = vector_round<Key, Threads, Vectors>;
  constexpr int per_vector = round_t::keys_per_vector, unroll = round_t::vectors;
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
    round_t round;
    round.first = aligned + (first + threadIdx.x) * per_vector;
    round.valid = 0;
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const long long v = first + u * Threads + threadIdx.x;
      if (v < vectors) {
        round.loaded[u] = body[v];
        round.valid |= 1u << u;
      }
    }
    visit_round(static_cast<const round_t&>(round));
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

// Key j of a 16-byte vector for a j known only at run time: selects among the vector's words
// rather than indexing them, which would put the vector in local memory.
template <class Key>
__device__ __forceinline__ Key key_of_vector_at(const uint4& vector, int j) {
  static_assert(sizeof(Key) <= 8, "keys of 1, 2, 4 or 8 bytes");
  constexpr int bytes = static_cast<int>(sizeof(Key));
  Key key;
  if constexpr (bytes == 8) {
    const unsigned long long pair = j == 1 ? (static_cast<unsigned long long>(vector.w) << 32 | vector.z)
                                           : (static_cast<unsigned long long>(vector.y) << 32 | vector.x);
    memcpy(static_cast<void*>(&key), &pair, sizeof(Key));
    return key;
  }
  const int word = j * bytes / 4;
  const unsigned low = word & 2 ? (word & 1 ? vector.w : vector.z) : (word & 1 ? vector.y : vector.x);
  if constexpr (bytes == 4) {
    memcpy(static_cast<void*>(&key), &low, sizeof(Key));
  } else if constexpr (bytes < 4) {
    using narrow_t = cuda::std::conditional_t<bytes == 2, unsigned short, unsigned char>;
    const auto narrow = static_cast<narrow_t>(low >> (j * bytes % 4 * 8));
    memcpy(static_cast<void*>(&key), &narrow, sizeof(Key));
  }
  return key;
}

// Calls visit(key, index, valid) for every key for_each_round reaches.
template <int Threads, class Key, class Visit, class RoundEnd = no_round_end>
__device__ void for_each_item(const Key* keys, long long lo, long long hi, long long part, long long parts,
                              Visit&& visit, RoundEnd&& round_end = {}) {
  using round_t = vector_round<Key, Threads>;
  for_each_round<Threads>(
      keys, lo, hi, part, parts,
      [&](const round_t& round) {
#pragma unroll
        for (int u = 0; u < round_t::vectors; ++u)
#pragma unroll
          for (int j = 0; j < round_t::keys_per_vector; ++j)
            visit(key_of_vector<Key>(round.loaded[u], j), round.first_key(u) + j, round.is_valid(u));
      },
      visit, round_end);
}

}  // namespace upsweep::detail
