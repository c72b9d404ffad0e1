// Segmented sort, a segment of up to one tile by its top digit: the block ranks the keys by the
// highest 8-bit digit of the window in which they differ (one ranking, as a pass ranks a tile),
// then places each key within its digit's bucket by counting the bucket's keys that go before it.
// Random keys leave a handful a bucket, so one ranking and a few compares a key replace a ranking
// per digit (four for 32-bit keys). Keys of up to 32 bits are counted in digit order, so that a
// warp's lanes share their buckets (store_by_buckets); wider ones each from its own slot
// (place_in_bucket). A tile whose largest bucket holds more than top_digit_bucket_limit keys
// sorts digit by digit instead, from the same registers.
#pragma once

#include <upsweep/sort/detail/radix_single_tile_kernel.cuh>
#include <upsweep/sort/detail/segmented_sort_warp.cuh>

namespace upsweep::detail {

// The most keys a bucket may hold: a key compares with each of its bucket's others, where the
// digit passes would rank it once a digit of the window. Eight times a random tile's mean bucket,
// and at most 48 compares for each of the window's digits past the first.
template <class Policy>
__device__ __forceinline__ unsigned top_digit_bucket_limit(int begin_bit, int end_bit) {
  const int digits_below = (end_bit - begin_bit + radix_bits - 1) / radix_bits - 1;
  const unsigned by_tile = 8u * Policy::tile_items / radix_digits;
  return min(by_tile, 48u * static_cast<unsigned>(digits_below));
}

// Keys of up to 32 bits (windows of 32 bits at most) go to their buckets as 64-bit words, the
// window above the key's place in digit order: no two are equal, and their order is the stable
// sort's, so a key's place in its bucket is the count of smaller words, read in one loop by the
// lanes of a few adjacent buckets.
template <class Key>
inline constexpr bool packs_digit_place_v = sizeof(warp_word_t<Key>) == 4;

template <class Key>
using bucket_word_t = cuda::std::conditional_t<packs_digit_place_v<Key>, unsigned long long, warp_word_t<Key>>;

// Words past the tile's last (count_smaller_words reads up to three): above every packed word.
inline constexpr int bucket_end_markers = 4;

template <class Policy, class Key, class Value>
struct top_digit_storage {
  using word_t = warp_word_t<Key>;
  static constexpr int warps = Policy::block_threads / warp_threads;
  radix_pass_storage<Policy, Key, Value> pass;  // the ranking; the sorted tile leaves through its exchanges
  bucket_word_t<Key> words[Policy::tile_items + bucket_end_markers];  // in the digit's order
  unsigned bucket_first[radix_digits + 1];      // each digit's first place; the last: the tile's keys
  word_t warp_any[warps];
  word_t warp_all[warps];
  unsigned warp_largest[warps];
};

// Values that pass through the keys' exchange (no exchange of their own) keep the digit passes.
template <class Policy, class Key, class Value>
inline constexpr bool sorts_by_top_digit_v =
    !has_values_v<Value> || radix_pass_storage<Policy, Key, Value>::separate_values;

// A tile tier's shared storage.
template <class Policy, class Key, class Value>
using segment_tile_storage = cuda::std::conditional_t<sorts_by_top_digit_v<Policy, Key, Value>,
                                                      top_digit_storage<Policy, Key, Value>,
                                                      radix_pass_storage<Policy, Key, Value>>;

// A word of 32 or 64 bits reduced over the warp by `reduce`, a 32-bit warp reduction.
template <class Word, class Reduce>
__device__ __forceinline__ Word reduce_over_warp(Word w, Reduce&& reduce) {
  if constexpr (sizeof(Word) == 4) return reduce(w);
  else return static_cast<Word>(reduce(static_cast<unsigned>(w >> 32))) << 32 | reduce(static_cast<unsigned>(w));
}

template <class Word>
__device__ __forceinline__ int highest_bit(Word w) {
  if constexpr (sizeof(Word) == 4) return 31 - __clz(w);
  else return 63 - __clzll(static_cast<long long>(w));
}

// The window bits in which the tile's keys differ. Ends on a barrier.
template <class Policy, bool Descending, class Key, class Storage>
__device__ __forceinline__ typename Storage::word_t differing_window_bits(const Key (&keys)[Policy::items_per_thread],
                                                                          int valid, int begin_bit, int end_bit,
                                                                          Storage& s) {
  using word_t = typename Storage::word_t;
  word_t any = 0, all = ~word_t{0};
#pragma unroll
  for (int i = 0; i < Policy::items_per_thread; ++i) {
    if (striped_slot<Policy::items_per_thread>(i) >= valid) continue;
    const auto word = static_cast<word_t>(radix_window<Descending>(keys[i], begin_bit, end_bit));
    any |= word;
    all &= word;
  }
  any = reduce_over_warp(any, [](unsigned v) { return __reduce_or_sync(full_warp_mask, v); });
  all = reduce_over_warp(all, [](unsigned v) { return __reduce_and_sync(full_warp_mask, v); });
  if (lane_id() == 0) {
    s.warp_any[warp_id()] = any;
    s.warp_all[warp_id()] = all;
  }
  __syncthreads();
  any = 0;
  all = ~word_t{0};
#pragma unroll
  for (int w = 0; w < Storage::warps; ++w) {
    any |= s.warp_any[w];
    all &= s.warp_all[w];
  }
  return any ^ all;
}

// Thread d < radix_digits records digit d's first place (and the tile's key count past the last);
// returns the largest digit's keys over the block. Ends on a barrier.
template <class Policy, class Storage>
__device__ __forceinline__ unsigned record_buckets(int valid, Storage& s) {
  const unsigned count = count_digit_in_tile<Policy>(valid, s.pass);
  const unsigned first = place_digit_in_tile<Policy>(count, s.pass);
  if (threadIdx.x < radix_digits) s.bucket_first[threadIdx.x] = first;
  if (threadIdx.x == 0) s.bucket_first[radix_digits] = static_cast<unsigned>(valid);
  const unsigned largest = __reduce_max_sync(full_warp_mask, count);
  if (lane_id() == 0) s.warp_largest[warp_id()] = largest;
  __syncthreads();  // every warp's first slots, the buckets and the largest counts are in
  unsigned tile_largest = 0;
#pragma unroll
  for (int w = 0; w < Storage::warps; ++w) tile_largest = max(tile_largest, s.warp_largest[w]);
  return tile_largest;
}

// A key's place in the tile: its bucket's first place plus the bucket's keys that go before it,
// smaller windows and equal ones at earlier places (stable).
template <class Word>
__device__ __forceinline__ unsigned place_in_bucket(const Word* words, unsigned first, unsigned end,
                                                    unsigned digit_place, Word word) {
  int before = 0;
  // A bucket holds a few keys. Plain pointer loops take six instructions a word; nvcc's unrolled
  // forms (by 4 and 8, with remainders) and the indexed form (nine) cost more (H200, 1000 rows of
  // 1000 pairs: unrolled 0.0207 ms, indexed 0.0199).
#pragma unroll 1
  for (const Word* w = words + first; w < words + digit_place; ++w) count_if_before<true>(before, *w, word);
#pragma unroll 1
  for (const Word* w = words + digit_place + 1; w < words + end; ++w) count_if_before<false>(before, *w, word);
  return first + static_cast<unsigned>(before);
}

// The words of [first, end) below `mine`, four a step: past `end` lie larger digits' words or
// the end markers, so reading on to a multiple of four counts nothing more.
__device__ __forceinline__ unsigned count_smaller_words(const unsigned long long* first,
                                                        const unsigned long long* end, unsigned long long mine) {
  int count = 0;
#pragma unroll 1
  for (const unsigned long long* w = first; w < end; w += 4) {
    count_if_before<false>(count, w[0], mine);
    count_if_before<false>(count, w[1], mine);
    count_if_before<false>(count, w[2], mine);
    count_if_before<false>(count, w[3], mine);
  }
  return static_cast<unsigned>(count);
}

// The tile in digit order (places[i]: item i's place there) to its sorted places in global
// memory, for keys of up to 32 bits. Staged in digit order, the lanes of a warp take adjacent
// places, so they loop over the words of the same few buckets, which shared memory broadcasts. Integer
// keys sorted by every bit come back from their words; others are staged too, in the exchange,
// once the counters that share its bytes are read (a barrier more). Values have their own
// staging here (sorts_by_top_digit_v). keys_staged() runs once the keys are no longer needed.
template <class Policy, bool Descending, class Key, class Value, class Storage, class KeysStaged>
__device__ __forceinline__ void store_by_buckets(const Key (&keys)[Policy::items_per_thread],
                                                 const Value (&values)[has_values_v<Value> ? Policy::items_per_thread
                                                                                           : 1],
                                                 const unsigned (&places)[Policy::items_per_thread], Key* d_keys_out,
                                                 Value* d_values_out, int valid, int begin_bit, int end_bit,
                                                 int digit_shift, Storage& s, KeysStaged&& keys_staged) {
  constexpr int ipt = Policy::items_per_thread;
  using traits = radix_traits<Key>;
  const bool keys_from_words =
      traits::kind != key_kind::floating_point && begin_bit == 0 && end_bit == traits::key_bits;
  Key* staged_keys = reinterpret_cast<Key*>(s.pass.exchange);
  Value* staged_values = reinterpret_cast<Value*>(value_staging(s.pass));
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    if (striped_slot<ipt>(i) >= valid) continue;
    const auto window = static_cast<unsigned>(radix_window<Descending>(keys[i], begin_bit, end_bit));
    s.words[places[i]] = static_cast<unsigned long long>(window) << 32 | places[i];
    if constexpr (has_values_v<Value>) staged_values[places[i]] = values[i];
  }
  if (threadIdx.x < bucket_end_markers) s.words[valid + threadIdx.x] = ~0ull;
  if (!keys_from_words) {
    __syncthreads();  // the counters are read, and the exchange is free
#pragma unroll
    for (int i = 0; i < ipt; ++i)
      if (striped_slot<ipt>(i) < valid) staged_keys[places[i]] = keys[i];
  }
  keys_staged();  // the keys' registers are free
  __syncthreads();  // the tile and its words are in digit order
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    const int at = striped_slot<ipt>(i);
    if (at >= valid) continue;
    const unsigned long long mine = s.words[at];
    const unsigned digit = static_cast<unsigned>(mine >> (32 + digit_shift)) & (radix_digits - 1);
    const unsigned first = s.bucket_first[digit];
    const unsigned place = first + count_smaller_words(s.words + first, s.words + s.bucket_first[digit + 1], mine);
    const auto window = static_cast<unsigned>(mine >> 32);
    d_keys_out[place] = keys_from_words ? traits::template from_sort_bits<Descending>(window) : staged_keys[at];
    if constexpr (has_values_v<Value>) d_values_out[place] = staged_values[at];
  }
}

