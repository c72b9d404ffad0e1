// Segmented sort, first kernel: every segment is read once here. Segments of up to
// segment_warp_items items are sorted on the spot, one warp each; larger ones are appended to the
// list of the block kernel that takes their size (segmented_sort_blocks.cuh).
#pragma once

#include <upsweep/sort/detail/radix_sort_kernels.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cuda/std/type_traits>

namespace upsweep::detail {

// The buffers of a segmented sort; the alternates (n items, temporary storage) serve segments
// that take more than one tile.
template <class Key, class Value>
struct segmented_io {
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in;
  Value* values_out;
  Key* keys_alt;
  Value* values_alt;
};

// p + offset, or null for the absent values of a keys-only sort.
template <class T>
__device__ __forceinline__ T* at_offset(T* p, long long offset) {
  return p == nullptr ? p : p + offset;
}

inline constexpr int segment_warp_items = 128;  // the largest segment one warp sorts
inline constexpr int segment_warp_block_threads = 256;
inline constexpr int segment_small_tile_items = 1024;  // segmented_small_tile_policy's tile
inline constexpr int segment_large_tile_items = 4096;  // segmented_large_tile_policy's tile

// Who sorts a segment of `size` items. The last three each have a list of segment ids.
enum segment_tier : int { tier_copy = 0, tier_warp = 1, tier_small_tile = 2, tier_large_tile = 3, tier_passes = 4 };
inline constexpr int first_listed_tier = tier_small_tile;
inline constexpr int listed_tiers = 3;

__host__ __device__ constexpr int segment_tier_of(long long size) {
  return size <= 1                          ? tier_copy
         : size <= segment_warp_items       ? tier_warp
         : size <= segment_small_tile_items ? tier_small_tile
         : size <= segment_large_tile_items ? tier_large_tile
                                            : tier_passes;
}

// List t holds counts[t] segment ids at ids + t * capacity.
struct segment_lists {
  unsigned* counts;
  unsigned* ids;
  long long capacity;
};

// Each lane's segment goes to the list of its tier: one atomic per tier and warp.
__device__ __forceinline__ void append_to_lists(const segment_lists& lists, int tier, long long segment) {
  const unsigned lanes_before = (1u << lane_id()) - 1;
#pragma unroll
  for (int t = first_listed_tier; t < first_listed_tier + listed_tiers; ++t) {
    const unsigned members = __ballot_sync(full_warp_mask, tier == t);
    if (members == 0) continue;
    const int leader = __ffs(members) - 1;
    unsigned base = 0;
    if (static_cast<int>(lane_id()) == leader)
      base = atomicAdd(lists.counts + (t - first_listed_tier), __popc(members));
    base = __shfl_sync(full_warp_mask, base, leader);
    if (tier == t)
      lists.ids[(t - first_listed_tier) * lists.capacity + base + __popc(members & lanes_before)] =
          static_cast<unsigned>(segment);
  }
}

// A warp holds item i of a segment in register i / 32 of lane i % 32. Its window bits are staged
// as words of at least 32 bits, so that four are one 16-byte shared load.
template <class Key>
using warp_word_t =
    cuda::std::conditional_t<(sizeof(typename radix_traits<Key>::bits_t) <= 4), unsigned, unsigned long long>;

// Words j .. j + 3 of a warp's staging (j a multiple of 4) in 16-byte shared loads.
__device__ __forceinline__ void load_four_words(const unsigned* at, unsigned (&words)[4]) {
  const uint4 v = *reinterpret_cast<const uint4*>(at);
  words[0] = v.x, words[1] = v.y, words[2] = v.z, words[3] = v.w;
}
__device__ __forceinline__ void load_four_words(const unsigned long long* at, unsigned long long (&words)[4]) {
  const ulonglong2 low = reinterpret_cast<const ulonglong2*>(at)[0], high = reinterpret_cast<const ulonglong2*>(at)[1];
  words[0] = low.x, words[1] = low.y, words[2] = high.x, words[3] = high.y;
}

// count += (a < b), or (a <= b) when OrEqual: a compare and a predicated add. From the C++ form
// nvcc 13 made three instructions (an add, then a predicated move), sm_90; this is most of a small
// segment's work.
template <bool OrEqual>
__device__ __forceinline__ void count_if_before(int& count, unsigned a, unsigned b) {
  if constexpr (OrEqual)
    asm("{\n\t.reg .pred p;\n\tsetp.le.u32 p, %1, %2;\n\t@p add.s32 %0, %0, 1;\n\t}" : "+r"(count) : "r"(a), "r"(b));
  else
    asm("{\n\t.reg .pred p;\n\tsetp.lt.u32 p, %1, %2;\n\t@p add.s32 %0, %0, 1;\n\t}" : "+r"(count) : "r"(a), "r"(b));
}
template <bool OrEqual>
__device__ __forceinline__ void count_if_before(int& count, unsigned long long a, unsigned long long b) {
  if constexpr (OrEqual)
    asm("{\n\t.reg .pred p;\n\tsetp.le.u64 p, %1, %2;\n\t@p add.s32 %0, %0, 1;\n\t}" : "+r"(count) : "l"(a), "l"(b));
  else
    asm("{\n\t.reg .pred p;\n\tsetp.lt.u64 p, %1, %2;\n\t@p add.s32 %0, %0, 1;\n\t}" : "+r"(count) : "l"(a), "l"(b));
}

// Adds, for each register i, the words of [first, last) (items of register Region) that sort
// before the thread's item: smaller ones, and equal ones from an earlier register (i > Region).
// `last` - `first` is a multiple of 4 but the segment's end, where the staging is padded with
// all-ones words: compared with <, padding never counts, and registers past Region have none.
template <int Region, int IPT, class Word>
__device__ __forceinline__ void count_region(const Word* staged, int first, int last, const Word (&mine)[IPT],
                                             int (&place)[IPT]) {
  for (int j = first; j < last; j += 4) {
    Word other[4];
    load_four_words(staged + j, other);
#pragma unroll
    for (int u = 0; u < 4; ++u)
#pragma unroll
      for (int i = 0; i < IPT; ++i) {
        if (i > Region)
          count_if_before<true>(place[i], other[u], mine[i]);  // folded once unrolled
        else
          count_if_before<false>(place[i], other[u], mine[i]);
      }
  }
}

template <int Region, int IPT, class Word>
__device__ __forceinline__ void count_regions(const Word* staged, int size, const Word (&mine)[IPT],
                                              int (&place)[IPT]) {
  if constexpr (Region < IPT) {
    const int first = Region * warp_threads;
    if (first >= size) return;
    count_region<Region>(staged, first, first + warp_threads < size ? first + warp_threads : size, mine, place);
    count_regions<Region + 1>(staged, size, mine, place);
  }
}

// One warp sorts `size` (2 .. 32 x IPT) items at `first`: an item's place is the number of items
// whose window bits are smaller, or equal and earlier (stable). Earlier equal items in other
// registers are counted by count_regions, in its own register by a match over the warp.
// `staged`: the warp's segment_warp_items words. Every input is read before anything is
// written, so in place is fine.
template <int IPT, bool Descending, class Key, class Value>
__device__ __forceinline__ void sort_segment_in_warp(const segmented_io<Key, Value>& io, long long first, int size,
                                                     int begin_bit, int end_bit, warp_word_t<Key>* staged) {
  using word_t = warp_word_t<Key>;
  constexpr bool has_values = has_values_v<Value>;
  const int lane = static_cast<int>(lane_id());
  const unsigned lanes_below = (1u << lane) - 1;
  Key keys[IPT];
  Value values[has_values ? IPT : 1];
  word_t mine[IPT];
  int place[IPT];
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int item = i * warp_threads + lane;
    mine[i] = ~word_t{0};
    if (item < size) {
      keys[i] = io.keys_in[first + item];
      if constexpr (has_values) values[i] = io.values_in[first + item];
      mine[i] = static_cast<word_t>(radix_window<Descending>(keys[i], begin_bit, end_bit));
    }
    if (item < ((size + 3) & ~3)) staged[item] = mine[i];
    // Lanes past the segment hold all-ones words, but only lower lanes count.
    place[i] = __popc(__match_any_sync(full_warp_mask, mine[i]) & lanes_below);
  }
  __syncwarp();
  count_regions<0>(staged, size, mine, place);
  __syncwarp();  // the staged words are free for the next segment
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    if (i * warp_threads + lane < size) {
      io.keys_out[first + place[i]] = keys[i];
      if constexpr (has_values) io.values_out[first + place[i]] = values[i];
    }
  }
}

