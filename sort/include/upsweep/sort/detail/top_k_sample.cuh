// Top-k's shortcut for small k: a sample spread over the input gives a threshold that about
// k + O(sqrt k) sampled-out items pass, so one read of the input keeps only the items at or below
// it (in select order) and the radix select runs on those few. Should fewer than k pass (a sample
// that misjudged the data) or too many for the buffer, the select reads the input instead, as
// without the shortcut; the result is the same either way.
#pragma once

#include <upsweep/sort/detail/top_k_kernels.cuh>
#include <upsweep/sort/detail/top_k_queue.cuh>
#include <upsweep/sort/detail/top_k_select.cuh>
#include <upsweep/sort/detail/top_k_warp.cuh>
#include <upsweep/sort/detail/vector_items.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cmath>

namespace upsweep::detail {

// How far down the sample the threshold sits: its rank among `samples` for the k-th of n, with a
// margin of three standard deviations and four more, so that fewer than k items pass only on an
// unlucky (or adversarial) sample.
__host__ __device__ inline long long top_k_sample_rank(long long k, long long num_items, int samples) {
  const double expected = static_cast<double>(k) * samples / static_cast<double>(num_items);
  const double rank = expected + 3.0 * ::sqrt(expected) + 4.0;
  return rank >= samples ? samples : static_cast<long long>(rank) + 1;
}

inline constexpr int top_k_samples = 4096;

// Keys the sample reads: top_k_samples, or every key of a smaller input.
__host__ __device__ constexpr int top_k_sample_count(long long num_items) {
  return num_items < top_k_samples ? static_cast<int>(num_items) : top_k_samples;
}

// Whether the keys expected to pass a threshold of sample rank `rank` (a rank among `samples` of
// num_items keys) leave a quarter of a buffer of `capacity` free: the count's spread.
inline constexpr double top_k_sample_headroom = 0.75;

__host__ __device__ inline bool top_k_sample_fits(long long rank, long long num_items, int samples,
                                                  long long capacity) {
  return static_cast<double>(rank) * static_cast<double>(num_items) / samples <=
         top_k_sample_headroom * static_cast<double>(capacity);
}

// Shared state of block_rank_select.
struct rank_select_storage {
  unsigned counts[256];
  cuda::std::uint64_t prefix;
  unsigned rank;
};

// The `rank`-th smallest (1-based) of `count` select bits in shared memory, 8 bits a pass from the
// top; every thread returns it. Threads: the block size (whole warps).
template <int Threads, class Bits>
__device__ cuda::std::uint64_t block_rank_select(const Bits* bits, int count, unsigned rank, int key_bits,
                                                 rank_select_storage& st) {
  if (threadIdx.x == 0) {
    st.prefix = 0;
    st.rank = rank;
  }
  for (int top = key_bits; top > 0; top -= 8) {
    const int bit = top < 8 ? 0 : top - 8, width = top - bit;
    for (int i = threadIdx.x; i < 256; i += Threads) st.counts[i] = 0;
    __syncthreads();
    const cuda::std::uint64_t prefix = st.prefix;
    for (int first = 0; first < count; first += Threads) {
      const int i = first + static_cast<int>(threadIdx.x);
      const cuda::std::uint64_t b = i < count ? static_cast<cuda::std::uint64_t>(bits[i]) : 0;
      const bool active = i < count && same_above(b, prefix, top);
      count_digit(st.counts, active ? static_cast<unsigned>((b >> bit) & ((1u << width) - 1)) : 0u, active);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
      const rank_digit found = find_rank_digit<256>(st.counts, st.rank);
      __syncwarp();  // every lane has read st.rank
      if (threadIdx.x == 0) {
        st.rank -= static_cast<unsigned>(found.below);
        st.prefix |= static_cast<cuda::std::uint64_t>(found.digit) << bit;
      }
    }
    __syncthreads();
  }
  return st.prefix;
}

// The select bits of `samples` keys, one key a load, spread evenly over keys[0, length).
template <bool Largest, int Threads, int MaxSamples, class Key, class Bits>
__device__ void load_strided_sample_bits(const Key* keys, long long length, int samples, Bits* bits) {
  constexpr int per_thread = (MaxSamples + Threads - 1) / Threads;
  static_assert(MaxSamples <= 65536);
  const long long stride = length / samples;
  // spread < samples <= 2^16: i * spread fits 32 bits, and a 32-bit division costs a fraction of
  // a 64-bit one (four a thread in one block, on the select's critical path).
  const auto spread = static_cast<unsigned>(length % samples);
  Key loaded[per_thread];
#pragma unroll
  for (int j = 0; j < per_thread; ++j) {
    const int i = j * Threads + static_cast<int>(threadIdx.x);
    if (i < samples) loaded[j] = keys[i * stride + static_cast<unsigned>(i) * spread / static_cast<unsigned>(samples)];
  }
#pragma unroll
  for (int j = 0; j < per_thread; ++j) {
    const int i = j * Threads + static_cast<int>(threadIdx.x);
    if (i < samples) bits[i] = static_cast<Bits>(top_k_select_bits<Largest>(loaded[j]));
  }
}

// The select bits of `samples` keys of keys[0, length) into bits[0, samples) (samples <=
// MaxSamples): whole 16-byte vectors spread evenly over the input's aligned body, samples /
// (16 / sizeof(Key)) loads. A key a load costs a memory sector a key: the batched kernel's bf16
// sample took 8.5 us that way, 4.3 with vectors (H200, 2026-11-27). Every load is issued before
// the first store. Inputs too short for the vectors take a key a load.
template <bool Largest, int Threads, int MaxSamples, class Key, class Bits>
__device__ void load_sample_bits(const Key* keys, long long length, int samples, Bits* bits) {
  constexpr int per_vector = 16 / static_cast<int>(sizeof(Key));
  constexpr int per_thread = (MaxSamples / per_vector + Threads - 1) / Threads;
  const auto misalignment = static_cast<long long>(reinterpret_cast<cuda::std::uintptr_t>(keys) % 16);
  const long long skip = (16 - misalignment) % 16 / static_cast<long long>(sizeof(Key));
  const long long vectors = length > skip ? (length - skip) / per_vector : 0;
  const int wanted = samples / per_vector;
  if (samples % per_vector != 0 || vectors < wanted) {
    load_strided_sample_bits<Largest, Threads, MaxSamples>(keys, length, samples, bits);
    return;
  }
  const auto* body = reinterpret_cast<const uint4*>(keys + skip);
  const long long stride = vectors / wanted;
  const auto spread = static_cast<unsigned>(vectors % wanted);  // as above: i * spread fits 32 bits
  uint4 loaded[per_thread];
#pragma unroll
  for (int j = 0; j < per_thread; ++j) {
    const int i = j * Threads + static_cast<int>(threadIdx.x);
    if (i < wanted) loaded[j] = body[i * stride + static_cast<unsigned>(i) * spread / static_cast<unsigned>(wanted)];
  }
#pragma unroll
  for (int j = 0; j < per_thread; ++j) {
    const int i = j * Threads + static_cast<int>(threadIdx.x);
    if (i >= wanted) continue;
#pragma unroll
    for (int v = 0; v < per_vector; ++v)
      bits[i * per_vector + v] = static_cast<Bits>(top_k_select_bits<Largest>(key_of_vector<Key>(loaded[j], v)));
  }
}

// ---- kernels --------------------------------------------------------------------------------
inline constexpr int top_k_sample_threads = 1024;

// One block: starts the select (the first pass counts the first key digit of the input) and
// sets the threshold from the sample, unless the items expected to pass it would fill more
// than three quarters of a candidate buffer (large k).
template <bool Largest, class Key>
__global__ void __launch_bounds__(top_k_sample_threads)
    top_k_sample_kernel(const Key* keys, long long num_items, long long k, long long capacity, int index_bits,
                        top_k_state* st) {
  __shared__ cuda::std::uint64_t bits[top_k_samples];
  __shared__ rank_select_storage select_storage;
  wait_for_previous_grid();
  let_next_grid_launch();
  for (int i = threadIdx.x; i < top_k_digits; i += top_k_sample_threads) st->counts[i] = 0;
  if (threadIdx.x == 0) {
    top_k_pass pass;
    pass.next = next_top_k_digit(pass.digit, radix_traits<Key>::key_bits, index_bits);
    st->passes[0] = pass;
    st->need = k;
    st->finished = 0;
    st->emitted = 0;
    st->kept = 0;
    st->use_threshold = 0;
    st->filtered = 0;
    st->blocks_done = 0;
  }
  // 4096 samples from 4096 keys up, however small the input: its candidates must fit
  // top_k_finish_kernel.
  const int samples = top_k_sample_count(num_items);
  const long long rank = top_k_sample_rank(k, num_items, samples);
  if (!top_k_sample_fits(rank, num_items, samples, capacity)) return;
  load_sample_bits<Largest, top_k_sample_threads, top_k_samples>(keys, num_items, samples, bits);
  __syncthreads();
  const auto threshold = block_rank_select<top_k_sample_threads>(bits, samples, static_cast<unsigned>(rank),
                                                                 radix_traits<Key>::key_bits, select_storage);
  if (threadIdx.x == 0) {
    st->threshold = threshold;
    st->use_threshold = 1;
  }
}

// Bit j set for key j of a 16-byte vector that passes.
template <class Key, class Passes>
__device__ __forceinline__ unsigned passing_keys(const uint4& vector, const Passes& passes) {
  unsigned mask = 0;
#pragma unroll
  for (int j = 0; j < static_cast<int>(16 / sizeof(Key)); ++j)
    mask |= passes(key_of_vector<Key>(vector, j)) ? 1u << j : 0u;
  return mask;
}

// Whether a key passes the sample's threshold: its select bits at or below it, compared in Key's
// width (a 16-bit key costs one compare, not a 64-bit one).
template <bool Largest, class Key>
struct at_or_below_threshold {
  typename radix_traits<Key>::bits_t threshold;
  __device__ __forceinline__ bool operator()(const Key& key) const {
    return radix_traits<Key>::template to_sort_bits<Largest>(key) <= threshold;
  }
  __device__ __forceinline__ bool may_pass(const uint4& vector) const { return passing_keys<Key>(vector, *this) != 0; }
};

// The same test for the largest floats when the threshold key is above +0: the keys that pass
// are those whose bits, read as a signed integer, reach the threshold key's (negative keys and
// -0.0 read as negative; +NaN above every number, as in the radix order). No reordering of bits.
template <class Key>
struct at_or_above_positive_key {
  using signed_t = cuda::std::make_signed_t<typename radix_traits<Key>::bits_t>;
  signed_t lowest;
  __device__ __forceinline__ bool operator()(const Key& key) const {
    return static_cast<signed_t>(radix_traits<Key>::to_bits(key)) >= lowest;
  }
  // Whether any key of the vector may pass: the largest of its keys, taken two 16-bit lanes at a
  // time for 2-byte keys (three max.s16x2), against the lowest passing key.
  __device__ __forceinline__ bool may_pass(const uint4& vector) const {
    if constexpr (sizeof(Key) == 2) {
      const int top = static_cast<int>(__vmaxs2(__vmaxs2(vector.x, vector.y), __vmaxs2(vector.z, vector.w)));
      const int bar = static_cast<int>(static_cast<unsigned>(static_cast<unsigned short>(lowest)) << 16);
      return top >= bar || static_cast<int>(static_cast<unsigned>(top) << 16) >= bar;  // upper, lower key
    } else {
      static_assert(sizeof(Key) == 4, "2- and 4-byte floats");
      const auto as_int = [](unsigned word) { return static_cast<int>(word); };
      return max(max(as_int(vector.x), as_int(vector.y)), max(as_int(vector.z), as_int(vector.w))) >= lowest;
    }
  }
};

// Calls keep(key, position) for the keys of [lo, hi) falling to `part` of `parts` blocks (as
// for_each_round) whose select bits are at or below `threshold`. Few keys pass, so a vector is
// tested first (for the largest floats by its largest key alone, otherwise key by key), and only
// a vector that may hold a passing key finds which, then visits them in one loop: keep is
// inlined once a vector, not once a key. Once a key, its copies overflowed the instruction cache
// (bf16: half of all stall cycles waiting for instructions, 11 instructions a key; ncu, H200,
// 2026-11-27).
template <bool Largest, int Threads, int Vectors = 4, class Key, class Keep, class RoundEnd = no_round_end>
__device__ void for_each_passing_key(const Key* keys, long long lo, long long hi, long long part, long long parts,
                                     cuda::std::uint64_t threshold, Keep&& keep, RoundEnd&& round_end = {}) {
  using traits = radix_traits<Key>;
  using bits_t = typename traits::bits_t;
  using round_t = vector_round<Key, Threads, Vectors>;
  const auto narrow = static_cast<bits_t>(threshold);
  const auto visit_with = [&](const auto& passes) {
    for_each_round<Threads, Vectors>(
        keys, lo, hi, part, parts,
        [&](const round_t& round) {
#pragma unroll
          for (int u = 0; u < round_t::vectors; ++u) {
            if (!round.is_valid(u) || !passes.may_pass(round.loaded[u])) continue;
            for (unsigned mask = passing_keys<Key>(round.loaded[u], passes); mask != 0; mask &= mask - 1) {
              const int j = __ffs(static_cast<int>(mask)) - 1;
              keep(key_of_vector_at<Key>(round.loaded[u], j), round.first_key(u) + j);
            }
          }
        },
        [&](const Key& key, long long at, bool valid) {
          if (valid && passes(key)) keep(key, at);
        },
        round_end);
  };
  if constexpr (Largest && traits::kind == key_kind::floating_point && sizeof(Key) <= 4) {
    const auto lowest_ordered = static_cast<bits_t>(~narrow);  // the threshold key's ordered bits
    if (lowest_ordered > traits::sign_bit) {
      using signed_t = typename at_or_above_positive_key<Key>::signed_t;
      visit_with(at_or_above_positive_key<Key>{static_cast<signed_t>(lowest_ordered ^ traits::sign_bit)});
      return;
    }
  }
  visit_with(at_or_below_threshold<Largest, Key>{narrow});
}

// One read of the input: the items at or below the threshold go to candidate buffer 0 while it
// has room (all are counted), and their first key digit is counted as the select's first pass
// would. The last block then plans that pass's successor from buffer 0 when it holds at least k
// items and all that passed; otherwise the select starts from the input, as without a threshold.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
__global__ void __launch_bounds__(top_k_split_threads, top_k_split_min_blocks)
    top_k_filter_kernel(top_k_buffers<Key, Index, ValueIn, Value> io, long long num_items, long long k,
                        long long capacity, int index_bits, top_k_state* st) {
  wait_for_previous_grid();
  let_next_grid_launch();
  if (!st->use_threshold) return;
  __shared__ candidate_queue<Key, Index, 1024> queue;
  __shared__ unsigned counts[top_k_digits];
  constexpr int key_bits = radix_traits<Key>::key_bits;
  for (int i = threadIdx.x; i < top_k_digits; i += top_k_split_threads) counts[i] = 0;
  if (threadIdx.x == 0) queue.count = 0;
  __syncthreads();
  using traits = radix_traits<Key>;
  const top_k_digit first_digit = next_top_k_digit(top_k_digit{}, key_bits, index_bits);
  const candidate_sink<Key, Index> sink{io.candidate_keys[0], io.candidate_indices[0], &st->filtered, capacity};
  for_each_passing_key<Largest, top_k_split_threads>(
      io.keys_in, 0, num_items, blockIdx.x, gridDim.x, st->threshold,
      [&](const Key& key, long long at) {
        atomicAdd(&counts[top_k_digit_of(first_digit, traits::template to_sort_bits<Largest>(key), 0)], 1u);
        push_candidate(queue, sink, key, static_cast<Index>(at));
      },
      [&] { flush_candidates(queue, queue.capacity / 2, sink); });
  flush_candidates(queue, 1, sink);
  for (int i = threadIdx.x; i < top_k_digits; i += top_k_split_threads)
    if (counts[i] != 0) atomicAdd(&st->counts[i], static_cast<unsigned long long>(counts[i]));
  if (!last_block_done(&st->blocks_done, gridDim.x)) return;
  const unsigned long long kept = __ldcg(&st->filtered);
  if (kept < static_cast<unsigned long long>(k) || kept > static_cast<unsigned long long>(capacity)) {
    for (int i = threadIdx.x; i < top_k_digits; i += top_k_split_threads) st->counts[i] = 0;  // counted again
    return;
  }
  // The first pass, done: every item of buffer 0 kept, its first digit counted. Its successor
  // goes to passes[0], where split 0 reads.
  top_k_pass first = st->passes[0];
  first.source = 0;
  first.source_count = static_cast<long long>(kept);
  first.destination = 0;
  choose_next_pass(st, -1, first, capacity, key_bits, index_bits);
}

}  // namespace upsweep::detail