template <class Policy, class Key, class Value>
__device__ __forceinline__ void store_striped_tile(Key* d_keys_out, Value* d_values_out, int valid,
                                                   const Key (&keys)[Policy::items_per_thread],
                                                   const Value (&values)[has_values_v<Value> ? Policy::items_per_thread
                                                                                             : 1]) {
  store_striped(d_keys_out, valid, keys);
  if constexpr (has_values_v<Value>) store_striped(d_values_out, valid, values);
}

// The keys of the block's next tile (none: d_keys null), loaded into the current tile's key
// registers as soon as they are free: before the in-bucket counts and stores where keys go by
// their buckets, else after the tile's stores, so that the load overlaps the next tile's start.
template <class Key>
struct next_tile_keys {
  const Key* d_keys = nullptr;
  int valid = 0;
  template <int IPT>
  __device__ __forceinline__ void load_into(Key (&keys)[IPT]) const {
    if (d_keys != nullptr) load_striped<false>(d_keys, valid, keys);
  }
};

// The sort of `valid` keys (at most a tile, already in `keys`) and their values by the calling
// block; `keys` then hold the next tile's. Everything is read before anything is written, so in
// place is fine. The last reads of shared memory are not followed by a barrier: the next
// segment's first barrier comes before any write they could see.
template <class Policy, bool Descending, class Key, class Value, class Storage>
__device__ __forceinline__ void sort_loaded_tile_by_top_digit(Key (&keys)[Policy::items_per_thread],
                                                              const next_tile_keys<Key>& next, Key* d_keys_out,
                                                              const Value* d_values_in, Value* d_values_out, int valid,
                                                              int begin_bit, int end_bit, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  constexpr bool has_values = has_values_v<Value>;
  using word_t = typename Storage::word_t;
  const radix_key_codec<Key> codec{};
  const auto load_next_keys = [&] { next.load_into(keys); };
  Value values[has_values ? ipt : 1];
  if constexpr (has_values) load_striped<false>(d_values_in, valid, values);
  if (threadIdx.x == 0) s.pass.zero = 0;  // read after the next barrier
  const word_t differing = differing_window_bits<Policy, Descending>(keys, valid, begin_bit, end_bit, s);
  if (differing == 0) {  // one window: the input order is sorted
    store_striped_tile<Policy>(d_keys_out, d_values_out, valid, keys, values);
    load_next_keys();
    __syncthreads();  // every warp has read the others' bits before the next segment writes its own
    return;
  }
  const int high = highest_bit(differing);
  const int bit = begin_bit + (high >= radix_bits ? high + 1 - radix_bits : 0);
  const bool in_buckets = bit > begin_bit;  // keys of one digit may still differ below it
  const pass_digits<Descending, false, ipt, radix_key_codec<Key>> digit_of{codec, bit, pass_digit_bits(bit, end_bit),
                                                                          valid};
  unsigned places[ipt];
  rank_within_warp<Policy>(keys, digit_of, places, s.pass);
  __syncthreads();  // every warp's counts are in
  if (in_buckets && record_buckets<Policy>(valid, s) > top_digit_bucket_limit<Policy>(begin_bit, end_bit)) {
    sort_striped_tile<Policy, Descending>(keys, values, valid, begin_bit, end_bit, codec, s.pass);
    store_striped_tile<Policy>(d_keys_out, d_values_out, valid, keys, values);
    load_next_keys();
    return;
  }
  if (!in_buckets) {
    place_digit_in_tile<Policy>(count_digit_in_tile<Policy>(valid, s.pass), s.pass);
    __syncthreads();  // every warp's first slots are in
  }
  rank_within_tile(keys, digit_of, places, s.pass);
  if constexpr (packs_digit_place_v<Key>) {
    if (in_buckets) {
      store_by_buckets<Policy, Descending>(keys, values, places, d_keys_out, d_values_out, valid, begin_bit, end_bit,
                                           bit - begin_bit, s, load_next_keys);
      return;
    }
  }
  // Below, keys of up to 32 bits are in buckets only when their digit covers the window.
  constexpr bool words_in_buckets = !packs_digit_place_v<Key>;
#pragma unroll
  for (int i = 0; i < ipt; ++i)
    if (words_in_buckets && in_buckets && striped_slot<ipt>(i) < valid)
      s.words[places[i]] = static_cast<word_t>(radix_window<Descending>(keys[i], begin_bit, end_bit));
  __syncthreads();  // the words are in digit order; the counters are read, and the exchange is free
  Key* sorted_keys = reinterpret_cast<Key*>(s.pass.exchange);
  Value* sorted_values = reinterpret_cast<Value*>(value_staging(s.pass));
  const pass_digits<Descending, false, ipt, radix_key_codec<Key>> digit_again = digit_of.reread(s.pass.zero);
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    if (striped_slot<ipt>(i) >= valid) continue;
    unsigned place = places[i];
    if constexpr (words_in_buckets) {
      if (in_buckets) {
        const unsigned digit = digit_again(keys[i], i);
        place = place_in_bucket(s.words, s.bucket_first[digit], s.bucket_first[digit + 1], place,
                                static_cast<word_t>(radix_window<Descending>(keys[i], begin_bit, end_bit)));
      }
    }
    sorted_keys[place] = keys[i];
    if constexpr (has_values) sorted_values[place] = values[i];
  }
  __syncthreads();  // the sorted tile is in
  read_staged_striped(s.pass.exchange, valid, keys);
  if constexpr (has_values) read_staged_striped(value_staging(s.pass), valid, values);
  store_striped_tile<Policy>(d_keys_out, d_values_out, valid, keys, values);
  load_next_keys();
}

// A segment of up to one tile: by its top digit when the values allow, else digit by digit.
template <class Policy, bool Descending, class Key, class Value>
__device__ __forceinline__ void sort_segment_tile(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                                                  Value* d_values_out, int valid, int begin_bit, int end_bit,
                                                  segment_tile_storage<Policy, Key, Value>& s) {
  if constexpr (sorts_by_top_digit_v<Policy, Key, Value>) {
    Key keys[Policy::items_per_thread];
    load_striped<false>(d_keys_in, valid, keys);
    sort_loaded_tile_by_top_digit<Policy, Descending>(keys, next_tile_keys<Key>{}, d_keys_out, d_values_in,
                                                      d_values_out, valid, begin_bit, end_bit, s);
  } else {
    sort_tile_in_block<Policy, Descending>(d_keys_in, d_keys_out, d_values_in, d_values_out, valid, begin_bit, end_bit,
                                           radix_key_codec<Key>{}, s);
  }
}

}  // namespace upsweep::detail