// Warps take 32 consecutive segments at a time, a lane each: the lane reads its offsets, copies a
// one-item segment, lists a large one; then the warp sorts the group's small ones in turn.
// Offsets with end <= begin make an empty segment.
template <bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets>
__global__ void __launch_bounds__(segment_warp_block_threads)
    segmented_warp_sort_kernel(segmented_io<Key, Value> io, long long num_segments, BeginOffsets begin_offsets,
                               EndOffsets end_offsets, segment_lists lists, int begin_bit, int end_bit) {
  using word_t = warp_word_t<Key>;
  constexpr int warps = segment_warp_block_threads / warp_threads;
  __shared__ alignas(16) word_t staged[warps][segment_warp_items];
  wait_for_previous_grid();
  let_next_grid_launch();
  const long long groups = (num_segments + warp_threads - 1) / warp_threads;
  const long long warp_stride = static_cast<long long>(gridDim.x) * warps;
  for (long long group = static_cast<long long>(blockIdx.x) * warps + warp_id(); group < groups; group += warp_stride) {
    const long long segment = group * warp_threads + lane_id();
    long long first = 0, size = 0;
    if (segment < num_segments) {
      first = static_cast<long long>(begin_offsets[segment]);
      const auto last = static_cast<long long>(end_offsets[segment]);
      size = last > first ? last - first : 0;
    }
    const int tier = segment_tier_of(size);
    append_to_lists(lists, tier, segment);
    if (size == 1) {
      io.keys_out[first] = io.keys_in[first];
      if constexpr (has_values_v<Value>) io.values_out[first] = io.values_in[first];
    }
    for (unsigned pending = __ballot_sync(full_warp_mask, tier == tier_warp); pending != 0; pending &= pending - 1) {
      const int owner = __ffs(pending) - 1;
      const long long owner_first = __shfl_sync(full_warp_mask, first, owner);
      const int owner_size = __shfl_sync(full_warp_mask, static_cast<int>(size), owner);
      word_t* const own_staging = staged[warp_id()];
      if (owner_size <= warp_threads)
        sort_segment_in_warp<1, Descending>(io, owner_first, owner_size, begin_bit, end_bit, own_staging);
      else if (owner_size <= 2 * warp_threads)
        sort_segment_in_warp<2, Descending>(io, owner_first, owner_size, begin_bit, end_bit, own_staging);
      else
        sort_segment_in_warp<4, Descending>(io, owner_first, owner_size, begin_bit, end_bit, own_staging);
    }
  }
}

}  // namespace upsweep::detail
